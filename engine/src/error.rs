//! The engine's errors: values from movegen carried up unchanged, so each
//! front end renders them in its own protocol's form without reading text.

use movegen::{FenError, MoveError};
use thiserror::Error;

/// Why the engine refused a request; its state is unchanged whenever one
/// of these is returned.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum Error {
    /// The FEN was rejected.
    #[error(transparent)]
    Fen(#[from] FenError),
    /// A move string was malformed or illegal.
    #[error(transparent)]
    Move(#[from] MoveError),
    /// A move of a `position … moves` list (0-based `index`) was refused.
    #[error("{error} (move {} of the moves list)", .index + 1)]
    MoveInList {
        /// Where in the list.
        index: usize,
        /// What was wrong with it.
        error: MoveError,
    },
    /// A hash table larger than the machine's memory.
    #[error("Hash: {requested} MiB is more than this machine's {physical} MiB of memory")]
    HashTooBig {
        /// MiB asked for.
        requested: usize,
        /// MiB of physical memory.
        physical: usize,
    },
    /// `undo` with no move to take back.
    #[error("no move to take back")]
    NothingToUndo,
}

impl Error {
    /// The move error inside, if this is one (XBoard answers those with
    /// `Illegal move`).
    #[must_use]
    pub fn as_move_error(&self) -> Option<&MoveError> {
        match self {
            Error::Move(e) | Error::MoveInList { error: e, .. } => Some(e),
            _ => None,
        }
    }
}
