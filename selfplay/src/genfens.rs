//! `genfens`: random balanced openings for OpenBench's data-generation
//! workloads. OpenBench's client runs the engine as
//!
//! ```text
//! ./volkhv "genfens N seed S book <None|Books/x.epd> <extra>" "quit"
//! ```
//!
//! (the whole request is one argument) and keeps the stdout lines that start
//! with `info string genfens `. Volkhv accepts the request as one argument
//! or as separate words, and the extra words `variant V` (chess, plunder or
//! tavreli) and `plies P` (random plies per opening).
//!
//! Each opening is a start (the variant's start position, or a random line
//! of the book) followed by a few random legal plies; a short search then
//! rejects positions that are over, mated or clearly won for one side. The
//! generator is seeded from `S` alone, so the same request prints the same
//! lines.

use crate::datagen::NodeSearch;
use engine::game::Game;
use engine::limits::Score;
use engine::search::STACK_SIZE;
use eval::Evaluate;
use movegen::{with_variant, MoveList, Position, SplitMix, Variant};
use notation::openings::{parse_openings, Opening};
use std::path::PathBuf;

/// Most openings one request may ask for.
pub const MAX_COUNT: u64 = 10_000_000;
/// Most random plies per opening.
pub const MAX_PLIES: u64 = 40;
/// Nodes of the balance check's search.
pub const CHECK_NODES: u64 = 4_000;
/// Largest score (centipawns, either side) an accepted opening may have.
pub const MARGIN_CP: i32 = 150;
/// Candidates tried per opening before the most level one seen is taken,
/// so a book of lopsided positions still yields its `N` lines.
pub const TRIES: usize = 64;
/// Hash table of the balance check (MiB).
const HASH_MB: usize = 8;

/// One `genfens` request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Request {
    /// Openings to print.
    pub count: u64,
    /// The seed.
    pub seed: u64,
    /// EPD/FEN (or move-string) lines to start from, if any.
    pub book: Option<PathBuf>,
    /// The variant.
    pub variant: Variant,
    /// Random plies per opening; `None`: 8 or 9 from the start position,
    /// 2 or 3 after a book line.
    pub plies: Option<u64>,
}

/// The words of a `genfens` request if `args` (the program's arguments)
/// are one: `["genfens N seed S ...", "quit"]` as OpenBench passes them, or
/// `["genfens", "N", "seed", ...]`. A trailing `quit` is dropped.
#[must_use]
pub fn request_words(args: &[String]) -> Option<Vec<String>> {
    let first = args.first()?;
    if first.split_whitespace().next() != Some("genfens") {
        return None;
    }
    let mut words: Vec<String> = args
        .iter()
        .flat_map(|a| a.split_whitespace())
        .skip(1)
        .map(str::to_string)
        .collect();
    if words.last().map(String::as_str) == Some("quit") {
        words.pop();
    }
    Some(words)
}

fn number(what: &str, s: Option<&String>, max: u64) -> Result<u64, String> {
    let s = s.ok_or_else(|| format!("{what}: missing value"))?;
    match s.parse::<u64>() {
        Ok(n) if n <= max => Ok(n),
        _ => Err(format!("{what} {s:?}: expected a whole number 0..={max}")),
    }
}

impl Request {
    /// Parses the words after `genfens`: `N seed S book B [variant V]
    /// [plies P]` (the keys in any order after `N`; `book None` or no book
    /// key means no book).
    ///
    /// # Errors
    /// A one-line reason naming the bad word.
    pub fn parse(words: &[String]) -> Result<Request, String> {
        let count = number("N", words.first(), MAX_COUNT)?;
        let mut req = Request {
            count,
            seed: 0,
            book: None,
            variant: Variant::DEFAULT,
            plies: None,
        };
        let mut seed = None;
        let mut rest = words[1..].iter();
        while let Some(key) = rest.next() {
            let value = rest.next();
            match key.as_str() {
                "seed" => seed = Some(number("seed", value, u64::MAX)?),
                "book" => {
                    let b = value.ok_or("book: missing value (a file or None)")?;
                    req.book = (!b.eq_ignore_ascii_case("none")).then(|| PathBuf::from(b));
                }
                "variant" => {
                    let v = value.ok_or("variant: missing value")?;
                    req.variant = Variant::from_name(v)
                        .ok_or_else(|| format!("variant {v:?}: expected {}", Variant::list()))?;
                }
                "plies" => req.plies = Some(number("plies", value, MAX_PLIES)?),
                other => {
                    return Err(format!(
                        "unknown word {other:?} (expected seed, book, variant, plies)"
                    ))
                }
            }
        }
        req.seed = seed.ok_or("missing seed S")?;
        Ok(req)
    }
}

/// `genfens` with the words after it: parses the request, reads the book
/// and hands each line to `emit`.
///
/// # Errors
/// A one-line reason: a bad word, an unreadable book, a bad book line.
pub fn run(words: &[String], emit: &mut (dyn FnMut(String) + Send)) -> Result<(), String> {
    let req = Request::parse(words)?;
    let book = match &req.book {
        None => None,
        Some(p) => {
            Some(std::fs::read_to_string(p).map_err(|e| format!("book {}: {e}", p.display()))?)
        }
    };
    generate(&req, book.as_deref(), emit)
}

/// Prints (through `emit`) `req.count` lines `info string genfens <FEN>`;
/// `book_text` is the book file's content when the request names one.
/// Runs on a thread with the search's stack size.
///
/// # Errors
/// A reason if the book has a bad line or no opening.
pub fn generate(
    req: &Request,
    book_text: Option<&str>,
    emit: &mut (dyn FnMut(String) + Send),
) -> Result<(), String> {
    with_variant!(req.variant, P => generate_for::<P>(req, book_text, emit))
}

fn generate_for<P: Position + Evaluate>(
    req: &Request,
    book_text: Option<&str>,
    emit: &mut (dyn FnMut(String) + Send),
) -> Result<(), String> {
    let book = match book_text {
        Some(text) => parse_openings::<P>(text).map_err(|e| format!("book: {e}"))?,
        None => Vec::new(),
    };
    let starts: Vec<Game<P>> = book.iter().map(start_game::<P>).collect::<Result<_, _>>()?;
    let req = req.clone();
    std::thread::scope(|s| {
        std::thread::Builder::new()
            .name("genfens".into())
            .stack_size(STACK_SIZE)
            .spawn_scoped(s, move || {
                let mut maker = Maker::<P>::new(&req, starts);
                for _ in 0..req.count {
                    emit(format!(
                        "info string genfens {}",
                        maker.next().position().fen()
                    ));
                }
            })
            .map(|h| {
                h.join()
                    .map_err(|_| "genfens: the search panicked".to_string())
            })
            .map_err(|e| format!("genfens: cannot start the search thread: {e}"))?
    })
}

/// A book line as a game (its moves are history, for repetitions).
fn start_game<P: Position + Evaluate>(o: &Opening) -> Result<Game<P>, String> {
    let mut g = Game::<P>::new(o.fen.as_deref()).map_err(|e| format!("book: {e}"))?;
    for m in &o.moves {
        g.play(m).map_err(|e| format!("book: move {m}: {e}"))?;
    }
    Ok(g)
}

/// The generator's state: the seeded numbers, the starts and the search.
struct Maker<P: Position + Evaluate> {
    rng: SplitMix,
    starts: Vec<Game<P>>,
    plies: Option<u64>,
    search: NodeSearch,
}

impl<P: Position + Evaluate> Maker<P> {
    fn new(req: &Request, starts: Vec<Game<P>>) -> Maker<P> {
        Maker {
            rng: SplitMix::new(req.seed ^ 0x6765_6E66_656E_7321),
            starts,
            plies: req.plies,
            search: NodeSearch::new(CHECK_NODES, HASH_MB),
        }
    }

    /// The next opening: the first candidate within [`MARGIN_CP`], or the
    /// most level of [`TRIES`] candidates.
    fn next(&mut self) -> Game<P> {
        let mut best: Option<(i32, Game<P>)> = None;
        for _ in 0..TRIES {
            let Some(game) = self.candidate() else {
                continue;
            };
            let Some(imbalance) = self.imbalance(&game) else {
                continue;
            };
            if imbalance <= MARGIN_CP {
                return game;
            }
            if best.as_ref().is_none_or(|(b, _)| imbalance < *b) {
                best = Some((imbalance, game));
            }
        }
        // Every candidate ended or was mated: the start itself is the
        // fallback (a book line, or the start position).
        best.map_or_else(|| self.start(), |(_, g)| g)
    }

    fn start(&mut self) -> Game<P> {
        if self.starts.is_empty() {
            Game::from_start(P::startpos())
        } else {
            let i = self.rng.below(self.starts.len());
            self.starts[i].clone()
        }
    }

    /// A start plus random plies; `None` if the game ended on the way.
    fn candidate(&mut self) -> Option<Game<P>> {
        let from_book = !self.starts.is_empty();
        let mut game = self.start();
        let plies = self.plies.unwrap_or_else(|| {
            let base = if from_book { 2 } else { 8 };
            base + self.rng.next_u64() % 2
        });
        let mut list = MoveList::new();
        for _ in 0..plies {
            list.clear();
            game.position().legal_moves(&mut list);
            if list.is_empty() {
                return None;
            }
            game.play_move(list[self.rng.below(list.len())]);
        }
        game.status().is_none().then_some(game)
    }

    /// How far from level the search finds `game` (centipawns, either
    /// side); `None` for a mate score or no move.
    fn imbalance(&mut self, game: &Game<P>) -> Option<i32> {
        // A fresh table each time: the score depends on the position only.
        self.search.clear();
        match self.search.best(game)? {
            (_, Some(Score::Cp(cp))) => Some(cp.saturating_abs()),
            (_, Some(Score::Mate(_)) | None) => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &str) -> Vec<String> {
        s.split_whitespace().map(str::to_string).collect()
    }

    fn run(req: &Request, book: Option<&str>) -> Result<Vec<String>, String> {
        let mut lines = Vec::new();
        generate(req, book, &mut |l| lines.push(l))?;
        Ok(lines)
    }

    #[test]
    fn openbench_argument_forms() {
        let one = vec![
            "genfens 4 seed 7 book None ".to_string(),
            "quit".to_string(),
        ];
        assert_eq!(request_words(&one), Some(words("4 seed 7 book None")));
        let split = words("genfens 4 seed 7 book None variant plunder");
        assert_eq!(
            request_words(&split),
            Some(words("4 seed 7 book None variant plunder"))
        );
        assert_eq!(request_words(&words("bench 3")), None);
        assert_eq!(request_words(&[]), None);
    }

    #[test]
    fn requests_parse_and_bad_ones_have_reasons() {
        let r = Request::parse(&words("4 seed 7 book None")).unwrap();
        assert_eq!(
            r,
            Request {
                count: 4,
                seed: 7,
                book: None,
                variant: Variant::Chess,
                plies: None
            }
        );
        let r = Request::parse(&words("2 seed 1 book b.epd variant tavreli plies 3")).unwrap();
        assert_eq!(r.book, Some(PathBuf::from("b.epd")));
        assert_eq!((r.variant, r.plies), (Variant::Tavreli, Some(3)));
        let err = |s: &str| Request::parse(&words(s)).unwrap_err();
        assert!(err("").contains("N"));
        assert!(err("x seed 1").contains("\"x\""));
        assert!(err("3 book None").contains("missing seed"));
        assert!(err("3 seed").contains("missing value"));
        assert!(err("3 seed 1 variant shogi").contains("shogi"));
        assert!(err("3 seed 1 plies 99").contains("plies"));
        assert!(err("3 seed 1 colour white").contains("colour"));
    }

    #[test]
    fn openings_are_legal_balanced_and_seeded_in_every_variant() {
        for variant in Variant::ALL {
            let req = Request {
                count: 3,
                seed: 11,
                book: None,
                variant,
                plies: None,
            };
            let a = run(&req, None).unwrap();
            assert_eq!(a.len(), 3, "{variant}");
            assert_eq!(a, run(&req, None).unwrap(), "{variant}: same seed");
            let other = run(
                &Request {
                    seed: 12,
                    ..req.clone()
                },
                None,
            )
            .unwrap();
            assert_ne!(a, other, "{variant}: another seed");
            for line in &a {
                let fen = line.strip_prefix("info string genfens ").unwrap();
                assert_eq!(fen.split(' ').count(), 6, "{fen}");
                let game =
                    with_variant!(variant, P => Game::<P>::new(Some(fen)).map(|g| g.status()));
                assert_eq!(game, Ok(None), "{variant}: {fen} is a live position");
                assert_ne!(fen, variant_start_fen(variant));
            }
        }
    }

    #[test]
    fn printed_openings_pass_the_balance_check() {
        let req = Request {
            count: 4,
            seed: 21,
            book: None,
            variant: Variant::Chess,
            plies: None,
        };
        let lines = run(&req, None).unwrap();
        // The check again, on the printed FENs: a fresh table each time
        // makes the score depend on the position only.
        std::thread::Builder::new()
            .stack_size(STACK_SIZE)
            .spawn(move || {
                let mut maker = Maker::<movegen::Chess>::new(&req, Vec::new());
                for line in &lines {
                    let fen = line.strip_prefix("info string genfens ").unwrap();
                    let game = Game::<movegen::Chess>::new(Some(fen)).unwrap();
                    let imbalance = maker.imbalance(&game).expect("no mate score");
                    assert!(imbalance <= MARGIN_CP, "{fen}: {imbalance} cp");
                }
            })
            .unwrap()
            .join()
            .unwrap();
    }

    fn variant_start_fen(v: Variant) -> String {
        with_variant!(v, P => P::startpos().fen())
    }

    #[test]
    fn book_lines_are_the_starting_points() {
        // One book line (move 2, White to move): two or three plies later
        // it is move 3.
        let book = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2\n";
        let req = Request {
            count: 4,
            seed: 3,
            book: Some(PathBuf::from("x.epd")),
            variant: Variant::Chess,
            plies: None,
        };
        let lines = run(&req, Some(book)).unwrap();
        for line in &lines {
            // The start position and 8 or 9 plies would be move 5.
            let fen = line.strip_prefix("info string genfens ").unwrap();
            let fullmove: u32 = fen.split(' ').nth(5).unwrap().parse().unwrap();
            assert_eq!(fullmove, 3, "{fen}");
        }
        assert!(lines.iter().skip(1).any(|l| *l != lines[0]), "{lines:?}");
        assert!(run(&req, Some("not a position at all / x\n")).is_err());
    }
}
