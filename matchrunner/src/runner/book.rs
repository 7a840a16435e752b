//! Which opening each job starts from.

use super::{OpeningSource, RunError};
use crate::openings::{parse_openings, random_opening, Opening};
use movegen::Position;
use std::marker::PhantomData;

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
