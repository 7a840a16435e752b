//! Texel tuning of a variant's evaluation weights: logistic regression of
//! game results (optionally blended with the search's scores) on the
//! evaluation, which the eval crate writes as an exact linear function of
//! the weights per position ([`eval::weights::Trace`]).
//!
//! The model: White's evaluation of position `i` with parameters `θ` is
//! `e_i(θ) = (Σ_tapered c·(ρ·θ_mg + (1−ρ)·θ_eg) + Σ_flat c·θ) / divisor`
//! (ρ = phase / 24), its predicted score `σ(K·e_i/400)` with the logistic
//! `σ`, and the loss the mean squared error against the target
//! `t_i = λ·σ(K·s_i/400) + (1−λ)·r_i` (result `r`, search score `s`). `K`
//! is fitted first, on the results and the current evaluation, then held.
//! An optional `l2` term pulls the parameters towards their start values.
//! The gradient is exact (the model is linear inside the sigmoid), summed
//! over the positions in fixed chunks on all threads (so a run is
//! reproducible), and followed by Adam.
//!
//! ```no_run
//! use movegen::Chess;
//! use tuner::{Dataset, Settings, Tuner};
//! let data = Dataset::load::<Chess>(&["chess.txt".into()], None).unwrap();
//! let mut t = Tuner::new::<Chess>(&data, Settings::default());
//! t.fit_k(&data);
//! for _ in 0..100 {
//!     println!("loss {}", t.epoch(&data));
//! }
//! let table = t.table::<Chess>();
//! ```

use eval::pst::{PHASE_MAX, S};
use eval::weights::{Kind, Table, Trace};
use eval::Traceable;
use movegen::Color;
use rayon::prelude::*;
use std::path::PathBuf;
use std::sync::Arc;

pub mod data;
pub mod nnue;
pub mod wdl;

/// Positions per chunk of the parallel loss and gradient (fixed, so the
/// sums are added in the same order whatever the thread count).
const CHUNK: usize = 4096;

/// One position of a dataset: where its terms are and its labels.
#[derive(Clone, Copy, Debug)]
struct Entry {
    /// Terms `start..start + tapered` are blended, the next `flat` are not.
    start: u32,
    tapered: u16,
    flat: u16,
    /// Phase share ρ.
    rho: f32,
    /// `1 / divisor`.
    scale: f32,
    /// Game result for White.
    result: f32,
    /// Search score, White's view (centipawns).
    score: f32,
}

/// Positions ready for tuning: every position's trace, compacted.
#[derive(Clone, Debug, Default)]
pub struct Dataset {
    entries: Vec<Entry>,
    /// `(weight index, coefficient)` of all positions (shared by the
    /// parts [`Dataset::split`] makes).
    terms: Arc<Vec<(u16, i16)>>,
    /// Weights of the table the traces were taken with.
    weights: usize,
}

/// A dataset error: which line of which file, and why.
impl Dataset {
    /// Number of positions.
    #[must_use]
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// `true` if there are no positions.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// A dataset from traces and their labels: `(trace, result for White,
    /// search score for White)`.
    ///
    /// # Errors
    /// If a coefficient or a weight index does not fit the compact form.
    pub fn from_traces(
        weights: usize,
        items: impl IntoIterator<Item = (Trace, f64, i32)>,
    ) -> Result<Dataset, String> {
        let (mut entries, mut terms) = (Vec::new(), Vec::new());
        for (trace, result, score) in items {
            entries.push(compact(&trace, result, score, &mut terms)?);
        }
        Ok(Dataset {
            entries,
            terms: Arc::new(terms),
            weights,
        })
    }

    /// Splits off about `percent`% of the positions for validation, in
    /// blocks of 64 consecutive positions (a datagen file keeps a game's
    /// positions together, so a block is mostly one game and the parts
    /// share few games): `(training, held out)`.
    #[must_use]
    pub fn split(&self, percent: u32) -> (Dataset, Dataset) {
        let part = |held: bool| Dataset {
            entries: self
                .entries
                .chunks(64)
                .enumerate()
                .filter(|(b, _)| {
                    ((*b as u64 * u64::from(percent)) % 100 < u64::from(percent)) == held
                })
                .flat_map(|(_, c)| c.iter().copied())
                .collect(),
            terms: Arc::clone(&self.terms),
            weights: self.weights,
        };
        (part(false), part(true))
    }
}

/// One trace as an entry, its terms appended to `terms`.
fn compact(
    t: &Trace,
    result: f64,
    score: i32,
    terms: &mut Vec<(u16, i16)>,
) -> Result<Entry, String> {
    let start = u32::try_from(terms.len()).map_err(|_| "too many terms".to_string())?;
    for &(i, c) in t.tapered.iter().chain(&t.flat) {
        let i = u16::try_from(i).map_err(|_| format!("weight index {i} too large"))?;
        let c = i16::try_from(c).map_err(|_| format!("coefficient {c} too large"))?;
        terms.push((i, c));
    }
    let count = |n: usize| u16::try_from(n).map_err(|_| "too many terms".to_string());
    Ok(Entry {
        start,
        tapered: count(t.tapered.len())?,
        flat: count(t.flat.len())?,
        rho: t.phase as f32 / PHASE_MAX as f32,
        scale: 1.0 / t.divisor as f32,
        result: result as f32,
        score: score as f32,
    })
}

impl Dataset {
    /// Reads `volkhv datagen` files of variant `P`, text or binary (at
    /// most `limit` positions), tracing every position with the
    /// compiled-in table.
    ///
    /// # Errors
    /// An unreadable file, a header of another variant, or a bad line
    /// (file and line named).
    pub fn load<P: Traceable>(paths: &[PathBuf], limit: Option<usize>) -> Result<Dataset, String> {
        let raw = data::read(paths, P::VARIANT, limit)?;
        let traced: Vec<Result<(Trace, f64, i32), String>> = raw
            .par_iter()
            .map(|raw| {
                let r = raw.record()?;
                let pos = P::from_fen(&r.fen).map_err(|e| raw.at(&e.to_string()))?;
                Ok((pos.trace(), r.result, r.score))
            })
            .collect();
        let traced: Result<Vec<_>, String> = traced.into_iter().collect();
        Dataset::from_traces(P::Table::slots().len(), traced?)
    }
}

/// The logistic function.
#[must_use]
pub fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// How a run is set up.
#[derive(Clone, Debug, PartialEq)]
pub struct Settings {
    /// Adam's step size (centipawns).
    pub lr: f64,
    /// Weight of the search score in the target (0: results only).
    pub lambda: f64,
    /// Fixed `K` instead of fitting it.
    pub k: Option<f64>,
    /// Strength of the pull towards the start values: `l2` times the mean
    /// squared change of the tuned parameters is added to the loss.
    pub l2: f64,
    /// Names (field names) of the only weights tuned; empty: all.
    pub only: Vec<String>,
    /// Field names of weights kept as they are.
    pub freeze: Vec<String>,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            lr: 1.0,
            lambda: 0.0,
            k: None,
            l2: 0.0,
            only: Vec::new(),
            freeze: Vec::new(),
        }
    }
}

/// The field a weight name belongs to (`pst.knight[3]` → `pst`).
fn field_of(name: &str) -> &str {
    name.split(['.', '[']).next().unwrap_or(name)
}

/// A tuning run: the parameters, Adam's moments and the scaling constant.
#[derive(Clone, Debug)]
pub struct Tuner {
    settings: Settings,
    /// Parameter of each weight's middlegame (or only) value.
    mg: Vec<usize>,
    /// Parameter of each weight's endgame value (`mg` if flat).
    eg: Vec<usize>,
    /// The parameters.
    theta: Vec<f64>,
    /// Their start values (what `l2` pulls towards).
    start: Vec<f64>,
    /// Which parameters move.
    free: Vec<bool>,
    m: Vec<f64>,
    v: Vec<f64>,
    steps: i32,
    k: f64,
}

impl Tuner {
    /// A run starting from the compiled-in table of `P`.
    #[must_use]
    pub fn new<P: Traceable>(data: &Dataset, settings: Settings) -> Tuner {
        Tuner::from_table::<P>(P::table(), data, settings)
    }

    /// A run starting from `table`.
    ///
    /// # Panics
    /// If the dataset was traced with another table layout.
    #[must_use]
    pub fn from_table<P: Traceable>(table: &P::Table, data: &Dataset, settings: Settings) -> Tuner {
        let slots = P::Table::slots();
        assert!(
            data.is_empty() || data.weights == slots.len(),
            "the dataset belongs to another table"
        );
        let names = P::Table::names();
        let (mut mg, mut eg, mut theta, mut free) = (vec![], vec![], vec![], vec![]);
        for ((slot, w), name) in slots.iter().zip(table.weights()).zip(&names) {
            let field = field_of(name);
            let tuned = (settings.only.is_empty() || settings.only.iter().any(|f| f == field))
                && !settings.freeze.iter().any(|f| f == field);
            mg.push(theta.len());
            theta.push(f64::from(w.0));
            free.push(tuned);
            if slot.kind == Kind::Tapered {
                eg.push(theta.len());
                theta.push(f64::from(w.1));
                free.push(tuned);
            } else {
                eg.push(theta.len() - 1);
            }
        }
        let n = theta.len();
        Tuner {
            settings,
            mg,
            eg,
            start: theta.clone(),
            theta,
            free,
            m: vec![0.0; n],
            v: vec![0.0; n],
            steps: 0,
            k: 1.0,
        }
    }

    /// The scaling constant in use.
    #[must_use]
    pub fn k(&self) -> f64 {
        self.k
    }

    /// Sets the scaling constant.
    pub fn set_k(&mut self, k: f64) {
        self.k = k;
    }

    /// Parameters tuned (of all).
    #[must_use]
    pub fn free_parameters(&self) -> (usize, usize) {
        (self.free.iter().filter(|&&f| f).count(), self.free.len())
    }

    /// White's evaluation of entry `e` with the current parameters.
    fn eval(&self, data: &Dataset, e: &Entry) -> f64 {
        let start = e.start as usize;
        let tapered = &data.terms[start..start + usize::from(e.tapered)];
        let flat = &data.terms[start + usize::from(e.tapered)..][..usize::from(e.flat)];
        let rho = f64::from(e.rho);
        let mut sum = 0.0;
        for &(w, c) in tapered {
            let w = usize::from(w);
            sum += f64::from(c)
                * (rho * self.theta[self.mg[w]] + (1.0 - rho) * self.theta[self.eg[w]]);
        }
        for &(w, c) in flat {
            sum += f64::from(c) * self.theta[self.mg[usize::from(w)]];
        }
        sum * f64::from(e.scale)
    }

    fn target(&self, e: &Entry, lambda: f64) -> f64 {
        let score = sigmoid(self.k * f64::from(e.score) / 400.0);
        lambda * score + (1.0 - lambda) * f64::from(e.result)
    }

    /// Mean squared error of the predictions with scaling constant `k`
    /// and blend `lambda`.
    fn loss_with(&self, data: &Dataset, k: f64, lambda: f64) -> f64 {
        let probe = Tuner { k, ..self.clone() };
        let sums: Vec<f64> = data
            .entries
            .par_chunks(CHUNK)
            .map(|chunk| {
                chunk
                    .iter()
                    .map(|e| {
                        let d = sigmoid(k * probe.eval(data, e) / 400.0) - probe.target(e, lambda);
                        d * d
                    })
                    .sum()
            })
            .collect();
        sums.iter().sum::<f64>() / data.len().max(1) as f64
    }

    /// The loss now (the pull towards the start included).
    #[must_use]
    pub fn loss(&self, data: &Dataset) -> f64 {
        self.data_loss(data) + self.penalty().0
    }

    /// The mean squared error on `data` alone (for held-out positions).
    #[must_use]
    pub fn data_loss(&self, data: &Dataset) -> f64 {
        self.loss_with(data, self.k, self.settings.lambda)
    }

    /// The `l2` pull: its value and gradient.
    fn penalty(&self) -> (f64, Vec<f64>) {
        let (free, _) = self.free_parameters();
        let scale = self.settings.l2 / free.max(1) as f64;
        let mut grad = vec![0.0; self.theta.len()];
        let mut value = 0.0;
        for (i, g) in grad.iter_mut().enumerate() {
            if self.free[i] {
                let d = self.theta[i] - self.start[i];
                value += scale * d * d;
                *g = 2.0 * scale * d;
            }
        }
        (value, grad)
    }

    /// Fits `K` (unless the settings fix it): the golden-section minimum
    /// over `0.05..10` of the loss against the results alone with the
    /// current weights. Returns it.
    pub fn fit_k(&mut self, data: &Dataset) -> f64 {
        if let Some(k) = self.settings.k {
            self.k = k;
            return k;
        }
        let ratio = (5f64.sqrt() - 1.0) / 2.0;
        let (mut lo, mut hi) = (0.05f64, 10.0f64);
        for _ in 0..60 {
            let a = hi - ratio * (hi - lo);
            let b = lo + ratio * (hi - lo);
            if self.loss_with(data, a, 0.0) < self.loss_with(data, b, 0.0) {
                hi = b;
            } else {
                lo = a;
            }
        }
        self.k = (lo + hi) / 2.0;
        self.k
    }

    /// The loss and its gradient with respect to every parameter.
    fn gradient(&self, data: &Dataset) -> (f64, Vec<f64>) {
        let n = self.theta.len();
        let (k, lambda) = (self.k, self.settings.lambda);
        let parts: Vec<(f64, Vec<f64>)> = data
            .entries
            .par_chunks(CHUNK)
            .map(|chunk| {
                let mut grad = vec![0.0; n];
                let mut loss = 0.0;
                for e in chunk {
                    let p = sigmoid(k * self.eval(data, e) / 400.0);
                    let d = p - self.target(e, lambda);
                    loss += d * d;
                    // d(loss)/d(eval), then through the linear terms.
                    let g = 2.0 * d * p * (1.0 - p) * k / 400.0 * f64::from(e.scale);
                    let start = e.start as usize;
                    let rho = f64::from(e.rho);
                    let terms =
                        &data.terms[start..][..usize::from(e.tapered) + usize::from(e.flat)];
                    for (j, &(w, c)) in terms.iter().enumerate() {
                        let (w, gc) = (usize::from(w), g * f64::from(c));
                        if j < usize::from(e.tapered) {
                            grad[self.mg[w]] += gc * rho;
                            grad[self.eg[w]] += gc * (1.0 - rho);
                        } else {
                            grad[self.mg[w]] += gc;
                        }
                    }
                }
                (loss, grad)
            })
            .collect();
        let mut grad = vec![0.0; n];
        let mut loss = 0.0;
        for (l, g) in parts {
            loss += l;
            for (a, b) in grad.iter_mut().zip(g) {
                *a += b;
            }
        }
        let scale = 1.0 / data.len().max(1) as f64;
        let (pull, pull_grad) = self.penalty();
        for (g, p) in grad.iter_mut().zip(pull_grad) {
            *g = *g * scale + p;
        }
        (loss * scale + pull, grad)
    }

    /// One full-batch Adam step; returns the loss before it.
    pub fn epoch(&mut self, data: &Dataset) -> f64 {
        const BETA1: f64 = 0.9;
        const BETA2: f64 = 0.999;
        const EPSILON: f64 = 1e-8;
        let (loss, grad) = self.gradient(data);
        self.steps += 1;
        let (c1, c2) = (1.0 - BETA1.powi(self.steps), 1.0 - BETA2.powi(self.steps));
        for (i, g) in grad.into_iter().enumerate() {
            if !self.free[i] {
                continue;
            }
            self.m[i] = BETA1 * self.m[i] + (1.0 - BETA1) * g;
            self.v[i] = BETA2 * self.v[i] + (1.0 - BETA2) * g * g;
            let step = self.settings.lr * (self.m[i] / c1) / ((self.v[i] / c2).sqrt() + EPSILON);
            self.theta[i] -= step;
        }
        loss
    }

    /// The weights as they stand, rounded to whole centipawns, in
    /// [`Table::slots`] order.
    #[must_use]
    pub fn weights(&self) -> Vec<S> {
        let round = |x: f64| x.round().clamp(-1e6, 1e6) as i32;
        self.mg
            .iter()
            .zip(&self.eg)
            .map(|(&m, &e)| S(round(self.theta[m]), round(self.theta[e])))
            .collect()
    }

    /// The unrounded parameter of each weight's middlegame and endgame part.
    #[must_use]
    pub fn exact_weights(&self) -> Vec<(f64, f64)> {
        self.mg
            .iter()
            .zip(&self.eg)
            .map(|(&m, &e)| (self.theta[m], self.theta[e]))
            .collect()
    }

    /// The table with the tuned weights (fixed fields from the start table).
    #[must_use]
    pub fn table<P: Traceable>(&self) -> P::Table {
        P::table().with_weights(&self.weights())
    }
}

/// White's evaluation of a trace with exact (unrounded) weights: what the
/// tuner's model predicts before the sigmoid.
#[must_use]
pub fn model_eval(trace: &Trace, weights: &[(f64, f64)]) -> f64 {
    let rho = f64::from(trace.phase) / f64::from(PHASE_MAX);
    let mut sum = 0.0;
    for &(i, c) in &trace.tapered {
        let (mg, eg) = weights[i as usize];
        sum += f64::from(c) * (rho * mg + (1.0 - rho) * eg);
    }
    for &(i, c) in &trace.flat {
        sum += f64::from(c) * weights[i as usize].0;
    }
    sum / f64::from(trace.divisor)
}

/// White's view of a side-to-move score.
#[must_use]
pub fn white_view(v: i32, turn: Color) -> i32 {
    match turn {
        Color::White => v,
        Color::Black => -v,
    }
}
