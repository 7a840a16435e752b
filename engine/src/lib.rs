//! The volkhv engine: game state, search, and the protocol shims.
//!
//! `Engine` is the one interface the protocol shims (`uci`, `xboard`) talk
//! to: plain methods that return at once; search results arrive as
//! [`SearchEvent`]s through a callback.

pub mod bench;
pub mod datagen;
pub mod engine;
pub mod error;
pub mod game;
pub mod levels;
pub mod limits;
pub mod perft;
pub mod search;
pub mod time;
pub mod tt;
pub mod wdl;

pub use engine::{Engine, Options};
pub use error::Error;
pub use game::{AnyGame, Game};
pub use limits::{EventSink, Info, Limits, Score, SearchEvent, Wdl};
pub use wdl::wdl;
