//! The quantised network every variant's evaluation uses: one hidden layer
//! of units per view (the same weights for both views; how many is the
//! file's, so each variant's network has its own width), squared clipped
//! ReLU, the side to move's half and the other half into one output, plus
//! a linear term per input added straight to the output. Reading it from
//! a file is `file`'s; summing its inputs is `accumulators`'.

use movegen::Color;

/// The width a variant's new network gets unless its [`Features`] says
/// otherwise (`volkhv-nnue --hidden` trains another).
///
/// [`Features`]: super::Features
pub const HIDDEN: usize = 64;
/// The widest hidden layer a file may have (the trainer's scratch arrays
/// hold this many).
pub const MAX_HIDDEN: usize = 512;
/// Quantisation of the first layer (an activation of 1.0 is `QA`).
pub const QA: i32 = 255;
/// Quantisation of the output weights.
pub const QB: i32 = 64;
/// Centipawns per unit of the network's output.
pub const SCALE: i32 = 400;

/// A variant's quantised network.
pub struct Network {
    /// Hidden units per view.
    pub(super) width: usize,
    /// Input weights, one row of `width` per input, row after row.
    pub(super) input: Vec<i16>,
    pub(super) bias: Vec<i16>,
    /// Output weights: the side to move's half, then the other side's.
    pub(super) output: [Vec<i16>; 2],
    pub(super) output_bias: i32,
    /// A linear term per input, in output units × `QA·QB`: material and
    /// placement that need no hidden unit, learnt from few positions.
    pub(super) psqt: Vec<i32>,
}

impl std::fmt::Debug for Network {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Network({} inputs, {} hidden)",
            self.psqt.len(),
            self.width
        )
    }
}

impl Network {
    /// Hidden units per view.
    #[must_use]
    pub fn width(&self) -> usize {
        self.width
    }

    /// The input weights of `input`.
    #[inline]
    pub(super) fn row(&self, input: usize) -> &[i16] {
        &self.input[input * self.width..][..self.width]
    }

    /// The output in centipawns for `turn`, from both views' hidden sums
    /// and linear terms (indexed by colour).
    #[inline]
    pub(super) fn output(&self, views: &[Vec<i16>; 2], psqt: &[i32; 2], turn: Color) -> i32 {
        let (us, them) = (turn.index(), turn.flip().index());
        let sum = activate(&views[us], &self.output[0]) + activate(&views[them], &self.output[1]);
        let linear = (psqt[us] - psqt[them]) / 2;
        (sum / QA + self.output_bias + linear) * SCALE / (QA * QB)
    }
}

/// Σ clamp(a, 0, QA)² · w: squared clipped ReLU and the output layer.
#[inline]
fn activate(acc: &[i16], weights: &[i16]) -> i32 {
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
