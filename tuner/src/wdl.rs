//! `volkhv-tune wdl`: fits a variant's win/draw/loss model
//! ([`eval::wdl::WdlModel`]: `a` and `b` quadratic in the material left and
//! linear in the ply) to `volkhv datagen` files, whose records hold the
//! search's score and the game's result, and says how well it predicts the
//! results of games held out of the fit: the mean log-loss and the
//! calibration by bucket, beside the constant model (the data's own rates),
//! the model the project used before (the ply alone) and the material alone.

use crate::data::{self, Raw};
use eval::wdl::{Stage, WdlModel, MATERIAL_MAX, MIN_SPREAD, PLY_CAP};
use eval::Evaluate;
use rayon::prelude::*;
use std::collections::HashMap;
use std::path::PathBuf;

/// One labelled position: score and result from White's view (the models
/// are the same for both sides), with what the models read of it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sample {
    /// Search score, centipawns, White's view.
    pub cp: f64,
    /// [`Evaluate::wdl_stage`] of the position.
    pub stage: Stage,
    /// 1.0, 0.5 or 0.0 for White.
    pub result: f64,
    /// The game it comes from (a binary record's game index; for text, a
    /// block of [`TEXT_GAME_LINES`] lines), which decides whether it is
    /// held out.
    pub game: u64,
}

/// Games whose index is a multiple of this are held out of the fit.
pub const HELD_OUT_EVERY: u64 = 10;
/// A text file does not say where its games begin: blocks of this many
/// lines stand in for games when holding out.
pub const TEXT_GAME_LINES: usize = 100;
/// Scores beyond this are counted as this when fitting (the models are
/// flat out there, and a few huge scores would only slow the fit down).
const CP_CAP: f64 = 4000.0;
/// The smallest probability a log-loss is charged for (a certain
/// prediction that is wrong costs this, not infinity).
const FLOOR: f64 = 1e-9;

/// Every position of `paths`, which must be `P`'s data.
///
/// # Errors
/// An unreadable file, data of another variant, a bad line or record.
pub fn load<P: Evaluate>(paths: &[PathBuf]) -> Result<Vec<Sample>, String> {
    data::read(paths, P::VARIANT, None)?
        .par_iter()
        .enumerate()
        .map(|(i, raw)| {
            let r = raw.record()?;
            let pos = P::from_fen(&r.fen).map_err(|e| raw.at(&e.to_string()))?;
            let game = match raw {
                Raw::Packed(..) => u64::from(raw.game().unwrap_or(0)),
                Raw::Line(..) => (i / TEXT_GAME_LINES) as u64,
            };
            Ok(Sample {
                cp: f64::from(r.score),
                stage: pos.wdl_stage(),
                result: r.result,
                game,
            })
        })
        .collect()
}

/// Something that gives a sample's `(win, draw, loss)` for White.
pub trait Predict: Sync {
    /// The probabilities.
    fn predict(&self, s: &Sample) -> (f64, f64, f64);
}

impl Predict for WdlModel {
    fn predict(&self, s: &Sample) -> (f64, f64, f64) {
        self.probabilities(s.cp, s.stage)
    }
}

/// The same rates for every position.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Constant(pub (f64, f64, f64));

impl Predict for Constant {
    fn predict(&self, _: &Sample) -> (f64, f64, f64) {
        self.0
    }
}

/// The probability of what happened.
fn of_result((w, d, l): (f64, f64, f64), result: f64) -> f64 {
    if result == 1.0 {
        w
    } else if result == 0.0 {
        l
    } else {
        d
    }
}

/// Mean log-loss (natural log) of a model on `data`.
#[must_use]
pub fn log_loss(m: &impl Predict, data: &[Sample]) -> f64 {
    let sum: f64 = data
        .par_iter()
        .map(|s| -of_result(m.predict(s), s.result).max(FLOOR).ln())
        .sum();
    sum / data.len().max(1) as f64
}

/// White's win/draw/loss rates in `data`.
#[must_use]
pub fn rates(data: &[Sample]) -> (f64, f64, f64) {
    let n = data.len().max(1) as f64;
    let count = |r: f64| data.iter().filter(|s| s.result == r).count() as f64 / n;
    (count(1.0), count(0.5), count(0.0))
}

/// Samples that share a score (rounded to [`CP_STEP`], capped) and a
/// stage (the ply to [`PLY_STEP`]), with their results counted: the fit's
/// loss runs over these, far fewer than the samples.
struct Cell {
    cp: f64,
    stage: Stage,
    counts: [f64; 3],
}

/// The score's rounding in a cell, in centipawns.
const CP_STEP: f64 = 5.0;
/// The ply's rounding in a cell.
const PLY_STEP: u32 = 4;

fn cells(data: &[Sample], material_min: u32) -> Vec<Cell> {
    let mut map: HashMap<(i32, u32, u32), [f64; 3]> = HashMap::new();
    for s in data {
        let cp = (s.cp.clamp(-CP_CAP, CP_CAP) / CP_STEP).round() as i32;
        let material = s.stage.material.clamp(material_min, MATERIAL_MAX);
        let ply = s.stage.ply.min(PLY_CAP) / PLY_STEP;
        let counts = map.entry((cp, material, ply)).or_default();
        counts[result_index(s.result)] += 1.0;
    }
    map.into_iter()
        .map(|((cp, material, ply), counts)| Cell {
            cp: f64::from(cp) * CP_STEP,
            stage: Stage {
                material,
                ply: ply * PLY_STEP + PLY_STEP / 2,
            },
            counts,
        })
        .collect()
}

fn result_index(result: f64) -> usize {
    if result == 1.0 {
        0
    } else if result == 0.5 {
        1
    } else {
        2
    }
}

/// The cells' mean log-loss under `m`.
fn cells_loss(cells: &[Cell], m: &WdlModel) -> f64 {
    let (sum, n) = cells
        .par_iter()
        .map(|c| {
            let (w, d, l) = m.probabilities(c.cp, c.stage);
            let [wins, draws, losses] = c.counts;
            let loss = -(wins * w.max(FLOOR).ln()
                + draws * d.max(FLOOR).ln()
                + losses * l.max(FLOOR).ln());
            (loss, wins + draws + losses)
        })
        .reduce(|| (0.0, 0.0), |x, y| (x.0 + y.0, x.1 + y.1));
    sum / n.max(1.0)
}

/// The point of least `f` near `start` (Nelder–Mead: the losses are smooth
/// in a handful of numbers and cheap to evaluate; `f` returns infinity
/// where a model is refused).
fn minimize(f: impl Fn(&[f64]) -> f64, start: &[f64], steps: &[f64]) -> Vec<f64> {
    let n = start.len();
    let mut simplex: Vec<(Vec<f64>, f64)> = vec![(start.to_vec(), f(start))];
    for (i, step) in steps.iter().enumerate() {
        let mut x = start.to_vec();
        x[i] += step;
        let fx = f(&x);
        simplex.push((x, fx));
    }
    for _ in 0..(1000 * n) {
        simplex.sort_by(|a, b| a.1.total_cmp(&b.1));
        if simplex[n].1 - simplex[0].1 < 1e-10 {
            break;
        }
        let centroid: Vec<f64> = (0..n)
            .map(|k| simplex[..n].iter().map(|p| p.0[k]).sum::<f64>() / n as f64)
            .collect();
        let worst = simplex[n].0.clone();
        let r = lerp(&centroid, &worst, -1.0);
        let fr = f(&r);
        if fr < simplex[0].1 {
            let e = lerp(&centroid, &worst, -2.0);
            let fe = f(&e);
            simplex[n] = if fe < fr { (e, fe) } else { (r, fr) };
        } else if fr < simplex[n - 1].1 {
            simplex[n] = (r, fr);
        } else {
            let c = lerp(&centroid, &worst, 0.5);
            let fc = f(&c);
            if fc < simplex[n].1 {
                simplex[n] = (c, fc);
            } else {
                let best = simplex[0].0.clone();
                for p in simplex.iter_mut().skip(1) {
                    p.0 = lerp(&best, &p.0, 0.5);
                    p.1 = f(&p.0);
                }
            }
        }
    }
    simplex.sort_by(|a, b| a.1.total_cmp(&b.1));
    simplex.swap_remove(0).0
}

/// `from + t·(to − from)`, coordinate by coordinate.
fn lerp(from: &[f64], to: &[f64], t: f64) -> Vec<f64> {
    from.iter().zip(to).map(|(f, g)| f + t * (g - f)).collect()
}

/// The share of positions with less material than a model's
/// `material_min`: below it the data is too thin to fit.
pub const MATERIAL_FLOOR_SHARE: f64 = 0.01;

/// The material of the `MATERIAL_FLOOR_SHARE` quantile of `data`.
#[must_use]
pub fn material_floor(data: &[Sample]) -> u32 {
    let mut m: Vec<u32> = data.iter().map(|s| s.stage.material).collect();
    m.sort_unstable();
    let i = (m.len() as f64 * MATERIAL_FLOOR_SHARE) as usize;
    m.get(i).copied().unwrap_or(0).min(MATERIAL_MAX)
}

/// Most restarts of a fit.
const RESTARTS: usize = 8;

/// What a model may depend on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Inputs {
    /// The ply alone (the model of sessions 22–30).
    Ply,
    /// The material alone (Stockfish's since 2023).
    Material,
    /// Both (the model in use).
    Both,
}

impl Inputs {
    /// Which of the model's eight numbers (`a`'s three, `b`'s three,
    /// `a_ply`, `b_ply`) it fits; the others stay 0.
    fn free(self) -> [bool; 8] {
        let material = self != Inputs::Ply;
        let ply = self != Inputs::Material;
        [true, material, material, true, material, material, ply, ply]
    }
}

fn model_of(x: &[f64; 8], material_min: u32) -> WdlModel {
    WdlModel {
        material_min,
        a: [x[0], x[1], x[2]],
        b: [x[3], x[4], x[5]],
        a_ply: x[6],
        b_ply: x[7],
    }
}

/// `true` if `m` stays inside the clamps of [`WdlModel::params`] at every
/// material and ply (it is linear in the ply, so the ends suffice): the
/// clamped region is flat, and a search that wanders into it reports
/// numbers that mean nothing.
fn inside_clamps(m: &WdlModel) -> bool {
    (m.material_min..=MATERIAL_MAX).all(|material| {
        [0, PLY_CAP].iter().all(|&ply| {
            let (a, b) = m.raw_params(Stage { material, ply });
            a >= 0.0 && b >= MIN_SPREAD
        })
    })
}

/// The model of least log-loss on `data` that reads `inputs`: first `a`
/// and `b` alone (a start that fits any variant's score scale), then the
/// rest, restarted until it stops gaining (a restart gets Nelder–Mead out of
/// a collapsed simplex, which eight numbers make likely).
#[must_use]
pub fn fit(data: &[Sample], inputs: Inputs) -> WdlModel {
    let material_min = material_floor(data);
    let cells = cells(data, material_min);
    let free = inputs.free();
    let full = |x: &[f64], base: &[f64; 8], mask: &[bool; 8]| {
        let mut all = *base;
        let mut it = x.iter();
        for (v, _) in all.iter_mut().zip(mask).filter(|(_, &on)| on) {
            *v = *it.next().unwrap_or(&0.0);
        }
        all
    };
    let loss = |x: &[f64], mask: &[bool; 8], base: &[f64; 8]| {
        let m = model_of(&full(x, base, mask), material_min);
        if !inside_clamps(&m) {
            return f64::INFINITY;
        }
        cells_loss(&cells, &m)
    };
    let flat_mask = [true, false, false, true, false, false, false, false];
    let zero = [0.0; 8];
    let flat = minimize(
        |x| loss(x, &flat_mask, &zero),
        &[100.0, 150.0],
        &[50.0, 100.0],
    );
    let base = full(&flat, &zero, &flat_mask);
    let start: Vec<f64> = (0..8).filter(|&i| free[i]).map(|i| base[i]).collect();
    let steps: Vec<f64> = (0..8)
        .filter(|&i| free[i])
        .map(|i| {
            if i < 3 || i == 6 {
                flat[0] / 2.0 + 10.0
            } else {
                flat[1] / 2.0
            }
        })
        .collect();
    let mut best = start;
    let mut best_loss = f64::INFINITY;
    for _ in 0..RESTARTS {
        let next = minimize(|x| loss(x, &free, &zero), &best, &steps);
        let next_loss = loss(&next, &free, &zero);
        let gained = best_loss - next_loss;
        (best, best_loss) = (next, next_loss);
        if gained < 1e-7 {
            break;
        }
    }
    model_of(&full(&best, &zero, &free), material_min)
}

/// One bucket of a calibration table: positions whose predicted expected
/// score (win + draw/2, White's) fell in it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Bucket {
    /// Positions.
    pub count: usize,
    /// Mean predicted expected score.
    pub predicted: f64,
    /// Mean result.
    pub actual: f64,
}

/// Buckets of the predicted expected score, tenths from 0 to 1.
pub const BUCKETS: usize = 10;

/// The calibration table of a model on `data`.
#[must_use]
pub fn calibration(m: &impl Predict, data: &[Sample]) -> [Bucket; BUCKETS] {
    let mut sums = [(0usize, 0.0f64, 0.0f64); BUCKETS];
    for s in data {
        let (w, d, _) = m.predict(s);
        let e = w + d / 2.0;
        let i = ((e * BUCKETS as f64) as usize).min(BUCKETS - 1);
        sums[i].0 += 1;
        sums[i].1 += e;
        sums[i].2 += s.result;
    }
    sums.map(|(count, p, a)| Bucket {
        count,
        predicted: p / count.max(1) as f64,
        actual: a / count.max(1) as f64,
    })
}

/// One fitted model's quality on the held-out games.
#[derive(Clone, Debug)]
pub struct Scored {
    /// What it reads.
    pub inputs: Inputs,
    /// The model.
    pub model: WdlModel,
    /// Held-out mean log-loss.
    pub loss: f64,
    /// Held-out calibration.
    pub calibration: [Bucket; BUCKETS],
}

/// What `volkhv-tune wdl` reports.
#[derive(Clone, Debug)]
pub struct Report {
    /// The models fitted, the one in use ([`Inputs::Both`]) first.
    pub models: Vec<Scored>,
    /// Positions fitted on.
    pub fitted: usize,
    /// Positions held out (whole games).
    pub held_out: usize,
    /// White's win/draw/loss rates in the fitted part.
    pub rates: (f64, f64, f64),
    /// Held-out log-loss of the constant model.
    pub constant_loss: f64,
}

/// Fits the three models on all games but every [`HELD_OUT_EVERY`]-th and
/// scores them, and the constant model, on those.
#[must_use]
pub fn fit_and_score(all: &[Sample]) -> Report {
    let (held, fit_set): (Vec<Sample>, Vec<Sample>) =
        all.iter().partition(|s| s.game % HELD_OUT_EVERY == 0);
    let rates = rates(&fit_set);
    let models = [Inputs::Both, Inputs::Ply, Inputs::Material]
        .into_iter()
        .map(|inputs| {
            let model = fit(&fit_set, inputs);
            Scored {
                inputs,
                model,
                loss: log_loss(&model, &held),
                calibration: calibration(&model, &held),
            }
        })
        .collect();
    Report {
        models,
        fitted: fit_set.len(),
        held_out: held.len(),
        rates,
        constant_loss: log_loss(&Constant(rates), &held),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use movegen::SplitMix;

    /// Results drawn from a known model are fitted back close to it; it
    /// beats the constant model and the models that read less.
    #[test]
    fn recovers_a_known_model() {
        let truth = WdlModel {
            material_min: 4,
            a: [40.0, 120.0, 0.0],
            b: [30.0, 60.0, 20.0],
            a_ply: 80.0,
            b_ply: 20.0,
        };
        let mut rng = SplitMix::new(5);
        let data: Vec<Sample> = (0..60_000)
            .map(|i| {
                let cp = (rng.below(1200) as f64) - 600.0;
                let stage = Stage {
                    material: 4 + rng.below(76) as u32,
                    ply: rng.below(200) as u32,
                };
                let (w, d, _) = truth.probabilities(cp, stage);
                let u = rng.below(1_000_000) as f64 / 1e6;
                let result = if u < w {
                    1.0
                } else if u < w + d {
                    0.5
                } else {
                    0.0
                };
                Sample {
                    cp,
                    stage,
                    result,
                    game: i / 50,
                }
            })
            .collect();
        let r = fit_and_score(&data);
        let both = &r.models[0];
        assert_eq!(both.inputs, Inputs::Both);
        for material in [10, 30, 60, MATERIAL_MAX] {
            for ply in [0, 100, 200] {
                let stage = Stage { material, ply };
                let (a, b) = both.model.params(stage);
                let (ta, tb) = truth.params(stage);
                assert!((a - ta).abs() < 25.0, "a at {stage:?}: {a} vs {ta}");
                assert!((b - tb).abs() < 15.0, "b at {stage:?}: {b} vs {tb}");
            }
        }
        assert!(both.loss < r.constant_loss - 0.1, "{r:?}");
        assert!(
            r.models[1..].iter().all(|m| both.loss < m.loss - 0.005),
            "{r:?}"
        );
        assert!(r.held_out > 4_000 && r.fitted > 40_000, "{r:?}");
        for b in both.calibration.iter().filter(|b| b.count > 500) {
            assert!((b.predicted - b.actual).abs() < 0.05, "{b:?}");
        }
    }
}
