//! Training a variant's evaluation network (`eval::nets`, inputs from
//! the variant's [`eval::nets::Features`]) on
//! `volkhv datagen` files, text or binary: mini-batch Adam on the mean squared error between `σ(K·e/400)`
//! and the blended target `λ·σ(K·s/400) + (1−λ)·r` (the same model and
//! labels as the Texel tuner, with the network's evaluation `e` in place of
//! the hand-written one), in `f32`, then quantised to the embedded file
//! format.
//!
//! `K` is fitted on the hand-written evaluation first (as `volkhv-tune`
//! does), so the network learns the centipawn scale the search's margins
//! were set in.

use crate::sigmoid;
use eval::nets::{active_inputs, Features, QA, QB, SCALE};
use movegen::{Color, Role};
use rayon::prelude::*;
use std::path::PathBuf;

/// The widest hidden layer the trainer's scratch arrays hold: the
/// engine's widest.
pub use eval::nets::MAX_HIDDEN;

/// Offsets in the flat parameter vector of a network of `inputs` inputs
/// and `hidden` hidden units per view.
#[derive(Clone, Copy, Debug)]
struct Layout {
    hidden: usize,
    bias: usize,
    output: usize,
    output_bias: usize,
    psqt: usize,
    /// Parameters in all.
    parameters: usize,
}

impl Layout {
    const fn new(inputs: usize, hidden: usize) -> Layout {
        let bias = inputs * hidden;
        let output = bias + hidden;
        let output_bias = output + 2 * hidden;
        let psqt = output_bias + 1;
        Layout {
            hidden,
            bias,
            output,
            output_bias,
            psqt,
            parameters: psqt + inputs,
        }
    }
}

/// Output weights stay where `i16` products cannot overflow after
/// quantisation (|w| · QB ≤ 127).
const OUTPUT_CLIP: f32 = 127.0 / QB as f32;

/// One training position: both views' inputs and White's labels.
#[derive(Clone, Debug)]
pub struct Sample {
    /// White's view's inputs, then Black's (as many).
    inputs: Box<[u16]>,
    white_to_move: bool,
    /// Search score, White's view (centipawns).
    score: f32,
    /// Game result for White.
    result: f32,
    /// The hand-written evaluation, White's view, for comparison.
    hce: f32,
}

impl Sample {
    /// The position's inputs and labels.
    #[must_use]
    pub fn new<P: Features>(pos: &P, score: i32, result: f64) -> Sample {
        let mut inputs = Vec::with_capacity(64);
        for view in Color::ALL {
            active_inputs(pos, view, &mut |i| inputs.push(i as u16));
        }
        let hce = crate::white_view(pos.hand_written(), pos.turn());
        Sample {
            inputs: inputs.into_boxed_slice(),
            white_to_move: pos.turn() == Color::White,
            score: score as f32,
            result: result as f32,
            hce: hce as f32,
        }
    }

    /// The same position with the board mirrored left to right (castling
    /// rights are not an input, so the labels carry over).
    #[must_use]
    pub fn mirrored<P: Features>(&self) -> Sample {
        let mut m = self.clone();
        m.inputs
            .iter_mut()
            .for_each(|i| *i = P::mirror(usize::from(*i)) as u16);
        m
    }

    fn views(&self) -> (&[u16], &[u16]) {
        let (w, b) = self.inputs.split_at(self.inputs.len() / 2);
        if self.white_to_move {
            (w, b)
        } else {
            (b, w)
        }
    }

    /// The target for the side to move.
    fn target(&self, k: f32, lambda: f32) -> f32 {
        let (score, result) = if self.white_to_move {
            (self.score, self.result)
        } else {
            (-self.score, 1.0 - self.result)
        };
        lambda * sigmoid32(k * score / 400.0) + (1.0 - lambda) * result
    }
}

fn sigmoid32(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// Reads `volkhv datagen` files of variant `P`, text or binary (at most
/// `limit` positions).
///
/// # Errors
/// An unreadable file, data of another variant or a bad position (file
/// and line or record named).
pub fn load<P: Features>(paths: &[PathBuf], limit: Option<usize>) -> Result<Vec<Sample>, String> {
    crate::data::read(paths, P::VARIANT, limit)?
        .par_iter()
        .map(|raw| {
            let r = raw.record()?;
            let pos = P::from_fen(&r.fen).map_err(|e| raw.at(&e.to_string()))?;
            Ok(Sample::new(&pos, r.score, r.result))
        })
        .collect()
}

/// `K` that best predicts the results from the hand-written evaluation
/// (golden-section search, as `volkhv-tune` fits it).
#[must_use]
pub fn fit_k(data: &[Sample]) -> f32 {
    let loss = |k: f64| -> f64 {
        data.par_iter()
            .map(|s| {
                let p = sigmoid(k * f64::from(s.hce) / 400.0);
                (p - f64::from(s.result)).powi(2)
            })
            .sum::<f64>()
            / data.len().max(1) as f64
    };
    let (mut a, mut b) = (0.05f64, 10.0f64);
    let g = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..60 {
        let c = b - g * (b - a);
        let d = a + g * (b - a);
        if loss(c) < loss(d) {
            b = d;
        } else {
            a = c;
        }
    }
    ((a + b) / 2.0) as f32
}

/// The hand-written evaluation's loss on `data` with the same target.
#[must_use]
pub fn hce_loss(data: &[Sample], k: f32, lambda: f32) -> f64 {
    data.par_iter()
        .map(|s| {
            let hce = if s.white_to_move { s.hce } else { -s.hce };
            f64::from((sigmoid32(k * hce / 400.0) - s.target(k, lambda)).powi(2))
        })
        .sum::<f64>()
        / data.len().max(1) as f64
}

/// Training settings.
#[derive(Clone, Copy, Debug)]
pub struct Settings {
    pub k: f32,
    pub lambda: f32,
    pub lr: f32,
    pub batch: usize,
    pub seed: u64,
    /// Train a correction added to the hand-written evaluation.
    pub residual: bool,
    /// Decoupled weight decay per step (AdamW), as a fraction of the step
    /// size: pulls weights the data do not hold up back towards zero.
    pub weight_decay: f32,
}

/// How the step size moves over a run. `Step` keeps the step size the
/// caller sets (the binary cuts it to a tenth for the last quarter of the
/// epochs); `Cosine` rises linearly over `warmup` steps, then falls along
/// half a cosine to [`COSINE_FLOOR`] of it at the last of `total` steps.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Schedule {
    Step,
    Cosine { warmup: u64, total: u64 },
}

/// The fraction of the step size a cosine schedule ends at: a little
/// movement is left for the last batches instead of none.
pub const COSINE_FLOOR: f32 = 0.01;

impl Schedule {
    /// The fraction of the set step size used at `step` (1-based).
    #[must_use]
    pub fn factor(self, step: u64) -> f32 {
        match self {
            Schedule::Step => 1.0,
            Schedule::Cosine { warmup, total } => {
                if step <= warmup {
                    return step as f32 / warmup.max(1) as f32;
                }
                let span = total.saturating_sub(warmup).max(1);
                let progress = ((step - warmup) as f32 / span as f32).min(1.0);
                let cosine = 0.5 * (1.0 + (std::f32::consts::PI * progress).cos());
                COSINE_FLOOR + (1.0 - COSINE_FLOOR) * cosine
            }
        }
    }
}

/// The network in floating point, with Adam's moments.
pub struct Trainer {
    layout: Layout,
    magic: [u8; 8],
    params: Vec<f32>,
    m: Vec<f32>,
    v: Vec<f32>,
    steps: i32,
    schedule: Schedule,
    settings: Settings,
    rng: u64,
}

impl Trainer {
    /// A network of `P`'s inputs and width with small seeded random weights.
    #[must_use]
    pub fn new<P: Features>(settings: Settings) -> Trainer {
        Trainer::with_width::<P>(settings, P::HIDDEN)
    }

    /// A network of `P`'s inputs and `hidden` units per view (at most
    /// [`MAX_HIDDEN`]; the engine reads the width its file has).
    ///
    /// # Panics
    /// `hidden` is 0 or above [`MAX_HIDDEN`].
    #[must_use]
    pub fn with_width<P: Features>(settings: Settings, hidden: usize) -> Trainer {
        assert!(
            (1..=MAX_HIDDEN).contains(&hidden),
            "hidden width {hidden} outside 1..={MAX_HIDDEN}"
        );
        let layout = Layout::new(P::INPUTS, hidden);
        let mut rng = settings.seed | 1;
        let mut params = vec![0.0f32; layout.parameters];
        // Inputs that training seldom sees keep their start, which is
        // noise: the more inputs a feature set has, the sparser each is,
        // so the start shrinks with their number (chess's 768: ±0.1).
        let spread = 0.2
            * (eval::nnue::INPUTS as f32 / P::INPUTS as f32)
                .sqrt()
                .min(1.0);
        for (i, p) in params.iter_mut().enumerate() {
            let u = (next(&mut rng) >> 11) as f32 / (1u64 << 53) as f32 - 0.5;
            *p = match i {
                _ if i < layout.bias => u * spread,
                _ if i < layout.output => 0.0,
                _ if i < layout.output_bias && !settings.residual => u * 0.2,
                _ if i >= layout.psqt && !settings.residual => {
                    material_start(P::input_piece(i - layout.psqt))
                }
                _ => 0.0,
            };
        }
        Trainer {
            layout,
            magic: *P::MAGIC,
            params,
            m: vec![0.0; layout.parameters],
            v: vec![0.0; layout.parameters],
            steps: 0,
            schedule: Schedule::Step,
            settings,
            rng,
        }
    }

    /// The network of a file [`Trainer::to_bytes`] wrote (`P`'s magic, any
    /// width up to [`MAX_HIDDEN`]), to train further from: the weights a
    /// network learnt from data that is gone are kept as the new data
    /// moves them. Adam's moments start at zero.
    ///
    /// # Errors
    /// Another variant's magic, a width out of range, or a length that is
    /// not that width's.
    pub fn from_bytes<P: Features>(settings: Settings, bytes: &[u8]) -> Result<Trainer, String> {
        let magic = bytes.get(..8).ok_or("too short for a network")?;
        if magic != P::MAGIC.as_slice() {
            return Err(format!(
                "not a network of this variant (magic {:?})",
                String::from_utf8_lossy(magic)
            ));
        }
        let hidden = bytes
            .get(8..12)
            .map(|w| u32::from_le_bytes(w.try_into().expect("4 bytes")) as usize)
            .filter(|h| (1..=MAX_HIDDEN).contains(h))
            .ok_or("hidden width missing or out of range")?;
        let mut trainer = Trainer::with_width::<P>(settings, hidden);
        let l = trainer.layout;
        let expected = 12 + 2 * l.output_bias + 4 * (l.parameters - l.output_bias);
        if bytes.len() != expected {
            return Err(format!(
                "{} bytes, a network of {hidden} hidden units has {expected}",
                bytes.len()
            ));
        }
        let (small, wide) = bytes[12..].split_at(2 * l.output_bias);
        for (i, (p, b)) in trainer
            .params
            .iter_mut()
            .zip(small.chunks_exact(2))
            .enumerate()
        {
            let scale = if i < l.output { QA } else { QB };
            *p = f32::from(i16::from_le_bytes([b[0], b[1]])) / scale as f32;
        }
        for (p, b) in trainer.params[l.output_bias..]
            .iter_mut()
            .zip(wide.chunks_exact(4))
        {
            *p = i32::from_le_bytes(b.try_into().expect("4 bytes")) as f32 / (QA * QB) as f32;
        }
        Ok(trainer)
    }

    /// This network with `hidden` units per view: the units it has keep
    /// their weights, the new ones start with the seeded random input
    /// weights of a fresh network and output weights of zero, so the wider
    /// network evaluates every position as this one does and training
    /// grows the new units from there (net2net's function-preserving
    /// widening). Adam's moments start at zero.
    ///
    /// # Panics
    /// `hidden` is narrower than this network or above [`MAX_HIDDEN`].
    #[must_use]
    pub fn widened<P: Features>(&self, hidden: usize) -> Trainer {
        let (old, l) = (self.layout, self.layout.hidden);
        assert!(
            hidden >= l,
            "a network of {l} units cannot be narrowed to {hidden}"
        );
        let mut wider = Trainer::with_width::<P>(self.settings, hidden);
        let new = wider.layout;
        let (from, to) = (&self.params, &mut wider.params);
        for input in 0..P::INPUTS {
            to[input * hidden..][..l].copy_from_slice(&from[input * l..][..l]);
        }
        to[new.bias..][..l].copy_from_slice(&from[old.bias..old.output]);
        to[new.output..new.output_bias].fill(0.0);
        for half in 0..2 {
            to[new.output + half * hidden..][..l]
                .copy_from_slice(&from[old.output + half * l..][..l]);
        }
        to[new.output_bias..].copy_from_slice(&from[old.output_bias..]);
        wider.schedule = self.schedule;
        wider
    }

    /// The float network's evaluation for the side to move, in units of
    /// `SCALE` centipawns, with the hidden layer's pre-activations.
    fn forward(&self, s: &Sample, us: &mut [f32], them: &mut [f32]) -> f32 {
        let (p, l) = (&self.params, &self.layout);
        let h = l.hidden;
        let (us, them) = (&mut us[..h], &mut them[..h]);
        let (ours, theirs) = s.views();
        for (acc, inputs) in [(&mut *us, ours), (&mut *them, theirs)] {
            acc.copy_from_slice(&p[l.bias..l.output]);
            for &i in inputs {
                let row = &p[usize::from(i) * h..][..h];
                acc.iter_mut().zip(row).for_each(|(a, w)| *a += w);
            }
        }
        let out = &p[l.output..l.output_bias];
        let act = |a: f32| a.clamp(0.0, 1.0).powi(2);
        let psqt = &p[l.psqt..];
        let linear = ours.iter().map(|&i| psqt[usize::from(i)]).sum::<f32>()
            - theirs.iter().map(|&i| psqt[usize::from(i)]).sum::<f32>();
        us.iter()
            .zip(&out[..h])
            .map(|(&a, w)| act(a) * w)
            .sum::<f32>()
            + them
                .iter()
                .zip(&out[h..])
                .map(|(&a, w)| act(a) * w)
                .sum::<f32>()
            + p[l.output_bias]
            + linear / 2.0
    }

    /// What the network's output is added to, in its units.
    fn base(&self, s: &Sample) -> f32 {
        if !self.settings.residual {
            0.0
        } else if s.white_to_move {
            s.hce / SCALE as f32
        } else {
            -s.hce / SCALE as f32
        }
    }

    /// Adds the gradient of one position's loss to `grad`; returns the loss.
    fn backward(&self, s: &Sample, grad: &mut [f32], us: &mut [f32], them: &mut [f32]) -> f32 {
        let Settings { k, lambda, .. } = self.settings;
        let out = self.forward(s, us, them);
        let pred = sigmoid32(k * (out + self.base(s)));
        let err = pred - s.target(k, lambda);
        let g = 2.0 * err * pred * (1.0 - pred) * k;
        let (ours, theirs) = s.views();
        let (p, l) = (&self.params, &self.layout);
        let h = l.hidden;
        grad[l.output_bias] += g;
        for &i in ours {
            grad[l.psqt + usize::from(i)] += g / 2.0;
        }
        for &i in theirs {
            grad[l.psqt + usize::from(i)] -= g / 2.0;
        }
        for (half, (acc, inputs)) in [(&*us, ours), (&*them, theirs)].into_iter().enumerate() {
            let out_w = &p[l.output + half * h..][..h];
            let mut d = [0.0f32; MAX_HIDDEN];
            let d = &mut d[..h];
            for j in 0..h {
                let a = acc[j].clamp(0.0, 1.0);
                grad[l.output + half * h + j] += g * a * a;
                if acc[j] > 0.0 && acc[j] < 1.0 {
                    d[j] = g * out_w[j] * 2.0 * a;
                }
            }
            grad[l.bias..l.output]
                .iter_mut()
                .zip(&*d)
                .for_each(|(x, y)| *x += y);
            for &i in inputs {
                let row = &mut grad[usize::from(i) * h..][..h];
                row.iter_mut().zip(&*d).for_each(|(x, y)| *x += y);
            }
        }
        err * err
    }

    /// One pass over `data` in shuffled mini-batches; returns the mean loss.
    pub fn epoch(&mut self, data: &[Sample]) -> f64 {
        let mut order: Vec<u32> = (0..data.len() as u32).collect();
        for i in (1..order.len()).rev() {
            let j = (next(&mut self.rng) % (i as u64 + 1)) as usize;
            order.swap(i, j);
        }
        let threads = rayon::current_num_threads().max(1);
        let mut total = 0.0f64;
        for batch in order.chunks(self.settings.batch) {
            let part = batch.len().div_ceil(threads);
            let (grad, loss) = batch
                .par_chunks(part)
                .map(|chunk| {
                    let mut grad = vec![0.0f32; self.layout.parameters];
                    let (mut us, mut them) = ([0.0f32; MAX_HIDDEN], [0.0f32; MAX_HIDDEN]);
                    let loss: f64 = chunk
                        .iter()
                        .map(|&i| {
                            let s = &data[i as usize];
                            f64::from(self.backward(s, &mut grad, &mut us, &mut them))
                        })
                        .sum();
                    (grad, loss)
                })
                .reduce_with(|(mut a, la), (b, lb)| {
                    a.iter_mut().zip(&b).for_each(|(x, y)| *x += y);
                    (a, la + lb)
                })
                .unwrap_or_default();
            total += loss;
            self.step(&grad, batch.len());
        }
        total / data.len().max(1) as f64
    }

    fn step(&mut self, grad: &[f32], n: usize) {
        const B1: f32 = 0.9;
        const B2: f32 = 0.999;
        self.steps += 1;
        let scheduled = self.settings.lr * self.schedule.factor(self.steps as u64);
        let lr = scheduled * (1.0 - B2.powi(self.steps)).sqrt() / (1.0 - B1.powi(self.steps));
        let scale = 1.0 / n as f32;
        let decay = self.settings.weight_decay;
        let outputs = self.layout.output..self.layout.output_bias;
        let params = self.params.par_iter_mut().zip(&mut self.m).zip(&mut self.v);
        params
            .zip(grad)
            .enumerate()
            .for_each(|(i, (((p, m), v), g))| {
                let g = g * scale;
                *m = B1 * *m + (1.0 - B1) * g;
                *v = B2 * *v + (1.0 - B2) * g * g;
                *p -= lr * (*m / (v.sqrt() + 1e-8) + decay * *p);
                if outputs.contains(&i) {
                    *p = p.clamp(-OUTPUT_CLIP, OUTPUT_CLIP);
                }
            });
    }

    /// The float network's evaluation of `pos` in centipawns for the side
    /// to move (what the quantised file should reproduce).
    #[must_use]
    pub fn evaluate<P: Features>(&self, pos: &P) -> f32 {
        let s = Sample::new(pos, 0, 0.5);
        let (mut us, mut them) = ([0.0f32; MAX_HIDDEN], [0.0f32; MAX_HIDDEN]);
        (self.forward(&s, &mut us, &mut them) + self.base(&s)) * SCALE as f32
    }

    /// Mean loss on `data` without training, against the target with
    /// `lambda` (the training target's, or 0 for the results alone).
    #[must_use]
    pub fn loss(&self, data: &[Sample], lambda: f32) -> f64 {
        let k = self.settings.k;
        data.par_iter()
            .map_init(
                || ([0.0f32; MAX_HIDDEN], [0.0f32; MAX_HIDDEN]),
                |(us, them), s| {
                    let pred = sigmoid32(k * (self.forward(s, us, them) + self.base(s)));
                    f64::from((pred - s.target(k, lambda)).powi(2))
                },
            )
            .sum::<f64>()
            / data.len().max(1) as f64
    }

    /// Sets the step size (for a schedule).
    pub fn set_lr(&mut self, lr: f32) {
        self.settings.lr = lr;
    }

    /// Sets how the step size moves from step to step.
    pub fn set_schedule(&mut self, schedule: Schedule) {
        self.schedule = schedule;
    }

    /// Hidden units per view.
    #[must_use]
    pub fn hidden(&self) -> usize {
        self.layout.hidden
    }

    /// The step size the next step uses, before Adam's bias correction.
    #[must_use]
    pub fn current_lr(&self) -> f32 {
        self.settings.lr * self.schedule.factor(self.steps as u64 + 1)
    }

    /// The network quantised to the file layout (`eval::nets`'s, with the
    /// variant's magic).
    #[must_use]
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = self.magic.to_vec();
        out.extend_from_slice(&(self.layout.hidden as u32).to_le_bytes());
        let q = |x: f32, scale: i32| -> i16 {
            (x * scale as f32)
                .round()
                .clamp(f32::from(i16::MIN), f32::from(i16::MAX)) as i16
        };
        let l = &self.layout;
        for (i, &p) in self.params[..l.output_bias].iter().enumerate() {
            let scale = if i < l.output { QA } else { QB };
            out.extend_from_slice(&q(p, scale).to_le_bytes());
        }
        for &p in &self.params[l.output_bias..] {
            let v = (p * (QA * QB) as f32).round() as i32;
            out.extend_from_slice(&v.to_le_bytes());
        }
        out
    }
}

/// The linear term's start: material (`eval::role_value`), in the
/// output's units, positive for the viewer's pieces; 0 for inputs that are
/// not a piece on a square.
fn material_start(piece: Option<(bool, Role)>) -> f32 {
    piece.map_or(0.0, |(own, role)| {
        let sign = if own { 1.0 } else { -1.0 };
        sign * eval::role_value(role) as f32 / SCALE as f32
    })
}

/// xorshift64*.
fn next(state: &mut u64) -> u64 {
    *state ^= *state >> 12;
    *state ^= *state << 25;
    *state ^= *state >> 27;
    state.wrapping_mul(0x2545_f491_4f6c_dd1d)
}
