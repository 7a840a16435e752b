//! Chess's evaluation network: a correction added to the hand-written
//! evaluation (`chess::evaluate_board`), trained by `volkhv-nnue` on the
//! difference between the search's scores in `volkhv datagen` self-play and
//! that evaluation (see `docs/tuning.md`); embedded from
//! `eval/params/chess.nnue`, or the file `VOLKHV_EVALFILE` names at build
//! time (`make EVALFILE=...`, see `build.rs`). 768 piece-square inputs per side's view, one
//! hidden layer of [`HIDDEN`] units per view (the same weights for both),
//! squared clipped ReLU, one output, plus a linear piece-square term.
//!
//! The evaluation stays a pure function of the board, yet costs little: each
//! thread keeps the accumulators of the board it evaluated last, and the
//! next board (in a search, nearly always a parent, child or sibling) is
//! reached by the few piece-square inputs that differ. Integer additions
//! are exact, so the result is the same as building from an empty board.

use movegen::board::Board;
use movegen::{Bitboard, Color, Role, Square};
use std::cell::RefCell;
use std::sync::LazyLock;

/// Hidden units per view of the chess network (the variants' width is
/// `eval::nets::HIDDEN`): the file says its width, and a file of another
/// width is refused.
pub const HIDDEN: usize = 64;
/// Inputs per view: (ours or theirs) × six roles × 64 squares.
pub const INPUTS: usize = 768;
/// Quantisation of the first layer (an activation of 1.0 is `QA`).
pub const QA: i32 = 255;
/// Quantisation of the output weights.
pub const QB: i32 = 64;
/// Centipawns per unit of the network's output.
pub const SCALE: i32 = 400;
/// The file's first bytes, with the layout's version.
pub const MAGIC: &[u8; 8] = b"VOLKNN02";

/// The quantised network.
pub struct Network {
    /// Input weights, one row of [`HIDDEN`] per input.
    input: Vec<[i16; HIDDEN]>,
    bias: [i16; HIDDEN],
    /// Output weights: the side to move's half, then the other side's.
    output: [[i16; HIDDEN]; 2],
    output_bias: i32,
    /// A linear piece-square term per input, in output units × `QA·QB`,
    /// added straight to the output: material and placement that need no
    /// hidden unit, learnt from few positions.
    psqt: Vec<i32>,
}

/// The embedded network file (chosen by `build.rs`).
const EMBEDDED: &[u8] = include_bytes!(env!("VOLKHV_NET"));

// A network given with `EVALFILE=` is checked here, so a file of another
// layout stops the build rather than the first evaluation.
const _: () = assert!(
    fits_layout(EMBEDDED),
    "the network file (EVALFILE) does not have this build's layout"
);

/// The network in use, read once from the embedded file.
static NETWORK: LazyLock<Network> = LazyLock::new(|| {
    Network::from_bytes(EMBEDDED)
        .expect("the embedded chess network is well formed (checked at compile time)")
});

/// Whether `bytes` passes every check of [`Network::from_bytes`]: magic,
/// width, length and the output weights' range. A `const fn` so the
/// embedded file is checked while compiling.
const fn fits_layout(bytes: &[u8]) -> bool {
    let shorts = (INPUTS + 1 + 2) * HIDDEN;
    let header = MAGIC.len() + 4;
    if bytes.len() != header + shorts * 2 + 4 + INPUTS * 4 {
        return false;
    }
    let mut i = 0;
    while i < MAGIC.len() {
        if bytes[i] != MAGIC[i] {
            return false;
        }
        i += 1;
    }
    let m = MAGIC.len();
    let width = u32::from_le_bytes([bytes[m], bytes[m + 1], bytes[m + 2], bytes[m + 3]]);
    if width as usize != HIDDEN {
        return false;
    }
    let mut at = header + (INPUTS + 1) * HIDDEN * 2;
    while at < header + shorts * 2 {
        let w = i16::from_le_bytes([bytes[at], bytes[at + 1]]);
        if w < -127 || w > 127 {
            return false;
        }
        at += 2;
    }
    true
}

/// The input of `piece` (`color`, `role`) on `sq` as seen by `view`: each
/// side sees the board from its own first rank, its own pieces first.
#[must_use]
#[inline]
pub fn input_index(view: Color, color: Color, role: Role, sq: Square) -> usize {
    let square = match view {
        Color::White => sq.index(),
        Color::Black => sq.index() ^ 56,
    };
    usize::from(color != view) * 384 + role.index() * 64 + square
}

/// The weights of a network file, as every network of this shape stores
/// them (chess's here, the variants' in [`crate::nets`]).
pub(crate) struct Layout<const H: usize> {
    pub(crate) input: Vec<[i16; H]>,
    pub(crate) bias: [i16; H],
    pub(crate) output: [[i16; H]; 2],
    pub(crate) output_bias: i32,
    pub(crate) psqt: Vec<i32>,
}

/// Reads `magic`, the hidden width `H` as a little-endian `u32`, then
/// little-endian `i16`s (`inputs` input rows, hidden biases, output
/// weights), the output bias as an `i32` and one `i32` linear value per
/// input.
///
/// # Errors
/// A wrong magic, width or length, or an output weight too large for the
/// 16-bit products.
pub(crate) fn read_layout<const H: usize>(
    bytes: &[u8],
    magic: &[u8; 8],
    inputs: usize,
) -> Result<Layout<H>, String> {
    let body = bytes.strip_prefix(magic.as_slice()).ok_or_else(|| {
        format!(
            "not a {} network file (bad magic)",
            String::from_utf8_lossy(magic)
        )
    })?;
    let (width, body) = body.split_at_checked(4).ok_or("truncated header")?;
    let width = u32::from_le_bytes(width.try_into().unwrap_or_default()) as usize;
    if width != H {
        return Err(format!("hidden width {width}, this build has {H}"));
    }
    let shorts = (inputs + 1 + 2) * H;
    let expected = shorts * 2 + 4 + inputs * 4;
    if body.len() != expected {
        return Err(format!(
            "{} bytes of weights, the layout has {expected}",
            body.len()
        ));
    }
    let mut values = body[..shorts * 2]
        .chunks_exact(2)
        .map(|c| i16::from_le_bytes([c[0], c[1]]));
    let mut row = || {
        let mut r = [0i16; H];
        r.iter_mut().for_each(|v| *v = values.next().unwrap_or(0));
        r
    };
    let input = (0..inputs).map(|_| row()).collect();
    let bias = row();
    let output = [row(), row()];
    if output.iter().flatten().any(|w| w.abs() > 127) {
        // `activate` multiplies them by up to 255 in 16 bits.
        return Err("an output weight outside -127..=127".to_string());
    }
    let mut ints = body[shorts * 2..]
        .chunks_exact(4)
        .map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]]));
    let output_bias = ints.next().unwrap_or(0);
    Ok(Layout {
        input,
        bias,
        output,
        output_bias,
        psqt: ints.collect(),
    })
}

impl Network {
    /// Reads the file layout: [`MAGIC`], the hidden width as a
    /// little-endian `u32`, then little-endian `i16`s (input weights row by
    /// row, hidden biases, output weights), the output bias as an `i32` and
    /// one `i32` piece-square value per input.
    ///
    /// # Errors
    /// A wrong magic, width or length, or an output weight too large for
    /// the 16-bit products.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, String> {
        let l = read_layout(bytes, MAGIC, INPUTS)?;
        Ok(Network {
            input: l.input,
            bias: l.bias,
            output: l.output,
            output_bias: l.output_bias,
            psqt: l.psqt,
        })
    }

    /// The evaluation in centipawns from `turn`'s view, built from an empty
    /// board.
    #[must_use]
    pub fn evaluate(&self, board: &Board, turn: Color) -> i32 {
        let mut acc = Accumulators::empty(self);
        acc.update(self, board);
        self.output(&acc, turn)
    }

    fn output(&self, acc: &Accumulators, turn: Color) -> i32 {
        let (us, them) = (turn.index(), turn.flip().index());
        let sum =
            activate(&acc.views[us], &self.output[0]) + activate(&acc.views[them], &self.output[1]);
        let linear = (acc.psqt[us] - acc.psqt[them]) / 2;
        (sum / QA + self.output_bias + linear) * SCALE / (QA * QB)
    }
}

/// Both views' hidden sums and linear terms for the board of `pieces`.
#[derive(Clone)]
struct Accumulators {
    /// Squares by colour and role of the board the sums are for.
    pieces: [[u64; 6]; 2],
    views: [[i16; HIDDEN]; 2],
    psqt: [i32; 2],
}

impl Accumulators {
    fn empty(net: &Network) -> Accumulators {
        Accumulators {
            pieces: [[0; 6]; 2],
            views: [net.bias; 2],
            psqt: [0; 2],
        }
    }

    /// Moves the sums to `board` by the inputs that differ, starting again
    /// from the empty board when that is fewer.
    fn update(&mut self, net: &Network, board: &Board) {
        let target = |c: Color, r: Role| board.pieces(c, r).0;
        let mut changed = 0;
        for color in Color::ALL {
            for role in Role::CHESS {
                changed +=
                    (self.pieces[color.index()][role.index()] ^ target(color, role)).count_ones();
            }
        }
        if changed > board.occupied().0.count_ones() {
            *self = Accumulators::empty(net);
        }
        for color in Color::ALL {
            for role in Role::CHESS {
                let was = self.pieces[color.index()][role.index()];
                let now = target(color, role);
                for (bits, sign) in [(was & !now, -1), (now & !was, 1)] {
                    for sq in Bitboard(bits) {
                        self.apply(net, color, role, sq, sign);
                    }
                }
                self.pieces[color.index()][role.index()] = now;
            }
        }
    }

    #[inline]
    fn apply(&mut self, net: &Network, color: Color, role: Role, sq: Square, sign: i32) {
        for view in Color::ALL {
            let input = input_index(view, color, role, sq);
            let (acc, row) = (&mut self.views[view.index()], &net.input[input]);
            if sign > 0 {
                acc.iter_mut()
                    .zip(row)
                    .for_each(|(a, r)| *a = a.wrapping_add(*r));
            } else {
                acc.iter_mut()
                    .zip(row)
                    .for_each(|(a, r)| *a = a.wrapping_sub(*r));
            }
            self.psqt[view.index()] += sign * net.psqt[input];
        }
    }
}

thread_local! {
    /// The accumulators of the last board this thread evaluated.
    static LAST: RefCell<Option<Accumulators>> = const { RefCell::new(None) };
}

/// Σ clamp(a, 0, QA)² · w: squared clipped ReLU and the output layer.
#[inline]
pub(crate) fn activate<const H: usize>(acc: &[i16; H], weights: &[i16; H]) -> i32 {
    acc.iter()
        .zip(weights)
        .map(|(&a, &w)| {
            let v = a.clamp(0, QA as i16);
            // v·w fits 16 bits (255 · 127, the trainer clips w), so it is
            // one 16-bit multiply and one widening multiply-add.
            i32::from(v * w) * i32::from(v)
        })
        .sum()
}

/// Chess's evaluation by the embedded network, in centipawns from `turn`'s
/// view.
#[must_use]
pub fn evaluate(board: &Board, turn: Color) -> i32 {
    let net = &*NETWORK;
    LAST.with_borrow_mut(|last| {
        let acc = last.get_or_insert_with(|| Accumulators::empty(net));
        acc.update(net, board);
        net.output(acc, turn)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use movegen::{Chess, Position};

    #[test]
    fn the_embedded_network_reads() {
        assert!(Network::from_bytes(include_bytes!("../params/chess.nnue")).is_ok());
        assert!(Network::from_bytes(b"VOLKNN02\x80\0\0\0").is_err());
        assert!(Network::from_bytes(b"nonsense").is_err());
        assert!(fits_layout(include_bytes!("../params/chess.nnue")));
        assert!(!fits_layout(b"VOLKNN02\x80\0\0\0"));
        assert!(!fits_layout(b"nonsense"));
        // An output weight out of range: both checks refuse it.
        let mut bad = include_bytes!("../params/chess.nnue").to_vec();
        let at = MAGIC.len() + 4 + (INPUTS + 1) * HIDDEN * 2;
        bad[at..at + 2].copy_from_slice(&200i16.to_le_bytes());
        assert!(!fits_layout(&bad));
        assert!(Network::from_bytes(&bad).is_err());
    }

    #[test]
    fn updating_the_last_board_equals_building_from_empty() {
        // Positions along random games (parents, children and unrelated
        // boards in turn), each evaluated after the one before.
        let positions = volkhv_tests::random_positions::<Chess>(5, 40, 120);
        assert!(positions.len() > 500);
        for pos in positions.iter().chain(positions.iter().rev()) {
            let scratch = NETWORK.evaluate(pos.board(), pos.turn());
            assert_eq!(evaluate(pos.board(), pos.turn()), scratch, "{}", pos.fen());
        }
    }

    #[test]
    fn colour_flip_negates_and_corrections_are_small() {
        let correction = |fen: &str| {
            let pos = Chess::from_fen(fen).unwrap();
            evaluate(pos.board(), pos.turn())
        };
        let start = correction("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        assert!(start.abs() < 40, "{start}");
        let pairs = [(
            "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
            "rnbqkb1r/pppp1ppp/5n2/4p3/4P3/2N5/PPPP1PPP/R1BQKBNR b KQkq - 2 3",
        )];
        for (a, b) in pairs {
            assert_eq!(correction(a), correction(b));
        }
        // A correction, not an evaluation: an extra queen is the
        // hand-written evaluation's to see.
        let up_a_queen = correction("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        assert!(up_a_queen.abs() < 200, "{up_a_queen}");
    }
}
