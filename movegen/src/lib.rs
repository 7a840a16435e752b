//! The rules of Volkhv's three variants — chess, PlunderChess and Tavreli —
//! as positions with FEN, legal move generation, make/unmake and perft.
//!
//! ```
//! use movegen::{perft, Chess, Position};
//! let mut pos = Chess::startpos();
//! assert_eq!(perft(&mut pos, 2), 400);
//! ```
#![deny(missing_docs)]

pub mod attacks;
mod bitboard;
pub mod board;
mod chess;
mod describe;
mod family;
pub mod fen;
mod moves;
mod plunder;
mod position;
mod registry;
mod rng;
mod tavreli;
#[cfg(test)]
mod test_util;
mod types;
pub mod zobrist;

pub use bitboard::Bitboard;
pub use chess::{Chess, NoVests};
pub use describe::{Describe, MoverParts, PieceParts, Token};
pub use family::Family;
pub use fen::{FenError, FenField};
pub use moves::{Move, MoveKind, MoveList, MAX_MOVES};
pub use plunder::{vest_allowed, MAX_PIECES_PER_SIDE};
pub use plunder::{Plunder, Vests};
pub use position::{divide, perft, status, MoveError, Outcome, Position, MAX_PERFT_DEPTH};
pub use registry::Variant;
pub use rng::SplitMix;
pub use tavreli::{home_piece, Tavreli, TavreliUndo, Tower, TowerPiece, TOWER_CAPACITY};
pub use types::{Color, File, Piece, Rank, Role, Square};
