//! Training chess's evaluation network (`eval::nnue`) on `volkhv datagen`
//! files: mini-batch Adam on the mean squared error between `σ(K·e/400)`
//! and the blended target `λ·σ(K·s/400) + (1−λ)·r` (the same model and
//! labels as the Texel tuner, with the network's evaluation `e` in place of
//! the hand-written one), in `f32`, then quantised to the embedded file
//! format.
//!
//! `K` is fitted on the hand-written evaluation first (as `volkhv-tune`
//! does), so the network learns the centipawn scale the search's margins
//! were set in.

use crate::sigmoid;
use eval::nnue::{input_index, HIDDEN, INPUTS, MAGIC, QA, QB};
use movegen::{Chess, Color, Position, Role};
use rayon::prelude::*;
use std::path::PathBuf;

/// Most pieces on a chess board.
const MAX_PIECES: usize = 32;
/// Offsets in the flat parameter vector.
const BIAS: usize = INPUTS * HIDDEN;
const OUTPUT: usize = BIAS + HIDDEN;
const OUTPUT_BIAS: usize = OUTPUT + 2 * HIDDEN;
const PSQT: usize = OUTPUT_BIAS + 1;
/// Parameters in all.
pub const PARAMETERS: usize = PSQT + INPUTS;
/// Output weights stay where `i16` products cannot overflow after
/// quantisation (|w| · QB ≤ 127).
const OUTPUT_CLIP: f32 = 127.0 / QB as f32;

/// One training position: both views' inputs and White's labels.
#[derive(Clone, Debug)]
pub struct Sample {
    inputs: [[u16; MAX_PIECES]; 2],
    pieces: u8,
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
    pub fn new(pos: &Chess, score: i32, result: f64) -> Sample {
        let board = pos.board();
        let mut inputs = [[0u16; MAX_PIECES]; 2];
        let mut pieces = 0;
        for color in Color::ALL {
            for role in Role::CHESS {
                for sq in board.pieces(color, role) {
                    for view in Color::ALL {
                        inputs[view.index()][pieces] = input_index(view, color, role, sq) as u16;
                    }
                    pieces += 1;
                }
            }
        }
        let hce = crate::white_view(eval::chess::evaluate_board(board, pos.turn()), pos.turn());
        Sample {
            inputs,
            pieces: pieces as u8,
            white_to_move: pos.turn() == Color::White,
            score: score as f32,
            result: result as f32,
            hce: hce as f32,
        }
    }

    /// The same position with the board mirrored left to right (castling
    /// rights are not an input, so the labels carry over).
    #[must_use]
    pub fn mirrored(&self) -> Sample {
        let mut m = self.clone();
        for view in &mut m.inputs {
            view.iter_mut().for_each(|i| *i ^= 7);
        }
        m
    }

    fn views(&self) -> (&[u16], &[u16]) {
        let n = usize::from(self.pieces);
        let (w, b) = (&self.inputs[0][..n], &self.inputs[1][..n]);
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

/// Reads `volkhv datagen` chess files (at most `limit` positions).
///
/// # Errors
/// An unreadable file or a bad line (file and line named).
pub fn load(paths: &[PathBuf], limit: Option<usize>) -> Result<Vec<Sample>, String> {
    let mut lines = Vec::new();
    for path in paths {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        for (n, line) in text.lines().enumerate() {
            if !line.starts_with('#') && !line.trim().is_empty() {
                lines.push((path, n + 1, line.to_string()));
            }
            if limit.is_some_and(|l| lines.len() >= l) {
                break;
            }
        }
    }
    lines
        .par_iter()
        .map(|(path, n, line)| {
            let at = |e: &str| format!("{}:{n}: {e}", path.display());
            let r = records::Record::parse(line).map_err(|e| at(&e))?;
            let pos = Chess::from_fen(&r.fen).map_err(|e| at(&e.to_string()))?;
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

/// The network in floating point, with Adam's moments.
pub struct Trainer {
    params: Vec<f32>,
    m: Vec<f32>,
    v: Vec<f32>,
    steps: i32,
    settings: Settings,
    rng: u64,
}

impl Trainer {
    /// A network with small seeded random weights.
    #[must_use]
    pub fn new(settings: Settings) -> Trainer {
        let mut rng = settings.seed | 1;
        let mut params = vec![0.0f32; PARAMETERS];
        for (i, p) in params.iter_mut().enumerate() {
            let u = (next(&mut rng) >> 11) as f32 / (1u64 << 53) as f32 - 0.5;
            *p = match i {
                _ if i < BIAS => u * 0.2,
                _ if i < OUTPUT => 0.0,
                _ if i < OUTPUT_BIAS && !settings.residual => u * 0.2,
                _ if i >= PSQT && !settings.residual => material_start(i - PSQT),
                _ => 0.0,
            };
        }
        Trainer {
            params,
            m: vec![0.0; PARAMETERS],
            v: vec![0.0; PARAMETERS],
            steps: 0,
            settings,
            rng,
        }
    }

    /// The float network's evaluation for the side to move, in units of
    /// `SCALE` centipawns, with the hidden layer's pre-activations.
    fn forward(&self, s: &Sample, us: &mut [f32], them: &mut [f32]) -> f32 {
        let p = &self.params;
        let (ours, theirs) = s.views();
        for (acc, inputs) in [(&mut *us, ours), (&mut *them, theirs)] {
            acc.copy_from_slice(&p[BIAS..OUTPUT]);
            for &i in inputs {
                let row = &p[usize::from(i) * HIDDEN..][..HIDDEN];
                acc.iter_mut().zip(row).for_each(|(a, w)| *a += w);
            }
        }
        let out = &p[OUTPUT..OUTPUT_BIAS];
        let act = |a: f32| a.clamp(0.0, 1.0).powi(2);
        let psqt = &p[PSQT..];
        let linear = ours.iter().map(|&i| psqt[usize::from(i)]).sum::<f32>()
            - theirs.iter().map(|&i| psqt[usize::from(i)]).sum::<f32>();
        us.iter()
            .zip(&out[..HIDDEN])
            .map(|(&a, w)| act(a) * w)
            .sum::<f32>()
            + them
                .iter()
                .zip(&out[HIDDEN..])
                .map(|(&a, w)| act(a) * w)
                .sum::<f32>()
            + p[OUTPUT_BIAS]
            + linear / 2.0
    }

    /// What the network's output is added to, in its units.
    fn base(&self, s: &Sample) -> f32 {
        if !self.settings.residual {
            0.0
        } else if s.white_to_move {
            s.hce / eval::nnue::SCALE as f32
        } else {
            -s.hce / eval::nnue::SCALE as f32
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
        let p = &self.params;
        grad[OUTPUT_BIAS] += g;
        for &i in ours {
            grad[PSQT + usize::from(i)] += g / 2.0;
        }
        for &i in theirs {
            grad[PSQT + usize::from(i)] -= g / 2.0;
        }
        for (half, (acc, inputs)) in [(&*us, ours), (&*them, theirs)].into_iter().enumerate() {
            let out_w = &p[OUTPUT + half * HIDDEN..][..HIDDEN];
            let mut d = [0.0f32; HIDDEN];
            for j in 0..HIDDEN {
                let a = acc[j].clamp(0.0, 1.0);
                grad[OUTPUT + half * HIDDEN + j] += g * a * a;
                if acc[j] > 0.0 && acc[j] < 1.0 {
                    d[j] = g * out_w[j] * 2.0 * a;
                }
            }
            grad[BIAS..OUTPUT]
                .iter_mut()
                .zip(&d)
                .for_each(|(x, y)| *x += y);
            for &i in inputs {
                let row = &mut grad[usize::from(i) * HIDDEN..][..HIDDEN];
                row.iter_mut().zip(&d).for_each(|(x, y)| *x += y);
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
                    let mut grad = vec![0.0f32; PARAMETERS];
                    let (mut us, mut them) = ([0.0f32; HIDDEN], [0.0f32; HIDDEN]);
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
        let lr =
            self.settings.lr * (1.0 - B2.powi(self.steps)).sqrt() / (1.0 - B1.powi(self.steps));
        let scale = 1.0 / n as f32;
        let decay = self.settings.weight_decay;
        let params = self.params.par_iter_mut().zip(&mut self.m).zip(&mut self.v);
        params
            .zip(grad)
            .enumerate()
            .for_each(|(i, (((p, m), v), g))| {
                let g = g * scale;
                *m = B1 * *m + (1.0 - B1) * g;
                *v = B2 * *v + (1.0 - B2) * g * g;
                *p -= lr * (*m / (v.sqrt() + 1e-8) + decay * *p);
                if (OUTPUT..OUTPUT_BIAS).contains(&i) {
                    *p = p.clamp(-OUTPUT_CLIP, OUTPUT_CLIP);
                }
            });
    }

    /// The float network's evaluation of `pos` in centipawns for the side
    /// to move (what the quantised file should reproduce).
    #[must_use]
    pub fn evaluate(&self, pos: &Chess) -> f32 {
        let s = Sample::new(pos, 0, 0.5);
        let (mut us, mut them) = ([0.0f32; HIDDEN], [0.0f32; HIDDEN]);
        (self.forward(&s, &mut us, &mut them) + self.base(&s)) * eval::nnue::SCALE as f32
    }

    /// Mean loss on `data` without training, against the target with
    /// `lambda` (the training target's, or 0 for the results alone).
    #[must_use]
    pub fn loss(&self, data: &[Sample], lambda: f32) -> f64 {
        let k = self.settings.k;
        data.par_iter()
            .map_init(
                || ([0.0f32; HIDDEN], [0.0f32; HIDDEN]),
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

    /// The network quantised to `eval::nnue`'s file layout.
    #[must_use]
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = MAGIC.to_vec();
        out.extend_from_slice(&(HIDDEN as u32).to_le_bytes());
        let q = |x: f32, scale: i32| -> i16 {
            (x * scale as f32)
                .round()
                .clamp(f32::from(i16::MIN), f32::from(i16::MAX)) as i16
        };
        for (i, &p) in self.params[..OUTPUT_BIAS].iter().enumerate() {
            let scale = if i < OUTPUT { QA } else { QB };
            out.extend_from_slice(&q(p, scale).to_le_bytes());
        }
        for &p in &self.params[OUTPUT_BIAS..] {
            let v = (p * (QA * QB) as f32).round() as i32;
            out.extend_from_slice(&v.to_le_bytes());
        }
        out
    }
}

/// The linear term's start: material, in the output's units (positive
/// for the viewer's pieces).
fn material_start(input: usize) -> f32 {
    const VALUES: [f32; 6] = [100.0, 320.0, 330.0, 500.0, 950.0, 0.0];
    let sign = if input < 384 { 1.0 } else { -1.0 };
    sign * VALUES[input % 384 / 64] / eval::nnue::SCALE as f32
}

/// xorshift64*.
fn next(state: &mut u64) -> u64 {
    *state ^= *state >> 12;
    *state ^= *state << 25;
    *state ^= *state >> 27;
    state.wrapping_mul(0x2545_f491_4f6c_dd1d)
}
