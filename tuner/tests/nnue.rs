//! The network trainer learns a known evaluation, and the quantised file
//! it writes evaluates as the float network does.

mod common;

use eval::nnue::Network;
use movegen::{Chess, Color, Position, Role, SplitMix};
use tuner::nnue::{Sample, Settings, Trainer};

/// Material with a bishop-pair bonus (White's view): a linear part the
/// piece-square path can hold and a pair term only the hidden layer can.
fn known_eval(pos: &Chess) -> i32 {
    const VALUES: [i32; 6] = [100, 300, 300, 500, 900, 0];
    let side = |c: Color| {
        let b = pos.board();
        let material: i32 = Role::CHESS
            .iter()
            .map(|&r| VALUES[r.index()] * b.pieces(c, r).count() as i32)
            .sum();
        material
            + if b.pieces(c, Role::Bishop).count() >= 2 {
                60
            } else {
                0
            }
    };
    side(Color::White) - side(Color::Black)
}

/// Positions from seeded random games of up to 120 plies, not in check.
fn random_positions(n: usize, rng: &mut SplitMix) -> Vec<Chess> {
    common::random_positions(n, 120, rng)
}

fn for_side_to_move(pos: &Chess, white_view: i32) -> i32 {
    match pos.turn() {
        Color::White => white_view,
        Color::Black => -white_view,
    }
}

#[test]
fn learns_a_known_evaluation_and_quantises_faithfully() {
    let mut rng = SplitMix::new(7);
    let train: Vec<Sample> = random_positions(6000, &mut rng)
        .iter()
        .map(|p| Sample::new(p, known_eval(p), 0.5))
        .collect();
    let mut trainer = Trainer::new(Settings {
        k: 1.0,
        lambda: 1.0,
        lr: 0.003,
        batch: 256,
        seed: 1,
        residual: false,
        weight_decay: 0.0,
    });
    let first = trainer.epoch(&train);
    let mut last = first;
    for _ in 0..40 {
        last = trainer.epoch(&train);
    }
    assert!(last < first / 20.0, "loss {first} -> {last}");

    let net = Network::from_bytes(&trainer.to_bytes()).unwrap();
    let unseen = random_positions(500, &mut SplitMix::new(99));
    let (mut error, mut pair_error, mut pairs) = (0.0, 0.0, 0);
    for pos in &unseen {
        let quantised = net.evaluate(pos.board(), pos.turn());
        let float = trainer.evaluate(pos);
        assert!(
            // Rounding the weights to 1/255 and 1/64 errs in proportion.
            (quantised as f32 - float).abs() <= 4.0 + 0.01 * float.abs(),
            "{quantised} vs {float} at {}",
            pos.fen()
        );
        let truth = for_side_to_move(pos, known_eval(pos));
        error += f64::from((quantised - truth).abs());
        let white_pair = pos.board().pieces(Color::White, Role::Bishop).count() >= 2;
        let black_pair = pos.board().pieces(Color::Black, Role::Bishop).count() >= 2;
        if white_pair != black_pair {
            pair_error += f64::from((quantised - truth).abs());
            pairs += 1;
        }
    }
    let mean = error / unseen.len() as f64;
    assert!(mean < 25.0, "mean error {mean} cp");
    assert!(
        pairs > 20 && pair_error / f64::from(pairs) < 40.0,
        "{pairs} pair positions"
    );
}

#[test]
fn bad_files_are_refused() {
    let bytes = Trainer::new(Settings {
        k: 1.0,
        lambda: 0.5,
        lr: 0.001,
        batch: 16,
        seed: 1,
        residual: false,
        weight_decay: 0.0,
    })
    .to_bytes();
    assert!(Network::from_bytes(&bytes).is_ok());
    assert!(Network::from_bytes(&bytes[..bytes.len() - 1]).is_err());
    let mut wrong_width = bytes.clone();
    wrong_width[8] ^= 1;
    let refused = Network::from_bytes(&wrong_width).err().unwrap_or_default();
    assert!(refused.contains("hidden width"), "{refused}");
    assert!(Network::from_bytes(b"VOLKNN01").is_err());
    // The first output weight, after the magic, the width and the input
    // rows and biases.
    let mut too_large = bytes.clone();
    let at = 12 + (768 + 1) * eval::nnue::HIDDEN * 2;
    too_large[at..at + 2].copy_from_slice(&300i16.to_le_bytes());
    let refused = Network::from_bytes(&too_large).err().unwrap_or_default();
    assert!(refused.contains("output weight"), "{refused}");
}
