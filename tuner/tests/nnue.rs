//! The network trainer learns a known evaluation in every variant, and the
//! quantised file it writes evaluates as the float network does.

mod common;

use eval::nets::Features;
use movegen::{Chess, Color, Plunder, Position, Role, SplitMix, Square, Tavreli};
use tuner::nnue::{Sample, Schedule, Settings, Trainer, COSINE_FLOOR};

/// Material by role (pawn knight bishop rook queen king helgi).
const VALUES: [i32; 7] = [100, 300, 300, 500, 900, 0, 1200];

/// Material with a bishop-pair bonus (White's view): a linear part the
/// piece-square path can hold and a pair term only the hidden layer can.
fn chess_eval(pos: &Chess) -> i32 {
    let side = |c: Color| {
        let b = pos.board();
        let material: i32 = Role::CHESS
            .iter()
            .map(|&r| VALUES[r.index()] * b.pieces(c, r).count() as i32)
            .sum();
        material + pair_bonus(b.pieces(c, Role::Bishop).count() >= 2)
    };
    side(Color::White) - side(Color::Black)
}

fn pair_bonus(pair: bool) -> i32 {
    if pair {
        60
    } else {
        0
    }
}

/// Material plus each vest's value by the wearer (a pawn's vest is worth
/// twice as much: only the vest inputs beside the piece inputs can tell),
/// and the bishop pair (hidden layer), White's view.
fn plunder_eval(pos: &Plunder) -> i32 {
    const VESTS: [i32; 5] = [40, 70, 70, 90, 150];
    let side = |c: Color| {
        let b = pos.board();
        let mut v = pair_bonus(b.pieces(c, Role::Bishop).count() >= 2);
        for sq in b.by_color(c) {
            let role = b.piece_at(sq).map_or(Role::King, |p| p.role);
            v += VALUES[role.index()];
            if let Some(vest) = pos.vest_at(sq) {
                v += VESTS[vest.index()] * if role == Role::Pawn { 2 } else { 1 };
            }
        }
        v
    };
    side(Color::White) - side(Color::Black)
}

/// Each tower's top piece at its value for its owner, every piece beneath
/// at a quarter of its value for the tower's owner (prisoners and guards
/// alike), and a bonus for owning two towers or more (hidden layer),
/// White's view.
fn tavreli_eval(pos: &Tavreli) -> i32 {
    let mut score = [0i32; 2];
    let mut towers = [0; 2];
    for sq in Square::all() {
        let t = pos.tower(sq);
        let Some(top) = t.top() else { continue };
        let owner = top.color().index();
        score[owner] += VALUES[top.role().index()];
        for p in t.iter().take(t.len() - 1) {
            score[owner] += VALUES[p.role().index()] / 4;
        }
        towers[owner] += usize::from(t.len() > 1);
    }
    score[0] + pair_bonus(towers[0] >= 2) - score[1] - pair_bonus(towers[1] >= 2)
}

fn for_side_to_move<P: Position>(pos: &P, white_view: i32) -> i32 {
    match pos.turn() {
        Color::White => white_view,
        Color::Black => -white_view,
    }
}

fn settings() -> Settings {
    Settings {
        k: 1.0,
        lambda: 1.0,
        lr: 0.003,
        batch: 256,
        seed: 1,
        residual: false,
        weight_decay: 0.0,
    }
}

/// How a learnt network did.
struct Outcome {
    /// Mean absolute error on unseen positions, centipawns.
    mean: f64,
    /// The same before training (the linear term's material start).
    untrained: f64,
    /// The same on positions it was trained on.
    seen: f64,
    /// The same on the unseen positions the test singles out (where a
    /// term the hidden layer or a variant's own inputs must learn is
    /// present), and how many there were.
    hidden_mean: f64,
    hidden_positions: u32,
}

/// Mean absolute error of `trainer` against `known` on `positions`.
fn error_of<P: Features>(trainer: &Trainer, known: fn(&P) -> i32, positions: &[P]) -> f64 {
    let sum: f64 = positions
        .iter()
        .map(|p| f64::from((trainer.evaluate(p) - for_side_to_move(p, known(p)) as f32).abs()))
        .sum();
    sum / positions.len().max(1) as f64
}

/// Trains on `n` random positions of games up to `plies` long labelled by
/// `known`, checks the loss fell twentyfold and the quantised file (read
/// by `quantised`) follows the float network, and measures the errors.
fn learn<P: Features>(
    (n, plies): (usize, usize),
    epochs: usize,
    k: f32,
    known: fn(&P) -> i32,
    singled_out: impl Fn(&P) -> bool,
    quantised: fn(&[u8], &P) -> i32,
) -> Outcome {
    let mut rng = SplitMix::new(7);
    let positions = common::random_positions::<P>(n, plies, &mut rng);
    let train: Vec<Sample> = positions
        .iter()
        .map(|p| Sample::new(p, known(p), 0.5))
        .collect();
    let unseen = common::random_positions::<P>(500, plies, &mut SplitMix::new(99));
    let mut trainer = Trainer::new::<P>(Settings { k, ..settings() });
    let untrained = error_of(&trainer, known, &unseen);
    let first = trainer.epoch(&train);
    let mut last = first;
    for _ in 0..epochs {
        last = trainer.epoch(&train);
    }
    assert!(last < first / 20.0, "loss {first} -> {last}");
    let bytes = trainer.to_bytes();
    let (mut error, mut hidden_error, mut hidden_positions) = (0.0, 0.0, 0);
    let mut rounding = 0.0;
    for pos in &unseen {
        let q = quantised(&bytes, pos);
        let float = trainer.evaluate(pos);
        let off = (q as f32 - float).abs();
        rounding += f64::from(off);
        assert!(
            // Rounding the weights to 1/255 and 1/64 errs in proportion.
            off <= 12.0 + 0.02 * float.abs(),
            "{q} vs {float} at {}",
            pos.fen()
        );
        let truth = for_side_to_move(pos, known(pos));
        error += f64::from((q - truth).abs());
        if singled_out(pos) {
            hidden_error += f64::from((q - truth).abs());
            hidden_positions += 1;
        }
    }
    let rounding = rounding / unseen.len() as f64;
    assert!(
        rounding < 4.0,
        "quantised vs float: {rounding} cp on average"
    );
    let o = Outcome {
        mean: error / unseen.len() as f64,
        untrained,
        seen: error_of(&trainer, known, &positions[..500]),
        hidden_mean: hidden_error / f64::from(hidden_positions.max(1)),
        hidden_positions,
    };
    eprintln!(
        "rounding {rounding:.2} cp; error {:.1} (untrained {:.1}, seen {:.1}), singled out {:.1} on {}",
        o.mean, o.untrained, o.seen, o.hidden_mean, o.hidden_positions
    );
    o
}

fn variant_net<P: Features>(bytes: &[u8], pos: &P) -> i32 {
    eval::nets::Network::from_bytes(bytes, P::MAGIC, P::INPUTS)
        .expect("the trainer writes a well-formed file")
        .evaluate(pos)
}

#[test]
fn learns_a_known_chess_evaluation_and_quantises_faithfully() {
    let pair = |pos: &Chess, c| pos.board().pieces(c, Role::Bishop).count() >= 2;
    let differs = |pos: &Chess| pair(pos, Color::White) != pair(pos, Color::Black);
    let o = learn::<Chess>((6000, 120), 40, 1.0, chess_eval, differs, variant_net);
    assert!(o.mean < 25.0, "mean error {} cp", o.mean);
    assert!(
        o.hidden_positions > 20 && o.hidden_mean < 40.0,
        "{}",
        o.hidden_mean
    );
}

#[test]
fn learns_a_known_plunder_evaluation_with_vests() {
    let vested = |pos: &Plunder| !pos.vested().is_empty();
    let o = learn::<Plunder>((12000, 120), 30, 1.0, plunder_eval, vested, variant_net);
    assert!(o.mean < 25.0, "mean error {} cp", o.mean);
    // Most positions wear no vest; where some do, the vests are learnt.
    assert!(
        o.hidden_positions > 50 && o.hidden_mean < 40.0,
        "{}",
        o.hidden_mean
    );
}

#[test]
fn learns_a_known_tavreli_evaluation_with_towers() {
    let towers = |pos: &Tavreli, c: Color| {
        let owned = pos.owned(c);
        owned.filter(|&sq| pos.tower(sq).len() > 1).count() >= 2
    };
    let differs = |pos: &Tavreli| towers(pos, Color::White) != towers(pos, Color::Black);
    // No piece leaves a Tavreli board, so material differences in random
    // games are large: a flatter logistic (K = 0.25) still tells them apart.
    let o = learn::<Tavreli>((24000, 40), 20, 0.25, tavreli_eval, differs, variant_net);
    // It fits what it saw; on unseen positions it learnt most of what the
    // material start misses, yet prisoners of the rarer kinds (a queen
    // under a tower) stay underlearnt at 24,000 positions: measured
    // 16 cp seen, 68 cp unseen against 151 cp untrained.
    assert!(o.seen < 25.0, "error {} cp on seen positions", o.seen);
    assert!(
        o.mean < 80.0 && o.mean < o.untrained / 2.0,
        "mean error {} cp (untrained {})",
        o.mean,
        o.untrained
    );
    assert!(
        o.hidden_positions > 20 && o.hidden_mean < 90.0,
        "{}",
        o.hidden_mean
    );
}

#[test]
fn bad_files_are_refused() {
    let bytes = Trainer::new::<Chess>(settings()).to_bytes();
    use eval::nets::Network;
    let chess = |b: &[u8]| Network::from_bytes(b, Chess::MAGIC, Chess::INPUTS);
    assert!(chess(&bytes).is_ok());
    assert!(chess(&bytes[..bytes.len() - 1]).is_err());
    // A width the layout's length does not match, and one out of range.
    let mut wrong_width = bytes.clone();
    wrong_width[8] ^= 1;
    let refused = chess(&wrong_width).err().unwrap_or_default();
    assert!(refused.contains("bytes of weights"), "{refused}");
    wrong_width[8..12].copy_from_slice(&0u32.to_le_bytes());
    let refused = chess(&wrong_width).err().unwrap_or_default();
    assert!(refused.contains("hidden width 0"), "{refused}");
    assert!(chess(b"VOLKNN01").is_err());
    // The first output weight, after the magic, the width and the input
    // rows and biases.
    let mut too_large = bytes.clone();
    let at = 12 + (768 + 1) * eval::nets::HIDDEN * 2;
    too_large[at..at + 2].copy_from_slice(&300i16.to_le_bytes());
    let refused = chess(&too_large).err().unwrap_or_default();
    assert!(refused.contains("output weight"), "{refused}");
    // A variant's file is refused by the other variants and by chess.
    let plunder = Trainer::new::<Plunder>(settings()).to_bytes();
    assert!(Network::from_bytes(&plunder, Plunder::MAGIC, Plunder::INPUTS).is_ok());
    assert!(Network::from_bytes(&plunder, Tavreli::MAGIC, Tavreli::INPUTS).is_err());
    assert!(chess(&plunder).is_err());
}

#[test]
fn the_cosine_schedule_warms_up_then_falls_to_its_floor() {
    let s = Schedule::Cosine {
        warmup: 10,
        total: 110,
    };
    // Linear warm-up: a tenth per step, the full step size at its end.
    assert!((s.factor(1) - 0.1).abs() < 1e-6);
    assert!((s.factor(5) - 0.5).abs() < 1e-6);
    assert!((s.factor(10) - 1.0).abs() < 1e-6);
    // Halfway down the cosine: half-way between the top and the floor.
    let half = COSINE_FLOOR + (1.0 - COSINE_FLOOR) * 0.5;
    assert!((s.factor(60) - half).abs() < 1e-5, "{}", s.factor(60));
    // Falling at every step after the warm-up, ending at the floor.
    assert!((11..=110).all(|t| s.factor(t) < s.factor(t - 1)));
    assert!((s.factor(110) - COSINE_FLOOR).abs() < 1e-6);
    assert!((s.factor(500) - COSINE_FLOOR).abs() < 1e-6, "past the end");
    assert!((1..100).all(|t| (Schedule::Step.factor(t) - 1.0).abs() < 1e-9));
}
