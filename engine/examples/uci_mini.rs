//! A minimal UCI front end over the library, for testing the search from
//! scripts before the real shim (`volkhv`) lands: `uci`, `isready`,
//! `ucinewgame`, `setoption name Hash|Threads|MultiPV value N`,
//! `position startpos|fen ... [moves ...]`, `go ...`, `stop`, `ponderhit`, `quit`.

use engine::{Engine, Limits, Score, SearchEvent};
use std::io::{BufRead, Write};
use std::sync::Arc;

fn main() {
    let mut engine = Engine::new();
    let sink: engine::EventSink = Arc::new(|e| {
        let line = match e {
            SearchEvent::Info(i) => {
                let score = match i.score {
                    Score::Cp(c) => format!("cp {c}"),
                    Score::Mate(m) => format!("mate {m}"),
                };
                format!(
                    "info depth {} seldepth {} multipv {} score {} nodes {} nps {} hashfull {} time {} pv {}",
                    i.depth, i.seldepth, i.multipv, score, i.nodes, i.nps, i.hashfull, i.time_ms, i.pv.join(" ")
                )
            }
            SearchEvent::Message(m) => format!("info string {m}"),
            SearchEvent::Report(l) => l,
            SearchEvent::Done { .. } => return,
            SearchEvent::BestMove { best, ponder } => {
                let mut s = format!("bestmove {}", best.unwrap_or_else(|| "(none)".into()));
                if let Some(p) = ponder {
                    s += &format!(" ponder {p}");
                }
                s
            }
        };
        let mut out = std::io::stdout().lock();
        let _ = writeln!(out, "{line}");
        let _ = out.flush();
    });
    for line in std::io::stdin().lock().lines() {
        let Ok(line) = line else { break };
        let t: Vec<&str> = line.split_whitespace().collect();
        match t.first().copied() {
            Some("uci") => println!("id name volkhv-mini\nuciok"),
            Some("isready") => println!("readyok"),
            Some("ucinewgame") => engine.new_game(),
            Some("setoption") => {
                let name = t.get(2).copied().unwrap_or("");
                let value: usize = t.get(4).and_then(|v| v.parse().ok()).unwrap_or(0);
                let mut o = engine.options().clone();
                match name {
                    "Hash" => o.hash_mb = value.max(1),
                    "Threads" => o.threads = value.max(1),
                    "MultiPV" => o.multipv = value.max(1),
                    _ => {}
                }
                if let Err(e) = engine.set_options(o) {
                    println!("info string error {e}");
                }
            }
            Some("position") => {
                let moves_at = t.iter().position(|&x| x == "moves");
                let moves: Vec<&str> = moves_at.map_or(Vec::new(), |i| t[i + 1..].to_vec());
                let fen = if t.get(1) == Some(&"fen") {
                    Some(t[2..moves_at.unwrap_or(t.len())].join(" "))
                } else {
                    None
                };
                if let Err(e) = engine.set_position(fen.as_deref(), &moves) {
                    println!("info string error {e}");
                }
            }
            Some("go") => {
                let mut l = Limits::default();
                let num = |i: usize| t.get(i + 1).and_then(|v| v.parse::<u64>().ok());
                for (i, &w) in t.iter().enumerate() {
                    match w {
                        "wtime" => l.wtime = num(i),
                        "btime" => l.btime = num(i),
                        "winc" => l.winc = num(i),
                        "binc" => l.binc = num(i),
                        "movestogo" => l.movestogo = num(i).map(|v| v as u32),
                        "movetime" => l.movetime = num(i),
                        "depth" => l.depth = num(i).map(|v| v as u32),
                        "nodes" => l.nodes = num(i),
                        "mate" => l.mate = num(i).map(|v| v as u32),
                        "infinite" => l.infinite = true,
                        "ponder" => l.ponder = true,
                        _ => {}
                    }
                }
                engine.go(l, Arc::clone(&sink));
            }
            Some("stop") => engine.stop(),
            Some("ponderhit") => engine.ponderhit(),
            Some("wait") => engine.wait(),
            Some("quit") => break,
            _ => {}
        }
    }
    engine.stop();
    engine.wait();
}
