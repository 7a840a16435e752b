use super::*;
use crate::Evaluate;
use movegen::{Move, MoveList, SplitMix, TowerPiece};

/// A network file of `P`'s layout with seeded random weights (output
/// weights within the range the reader accepts).
fn random_file<P: Features>(seed: u64) -> Vec<u8> {
    let mut rng = SplitMix::new(seed);
    let mut small = |range: u64| (rng.next_u64() % (2 * range + 1)) as i64 - range as i64;
    let mut out = P::MAGIC.to_vec();
    out.extend_from_slice(&(HIDDEN as u32).to_le_bytes());
    for _ in 0..(P::INPUTS + 1) * HIDDEN {
        out.extend_from_slice(&(small(60) as i16).to_le_bytes());
    }
    for _ in 0..2 * HIDDEN {
        out.extend_from_slice(&(small(127) as i16).to_le_bytes());
    }
    for _ in 0..=P::INPUTS {
        out.extend_from_slice(&(small(3000) as i32).to_le_bytes());
    }
    out
}

/// What a random game did, to show the walk covered the variant's moves.
#[derive(Default, Debug)]
struct Seen {
    positions: usize,
    vest_takes: usize,
    vest_moves: usize,
    splits: usize,
    tower_captures: usize,
}

/// Positions along seeded random games, each with the moves that led to
/// it tallied.
fn random_walk<P: Position>(seed: u64, games: usize, plies: usize) -> (Vec<P>, Seen) {
    let mut rng = SplitMix::new(seed);
    let (mut out, mut seen) = (Vec::new(), Seen::default());
    for _ in 0..games {
        let mut pos = P::startpos();
        for _ in 0..plies {
            let mut moves = MoveList::new();
            pos.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            let m: Move = moves[rng.below(moves.len())];
            seen.vest_takes += usize::from(m.vest().is_some());
            seen.vest_moves += usize::from(m.is_vest_move());
            seen.splits += usize::from(m.split() > 0);
            seen.tower_captures += usize::from(m.is_capture());
            pos.make(m);
            out.push(pos.clone());
        }
    }
    seen.positions = out.len();
    (out, seen)
}

/// Evaluating positions one after another through the thread's
/// accumulators (parents, children, then the same walk backwards and
/// unrelated boards) equals building each from the empty board.
fn incremental_equals_scratch<P: Embedded>(positions: &[P], seed: u64) {
    let net = Network::from_bytes(&random_file::<P>(seed), P::MAGIC, P::INPUTS).unwrap();
    P::with_last(|last| *last = None);
    let mut distinct = std::collections::HashSet::new();
    for pos in positions.iter().chain(positions.iter().rev()) {
        let scratch = net.evaluate(pos);
        assert_eq!(evaluate_with(&net, pos), scratch, "{}", pos.fen());
        distinct.insert(scratch);
    }
    // A network that outputs a handful of values would make the test weak.
    assert!(distinct.len() > positions.len() / 4, "{}", distinct.len());
    P::with_last(|last| *last = None);
}

#[test]
fn plunder_incremental_updates_are_exact() {
    let (positions, seen) = random_walk::<Plunder>(11, 30, 150);
    assert!(seen.vest_takes > 100 && seen.vest_moves > 20, "{seen:?}");
    assert!(positions.iter().any(|p| !p.vested().is_empty()));
    incremental_equals_scratch(&positions, 1);
}

#[test]
fn tavreli_incremental_updates_are_exact() {
    let (positions, seen) = random_walk::<Tavreli>(12, 12, 150);
    assert!(seen.splits > 50 && seen.tower_captures > 100, "{seen:?}");
    let tall = |p: &Tavreli| Square::all().any(|sq| p.tower(sq).len() >= 3);
    assert!(positions.iter().filter(|p| tall(p)).count() > 100);
    incremental_equals_scratch(&positions, 2);
}

/// The inputs of `pos` from `view` as a sorted list.
fn inputs_of<P: Features>(pos: &P, view: Color) -> Vec<usize> {
    let mut v = Vec::new();
    active_inputs(pos, view, &mut |i| v.push(i));
    v.sort_unstable();
    v
}

#[test]
fn inputs_stay_in_range_and_views_mirror() {
    fn check<P: Features>(seed: u64, games: usize) {
        for pos in random_walk::<P>(seed, games, 120).0 {
            let (white, black) = (inputs_of(&pos, Color::White), inputs_of(&pos, Color::Black));
            assert!(white.iter().chain(&black).all(|&i| i < P::INPUTS));
            // Only a count (Tavreli's `ANYWHERE`) is switched on twice.
            let square_inputs =
                P::INPUTS - usize::from(P::MAGIC == Tavreli::MAGIC) * tavreli::ANYWHERE;
            let once: Vec<_> = white.iter().filter(|&&i| i < square_inputs).collect();
            assert!(once.windows(2).all(|w| w[0] < w[1]), "{}", pos.fen());
            assert_eq!(white.len(), black.len());
            // Mirroring twice is the identity, and stays in range.
            assert!(white
                .iter()
                .all(|&i| P::mirror(P::mirror(i)) == i && P::mirror(i) < P::INPUTS));
        }
    }
    check::<Chess>(3, 5);
    check::<Plunder>(4, 10);
    check::<Tavreli>(5, 5);
}

#[test]
fn plunder_inputs_see_the_vest() {
    let pos = Plunder::from_fen("k7/8/8/8/3N(B)4/8/8/7K w - - 0 1").unwrap();
    let d4 = Square::parse("d4").unwrap();
    let white = inputs_of(&pos, Color::White);
    // Own knight on d4 and its bishop vest (vest index 2).
    assert!(white.contains(&(64 + d4.index())));
    assert!(white.contains(&(plunder::PIECES + 2 * 64 + d4.index())));
    // From Black's view the same facts are the enemy's, on d5.
    let black = inputs_of(&pos, Color::Black);
    assert!(black.contains(&(plunder::PIECES + 320 + 2 * 64 + (d4.index() ^ 56))));
    let bare = Plunder::from_fen("k7/8/8/8/3N4/8/8/7K w - - 0 1").unwrap();
    assert_eq!(inputs_of(&bare, Color::White).len() + 1, white.len());
}

#[test]
fn tavreli_inputs_see_the_tower_and_the_pawns() {
    use tavreli::{KINDS, TOPS};
    let d5 = Square::parse("d5").unwrap().index();
    let kind = |p: TowerPiece| usize::from(p.code() & 15);
    // A black rook on two white pawns (promoting to R and H) on d5.
    let pos = Tavreli::from_fen("4k3/8/8/3(P=RP=Hr)4/8/8/8/4K3 w - - 0 1").unwrap();
    let white = inputs_of(&pos, Color::White);
    let rook = KINDS + kind(TowerPiece::new(Color::Black, Role::Rook));
    assert!(white.contains(&(rook * 64 + d5)));
    let below = |c: usize, level: usize| TOPS + (c * 2 + level) * 64 + d5;
    let pawn_r = kind(TowerPiece::pawn(Color::White, Role::Rook));
    let pawn_h = kind(TowerPiece::pawn(Color::White, Role::Helgi));
    assert_ne!(pawn_r, pawn_h);
    assert!(white.contains(&below(pawn_r, 0)) && white.contains(&below(pawn_h, 0)));
    assert!(!white.contains(&below(pawn_r, 1)));
    let anywhere = |c: usize, level: usize| TOPS + tavreli::BENEATH + c * 2 + level;
    assert!(white.contains(&anywhere(pawn_r, 0)) && !white.contains(&anywhere(pawn_r, 1)));
    assert_eq!(
        white.len(),
        1 + 2 * 2 + 2,
        "the rook, two pawns beneath (on d5 and anywhere), two kings"
    );
    // Two of a kind beneath switch on the second count.
    let two = Tavreli::from_fen("4k3/8/8/3(PPr)4/8/8/8/4K3 w - - 0 1").unwrap();
    let home = kind(TowerPiece::pawn(Color::White, Role::Queen));
    let white = inputs_of(&two, Color::White);
    assert!(white.contains(&below(home, 0)) && white.contains(&below(home, 1)));
    // A promoted pawn is not the piece it moves as.
    let promoted = Tavreli::from_fen("4k3/8/8/3Q~4/8/8/8/4K3 w - - 0 1").unwrap();
    let queen = Tavreli::from_fen("4k3/8/8/3Q4/8/8/8/4K3 w - - 0 1").unwrap();
    assert_ne!(
        inputs_of(&promoted, Color::White),
        inputs_of(&queen, Color::White)
    );
}

#[test]
fn embedded_files_read_and_without_one_the_evaluation_is_hand_written() {
    fn check<P: Embedded + Evaluate>(games: usize) {
        let positions = random_walk::<P>(21, games, 100).0;
        for pos in &positions {
            let correction = P::network().map_or(0, |net| net.evaluate(pos));
            assert_eq!(
                pos.evaluate(),
                pos.hand_written() + correction,
                "{}",
                pos.fen()
            );
        }
    }
    check::<Plunder>(5);
    check::<Tavreli>(3);
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
    let mut wide = good.clone();
    wide[8] ^= 1;
    assert!(read(&wide).unwrap_err().contains("hidden width"));
    let mut large = good.clone();
    let at = 12 + (Plunder::INPUTS + 1) * HIDDEN * 2;
    large[at..at + 2].copy_from_slice(&300i16.to_le_bytes());
    assert!(read(&large).unwrap_err().contains("output weight"));
    assert!(embedded(&[], Plunder::MAGIC, Plunder::INPUTS).is_none());
}
