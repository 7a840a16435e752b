//! Self-play on top of the search library: [`datagen`] plays games to
//! label positions for the tuner, [`rescore`] labels them again with a
//! newer build, [`genfens`] makes OpenBench's random
//! balanced openings. They live apart from `engine` so that the search
//! library carries no progress bar and no opening-book reader.

pub mod datagen;
pub mod genfens;
pub mod rescore;
