//! What a network's inputs are: the [`Features`] a variant implements in
//! its own module (chess in `nnue`, PlunderChess in `plunder::features`,
//! Tavreli in `tavreli::features`), and the view conventions they share.

use super::network::HIDDEN;
use movegen::{Bitboard, Color, Position, Role, Square};

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
    /// Hidden units per view of a new network of the variant, the
    /// trainer's default (the engine reads whatever width its file has).
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

/// `sq` seen from `view`'s first rank.
#[inline]
#[must_use]
pub fn oriented(sq: Square, view: Color) -> usize {
    match view {
        Color::White => sq.index(),
        Color::Black => sq.index() ^ 56,
    }
}

/// 0 for `view`'s own pieces, 1 for the other side's.
#[inline]
#[must_use]
pub fn theirs(color: Color, view: Color) -> usize {
    usize::from(color != view)
}

/// The squares on which two summaries made of bitboards differ (a
/// [`Features::changed`] for such summaries).
#[inline]
#[must_use]
pub fn differing(a: &[u64], b: &[u64]) -> Bitboard {
    Bitboard(a.iter().zip(b).fold(0, |d, (x, y)| d | (x ^ y)))
}

/// Calls `push` with the inputs of every occupied square of `pos`.
pub fn active_inputs<P: Features>(pos: &P, view: Color, push: &mut impl FnMut(usize)) {
    for sq in pos.occupied() {
        P::inputs(pos.content(sq), sq, view, push);
    }
}
