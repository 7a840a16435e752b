//! The volkhv search library: game state, search, transposition table,
//! time management and bench. It knows no protocol, HTTP or JSON, and
//! carries no progress bar or opening books (self-play data and OpenBench's
//! openings are the `selfplay` crate): the `volkhv` binary's shims and web
//! board are built on it.
//!
//! `Engine` is the one interface the front ends talk to: plain methods that
//! return at once; search results arrive as [`SearchEvent`]s through a
//! callback.

pub mod bench;
pub mod engine;
pub mod error;
pub mod game;
pub mod levels;
pub mod limits;
pub mod perft;
pub mod score;
pub mod search;
pub mod time;
pub mod tt;
pub mod ttd;
pub mod wdl;

pub use engine::{Engine, Options};
pub use error::Error;
pub use game::{AnyGame, Game};
pub use limits::{EventSink, Info, Limits, Score, SearchEvent, Wdl};
pub use wdl::wdl;
