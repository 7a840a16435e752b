use super::testing::{
    inputs_of, random_file, random_file_of_width, random_incremental_equals_scratch, random_walk,
};
use super::*;
use crate::Evaluate;
use movegen::{Chess, Color, Plunder, Square, Tavreli};

#[test]
fn plunder_incremental_updates_are_exact() {
    let (positions, seen) = random_walk::<Plunder>(11, 30, 150);
    assert!(seen.vest_takes > 100 && seen.vest_moves > 20, "{seen:?}");
    assert!(positions.iter().any(|p| !p.vested().is_empty()));
    random_incremental_equals_scratch(&positions, 1, 64);
    // A network's width is its file's: a wider one sums as exactly.
    random_incremental_equals_scratch(&positions, 7, 128);
}

#[test]
fn tavreli_incremental_updates_are_exact() {
    let (positions, seen) = random_walk::<Tavreli>(12, 12, 150);
    assert!(seen.splits > 50 && seen.tower_captures > 100, "{seen:?}");
    let tall = |p: &Tavreli| Square::all().any(|sq| p.tower(sq).len() >= 3);
    assert!(positions.iter().filter(|p| tall(p)).count() > 100);
    random_incremental_equals_scratch(&positions, 2, 64);
    random_incremental_equals_scratch(&positions, 8, 32);
}

#[test]
fn bad_files_are_refused() {
    let good = random_file::<Plunder>(9);
    let read = |b: &[u8]| Network::from_bytes(b, Plunder::MAGIC, Plunder::INPUTS);
    assert!(read(&good).is_ok());
    assert!(read(&good[..good.len() - 1])
        .unwrap_err()
        .contains("bytes of weights"));
    assert!(Network::from_bytes(&good, Tavreli::MAGIC, Tavreli::INPUTS)
        .unwrap_err()
        .contains("bad magic"));
    assert_eq!(read(&good[..10]).unwrap_err(), "truncated header");
    assert!(read(b"VOLK").unwrap_err().contains("bad magic"));
    for width in [0u32, MAX_HIDDEN as u32 + 1] {
        let mut bad = good.clone();
        bad[8..12].copy_from_slice(&width.to_le_bytes());
        assert_eq!(
            read(&bad).unwrap_err(),
            format!("hidden width {width}, outside 1..={MAX_HIDDEN}")
        );
    }
    // Another width in range, with its weights' length: read as that width.
    let wide = random_file_of_width::<Plunder>(9, 96);
    assert_eq!(read(&wide).unwrap().width(), 96);
    let mut short = good.clone();
    short[8] ^= 1;
    assert!(read(&short).unwrap_err().contains("bytes of weights"));
    let mut large = good.clone();
    let at = 12 + (Plunder::INPUTS + 1) * Plunder::HIDDEN * 2;
    large[at..at + 2].copy_from_slice(&300i16.to_le_bytes());
    assert!(read(&large).unwrap_err().contains("output weight"));
    assert_eq!(
        check_file(&large, Plunder::MAGIC, Plunder::INPUTS),
        Err(FileError::OutputWeight)
    );
    assert!(embedded(&[], Plunder::MAGIC, Plunder::INPUTS).is_none());
}

/// Along random games: the inputs stay in range, each that stands for one
/// square (the mirror moves it; Tavreli's counts stay) is switched on at
/// most once, both views hold as many, and mirroring twice is the identity.
fn inputs_stay_in_range_and_views_mirror<P: Features>(seed: u64, games: usize) {
    for pos in random_walk::<P>(seed, games, 120).0 {
        let (white, black) = (inputs_of(&pos, Color::White), inputs_of(&pos, Color::Black));
        assert!(white.iter().chain(&black).all(|&i| i < P::INPUTS));
        let once: Vec<_> = white.iter().filter(|&&i| P::mirror(i) != i).collect();
        assert!(once.windows(2).all(|w| w[0] < w[1]), "{}", pos.fen());
        assert_eq!(white.len(), black.len());
        assert!(white
            .iter()
            .all(|&i| P::mirror(P::mirror(i)) == i && P::mirror(i) < P::INPUTS));
    }
}

/// The embedded file reads, and the evaluation is the hand-written one
/// plus its correction (only the hand-written one without a file).
fn evaluation_is_hand_written_plus_network<P: Embedded + Evaluate>(games: usize) {
    for pos in &random_walk::<P>(21, games, 100).0 {
        let correction = P::network().map_or(0, |net| net.evaluate(pos));
        assert_eq!(
            pos.evaluate(),
            pos.hand_written() + correction,
            "{}",
            pos.fen()
        );
    }
}

#[test]
fn inputs_of_every_variant_stay_in_range_and_views_mirror() {
    inputs_stay_in_range_and_views_mirror::<Chess>(3, 5);
    inputs_stay_in_range_and_views_mirror::<Plunder>(4, 10);
    inputs_stay_in_range_and_views_mirror::<Tavreli>(5, 5);
}

#[test]
fn embedded_files_read_and_the_evaluation_is_hand_written_plus_network() {
    // Chess leaves the network out of pawnless endings (`chess.rs` tests it).
    evaluation_is_hand_written_plus_network::<Plunder>(5);
    evaluation_is_hand_written_plus_network::<Tavreli>(3);
}
