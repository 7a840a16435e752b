//! Networks for the variants: input features that see PlunderChess's vests
//! and Tavreli's towers, the quantised network that reads them (the chess
//! network's shape: one hidden layer of [`HIDDEN`] units per view, squared
//! clipped ReLU, one output, a linear term per input) and its incremental
//! accumulators. The feature sets are tabled in `docs/networks.md`.
//!
//! A variant's network is a **correction** added to its hand-written
//! evaluation, trained by `volkhv-nnue --variant V` and embedded from
//! `eval/params/<variant>.nnue`. An empty file means no network: the
//! correction is then 0 and the variant plays on its hand-written
//! evaluation alone, which is how a network waits for the SPRT that keeps
//! it.
//!
//! Accumulators are a sum over squares of what each square's content
//! contributes, so a thread keeps the sums of the last position it
//! evaluated and moves them to the next one square by square: it subtracts
//! the inputs of each changed square's old content and adds its new one's.
//! Integer sums are exact, so the result equals a build from the empty
//! board, and the evaluation stays a pure function of the position.

use crate::nnue::{QA, QB, SCALE};
use movegen::{Bitboard, Chess, Color, Plunder, Position, Role, Square, Tavreli, Tower};
use std::cell::RefCell;
use std::sync::LazyLock;

/// Hidden units per view of the variants' networks.
pub const HIDDEN: usize = 64;

/// What a variant's inputs see of its positions: the content of a square
/// and the inputs that content switches on.
pub trait Features: Position {
    /// What stands on one square, as far as the inputs are concerned.
    type Content: Copy + Eq;
    /// An empty square.
    const EMPTY: Self::Content;
    /// Inputs per view.
    const INPUTS: usize;
    /// The network file's first bytes (layout and feature set version).
    const MAGIC: &'static [u8; 8];
    /// Hidden units per view of the variant's network.
    const HIDDEN: usize = HIDDEN;

    /// The squares that are not empty.
    fn occupied(&self) -> Bitboard;

    /// A cheap summary of the board (bitboards) whose comparison with
    /// another's finds the squares that changed; `Default` is the empty
    /// board's. `()` where there is none.
    type Summary: Copy + Default;

    /// This board's summary.
    fn summary(&self) -> Self::Summary;

    /// The squares whose content differs between the boards summarised by
    /// `a` and `b`, or `None` (compare every occupied square).
    fn changed(a: &Self::Summary, b: &Self::Summary) -> Option<Bitboard>;

    /// The content of `sq`.
    fn content(&self, sq: Square) -> Self::Content;

    /// Calls `push` with every input `content` on `sq` switches on in
    /// `view`'s view (each side sees the board from its own first rank,
    /// its own pieces first).
    fn inputs(content: Self::Content, sq: Square, view: Color, push: &mut impl FnMut(usize));

    /// The hand-written evaluation (side to move's view), which the
    /// network corrects.
    fn hand_written(&self) -> i32;

    /// `input` on the board mirrored left to right (inputs are numbered in
    /// blocks of 64 squares, a1 first, unless a variant says otherwise).
    #[must_use]
    fn mirror(input: usize) -> usize {
        input ^ 7
    }

    /// The piece a piece-on-a-square input stands for: whether it is the
    /// viewer's own and the role it moves as (`None` for other inputs).
    /// The trainer starts the linear term of a network alone at material.
    fn input_piece(input: usize) -> Option<(bool, Role)>;
}

/// `input_piece` of the 768 chess-layout inputs.
fn chess_input_piece(input: usize) -> Option<(bool, Role)> {
    (input < crate::nnue::INPUTS)
        .then(|| Role::from_index((input % 384 / 64) as u8).map(|r| (input < 384, r)))
        .flatten()
}

/// `sq` seen from `view`'s first rank.
#[inline]
fn oriented(sq: Square, view: Color) -> usize {
    match view {
        Color::White => sq.index(),
        Color::Black => sq.index() ^ 56,
    }
}

/// 0 for `view`'s own pieces, 1 for the other side's.
#[inline]
fn theirs(color: Color, view: Color) -> usize {
    usize::from(color != view)
}

/// Calls `push` with the inputs of every occupied square of `pos`.
pub fn active_inputs<P: Features>(pos: &P, view: Color, push: &mut impl FnMut(usize)) {
    for sq in pos.occupied() {
        P::inputs(pos.content(sq), sq, view, push);
    }
}

/// Chess, as `eval::nnue` sees it (768 piece-square inputs), so that the
/// trainer handles every variant alike; chess plays with `eval::nnue`.
impl Features for Chess {
    /// `1 + colour·6 + role`, 0 when empty.
    type Content = u8;
    const EMPTY: u8 = 0;
    const INPUTS: usize = crate::nnue::INPUTS;
    const MAGIC: &'static [u8; 8] = crate::nnue::MAGIC;
    const HIDDEN: usize = crate::nnue::HIDDEN;

    fn occupied(&self) -> Bitboard {
        self.board().occupied()
    }

    type Summary = ();

    fn summary(&self) {}

    fn changed((): &(), (): &()) -> Option<Bitboard> {
        None
    }

    fn content(&self, sq: Square) -> u8 {
        self.board()
            .piece_at(sq)
            .map_or(0, |p| 1 + (p.color.index() * 6 + p.role.index()) as u8)
    }

    fn inputs(content: u8, sq: Square, view: Color, push: &mut impl FnMut(usize)) {
        if let Some((color, role)) = colour_and_role(content) {
            push(crate::nnue::input_index(view, color, role, sq));
        }
    }

    fn hand_written(&self) -> i32 {
        crate::chess::evaluate_board(self.board(), self.turn())
    }

    fn input_piece(input: usize) -> Option<(bool, Role)> {
        chess_input_piece(input)
    }
}

/// The colour and role of a chess or plunder content code.
fn colour_and_role(content: u8) -> Option<(Color, Role)> {
    let code = content.checked_sub(1)? % 12;
    let color = if code < 6 { Color::White } else { Color::Black };
    Some((color, Role::from_index(code % 6)?))
}

/// PlunderChess inputs.
pub mod plunder {
    /// Piece inputs: own or enemy × six roles × 64 squares (as chess).
    pub const PIECES: usize = 768;
    /// Vest inputs: own or enemy × five vests (`P N B R Q`) × 64 squares,
    /// the vest worn by the piece on that square.
    pub const VESTS: usize = 640;
}

impl Features for Plunder {
    /// `1 + colour·6 + role` plus `12 ×` (vest index + 1), 0 when empty.
    type Content = u8;
    const EMPTY: u8 = 0;
    const INPUTS: usize = plunder::PIECES + plunder::VESTS;
    const MAGIC: &'static [u8; 8] = b"VOLKPL01";

    fn occupied(&self) -> Bitboard {
        self.board().occupied()
    }

    /// The squares of each colour and role, then of each vest kind.
    type Summary = [u64; 17];

    fn summary(&self) -> [u64; 17] {
        let mut out = [0; 17];
        for color in Color::ALL {
            for role in Role::CHESS {
                out[color.index() * 6 + role.index()] = self.board().pieces(color, role).0;
            }
        }
        for (i, vest) in [
            Role::Pawn,
            Role::Knight,
            Role::Bishop,
            Role::Rook,
            Role::Queen,
        ]
        .into_iter()
        .enumerate()
        {
            out[12 + i] = self.vests(vest).0;
        }
        out
    }

    fn changed(a: &[u64; 17], b: &[u64; 17]) -> Option<Bitboard> {
        Some(Bitboard(a.iter().zip(b).fold(0, |d, (x, y)| d | (x ^ y))))
    }

    fn content(&self, sq: Square) -> u8 {
        let Some(p) = self.board().piece_at(sq) else {
            return 0;
        };
        let vest = self.vest_at(sq).map_or(0, |v| v.index() + 1);
        (1 + p.color.index() * 6 + p.role.index() + 12 * vest) as u8
    }

    fn inputs(content: u8, sq: Square, view: Color, push: &mut impl FnMut(usize)) {
        let Some((color, role)) = colour_and_role(content) else {
            return;
        };
        let square = oriented(sq, view);
        let side = theirs(color, view);
        push(side * 384 + role.index() * 64 + square);
        if let Some(vest) = usize::from((content - 1) / 12).checked_sub(1) {
            push(plunder::PIECES + side * 320 + vest * 64 + square);
        }
    }

    fn hand_written(&self) -> i32 {
        crate::plunder::hand_written(self)
    }

    fn input_piece(input: usize) -> Option<(bool, Role)> {
        chess_input_piece(input)
    }
}

/// Tavreli inputs.
pub mod tavreli {
    /// Kinds of tower piece (`TowerPiece::code() & 15`): K Q R B N H, a
    /// pawn promoting to N B R Q H, a promoted pawn moving as N B R Q H.
    pub const KINDS: usize = 16;
    /// Top inputs: own or enemy × 16 kinds × 64 squares: the piece that
    /// owns and moves the tower.
    pub const TOPS: usize = 2 * KINDS * 64;
    /// How many of one colour and kind below the top are told apart:
    /// at least one, at least two.
    pub const COUNT_CAP: usize = 2;
    /// Beneath inputs: own or enemy × 16 kinds × (at least 1, at least 2)
    /// × 64 squares: what lies under the top of that square's tower.
    pub const BENEATH: usize = 2 * KINDS * COUNT_CAP * 64;
    /// The same facts wherever the tower stands: own or enemy × 16 kinds
    /// × (at least 1, at least 2), one count per tower (two towers each
    /// holding an enemy rook switch the input on twice). They learn what a
    /// prisoner is worth from every square's data, which the per-square
    /// inputs alone learn slowly.
    pub const ANYWHERE: usize = 2 * KINDS * COUNT_CAP;

    /// The role a kind moves as (a pawn, promoted or not, is a pawn while
    /// unpromoted; a promoted pawn moves as its piece).
    #[must_use]
    pub fn kind_role(kind: usize) -> movegen::Role {
        movegen::TowerPiece::role_of_kind(kind % KINDS)
    }
}

impl Features for Tavreli {
    type Content = Tower;
    const EMPTY: Tower = Tower::EMPTY;
    const INPUTS: usize = tavreli::TOPS + tavreli::BENEATH + tavreli::ANYWHERE;
    const MAGIC: &'static [u8; 8] = b"VOLKTV01";

    fn occupied(&self) -> Bitboard {
        self.owned(Color::White) | self.owned(Color::Black)
    }

    type Summary = ();

    fn summary(&self) {}

    fn changed((): &(), (): &()) -> Option<Bitboard> {
        None
    }

    fn content(&self, sq: Square) -> Tower {
        self.tower(sq)
    }

    fn inputs(tower: Tower, sq: Square, view: Color, push: &mut impl FnMut(usize)) {
        use tavreli::{COUNT_CAP, KINDS, TOPS};
        let Some(top) = tower.top() else {
            return;
        };
        let square = oriented(sq, view);
        let code =
            |p: movegen::TowerPiece| theirs(p.color(), view) * KINDS + usize::from(p.code() & 15);
        push(code(top) * 64 + square);
        // Bit `c` of `levels[l]`: more than `l` pieces of colour-kind `c`
        // lie beneath the top.
        let mut levels = [0u32; COUNT_CAP];
        for p in tower.iter().take(tower.len() - 1) {
            let bit = 1u32 << code(p);
            levels[1] |= levels[0] & bit;
            levels[0] |= bit;
        }
        for (level, &bits) in levels.iter().enumerate() {
            let mut bits = bits;
            while bits != 0 {
                let c = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                push(TOPS + (c * COUNT_CAP + level) * 64 + square);
                push(TOPS + tavreli::BENEATH + c * COUNT_CAP + level);
            }
        }
    }

    fn hand_written(&self) -> i32 {
        crate::tavreli::hand_written(self)
    }

    fn mirror(input: usize) -> usize {
        if input < tavreli::TOPS + tavreli::BENEATH {
            input ^ 7
        } else {
            input
        }
    }

    fn input_piece(input: usize) -> Option<(bool, Role)> {
        if input >= tavreli::TOPS {
            return None;
        }
        let (side, kind) = (input / 64 / tavreli::KINDS, input / 64 % tavreli::KINDS);
        Some((side == 0, tavreli::kind_role(kind)))
    }
}

/// A variant's quantised network.
pub struct Network {
    /// Input weights, one row of [`HIDDEN`] per input.
    input: Vec<[i16; HIDDEN]>,
    bias: [i16; HIDDEN],
    /// Output weights: the side to move's half, then the other side's.
    output: [[i16; HIDDEN]; 2],
    output_bias: i32,
    /// A linear term per input, in output units × `QA·QB`.
    psqt: Vec<i32>,
}

impl std::fmt::Debug for Network {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Network({} inputs, {HIDDEN} hidden)", self.input.len())
    }
}

impl Network {
    /// Reads the layout of `eval::nnue::Network::from_bytes` with `magic`
    /// in front and `inputs` input rows: the magic, the hidden width as a
    /// little-endian `u32`, `i16`s (input rows, hidden biases, output
    /// weights), the output bias and one linear value per input as `i32`s.
    ///
    /// # Errors
    /// A wrong magic, width or length, or an output weight too large for
    /// the 16-bit products.
    pub fn from_bytes(bytes: &[u8], magic: &[u8; 8], inputs: usize) -> Result<Network, String> {
        let l = crate::nnue::read_layout(bytes, magic, inputs)?;
        Ok(Network {
            input: l.input,
            bias: l.bias,
            output: l.output,
            output_bias: l.output_bias,
            psqt: l.psqt,
        })
    }

    /// The network's output in centipawns for the side to move, built from
    /// an empty board.
    #[must_use]
    pub fn evaluate<P: Features>(&self, pos: &P) -> i32 {
        let mut acc = Accumulators::<P>::empty(self);
        acc.update(self, pos);
        self.output(&acc, pos.turn())
    }

    fn output<P: Features>(&self, acc: &Accumulators<P>, turn: Color) -> i32 {
        let (us, them) = (turn.index(), turn.flip().index());
        let sum = crate::nnue::activate(&acc.views[us], &self.output[0])
            + crate::nnue::activate(&acc.views[them], &self.output[1]);
        let linear = (acc.psqt[us] - acc.psqt[them]) / 2;
        (sum / QA + self.output_bias + linear) * SCALE / (QA * QB)
    }
}

/// An embedded network file: `None` when empty (no network yet).
///
/// # Panics
/// A malformed non-empty file (a test reads every embedded file).
#[must_use]
pub fn embedded(bytes: &[u8], magic: &[u8; 8], inputs: usize) -> Option<Network> {
    if bytes.is_empty() {
        return None;
    }
    match Network::from_bytes(bytes, magic, inputs) {
        Ok(net) => Some(net),
        Err(e) => panic!("the embedded network is malformed: {e}"),
    }
}

/// Both views' hidden sums and linear terms for the position whose square
/// contents are `squares`.
#[derive(Clone)]
pub struct Accumulators<P: Features> {
    squares: [P::Content; 64],
    occupied: Bitboard,
    summary: P::Summary,
    views: [[i16; HIDDEN]; 2],
    psqt: [i32; 2],
    /// Scratch lists of one square's old and new inputs, kept so that an
    /// update allocates nothing.
    was: Vec<u16>,
    now: Vec<u16>,
}

impl<P: Features> Accumulators<P> {
    fn empty(net: &Network) -> Accumulators<P> {
        Accumulators {
            squares: [P::EMPTY; 64],
            occupied: Bitboard::EMPTY,
            summary: P::Summary::default(),
            views: [net.bias; 2],
            psqt: [0; 2],
            was: Vec::with_capacity(160),
            now: Vec::with_capacity(160),
        }
    }

    /// The sums of the empty board.
    fn clear(&mut self, net: &Network) {
        self.squares = [P::EMPTY; 64];
        self.occupied = Bitboard::EMPTY;
        self.summary = P::Summary::default();
        self.views = [net.bias; 2];
        self.psqt = [0; 2];
    }

    /// Moves the sums to `pos` square by square, starting again from the
    /// empty board when fewer squares are occupied than changed.
    fn update(&mut self, net: &Network, pos: &P) {
        let now = pos.occupied();
        let summary = pos.summary();
        let changed = P::changed(&self.summary, &summary).unwrap_or_else(|| {
            (self.occupied | now)
                .filter(|&sq| self.squares[sq.index()] != pos.content(sq))
                .fold(Bitboard::EMPTY, |b, sq| b | Bitboard::from_square(sq))
        });
        if changed.count() > now.count() {
            self.clear(net);
            for sq in now {
                let content = pos.content(sq);
                self.apply_diff(net, sq, P::EMPTY, content);
                self.squares[sq.index()] = content;
            }
        } else {
            for sq in changed {
                let content = pos.content(sq);
                self.apply_diff(net, sq, self.squares[sq.index()], content);
                self.squares[sq.index()] = content;
            }
        }
        self.occupied = now;
        self.summary = summary;
    }

    /// Subtracts the inputs only `old` switches on and adds those only
    /// `new` does (a tower that gains or loses a piece keeps most of its
    /// inputs).
    fn apply_diff(&mut self, net: &Network, sq: Square, old: P::Content, new: P::Content) {
        for view in Color::ALL {
            sorted_inputs::<P>(old, sq, view, &mut self.was);
            sorted_inputs::<P>(new, sq, view, &mut self.now);
            let (acc, psqt) = (&mut self.views[view.index()], &mut self.psqt[view.index()]);
            let (mut a, mut b) = (&self.was[..], &self.now[..]);
            loop {
                let step = match (a.first(), b.first()) {
                    (None, None) => break,
                    (Some(&x), Some(&y)) if x == y => {
                        (a, b) = (&a[1..], &b[1..]);
                        continue;
                    }
                    (Some(&x), Some(&y)) if x < y => (x, -1),
                    (Some(&x), None) => (x, -1),
                    (_, Some(&y)) => (y, 1),
                };
                if step.1 < 0 {
                    a = &a[1..];
                } else {
                    b = &b[1..];
                }
                add_row(acc, psqt, net, usize::from(step.0), step.1);
            }
        }
    }
}

/// Adds (`sign` 1) or subtracts (−1) one input's row and linear term.
#[inline]
fn add_row(acc: &mut [i16; HIDDEN], psqt: &mut i32, net: &Network, input: usize, sign: i32) {
    let row = &net.input[input];
    if sign > 0 {
        acc.iter_mut()
            .zip(row)
            .for_each(|(a, r)| *a = a.wrapping_add(*r));
    } else {
        acc.iter_mut()
            .zip(row)
            .for_each(|(a, r)| *a = a.wrapping_sub(*r));
    }
    *psqt += sign * net.psqt[input];
}

/// The inputs `content` on `sq` switches on in `view`, in increasing
/// order, into `out`.
fn sorted_inputs<P: Features>(content: P::Content, sq: Square, view: Color, out: &mut Vec<u16>) {
    out.clear();
    P::inputs(content, sq, view, &mut |input| out.push(input as u16));
    out.sort_unstable();
}

/// The variants that may carry a network of their own: the embedded file
/// and the thread's last accumulators.
pub trait Embedded: Features + Sized {
    /// The embedded network, `None` while the file is empty.
    fn network() -> Option<&'static Network>;

    /// Runs `f` on this thread's accumulators of the last position.
    fn with_last<R>(f: impl FnOnce(&mut Option<Accumulators<Self>>) -> R) -> R;
}

/// One variant's embedded file, accumulators and `Embedded` impl.
macro_rules! embedded_network {
    ($pos:ty, $file:literal, $net:ident, $last:ident) => {
        static $net: LazyLock<Option<Network>> = LazyLock::new(|| {
            embedded(
                include_bytes!($file),
                <$pos as Features>::MAGIC,
                <$pos as Features>::INPUTS,
            )
        });

        thread_local! {
            static $last: RefCell<Option<Accumulators<$pos>>> = const { RefCell::new(None) };
        }

        impl Embedded for $pos {
            fn network() -> Option<&'static Network> {
                $net.as_ref()
            }

            fn with_last<R>(f: impl FnOnce(&mut Option<Accumulators<$pos>>) -> R) -> R {
                $last.with_borrow_mut(f)
            }
        }
    };
}

embedded_network!(Plunder, "../params/plunder.nnue", PLUNDER_NET, PLUNDER_LAST);
embedded_network!(Tavreli, "../params/tavreli.nnue", TAVRELI_NET, TAVRELI_LAST);

/// The embedded network's correction for `pos` (side to move's view), 0
/// when the variant has no network.
#[must_use]
#[inline]
pub fn correction<P: Embedded>(pos: &P) -> i32 {
    match P::network() {
        Some(net) => evaluate_with(net, pos),
        None => 0,
    }
}

/// `net`'s output for `pos` through this thread's accumulators.
fn evaluate_with<P: Embedded>(net: &Network, pos: &P) -> i32 {
    P::with_last(|last| {
        let acc = last.get_or_insert_with(|| Accumulators::empty(net));
        acc.update(net, pos);
        net.output(acc, pos.turn())
    })
}

#[cfg(test)]
mod tests;
