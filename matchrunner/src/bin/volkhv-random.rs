//! `volkhv-random`: a tiny UCI engine that plays a seeded random legal move,
//! so the match runner's tests need no real engine.
//!
//! Options: `UCI_Variant` (chess, plunder, tavreli), `Seed`, and `Delay`
//! (milliseconds to wait before each move, to test clocks). The move is a
//! function of the seed, the game number (counted by `ucinewgame`) and the
//! position, so runs are reproducible.

use matchrunner::openings::seeded;
use movegen::{with_variant, MoveList, Position, Variant};
use std::io::{BufRead, Write};

/// A random legal move string in the position `fen` (or the start) after
/// `moves`; `Err` names a bad FEN or move, `Ok(None)` if there is no move.
fn pick<P: Position>(
    fen: Option<&str>,
    moves: &[&str],
    seed: u64,
) -> Result<Option<String>, String> {
    let mut pos = match fen {
        Some(f) => P::from_fen(f).map_err(|e| e.to_string())?,
        None => P::startpos(),
    };
    for s in moves {
        let m = pos.parse_move(s).map_err(|e| e.to_string())?;
        pos.make(m);
    }
    let mut legal = MoveList::new();
    pos.legal_moves(&mut legal);
    if legal.is_empty() {
        return Ok(None);
    }
    // The ply count keeps a repeated position from repeating the move, or
    // random games would mostly end in repetition cycles.
    let mut rng =
        seeded(seed ^ pos.key() ^ (moves.len() as u64).wrapping_mul(0xD1B5_4A32_D192_ED03));
    Ok(Some(legal[rng.below(legal.len())].to_string()))
}

/// The `UCI_Variant` combo, from the variant registry.
fn variant_option() -> String {
    let names: Vec<String> = Variant::ALL
        .iter()
        .map(|v| format!("var {}", v.name()))
        .collect();
    format!(
        "option name UCI_Variant type combo default {} {}",
        Variant::ALL[0].name(),
        names.join(" ")
    )
}

fn main() {
    // Build movegen's lazy tables now, not inside the first timed `go`.
    movegen::with_variant!(Variant::DEFAULT, P => P::startpos().count_legal());
    let stdin = std::io::stdin();
    let mut out = std::io::stdout();
    let mut variant = Variant::DEFAULT;
    let mut seed = 0u64;
    let mut delay = std::time::Duration::ZERO;
    let mut game = 0u64;
    let mut fen: Option<String> = None;
    let mut moves: Vec<String> = Vec::new();
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        let words: Vec<&str> = line.split_whitespace().collect();
        let reply = match words.first().copied() {
            Some("uci") => format!(
                "id name volkhv-random\nid author Volkhv developers\n\
                 {variants}\n\
                 option name Seed type spin default 0 min 0 max 2147483647\n\
                 option name Delay type spin default 0 min 0 max 100000\nuciok",
                variants = variant_option()
            ),
            Some("isready") => "readyok".to_string(),
            Some("ucinewgame") => {
                game += 1;
                String::new()
            }
            Some("setoption") => {
                // setoption name NAME value VALUE
                let name_at = words.iter().position(|&w| w == "name");
                let value_at = words.iter().position(|&w| w == "value");
                match (name_at, value_at) {
                    (Some(n), Some(v)) if v > n => {
                        let name = words[n + 1..v].join(" ");
                        let value = words[v + 1..].join(" ");
                        match name.as_str() {
                            "UCI_Variant" => match Variant::from_name(&value) {
                                Some(v) => {
                                    variant = v;
                                    String::new()
                                }
                                None => format!("info string error unknown variant {value}"),
                            },
                            "Delay" => match value.parse() {
                                Ok(ms) => {
                                    delay = std::time::Duration::from_millis(ms);
                                    String::new()
                                }
                                Err(_) => format!("info string error bad delay {value}"),
                            },
                            "Seed" => match value.parse() {
                                Ok(s) => {
                                    seed = s;
                                    String::new()
                                }
                                Err(_) => format!("info string error bad seed {value}"),
                            },
                            _ => format!("info string error unknown option {name}"),
                        }
                    }
                    _ => "info string error bad setoption".to_string(),
                }
            }
            Some("position") => {
                let moves_at = words.iter().position(|&w| w == "moves");
                let head = &words[1..moves_at.unwrap_or(words.len())];
                fen = match head.first() {
                    Some(&"fen") => Some(head[1..].join(" ")),
                    _ => None,
                };
                moves = moves_at
                    .map(|i| words[i + 1..].iter().map(|s| (*s).to_string()).collect())
                    .unwrap_or_default();
                String::new()
            }
            Some("go") => {
                // A slow engine on demand, for tests of the runner's clocks.
                std::thread::sleep(delay);
                let ms: Vec<&str> = moves.iter().map(String::as_str).collect();
                let s = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ game;
                match with_variant!(variant, P => pick::<P>(fen.as_deref(), &ms, s)) {
                    Ok(Some(m)) => format!("info depth 1 score cp 0 nodes 1\nbestmove {m}"),
                    Ok(None) => "bestmove (none)".to_string(),
                    Err(e) => format!("info string {e}\nbestmove (none)"),
                }
            }
            Some("quit") => break,
            _ => String::new(),
        };
        if !reply.is_empty() {
            let _ = writeln!(out, "{reply}");
            let _ = out.flush();
        }
    }
}
