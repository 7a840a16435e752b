//! `volkhv match`: engine-vs-engine matches refereed by movegen.
#![deny(missing_docs)]
pub mod stats;
