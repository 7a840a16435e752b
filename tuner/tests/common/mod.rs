//! What the tuner's tests share.

use movegen::{MoveList, Position, SplitMix};

/// Positions from seeded random games of `2..=max_plies` plies, one per
/// game and not in check, so they are spread over many material balances.
pub fn random_positions<P: Position>(n: usize, max_plies: usize, rng: &mut SplitMix) -> Vec<P> {
    let mut out = Vec::with_capacity(n);
    let mut list = MoveList::new();
    while out.len() < n {
        let mut pos = P::startpos();
        let plies = 2 + rng.below(max_plies - 1);
        for _ in 0..plies {
            list.clear();
            pos.legal_moves(&mut list);
            if list.is_empty() {
                break;
            }
            pos.make(list[rng.below(list.len())]);
        }
        if !pos.is_check() {
            out.push(pos);
        }
    }
    out
}
