//! Attack tables, all built by const evaluation: leapers, sliders by magic
//! bitboards (fixed magics, tables filled and collision-checked at compile
//! time), and the between/line tables.
//!
//! ```
//! use movegen::{attacks, Bitboard, Square};
//! let e4 = Square::parse("e4").unwrap();
//! assert_eq!(attacks::knight(e4).count(), 8);
//! assert_eq!(attacks::rook(e4, Bitboard::EMPTY).count(), 14);
//! ```

use crate::bitboard::Bitboard;
use crate::types::{Color, Role, Square};

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

/// The two lines of a rook and of a bishop, each as one of its directions
/// (the opposite one is implied).
const ROOK_LINES: [(i8, i8); 2] = [(1, 0), (0, 1)];
const BISHOP_LINES: [(i8, i8); 2] = [(1, 1), (1, -1)];

/// The squares of one line through `sq` (direction `(df, dr)` and its
/// opposite) on an empty board, `sq` excluded.
const fn line_mask(sq: u32, (df, dr): (i8, i8)) -> u64 {
    let mut bits = 0u64;
    let mut sign = 1;
    while sign >= -1 {
        let (mut f, mut r) = ((sq % 8) as i8, (sq / 8) as i8);
        loop {
            f += sign * df;
            r += sign * dr;
            if f < 0 || f >= 8 || r < 0 || r >= 8 {
                break;
            }
            bits |= 1u64 << (r * 8 + f);
        }
        sign -= 2;
    }
    bits
}

/// The edge squares where a line in direction `(df, dr)` ends: the a- and
/// h-files if it crosses files, ranks 1 and 8 if it crosses ranks.
const fn line_ends((df, dr): (i8, i8)) -> u64 {
    let files = if df != 0 { 0x8181_8181_8181_8181 } else { 0 };
    let ranks = if dr != 0 { 0xFF00_0000_0000_00FF } else { 0 };
    files | ranks
}

/// The relevant-occupancy mask of a slider on `sq`: its lines without their
/// end squares (an edge square never blocks anything behind it).
const fn relevant_mask(sq: u32, lines: [(i8, i8); 2]) -> u64 {
    (line_mask(sq, lines[0]) & !line_ends(lines[0]))
        | (line_mask(sq, lines[1]) & !line_ends(lines[1]))
}

/// The magic multipliers, rook then bishop, one per square. They were found
/// by the trial search kept in the tests (`the_magics_come_from_the_trial_search`
/// re-runs it); as data they let the tables below be built by the compiler,
/// so nothing is searched or allocated at start-up.
#[rustfmt::skip]
const ROOK_MAGICS: [u64; 64] = [
    0x1080_0040_0880_1020, 0x0840_0920_02C0_3000, 0x1900_2000_1040_0900, 0x0880_1000_0800_0480,
    0x4200_1004_2008_0200, 0x8100_0201_0008_0400, 0x0200_0401_1088_6200, 0x0200_0080_4022_0411,
    0x0404_8000_8440_0220, 0x0000_4010_0040_2000, 0x0086_0010_8122_0440, 0x0408_8008_0010_0280,
    0x000A_0012_0104_0820, 0x8848_8002_0084_0080, 0x4001_0001_0004_0200, 0x0442_0001_0210_5084,
    0x9080_0100_2080_4100, 0x0040_4040_0020_1009, 0x0000_8080_1000_2009, 0x2200_0900_21D0_0100,
    0x0008_0080_0804_0080, 0x0004_0040_0201_0040, 0x0011_0400_0801_5042, 0x0000_0A00_0176_8104,
    0x0000_8000_8020_4009, 0x2010_0041_4000_2001, 0x9800_2002_8010_0080, 0x1000_1000_8008_0080,
    0x0442_000A_0004_9020, 0x2100_0400_8002_0080, 0x0800_1204_0090_0148, 0x0010_040A_0012_8541,
    0x2800_8040_0080_0030, 0x1010_0020_0040_0041, 0x4000_2000_1100_4100, 0x0610_0084_1080_0800,
    0x0400_8024_0280_0800, 0xC100_0200_8080_0400, 0x0002_0008_0200_0401, 0x0182_0858_8200_0401,
    0x0220_2040_0080_8000, 0x2860_1000_4002_4022, 0x0001_0020_0411_0040, 0x9910_1042_000A_0020,
    0x0004_0800_0400_8080, 0x0010_0400_0200_8080, 0x2012_0048_8102_0004, 0x8300_8424_4482_0011,
    0x0088_4038_8201_0200, 0x0820_4000_8021_0100, 0x0110_9100_40A0_0300, 0x0801_1002_8008_0480,
    0x0242_0090_0820_0600, 0x1002_0004_8950_0200, 0x0040_8002_0001_0080, 0x0091_8000_4100_0080,
    0x0000_2093_0048_8001, 0x04C1_0024_1482_4001, 0x0200_2000_0B00_1041, 0x7000_1000_0420_0901,
    0x8002_0020_0410_0802, 0x3001_0002_084C_0007, 0x0888_2218_0081_3004, 0x4000_0028_4084_0112,
];
#[rustfmt::skip]
const BISHOP_MAGICS: [u64; 64] = [
    0xA010_0411_0800_3100, 0x0060_8202_0A00_2900, 0x6810_0106_1920_0000, 0x0828_1A05_2000_0408,
    0x0001_1040_0100_0400, 0x0018_9010_0804_8400, 0x0004_0A02_1024_5280, 0x0002_0021_0808_A402,
    0x9140_0484_1082_1200, 0x0800_0910_1082_0041, 0x2050_4804_8322_02C0, 0x0100_0914_0108_1000,
    0x8021_0111_4000_0012, 0x0810_0208_0445_0400, 0x208B_0542_1090_08A2, 0x0080_084A_0804_0204,
    0x0040_E2A8_0811_244C, 0x2505_0220_0800_8108, 0x0430_2201_0042_0040, 0x010A_0404_2022_0040,
    0x1105_0002_9040_0000, 0x0093_0012_0082_2120, 0x4000_A620_4804_3004, 0x2801_2004_8A01_5004,
    0x0060_9000_2A02_0814, 0x4404_2000_2408_00D0, 0x0110_2800_040A_4400, 0x1004_0800_8022_0040,
    0x0001_0010_1100_4024, 0x0010_0440_0080_5040, 0x0914_0412_0082_0100, 0x0004_8210_1282_1480,
    0x0024_0405_00C0_5021, 0x0088_6110_0208_0200, 0x0116_080A_0004_0020, 0x4000_0200_8008_0080,
    0x2450_4501_4084_0040, 0x0000_8802_0148_4100, 0x0222_0204_0402_0092, 0x8081_1106_0000_2E00,
    0x2842_1011_0500_0801, 0x1100_8090_0800_1025, 0x0002_0202_221C_0400, 0x0422_0140_2200_9020,
    0x0210_0461_0210_0C00, 0xC004_0080_8202_9102, 0x00AA_4618_0110_1200, 0x0404_0800_8020_1108,
    0x0205_4210_8C20_5002, 0x0410_5448_0410_0100, 0x0040_9108_4110_0000, 0x0400_2000_4202_1100,
    0x0000_4204_8504_00C0, 0x0200_1004_10A4_2102, 0x1040_0208_0121_0102, 0x0805_0404_1042_0000,
    0x2884_8041_3010_0200, 0x800C_2622_0124_2000, 0x1058_0001_9410_8800, 0x0014_2210_5442_0204,
    0x0104_0000_12A0_2200, 0x0200_8810_0330_0100, 0x0140_4002_0284_0100, 0x0402_0208_0101_0201,
];

/// One square's slice of the attack table: the relevant occupancy times the
/// magic, shifted, indexes it.
#[derive(Clone, Copy)]
struct Magic {
    mask: u64,
    magic: u64,
    shift: u32,
    offset: usize,
}

impl Magic {
    #[inline]
    const fn index(&self, occupied: u64) -> usize {
        self.offset + ((occupied & self.mask).wrapping_mul(self.magic) >> self.shift) as usize
    }
}

/// The magics of one slider, their slices laid out from `offset` on.
const fn magics(lines: [(i8, i8); 2], numbers: &[u64; 64], mut offset: usize) -> [Magic; 64] {
    let mut table = [Magic {
        mask: 0,
        magic: 0,
        shift: 0,
        offset: 0,
    }; 64];
    let mut sq = 0;
    while sq < 64 {
        let mask = relevant_mask(sq as u32, lines);
        let bits = mask.count_ones();
        table[sq] = Magic {
            mask,
            magic: numbers[sq],
            shift: 64 - bits,
            offset,
        };
        offset += 1 << bits;
        sq += 1;
    }
    table
}

/// The end of the last slice: the table length the magics need.
const fn slices_end(magics: &[Magic; 64]) -> usize {
    magics[63].offset + (1 << (64 - magics[63].shift))
}

static ROOK: [Magic; 64] = magics(ROOK_LINES, &ROOK_MAGICS, 0);
static BISHOP: [Magic; 64] = magics(BISHOP_LINES, &BISHOP_MAGICS, slices_end(&ROOK));
const TABLE_LEN: usize = slices_end(&BISHOP);

/// Attacks along one line by the subtraction trick (the nearest blocker on
/// each side borrows from the slider's bit; reversing the bits turns the
/// other side into a forward one): a handful of operations where the ray walk
/// takes dozens, which is what keeps the compile-time fill fast.
const fn line_attacks(sq: u32, occupied: u64, mask: u64) -> u64 {
    let slider = 1u64 << sq;
    let o = occupied & mask;
    let forward = o.wrapping_sub(slider.wrapping_mul(2));
    let backward = o
        .reverse_bits()
        .wrapping_sub(slider.reverse_bits().wrapping_mul(2))
        .reverse_bits();
    (forward ^ backward) & mask
}

/// Writes every blocker subset's attacks (along the two `lines` directions)
/// into one slider's slices, subsets by Carry-Rippler. Compilation fails if a
/// magic maps two different attack sets to one slot (an attack set is never
/// empty, so 0 marks a free slot).
const fn fill(table: &mut [u64; TABLE_LEN], magics: &[Magic; 64], lines: [(i8, i8); 2]) {
    let mut sq = 0;
    while sq < 64 {
        let m = magics[sq as usize];
        let masks = [line_mask(sq, lines[0]), line_mask(sq, lines[1])];
        let mut subset = 0u64;
        loop {
            let attacks = line_attacks(sq, subset, masks[0]) | line_attacks(sq, subset, masks[1]);
            let i = m.index(subset);
            assert!(
                table[i] == 0 || table[i] == attacks,
                "a magic maps two attack sets to one slot"
            );
            table[i] = attacks;
            subset = subset.wrapping_sub(m.mask) & m.mask;
            if subset == 0 {
                break;
            }
        }
        sq += 1;
    }
}

// A few million evaluation steps, a second or two of compile time; the lint
// (a guard against endless loops) would stop it.
#[allow(long_running_const_eval)]
static TABLE: [u64; TABLE_LEN] = {
    let mut table = [0u64; TABLE_LEN];
    fill(&mut table, &ROOK, ROOK_LINES);
    fill(&mut table, &BISHOP, BISHOP_LINES);
    table
};

/// `between` and `line` of every pair of squares: `[a][b]`.
const fn pair_tables() -> ([[u64; 64]; 64], [[u64; 64]; 64]) {
    let mut between = [[0u64; 64]; 64];
    let mut line = [[0u64; 64]; 64];
    let mut a = 0;
    while a < 64 {
        let mut b = 0;
        while b < 64 {
            let (sa, sb) = (Square::from_low_bits(a), Square::from_low_bits(b));
            let (bit_a, bit_b) = (1u64 << a, 1u64 << b);
            let mut d = 0;
            while a != b && d < 2 {
                let dirs = if d == 0 { &ROOK_DIRS } else { &BISHOP_DIRS };
                if ray_attacks(sa, 0, dirs) & bit_b != 0 {
                    between[a as usize][b as usize] =
                        ray_attacks(sa, bit_b, dirs) & ray_attacks(sb, bit_a, dirs);
                    line[a as usize][b as usize] =
                        (ray_attacks(sa, 0, dirs) & ray_attacks(sb, 0, dirs)) | bit_a | bit_b;
                }
                d += 1;
            }
            b += 1;
        }
        a += 1;
    }
    (between, line)
}

static PAIRS: ([[u64; 64]; 64], [[u64; 64]; 64]) = pair_tables();

/// Nothing to do any more: the tables are built by the compiler. Kept so
/// callers written when they were built at start-up need not change.
pub fn init() {}

/// Rook attacks from `sq` given the occupied squares.
#[must_use]
#[inline]
pub fn rook(sq: Square, occupied: Bitboard) -> Bitboard {
    Bitboard(TABLE[ROOK[sq.index()].index(occupied.0)])
}

/// Bishop attacks from `sq` given the occupied squares.
#[must_use]
#[inline]
pub fn bishop(sq: Square, occupied: Bitboard) -> Bitboard {
    Bitboard(TABLE[BISHOP[sq.index()].index(occupied.0)])
}

/// Queen attacks from `sq` given the occupied squares.
#[must_use]
#[inline]
pub fn queen(sq: Square, occupied: Bitboard) -> Bitboard {
    rook(sq, occupied) | bishop(sq, occupied)
}

/// The squares a piece of `role` and `color` on `sq` attacks given the
/// occupied squares: a pawn its two capture squares, a helgi a queen's and a
/// knight's.
#[must_use]
#[inline]
pub fn piece(role: Role, color: Color, sq: Square, occupied: Bitboard) -> Bitboard {
    match role {
        Role::Pawn => pawn(color, sq),
        Role::Knight => knight(sq),
        Role::Bishop => bishop(sq, occupied),
        Role::Rook => rook(sq, occupied),
        Role::Queen => queen(sq, occupied),
        Role::King => king(sq),
        Role::Helgi => queen(sq, occupied) | knight(sq),
    }
}

/// Squares strictly between `a` and `b` if they share a line, else empty.
#[must_use]
#[inline]
pub fn between(a: Square, b: Square) -> Bitboard {
    Bitboard(PAIRS.0[a.index()][b.index()])
}

/// The whole line through `a` and `b` (edge to edge) if they share one, else empty.
#[must_use]
#[inline]
pub fn line(a: Square, b: Square) -> Bitboard {
    Bitboard(PAIRS.1[a.index()][b.index()])
}

#[cfg(test)]
mod tests {
    use super::*;

    /// xorshift64*: the fixed-seed generator the magics were drawn from.
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

    /// The trial search: sparse random candidates until one maps no two
    /// different attack sets of `sq`'s blocker subsets to one slot.
    fn find_magic(sq: Square, lines: [(i8, i8); 2], dirs: &[(i8, i8); 4], rng: &mut Rng) -> u64 {
        let mask = relevant_mask(sq.index() as u32, lines);
        let shift = 64 - mask.count_ones();
        let subsets: Vec<(u64, u64)> = subsets(mask)
            .map(|occ| (occ, ray_attacks(sq, occ, dirs)))
            .collect();
        loop {
            let magic = rng.sparse();
            if (mask.wrapping_mul(magic) >> 56).count_ones() < 6 {
                continue;
            }
            let mut slots = vec![0u64; 1 << mask.count_ones()];
            let fits = subsets.iter().all(|&(occ, attacks)| {
                let slot = &mut slots[(occ.wrapping_mul(magic) >> shift) as usize];
                let free = *slot == 0 || *slot == attacks;
                *slot = attacks;
                free
            });
            if fits {
                return magic;
            }
        }
    }

    #[test]
    fn the_magics_come_from_the_trial_search() {
        let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
        for (lines, dirs, magics) in [
            (ROOK_LINES, &ROOK_DIRS, &ROOK_MAGICS),
            (BISHOP_LINES, &BISHOP_DIRS, &BISHOP_MAGICS),
        ] {
            for sq in Square::all() {
                let magic = find_magic(sq, lines, dirs, &mut rng);
                assert_eq!(magic, magics[sq.index()], "{sq}");
            }
        }
    }

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
            let i = sq.index() as u32;
            for occ in subsets(relevant_mask(i, ROOK_LINES)) {
                assert_eq!(rook(sq, Bitboard(occ)).0, ray_attacks(sq, occ, &ROOK_DIRS));
            }
            for occ in subsets(relevant_mask(i, BISHOP_LINES)) {
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
    fn piece_attacks_by_role() {
        let d4 = Square::parse("d4").unwrap();
        let occ = Bitboard::from_square(Square::parse("d6").unwrap());
        let count = |role, color| piece(role, color, d4, occ).count();
        assert_eq!(count(Role::Pawn, Color::White), 2);
        assert_eq!(
            piece(Role::Pawn, Color::Black, d4, occ),
            pawn(Color::Black, d4)
        );
        assert_eq!(count(Role::Knight, Color::White), 8);
        assert_eq!(count(Role::Bishop, Color::White), 13);
        assert_eq!(count(Role::Rook, Color::White), 12);
        assert_eq!(count(Role::Queen, Color::White), 25);
        assert_eq!(count(Role::King, Color::White), 8);
        assert_eq!(count(Role::Helgi, Color::Black), 33);
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
