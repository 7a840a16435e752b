//! What the tests of every feature set share: a network file of random
//! weights, random games that tally the moves a feature set must follow,
//! and the checks each variant's module runs on its own inputs.

use super::{active_inputs, evaluate_with, Embedded, Features, Network};
use movegen::{Color, Move, MoveList, Position, SplitMix};

/// A network file of `P`'s layout and width with seeded random weights
/// (output weights within the range the reader accepts).
pub fn random_file<P: Features>(seed: u64) -> Vec<u8> {
    random_file_of_width::<P>(seed, P::HIDDEN)
}

/// [`random_file`] with `width` hidden units per view.
pub fn random_file_of_width<P: Features>(seed: u64, width: usize) -> Vec<u8> {
    let mut rng = SplitMix::new(seed);
    let mut small = |range: u64| (rng.next_u64() % (2 * range + 1)) as i64 - range as i64;
    let mut out = P::MAGIC.to_vec();
    out.extend_from_slice(&(width as u32).to_le_bytes());
    for _ in 0..(P::INPUTS + 1) * width {
        out.extend_from_slice(&(small(60) as i16).to_le_bytes());
    }
    for _ in 0..2 * width {
        out.extend_from_slice(&(small(127) as i16).to_le_bytes());
    }
    for _ in 0..=P::INPUTS {
        out.extend_from_slice(&(small(3000) as i32).to_le_bytes());
    }
    out
}

/// What a random game did, to show the walk covered the variant's moves.
#[derive(Default, Debug)]
pub struct Seen {
    pub positions: usize,
    pub vest_takes: usize,
    pub vest_moves: usize,
    pub splits: usize,
    pub tower_captures: usize,
}

/// Positions along seeded random games, each with the moves that led to
/// it tallied.
pub fn random_walk<P: Position>(seed: u64, games: usize, plies: usize) -> (Vec<P>, Seen) {
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
/// unrelated boards) equals building each from the empty board, with
/// `net`. Returns how many outputs differed.
pub fn incremental_equals_scratch<P: Embedded>(positions: &[P], net: &Network) -> usize {
    P::with_last(|last| *last = None);
    let mut distinct = std::collections::HashSet::new();
    for pos in positions.iter().chain(positions.iter().rev()) {
        let scratch = net.evaluate(pos);
        assert_eq!(evaluate_with(net, pos), scratch, "{}", pos.fen());
        distinct.insert(scratch);
    }
    P::with_last(|last| *last = None);
    distinct.len()
}

/// [`incremental_equals_scratch`] with a network of seeded random weights
/// and `width` hidden units.
pub fn random_incremental_equals_scratch<P: Embedded>(positions: &[P], seed: u64, width: usize) {
    let file = random_file_of_width::<P>(seed, width);
    let net = Network::from_bytes(&file, P::MAGIC, P::INPUTS).unwrap();
    assert_eq!(net.width(), width);
    let distinct = incremental_equals_scratch(positions, &net);
    // A network that outputs a handful of values would make the test weak.
    assert!(distinct > positions.len() / 4, "{distinct}");
}

/// The inputs of `pos` from `view` as a sorted list.
pub fn inputs_of<P: Features>(pos: &P, view: Color) -> Vec<usize> {
    let mut v = Vec::new();
    active_inputs(pos, view, &mut |i| v.push(i));
    v.sort_unstable();
    v
}
