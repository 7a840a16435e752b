//! `volkhv-tune wdl`: fits a variant's win/draw/loss model
//! ([`eval::wdl::WdlModel`]) to `volkhv datagen` files, whose lines hold
//! the search's score and the game's result, and says how much better it
//! predicts the results than the constant model (the data's own win, draw
//! and loss rates) by the mean log-loss on positions held out of the fit.

use eval::wdl::WdlModel;
use std::path::Path;

/// One labelled position: score and result from White's view (the model
/// is the same for both sides), and the ply.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sample {
    /// Search score, centipawns, White's view.
    pub cp: f64,
    /// The game's ply at the position.
    pub ply: u32,
    /// 1.0, 0.5 or 0.0 for White.
    pub result: f64,
}

/// Every `held_out_every`-th sample is kept out of the fit.
pub const HELD_OUT_EVERY: usize = 10;
/// The smallest probability a log-loss is charged for (a certain
/// prediction that is wrong costs this, not infinity).
const FLOOR: f64 = 1e-9;

/// Reads one `FEN | score | result` line; `Ok(None)` for a comment or an
/// empty line.
///
/// # Errors
/// A line that is not in the format.
pub fn parse_line(line: &str) -> Result<Option<Sample>, String> {
    let line = line.trim();
    if line.is_empty() || line.starts_with('#') {
        return Ok(None);
    }
    let parts: Vec<&str> = line.split('|').map(str::trim).collect();
    let [fen, score, result] = parts[..] else {
        return Err("expected `FEN | score | result`".to_string());
    };
    let fields: Vec<&str> = fen.split_whitespace().collect();
    let black = match fields.get(1) {
        Some(&"w") => 0,
        Some(&"b") => 1,
        _ => return Err("the FEN has no side to move".to_string()),
    };
    let fullmoves: u32 = fields.get(5).and_then(|f| f.parse().ok()).unwrap_or(1);
    let cp: f64 = score
        .parse()
        .map_err(|_| format!("bad score \"{score}\""))?;
    let result: f64 = result
        .parse()
        .map_err(|_| format!("bad result \"{result}\""))?;
    if ![0.0, 0.5, 1.0].contains(&result) {
        return Err(format!("result {result} is not 0, 0.5 or 1"));
    }
    Ok(Some(Sample {
        cp,
        ply: fullmoves.saturating_sub(1) * 2 + black,
        result,
    }))
}

/// Every sample of the files.
///
/// # Errors
/// An unreadable file, or a bad line (`FILE:LINE: reason`).
pub fn load(paths: &[impl AsRef<Path>]) -> Result<Vec<Sample>, String> {
    let mut out = Vec::new();
    for path in paths {
        let path = path.as_ref();
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        for (i, line) in text.lines().enumerate() {
            let s = parse_line(line).map_err(|e| format!("{}:{}: {e}", path.display(), i + 1))?;
            out.extend(s);
        }
    }
    Ok(out)
}

/// The probability a model gave to what happened.
fn likelihood(m: &WdlModel, s: &Sample) -> f64 {
    let (w, d, l) = m.probabilities(s.cp, s.ply);
    let p = if s.result == 1.0 {
        w
    } else if s.result == 0.0 {
        l
    } else {
        d
    };
    p.max(FLOOR)
}

/// Mean log-loss (natural log) of a model.
#[must_use]
pub fn log_loss(m: &WdlModel, data: &[Sample]) -> f64 {
    let sum: f64 = data.iter().map(|s| -likelihood(m, s).ln()).sum();
    sum / data.len().max(1) as f64
}

/// The constant model's rates `(win, draw, loss)` for White in `data`.
#[must_use]
pub fn rates(data: &[Sample]) -> (f64, f64, f64) {
    let n = data.len().max(1) as f64;
    let count = |r: f64| data.iter().filter(|s| s.result == r).count() as f64 / n;
    (count(1.0), count(0.5), count(0.0))
}

/// Mean log-loss of predicting `rates` for every sample.
#[must_use]
pub fn constant_log_loss(rates: (f64, f64, f64), data: &[Sample]) -> f64 {
    let (w, d, l) = rates;
    let sum: f64 = data
        .iter()
        .map(|s| {
            let p = if s.result == 1.0 {
                w
            } else if s.result == 0.0 {
                l
            } else {
                d
            };
            -p.max(FLOOR).ln()
        })
        .sum();
    sum / data.len().max(1) as f64
}

fn to_model(x: &[f64; 4]) -> WdlModel {
    WdlModel {
        a0: x[0],
        a1: x[1],
        b0: x[2],
        b1: x[3],
    }
}

/// The model of least log-loss on `data` (Nelder–Mead from a typical
/// start: the loss is smooth in the four numbers and cheap to evaluate).
#[must_use]
pub fn fit(data: &[Sample]) -> WdlModel {
    // Models whose `a` or `b` the clamps of `WdlModel::params` would
    // change somewhere are refused: the clamped region is flat, and a
    // search that wanders into it reports numbers that mean nothing.
    let cap = f64::from(eval::wdl::PLY_CAP) / eval::wdl::PLY_SCALE;
    let f = |x: &[f64; 4]| {
        let ends = [(x[0], x[2]), (x[0] + x[1] * cap, x[2] + x[3] * cap)];
        if ends.iter().any(|&(a, b)| a < 0.0 || b < 10.0) {
            return f64::INFINITY;
        }
        log_loss(&to_model(x), data)
    };
    let start = [150.0, 0.0, 100.0, 0.0];
    let steps = [50.0, 30.0, 30.0, 20.0];
    let mut simplex: Vec<([f64; 4], f64)> = vec![(start, f(&start))];
    for (i, step) in steps.iter().enumerate() {
        let mut x = start;
        x[i] += step;
        simplex.push((x, f(&x)));
    }
    for _ in 0..2000 {
        simplex.sort_by(|a, b| a.1.total_cmp(&b.1));
        if simplex[4].1 - simplex[0].1 < 1e-10 {
            break;
        }
        let centroid: [f64; 4] =
            std::array::from_fn(|k| simplex[..4].iter().map(|p| p.0[k]).sum::<f64>() / 4.0);
        let worst = simplex[4].0;
        let r = lerp(centroid, worst, -1.0);
        let fr = f(&r);
        if fr < simplex[0].1 {
            let e = lerp(centroid, worst, -2.0);
            let fe = f(&e);
            simplex[4] = if fe < fr { (e, fe) } else { (r, fr) };
        } else if fr < simplex[3].1 {
            simplex[4] = (r, fr);
        } else {
            let c = lerp(centroid, worst, 0.5);
            let fc = f(&c);
            if fc < simplex[4].1 {
                simplex[4] = (c, fc);
            } else {
                let best = simplex[0].0;
                for p in simplex.iter_mut().skip(1) {
                    p.0 = lerp(best, p.0, 0.5);
                    p.1 = f(&p.0);
                }
            }
        }
    }
    simplex.sort_by(|a, b| a.1.total_cmp(&b.1));
    to_model(&simplex[0].0)
}

/// `from + t·(to − from)`, coordinate by coordinate.
fn lerp(from: [f64; 4], to: [f64; 4], t: f64) -> [f64; 4] {
    std::array::from_fn(|k| from[k] + t * (to[k] - from[k]))
}

/// What `volkhv-tune wdl` reports.
#[derive(Clone, Debug)]
pub struct Report {
    /// The fitted model.
    pub model: WdlModel,
    /// Positions fitted on and held out.
    pub fitted: usize,
    /// Positions held out.
    pub held_out: usize,
    /// White's win/draw/loss rates in the fitted part.
    pub rates: (f64, f64, f64),
    /// Held-out log-loss of the model.
    pub loss: f64,
    /// Held-out log-loss of the constant model.
    pub constant_loss: f64,
}

/// Fits on all but every [`HELD_OUT_EVERY`]-th sample and scores both
/// models on those.
#[must_use]
pub fn fit_and_score(all: &[Sample]) -> Report {
    let (mut fit_set, mut held) = (Vec::new(), Vec::new());
    for (i, s) in all.iter().enumerate() {
        if i % HELD_OUT_EVERY == 0 {
            held.push(*s);
        } else {
            fit_set.push(*s);
        }
    }
    let model = fit(&fit_set);
    let rates = rates(&fit_set);
    Report {
        model,
        fitted: fit_set.len(),
        held_out: held.len(),
        rates,
        loss: log_loss(&model, &held),
        constant_loss: constant_log_loss(rates, &held),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use movegen::SplitMix;

    #[test]
    fn reads_datagen_lines() {
        let s = parse_line("8/8/8/8/8/8/8/K6k b - - 3 41 | -120 | 0.0")
            .unwrap()
            .unwrap();
        assert_eq!(
            s,
            Sample {
                cp: -120.0,
                ply: 81,
                result: 0.0
            }
        );
        assert_eq!(parse_line("# comment").unwrap(), None);
        assert!(parse_line("8/8/8/8/8/8/8/K6k w - - 0 1 | x | 1.0").is_err());
        assert!(parse_line("8/8/8/8/8/8/8/K6k w - - 0 1 | 10 | 0.7").is_err());
        assert!(parse_line("no bars").is_err());
    }

    /// Results drawn from a known model are fitted back close to it, and
    /// the fit beats the constant model.
    #[test]
    fn recovers_a_known_model() {
        let truth = WdlModel {
            a0: 180.0,
            a1: -30.0,
            b0: 70.0,
            b1: 20.0,
        };
        let mut rng = SplitMix::new(5);
        let data: Vec<Sample> = (0..40_000)
            .map(|_| {
                let cp = (rng.below(1200) as f64) - 600.0;
                let ply = rng.below(200) as u32;
                let (w, d, _) = truth.probabilities(cp, ply);
                let u = rng.below(1_000_000) as f64 / 1e6;
                let result = if u < w {
                    1.0
                } else if u < w + d {
                    0.5
                } else {
                    0.0
                };
                Sample { cp, ply, result }
            })
            .collect();
        let r = fit_and_score(&data);
        let m = r.model;
        assert!((m.a0 - truth.a0).abs() < 25.0, "{m:?}");
        assert!((m.b0 - truth.b0).abs() < 15.0, "{m:?}");
        assert!(r.loss < r.constant_loss - 0.2, "{r:?}");
    }
}
