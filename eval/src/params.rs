//! Every evaluation weight in one place, ready for tuning: material, the
//! piece-square tables, mobility, king safety, pawn structure and the small
//! terms. Values are centipawns as `(middlegame, endgame)` pairs; tables are
//! drawn from White's side with rank 8 on top, so they read like a board.
//!
//! The tables started from simple shapes (centralise knights, advance
//! pawns, tuck the king into a corner in the middlegame and centralise it in
//! the endgame) and are meant to be tuned as a whole.

use crate::pst::S;

/// Material by role index (`Role::index`: P N B R Q K Helgi).
pub const MATERIAL: [S; 7] = [
    S(82, 104),
    S(330, 300),
    S(350, 320),
    S(470, 540),
    S(1000, 990),
    S(0, 0),
    S(1250, 1250),
];

/// Game-phase weight of a role; the phase of the start position is
/// [`crate::pst::PHASE_MAX`].
pub const PHASE_WEIGHT: [i32; 7] = [0, 1, 1, 2, 4, 0, 4];

/// Bonus for the side to move.
pub const TEMPO: S = S(14, 6);

/// Bonus for owning both bishops.
pub const BISHOP_PAIR: S = S(28, 52);

/// Mobility per reachable square (not own-occupied, not attacked by enemy
/// pawns), after subtracting the typical count [`MOBILITY_BASE`].
pub const MOBILITY: [S; 4] = [S(4, 4), S(5, 5), S(2, 4), S(1, 2)];
/// Typical reachable-square counts of knight, bishop, rook, queen.
pub const MOBILITY_BASE: [i32; 4] = [4, 6, 6, 12];

/// Rook on a file without pawns.
pub const ROOK_OPEN_FILE: S = S(24, 8);
/// Rook on a file without own pawns but with enemy ones.
pub const ROOK_SEMI_OPEN_FILE: S = S(10, 6);

/// Two or more own pawns on a file, per extra pawn.
pub const DOUBLED_PAWN: S = S(-8, -20);
/// Pawn with no own pawn on the adjacent files.
pub const ISOLATED_PAWN: S = S(-10, -12);
/// Passed pawn by relative rank (rank 1 first).
pub const PASSED_PAWN: [S; 8] = [
    S(0, 0),
    S(2, 8),
    S(4, 12),
    S(10, 24),
    S(24, 44),
    S(44, 80),
    S(70, 120),
    S(0, 0),
];
/// Passed pawn whose stop square is empty, scaled by relative rank (≥ 4th).
pub const PASSED_FREE_PATH: S = S(2, 6);
/// Passed pawn: per square of (enemy king distance − own king distance) to
/// its stop square, endgame only, relative rank ≥ 4th.
pub const PASSED_KING_PROXIMITY: i32 = 4;

/// Mop-up, when one side is up at least a rook's worth and the other has
/// no pawns: per step of the losing king's distance from the centre…
pub const MOP_UP_EDGE: i32 = 12;
/// …and per step the kings are closer than the maximum of 7.
pub const MOP_UP_KINGS: i32 = 6;

/// Own pawn directly in front of the king (one or two ranks up), per pawn,
/// on the king's file and the adjacent ones.
pub const PAWN_SHIELD: [S; 2] = [S(12, 0), S(6, 0)];
/// The king's file or an adjacent one has no own pawn.
pub const KING_OPEN_FILE: S = S(-14, 0);
/// Attack units per attacker into the king zone: N B R Q.
pub const KING_ATTACK_WEIGHT: [i32; 4] = [2, 2, 3, 5];
/// Middlegame penalty by attack units (sum of weights × attacked zone
/// squares, capped at the table length − 1); only with two attackers or more.
pub const KING_DANGER: [i32; 32] = [
    0, 2, 5, 9, 14, 20, 27, 35, 44, 54, 65, 77, 90, 104, 119, 135, 152, 170, 189, 209, 230, 252,
    275, 299, 324, 350, 377, 405, 434, 464, 495, 527,
];

/// Piece-square table, pawn mg (White's view, rank 8 first).
#[rustfmt::skip]
pub const PAWN_MG: [i32; 64] = [
       0,    0,    0,    0,    0,    0,    0,    0,
      45,   45,   45,   45,   45,   45,   45,   45,
      22,   22,   22,   22,   22,   22,   22,   22,
      10,   12,   16,   24,   24,   16,   12,   10,
       4,    6,   10,   18,   18,   10,    6,    4,
      -2,    0,    4,   12,   12,    4,    0,   -2,
       0,    0,    0,  -12,  -12,    0,    0,    0,
       0,    0,    0,    0,    0,    0,    0,    0,
];

/// Piece-square table, pawn eg (White's view, rank 8 first).
#[rustfmt::skip]
pub const PAWN_EG: [i32; 64] = [
       0,    0,    0,    0,    0,    0,    0,    0,
      60,   60,   60,   60,   60,   60,   60,   60,
      34,   34,   34,   34,   34,   34,   34,   34,
      18,   18,   18,   18,   18,   18,   18,   18,
       8,    8,    8,    8,    8,    8,    8,    8,
       2,    2,    2,    2,    2,    2,    2,    2,
       0,    0,    0,    0,    0,    0,    0,    0,
       0,    0,    0,    0,    0,    0,    0,    0,
];

/// Piece-square table, knight mg (White's view, rank 8 first).
#[rustfmt::skip]
pub const KNIGHT_MG: [i32; 64] = [
     -46,  -35,  -24,  -13,  -13,  -24,  -35,  -46,
     -35,  -24,  -13,   -2,   -2,  -13,  -24,  -35,
     -24,  -13,    4,   15,   15,    4,  -13,  -24,
     -13,   -2,   15,   26,   26,   15,   -2,  -13,
     -13,   -2,   15,   26,   26,   15,   -2,  -13,
     -24,  -13,    4,   15,   15,    4,  -13,  -24,
     -35,  -24,  -13,   -2,   -2,  -13,  -24,  -35,
     -56,  -45,  -34,  -23,  -23,  -34,  -45,  -56,
];

/// Piece-square table, knight eg (White's view, rank 8 first).
#[rustfmt::skip]
pub const KNIGHT_EG: [i32; 64] = [
     -32,  -24,  -16,   -8,   -8,  -16,  -24,  -32,
     -24,  -16,   -8,    0,    0,   -8,  -16,  -24,
     -16,   -8,    0,    8,    8,    0,   -8,  -16,
      -8,    0,    8,   16,   16,    8,    0,   -8,
      -8,    0,    8,   16,   16,    8,    0,   -8,
     -16,   -8,    0,    8,    8,    0,   -8,  -16,
     -24,  -16,   -8,    0,    0,   -8,  -16,  -24,
     -32,  -24,  -16,   -8,   -8,  -16,  -24,  -32,
];

/// Piece-square table, bishop mg (White's view, rank 8 first).
#[rustfmt::skip]
pub const BISHOP_MG: [i32; 64] = [
      -6,  -10,   -6,   -2,   -2,   -6,  -10,   -6,
     -10,    2,   -2,    2,    2,   -2,    2,  -10,
      -6,   -2,   10,    6,    6,   10,   -2,   -6,
      -2,    2,    6,   18,   18,    6,    2,   -2,
      -2,    2,    6,   18,   18,    6,    2,   -2,
      -6,   -2,   10,    6,    6,   10,   -2,   -6,
     -10,    2,   -2,    2,    2,   -2,    2,  -10,
     -14,  -18,  -14,  -10,  -10,  -14,  -18,  -14,
];

/// Piece-square table, bishop eg (White's view, rank 8 first).
#[rustfmt::skip]
pub const BISHOP_EG: [i32; 64] = [
     -10,   -7,   -4,   -1,   -1,   -4,   -7,  -10,
      -7,   -4,   -1,    2,    2,   -1,   -4,   -7,
      -4,   -1,    2,    5,    5,    2,   -1,   -4,
      -1,    2,    5,    8,    8,    5,    2,   -1,
      -1,    2,    5,    8,    8,    5,    2,   -1,
      -4,   -1,    2,    5,    5,    2,   -1,   -4,
      -7,   -4,   -1,    2,    2,   -1,   -4,   -7,
     -10,   -7,   -4,   -1,   -1,   -4,   -7,  -10,
];

/// Piece-square table, rook mg (White's view, rank 8 first).
#[rustfmt::skip]
pub const ROOK_MG: [i32; 64] = [
      -4,    0,    4,    8,    8,    4,    0,   -4,
      10,   14,   18,   22,   22,   18,   14,   10,
     -10,    0,    4,    8,    8,    4,    0,  -10,
     -10,    0,    4,    8,    8,    4,    0,  -10,
     -10,    0,    4,    8,    8,    4,    0,  -10,
     -10,    0,    4,    8,    8,    4,    0,  -10,
     -10,    0,    4,    8,    8,    4,    0,  -10,
      -4,    0,    4,    8,    8,    4,    0,   -4,
];

/// Piece-square table, rook eg (White's view, rank 8 first).
#[rustfmt::skip]
pub const ROOK_EG: [i32; 64] = [
       0,    0,    0,    0,    0,    0,    0,    0,
      10,   10,   10,   10,   10,   10,   10,   10,
       2,    2,    2,    2,    2,    2,    2,    2,
       2,    2,    2,    2,    2,    2,    2,    2,
       2,    2,    2,    2,    2,    2,    2,    2,
       0,    0,    0,    0,    0,    0,    0,    0,
       0,    0,    0,    0,    0,    0,    0,    0,
       0,    0,    0,    0,    0,    0,    0,    0,
];

/// Piece-square table, queen mg (White's view, rank 8 first).
#[rustfmt::skip]
pub const QUEEN_MG: [i32; 64] = [
     -14,  -12,  -10,   -8,   -8,  -10,  -12,  -14,
     -12,  -10,   -8,   -6,   -6,   -8,  -10,  -12,
     -10,   -8,   -6,   -4,   -4,   -6,   -8,  -10,
      -2,    0,    2,    4,    4,    2,    0,   -2,
      -2,    0,    2,    4,    4,    2,    0,   -2,
      -4,   -2,    0,    2,    2,    0,   -2,   -4,
      -6,   -4,   -2,    0,    0,   -2,   -4,   -6,
     -12,  -10,   -8,   -6,   -6,   -8,  -10,  -12,
];

/// Piece-square table, queen eg (White's view, rank 8 first).
#[rustfmt::skip]
pub const QUEEN_EG: [i32; 64] = [
     -20,  -14,   -8,   -2,   -2,   -8,  -14,  -20,
     -14,   -8,   -2,    4,    4,   -2,   -8,  -14,
      -8,   -2,    4,   10,   10,    4,   -2,   -8,
      -2,    4,   10,   16,   16,   10,    4,   -2,
      -2,    4,   10,   16,   16,   10,    4,   -2,
      -8,   -2,    4,   10,   10,    4,   -2,   -8,
     -14,   -8,   -2,    4,    4,   -2,   -8,  -14,
     -20,  -14,   -8,   -2,   -2,   -8,  -14,  -20,
];

/// Piece-square table, king mg (White's view, rank 8 first).
#[rustfmt::skip]
pub const KING_MG: [i32; 64] = [
     -70,  -74,  -74,  -74,  -74,  -74,  -74,  -70,
     -70,  -74,  -74,  -74,  -74,  -74,  -74,  -70,
     -70,  -74,  -74,  -74,  -74,  -74,  -74,  -70,
     -60,  -64,  -64,  -64,  -64,  -64,  -64,  -60,
     -50,  -54,  -54,  -54,  -54,  -54,  -54,  -50,
     -40,  -44,  -44,  -44,  -44,  -44,  -44,  -40,
      10,   12,   -6,  -20,  -20,   -6,   12,   10,
      20,   35,   14,   -6,   -6,   10,   38,   22,
];

/// Piece-square table, king eg (White's view, rank 8 first).
#[rustfmt::skip]
pub const KING_EG: [i32; 64] = [
     -18,  -16,  -14,  -12,  -12,  -14,  -16,  -18,
     -16,   -4,   -2,    0,    0,   -2,   -4,  -16,
     -14,   -2,   10,   12,   12,   10,   -2,  -14,
     -12,    0,   12,   24,   24,   12,    0,  -12,
     -12,    0,   12,   24,   24,   12,    0,  -12,
     -14,   -2,   10,   12,   12,   10,   -2,  -14,
     -16,   -4,   -2,    0,    0,   -2,   -4,  -16,
     -18,  -16,  -14,  -12,  -12,  -14,  -16,  -18,
];
