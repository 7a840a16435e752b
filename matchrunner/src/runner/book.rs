//! Which opening each job starts from.

use super::{OpeningSource, RunError};
use crate::openings::{parse_openings, random_opening, seeded, Opening};
use movegen::Position;
use notation::pgn::read_pgn;
use std::marker::PhantomData;
use std::path::PathBuf;

/// How a `-openings` book is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BookFormat {
    /// FEN/EPD lines (or move strings), as `--openings` reads them.
    Epd,
    /// PGN games: each game's final position is an opening.
    Pgn,
}

/// fastchess's `-openings file=F format=epd|pgn order=random|sequential
/// start=N plies=P` (with `-srand S` as the shuffle's seed).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BookSpec {
    /// The file.
    pub path: PathBuf,
    /// EPD or PGN.
    pub format: BookFormat,
    /// `order=random`: shuffled with this seed; `None`: file order.
    pub shuffle: Option<u64>,
    /// 0-based index of the first opening used (fastchess's `start` − 1).
    pub start: usize,
    /// Most plies of a PGN game kept (`plies=`), `None` for all.
    pub plies: Option<usize>,
}

impl BookSpec {
    /// The book's openings in the order the match uses them.
    fn load<P: Position>(&self) -> Result<Vec<Opening>, String> {
        let text = std::fs::read_to_string(&self.path).map_err(|e| e.to_string())?;
        let mut lines = match self.format {
            BookFormat::Epd => parse_openings::<P>(&text)?,
            BookFormat::Pgn => pgn_openings::<P>(&text, self.plies)?,
        };
        if lines.is_empty() {
            return Err("no openings".into());
        }
        if let Some(seed) = self.shuffle {
            let mut rng = seeded(seed);
            for i in (1..lines.len()).rev() {
                lines.swap(i, rng.below(i + 1));
            }
        }
        let start = self.start % lines.len();
        lines.rotate_left(start);
        Ok(lines)
    }
}

/// Each PGN game, cut to `plies`, as the FEN of its last position (SAN
/// is read with movegen, so the moves need not be move strings).
fn pgn_openings<P: Position>(text: &str, plies: Option<usize>) -> Result<Vec<Opening>, String> {
    let mut out = Vec::new();
    for (i, mut game) in read_pgn(text)
        .map_err(|e| e.to_string())?
        .into_iter()
        .enumerate()
    {
        if let Some(p) = plies {
            game.moves.truncate(p);
        }
        let pos: P = game.replay().map_err(|e| format!("game {}: {e}", i + 1))?;
        out.push(Opening {
            fen: Some(pos.fen()),
            moves: Vec::new(),
        });
    }
    Ok(out)
}

/// The openings of a match for the rules `P`: a file's lines (validated
/// before any game starts) or random ones made on demand.
pub(super) struct OpeningBook<'a, P> {
    source: &'a OpeningSource,
    lines: Vec<Opening>,
    rules: PhantomData<fn() -> P>,
}

impl<'a, P: Position> OpeningBook<'a, P> {
    /// Reads and checks a `--openings` file; the other sources need nothing.
    pub(super) fn load(source: &'a OpeningSource) -> Result<Self, RunError> {
        let lines = match source {
            OpeningSource::StartPos => vec![Opening::default()],
            OpeningSource::File(path) => {
                let bad =
                    |e: String| RunError::Config(format!("--openings {}: {e}", path.display()));
                let text = std::fs::read_to_string(path).map_err(|e| bad(e.to_string()))?;
                parse_openings::<P>(&text).map_err(bad)?
            }
            OpeningSource::Random { .. } => Vec::new(),
            OpeningSource::Book(spec) => spec.load::<P>().map_err(|e| {
                RunError::Config(format!("-openings file={}: {e}", spec.path.display()))
            })?,
        };
        Ok(OpeningBook {
            source,
            lines,
            rules: PhantomData,
        })
    }

    /// The opening of job `j`: lines are cycled; random openings are seeded
    /// per job, so a job's games share one and a rerun gets the same.
    pub(super) fn get(&self, j: usize) -> Opening {
        match self.source {
            OpeningSource::Random { plies, seed } => {
                let s = seed.wrapping_add((j as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15));
                random_opening::<P>(*plies, s)
            }
            _ => self.lines[j % self.lines.len()].clone(),
        }
    }
}
