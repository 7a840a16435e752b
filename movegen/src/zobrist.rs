//! Zobrist keys from a const PRNG (splitmix64), so they are the same on every
//! build and every run.

use crate::types::{Color, Role, Square};

/// One splitmix64 step: a good 64-bit mixer for keys and tables.
#[must_use]
#[inline]
pub const fn splitmix(x: u64) -> u64 {
    mix(x.wrapping_add(0x9E37_79B9_7F4A_7C15))
}

/// The splitmix64 finaliser alone: every input bit reaches every output
/// bit (for hashing a value that is already spread, e.g. a bitboard).
#[must_use]
#[inline]
pub const fn mix(mut x: u64) -> u64 {
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

const fn table<const N: usize>(salt: u64) -> [u64; N] {
    let mut t = [0u64; N];
    let mut i = 0;
    while i < N {
        t[i] = splitmix(salt.wrapping_mul(0x1000_0000_01B3) ^ i as u64);
        i += 1;
    }
    t
}

/// [colour][role][square].
static PIECE: [u64; 2 * 7 * 64] = table(1);
/// Plunder vests: [colour of wearer][vest role P..Q][square].
static VEST: [u64; 2 * 5 * 64] = table(2);
static CASTLING: [u64; 16] = table(3);
static EP_FILE: [u64; 8] = table(4);
const SIDE: u64 = splitmix(0x5EED);

/// Key of a piece on a square.
#[must_use]
#[inline]
pub fn piece(color: Color, role: Role, sq: Square) -> u64 {
    PIECE[(color.index() * 7 + role.index()) * 64 + sq.index()]
}

/// Key of a vest (pawn..queen) worn by a piece of `color` on `sq`.
#[must_use]
#[inline]
pub fn vest(color: Color, vest: Role, sq: Square) -> u64 {
    VEST[(color.index() * 5 + vest.index()) * 64 + sq.index()]
}

/// Key of a castling-rights set (4 bits: K, Q, k, q).
#[must_use]
#[inline]
pub fn castling(rights: u8) -> u64 {
    CASTLING[usize::from(rights & 15)]
}

/// Key of an en-passant file.
#[must_use]
#[inline]
pub fn ep_file(file: u8) -> u64 {
    EP_FILE[usize::from(file & 7)]
}

/// Key toggled when black is to move.
#[must_use]
#[inline]
pub const fn side() -> u64 {
    SIDE
}

/// Key of what a position holds besides its pieces: castling rights, side to
/// move and en-passant file (the same in every variant).
#[must_use]
pub(crate) fn state(turn: Color, castling_rights: u8, ep: Option<Square>) -> u64 {
    let mut key = castling(castling_rights);
    if turn == Color::Black {
        key ^= side();
    }
    if let Some(sq) = ep {
        key ^= ep_file(sq.file().0);
    }
    key
}
