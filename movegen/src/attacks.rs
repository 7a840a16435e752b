//! Attack tables: leapers by const evaluation, sliders by magic bitboards built
//! once on first use.
//!
//! ```
//! use movegen::{attacks, Bitboard, Square};
//! let e4 = Square::parse("e4").unwrap();
//! assert_eq!(attacks::knight(e4).count(), 8);
//! assert_eq!(attacks::rook(e4, Bitboard::EMPTY).count(), 14);
//! ```

use crate::bitboard::Bitboard;
use crate::types::{Color, Square};
use once_cell::sync::Lazy;

const fn step_table(deltas: &[(i8, i8)]) -> [u64; 64] {
    let mut table = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        let (f, r) = ((sq % 8) as i8, (sq / 8) as i8);
        let mut bits = 0u64;
        let mut i = 0;
        while i < deltas.len() {
            let (nf, nr) = (f + deltas[i].0, r + deltas[i].1);
            if nf >= 0 && nf < 8 && nr >= 0 && nr < 8 {
                bits |= 1 << (nr * 8 + nf);
            }
            i += 1;
        }
        table[sq] = bits;
        sq += 1;
    }
    table
}

static KNIGHT: [u64; 64] = step_table(&[
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
]);
static KING: [u64; 64] = step_table(&[
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
    (0, -1),
    (1, -1),
]);
static PAWN: [[u64; 64]; 2] = [
    step_table(&[(-1, 1), (1, 1)]),
    step_table(&[(-1, -1), (1, -1)]),
];

/// Orthogonal directions as (file, rank) steps.
pub const ROOK_DIRS: [(i8, i8); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
/// Diagonal directions as (file, rank) steps.
pub const BISHOP_DIRS: [(i8, i8); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];

/// Knight leaps from `sq`.
#[must_use]
#[inline]
pub fn knight(sq: Square) -> Bitboard {
    Bitboard(KNIGHT[sq.index()])
}

/// King steps from `sq`.
#[must_use]
#[inline]
pub fn king(sq: Square) -> Bitboard {
    Bitboard(KING[sq.index()])
}

/// Squares a pawn of `color` on `sq` captures on.
#[must_use]
#[inline]
pub fn pawn(color: Color, sq: Square) -> Bitboard {
    Bitboard(PAWN[color.index()][sq.index()])
}

/// The reference slider: walks each ray square by square until it leaves the
/// board or hits a blocker (included). Slow; the magic tables are tested against it.
#[must_use]
pub const fn ray_attacks(sq: Square, occupied: u64, dirs: &[(i8, i8); 4]) -> u64 {
    let mut bits = 0u64;
    let mut d = 0;
    while d < 4 {
        let (mut f, mut r) = ((sq.index() % 8) as i8, (sq.index() / 8) as i8);
        loop {
            f += dirs[d].0;
            r += dirs[d].1;
            if f < 0 || f >= 8 || r < 0 || r >= 8 {
                break;
            }
            let bit = 1u64 << (r * 8 + f);
            bits |= bit;
            if occupied & bit != 0 {
                break;
            }
        }
        d += 1;
    }
    bits
}

/// The relevant-occupancy mask of a slider: its empty-board rays without the
/// last square of each (an edge square never blocks anything behind it).
const fn relevant_mask(sq: Square, dirs: &[(i8, i8); 4]) -> u64 {
    let mut bits = 0u64;
    let mut d = 0;
    while d < 4 {
        let (mut f, mut r) = ((sq.index() % 8) as i8, (sq.index() / 8) as i8);
        loop {
            f += dirs[d].0;
            r += dirs[d].1;
            let (nf, nr) = (f + dirs[d].0, r + dirs[d].1);
            if nf < 0 || nf >= 8 || nr < 0 || nr >= 8 {
                break;
            }
            bits |= 1u64 << (r * 8 + f);
        }
        d += 1;
    }
    bits
}

#[derive(Clone, Copy, Default)]
struct Magic {
    mask: u64,
    magic: u64,
    shift: u32,
    offset: usize,
}

impl Magic {
    #[inline]
    fn index(&self, occupied: u64) -> usize {
        self.offset + ((occupied & self.mask).wrapping_mul(self.magic) >> self.shift) as usize
    }
}

struct Sliders {
    rook: [Magic; 64],
    bishop: [Magic; 64],
    table: Vec<u64>,
    between: Vec<u64>,
    line: Vec<u64>,
}

/// xorshift64*: a fixed-seed generator so the tables are the same on every run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn sparse(&mut self) -> u64 {
        self.next() & self.next() & self.next()
    }
}

/// Finds a magic for one square by trial, filling its slice of `table`. Every
/// occupancy subset is enumerated (Carry-Rippler) and checked for collisions
/// that would map two different attack sets to one slot.
fn find_magic(sq: Square, dirs: &[(i8, i8); 4], table: &mut Vec<u64>, rng: &mut Rng) -> Magic {
    let mask = relevant_mask(sq, dirs);
    let bits = mask.count_ones();
    let size = 1usize << bits;
    let mut occupancies = Vec::with_capacity(size);
    let mut references = Vec::with_capacity(size);
    let mut subset = 0u64;
    loop {
        occupancies.push(subset);
        references.push(ray_attacks(sq, subset, dirs));
        subset = subset.wrapping_sub(mask) & mask;
        if subset == 0 {
            break;
        }
    }
    let offset = table.len();
    table.resize(offset + size, 0);
    let mut epoch = vec![0u32; size];
    let mut attempt = 0u32;
    loop {
        let magic = rng.sparse();
        if (mask.wrapping_mul(magic) >> 56).count_ones() < 6 {
            continue;
        }
        attempt += 1;
        let candidate = Magic {
            mask,
            magic,
            shift: 64 - bits,
            offset,
        };
        let ok = occupancies.iter().zip(&references).all(|(&occ, &att)| {
            let i = candidate.index(occ) - offset;
            if epoch[i] < attempt {
                epoch[i] = attempt;
                table[offset + i] = att;
                true
            } else {
                table[offset + i] == att
            }
        });
        if ok {
            return candidate;
        }
    }
}

static SLIDERS: Lazy<Sliders> = Lazy::new(|| {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut table = Vec::with_capacity(110_000);
    let mut rook = [Magic::default(); 64];
    let mut bishop = [Magic::default(); 64];
    for sq in Square::all() {
        rook[sq.index()] = find_magic(sq, &ROOK_DIRS, &mut table, &mut rng);
    }
    for sq in Square::all() {
        bishop[sq.index()] = find_magic(sq, &BISHOP_DIRS, &mut table, &mut rng);
    }
    let mut between = vec![0u64; 64 * 64];
    let mut line = vec![0u64; 64 * 64];
    for a in Square::all() {
        for b in Square::all() {
            if a == b {
                continue;
            }
            let bb = 1u64 << b.index();
            for dirs in [&ROOK_DIRS, &BISHOP_DIRS] {
                if ray_attacks(a, 0, dirs) & bb != 0 {
                    let from_a = ray_attacks(a, bb, dirs);
                    let from_b = ray_attacks(b, 1 << a.index(), dirs);
                    between[a.index() * 64 + b.index()] = from_a & from_b;
                    line[a.index() * 64 + b.index()] =
                        (ray_attacks(a, 0, dirs) & ray_attacks(b, 0, dirs)) | (1 << a.index()) | bb;
                }
            }
        }
    }
    Sliders {
        rook,
        bishop,
        table,
        between,
        line,
    }
});

/// Forces the slider tables to be built now (they are built on first use
/// otherwise); call before timing anything.
pub fn init() {
    Lazy::force(&SLIDERS);
}

/// Rook attacks from `sq` given the occupied squares.
#[must_use]
#[inline]
pub fn rook(sq: Square, occupied: Bitboard) -> Bitboard {
    let s = &*SLIDERS;
    Bitboard(s.table[s.rook[sq.index()].index(occupied.0)])
}

/// Bishop attacks from `sq` given the occupied squares.
#[must_use]
#[inline]
pub fn bishop(sq: Square, occupied: Bitboard) -> Bitboard {
    let s = &*SLIDERS;
    Bitboard(s.table[s.bishop[sq.index()].index(occupied.0)])
}

/// Queen attacks from `sq` given the occupied squares.
#[must_use]
#[inline]
pub fn queen(sq: Square, occupied: Bitboard) -> Bitboard {
    rook(sq, occupied) | bishop(sq, occupied)
}

/// Squares strictly between `a` and `b` if they share a line, else empty.
#[must_use]
#[inline]
pub fn between(a: Square, b: Square) -> Bitboard {
    Bitboard(SLIDERS.between[a.index() * 64 + b.index()])
}

/// The whole line through `a` and `b` (edge to edge) if they share one, else empty.
#[must_use]
#[inline]
pub fn line(a: Square, b: Square) -> Bitboard {
    Bitboard(SLIDERS.line[a.index() * 64 + b.index()])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn subsets(mask: u64) -> impl Iterator<Item = u64> {
        let mut subset = 0u64;
        let mut done = false;
        std::iter::from_fn(move || {
            if done {
                return None;
            }
            let cur = subset;
            subset = subset.wrapping_sub(mask) & mask;
            done = subset == 0;
            Some(cur)
        })
    }

    #[test]
    fn magic_sliders_match_the_reference_for_every_blocker_subset() {
        for sq in Square::all() {
            for occ in subsets(relevant_mask(sq, &ROOK_DIRS)) {
                assert_eq!(rook(sq, Bitboard(occ)).0, ray_attacks(sq, occ, &ROOK_DIRS));
            }
            for occ in subsets(relevant_mask(sq, &BISHOP_DIRS)) {
                assert_eq!(
                    bishop(sq, Bitboard(occ)).0,
                    ray_attacks(sq, occ, &BISHOP_DIRS)
                );
            }
        }
    }

    #[test]
    fn blockers_outside_the_mask_do_not_matter() {
        let sq = Square::parse("d4").unwrap();
        let occ = Bitboard(0xFF00_0000_0000_00FF); // ranks 1 and 8 only
        assert_eq!(rook(sq, occ).0, ray_attacks(sq, occ.0, &ROOK_DIRS));
    }

    #[test]
    fn leaper_tables() {
        let a1 = Square::A1;
        assert_eq!(knight(a1).count(), 2);
        assert_eq!(king(a1).count(), 3);
        let e2 = Square::parse("e2").unwrap();
        assert_eq!(
            pawn(Color::White, e2),
            Bitboard::from_square(Square::parse("d3").unwrap())
                | Bitboard::from_square(Square::parse("f3").unwrap())
        );
        assert_eq!(pawn(Color::Black, Square::A1), Bitboard::EMPTY);
    }

    #[test]
    fn between_and_line() {
        let (a1, h8) = (Square::A1, Square::H8);
        assert_eq!(between(a1, h8).count(), 6);
        assert_eq!(line(a1, h8).count(), 8);
        assert!(between(a1, Square::parse("b3").unwrap()).is_empty());
        assert!(line(a1, Square::parse("b3").unwrap()).is_empty());
    }
}
