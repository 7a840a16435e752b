//! Both views' hidden sums and linear terms, kept per thread and moved
//! from the last position evaluated to the next square by square: the sums
//! are over squares of what each square's content switches on, so only the
//! squares whose content changed are touched. Integer sums are exact, so
//! the result equals a build from the empty board, and the evaluation stays
//! a pure function of the position.

use super::features::Features;
use super::network::Network;
use movegen::{Bitboard, Color, Square};

/// Both views' hidden sums and linear terms for the position whose square
/// contents are `squares`.
#[derive(Clone)]
pub struct Accumulators<P: Features> {
    squares: [P::Content; 64],
    occupied: Bitboard,
    summary: P::Summary,
    /// Each view's hidden sums, as many as the network's width.
    views: [Vec<i16>; 2],
    psqt: [i32; 2],
    /// Scratch lists of one square's old and new inputs, kept so that an
    /// update allocates nothing.
    was: Vec<u16>,
    now: Vec<u16>,
}

impl<P: Features> Accumulators<P> {
    /// The sums of the empty board.
    pub(super) fn empty(net: &Network) -> Accumulators<P> {
        Accumulators {
            squares: [P::EMPTY; 64],
            occupied: Bitboard::EMPTY,
            summary: P::Summary::default(),
            views: [net.bias.clone(), net.bias.clone()],
            psqt: [0; 2],
            was: Vec::with_capacity(160),
            now: Vec::with_capacity(160),
        }
    }

    /// `net`'s output in centipawns for `turn` from these sums.
    #[inline]
    pub(super) fn output(&self, net: &Network, turn: Color) -> i32 {
        net.output(&self.views, &self.psqt, turn)
    }

    fn clear(&mut self, net: &Network) {
        self.squares = [P::EMPTY; 64];
        self.occupied = Bitboard::EMPTY;
        self.summary = P::Summary::default();
        self.views
            .iter_mut()
            .for_each(|v| v.copy_from_slice(&net.bias));
        self.psqt = [0; 2];
    }

    /// Moves the sums to `pos` square by square, starting again from the
    /// empty board when fewer squares are occupied than changed.
    pub(super) fn update(&mut self, net: &Network, pos: &P) {
        debug_assert_eq!(self.views[0].len(), net.width(), "another network's sums");
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
fn add_row(acc: &mut [i16], psqt: &mut i32, net: &Network, input: usize, sign: i32) {
    let row = net.row(input);
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
