//! The tuner recovers known weights: positions from seeded random games
//! are labelled with results drawn from the win probabilities of the
//! compiled-in ("true") weights, the weights are perturbed, and tuning
//! must bring them back; `K` fitting must find the labels' constant.

mod common;

use eval::weights::{Kind, Table, Trace};
use eval::Traceable;
use movegen::SplitMix;
use movegen::{Chess, Tavreli};
use tuner::{model_eval, sigmoid, Dataset, Settings, Tuner};

/// The scaling constant the labels are drawn with.
const K_TRUE: f64 = 1.6;

/// Traces of positions from random games of `2..=max_plies` plies.
fn random_traces<P: Traceable>(games: usize, max_plies: usize, rng: &mut SplitMix) -> Vec<Trace> {
    common::random_positions::<P>(games, max_plies, rng)
        .iter()
        .map(Traceable::trace)
        .collect()
}

/// A win (1) or loss (0) for White drawn from the true weights' win
/// probability.
fn labelled<P: Traceable>(traces: Vec<Trace>, rng: &mut SplitMix) -> Dataset {
    let truth: Vec<(f64, f64)> = P::table()
        .weights()
        .iter()
        .map(|s| (f64::from(s.0), f64::from(s.1)))
        .collect();
    let items = traces.into_iter().map(|t| {
        let p = sigmoid(K_TRUE * model_eval(&t, &truth) / 400.0);
        let draw = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
        (t, if draw < p { 1.0 } else { 0.0 }, 0)
    });
    Dataset::from_traces(P::Table::slots().len(), items).expect("compact traces")
}

/// A perturbed weight: name, true, start and tuned `(mg, eg)` values.
type Row = (String, (f64, f64), (f64, f64), (f64, f64));

/// For every weight, the (diagonal) Fisher information the labels carry
/// about its middlegame and endgame value: `Σ p(1−p)·(K/400)²·(∂e/∂w)²`.
/// `1/√info` is about the best standard error any fit can reach.
fn information<P: Traceable>(traces: &[Trace]) -> Vec<(f64, f64)> {
    let truth: Vec<(f64, f64)> = P::table()
        .weights()
        .iter()
        .map(|s| (f64::from(s.0), f64::from(s.1)))
        .collect();
    let mut info = vec![(0.0, 0.0); truth.len()];
    let k = K_TRUE / 400.0;
    for t in traces {
        let p = sigmoid(K_TRUE * model_eval(t, &truth) / 400.0);
        let w = p * (1.0 - p) * k * k / f64::from(t.divisor * t.divisor);
        let rho = f64::from(t.phase) / f64::from(eval::pst::PHASE_MAX);
        for &(i, c) in &t.tapered {
            let c = f64::from(c);
            info[i as usize].0 += w * (c * rho).powi(2);
            info[i as usize].1 += w * (c * (1.0 - rho)).powi(2);
        }
        for &(i, c) in &t.flat {
            info[i as usize].0 += w * f64::from(c).powi(2);
            info[i as usize].1 += w * f64::from(c).powi(2);
        }
    }
    info
}

/// Perturbs the weights of `fields` by ±`by` (random signs) and tunes them
/// back with K fixed to the labels' constant; returns (names, true, start,
/// tuned) for the perturbed weights that occur in the data.
fn recover<P: Traceable>(
    data: &Dataset,
    fields: &[&str],
    by: i32,
    epochs: usize,
    rng: &mut SplitMix,
) -> Vec<Row> {
    let names = P::Table::names();
    let in_fields = |n: &str| {
        fields
            .iter()
            .any(|f| n.split(['.', '[']).next() == Some(*f))
    };
    let truth = P::table().weights();
    let start: Vec<_> = truth
        .iter()
        .zip(&names)
        .map(|(&s, n)| {
            if in_fields(n) {
                let mut sign = || if rng.next_u64() & 1 == 0 { by } else { -by };
                eval::pst::S(s.0 + sign(), s.1 + sign())
            } else {
                s
            }
        })
        .collect();
    let settings = Settings {
        lr: 2.0,
        k: Some(K_TRUE),
        only: fields.iter().map(|f| f.to_string()).collect(),
        ..Settings::default()
    };
    let mut t = Tuner::from_table::<P>(&P::table().with_weights(&start), data, settings);
    t.fit_k(data);
    let first = t.loss(data);
    for _ in 0..epochs {
        t.epoch(data);
    }
    assert!(t.loss(data) < first, "tuning lowers the loss");
    let tuned = t.exact_weights();
    let pair = |s: eval::pst::S| (f64::from(s.0), f64::from(s.1));
    names
        .iter()
        .enumerate()
        .filter(|(i, n)| in_fields(n) && truth[*i] != start[*i] && tuned[*i] != pair(start[*i]))
        .map(|(i, n)| (n.clone(), pair(truth[i]), pair(start[i]), tuned[i]))
        .collect()
}

/// Checks the tuned values the data determine well (standard error
/// `1/√info` below 15 cp): each within 4 standard errors (+2 cp for
/// rounding and the loss not being the likelihood) of the truth, and their
/// mean error a quarter of the perturbation or less. Returns how many were
/// checked.
fn check_recovery<P: Traceable>(rows: &[Row], info: &[(f64, f64)], halves: usize) -> usize {
    const SE_MAX: f64 = 15.0;
    let names = P::Table::names();
    let (mut before, mut after, mut n) = (0.0, 0.0, 0);
    for (name, truth, start, tuned) in rows {
        let i = names.iter().position(|x| x == name).expect("a weight name");
        let parts = [
            (truth.0, start.0, tuned.0, info[i].0),
            (truth.1, start.1, tuned.1, info[i].1),
        ];
        for (half, &(t, s, u, inf)) in parts.iter().take(halves).enumerate() {
            let se = 1.0 / inf.max(1e-12).sqrt();
            eprintln!("  {name:<14} {half} true {t:7.1} start {s:7.1} tuned {u:7.1}  se {se:6.1}");
            if se < SE_MAX {
                assert!(
                    (u - t).abs() < 4.0 * se + 2.0,
                    "{name} part {half}: true {t}, tuned {u}, se {se:.1}"
                );
                before += (s - t).abs();
                after += (u - t).abs();
                n += 1;
            }
        }
    }
    assert!(
        after < before / 4.0,
        "mean error {before} -> {after} over {n}"
    );
    n
}

#[test]
fn k_is_fitted_to_the_labels() {
    let mut rng = SplitMix::new(5);
    let data = labelled::<Chess>(random_traces::<Chess>(20_000, 60, &mut rng), &mut rng);
    let mut t = Tuner::new::<Chess>(&data, Settings::default());
    let k = t.fit_k(&data);
    assert!(
        (k - K_TRUE).abs() < 0.1 * K_TRUE,
        "K {k}, labels drawn with {K_TRUE}"
    );
    // A fixed K is taken as given.
    let mut t = Tuner::new::<Chess>(
        &data,
        Settings {
            k: Some(0.5),
            ..Settings::default()
        },
    );
    assert_eq!(t.fit_k(&data), 0.5);
}

/// One recovery case: labelled random-game positions, the `fields`
/// perturbed by 40 cp and tuned back for 300 epochs, at least `min`
/// well-determined values checked.
fn recovery_case<P: Traceable>(seed: u64, games: usize, plies: usize, fields: &[&str], min: usize) {
    let mut rng = SplitMix::new(seed);
    let traces = random_traces::<P>(games, plies, &mut rng);
    let info = information::<P>(&traces);
    let data = labelled::<P>(traces, &mut rng);
    let rows = recover::<P>(&data, fields, 40, 300, &mut rng);
    let halves = if P::Table::slots().iter().any(|s| s.kind == Kind::Tapered) {
        2
    } else {
        1
    };
    let checked = check_recovery::<P>(&rows, &info, halves);
    assert!(checked >= min, "only {checked} well-determined values");
}

#[test]
fn chess_material_and_mobility_come_back() {
    recovery_case::<Chess>(1, 40_000, 160, &["material", "mobility", "bishop_pair"], 12);
}

#[test]
fn tavreli_flat_weights_come_back() {
    recovery_case::<Tavreli>(2, 40_000, 120, &["material", "prisoner"], 5);
}
