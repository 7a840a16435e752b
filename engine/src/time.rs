//! Time management: turns the clock part of [`Limits`] into a soft budget
//! (do not start another iteration after it) and a hard one (abort the
//! iteration). Both stay within the remaining time minus the move overhead,
//! so the engine never loses on time as long as it answers within the
//! overhead after the hard limit.

use crate::limits::Limits;
use movegen::Color;

/// Moves assumed left in the game when the GUI gives no `movestogo`.
const DEFAULT_MOVES_TO_GO: u64 = 30;
/// The soft limit is this share (per cent) of the even split of the
/// remaining time: an iteration started near it usually overruns it, so
/// the average time per move ends up near the even split.
const SOFT_PERCENT: u64 = 60;
/// The hard limit may exceed the even split by this factor…
const HARD_FACTOR: u64 = 4;
/// …but never spend more than this fraction (1/n) of the remaining time in
/// one move while more moves remain before the next control.
const HARD_FRACTION: u64 = 3;

/// Milliseconds to spend on this move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Do not start a new iteration after this.
    pub soft_ms: u64,
    /// Stop searching at this point.
    pub hard_ms: u64,
}

/// The budget for `turn` to move under `limits`, or `None` when the search
/// is not clock-limited (depth, nodes, mate, infinite or no times given).
#[must_use]
pub fn budget(limits: &Limits, turn: Color, overhead_ms: u64) -> Option<Budget> {
    if let Some(mt) = limits.movetime {
        let t = mt.saturating_sub(overhead_ms);
        return Some(Budget {
            soft_ms: t,
            hard_ms: t,
        });
    }
    let (time, inc) = match turn {
        Color::White => (limits.wtime?, limits.winc.unwrap_or(0)),
        Color::Black => (limits.btime?, limits.binc.unwrap_or(0)),
    };
    let available = time.saturating_sub(overhead_ms);
    // `movestogo 0` (sent by some GUIs) means no moves-to-go, not "this is
    // the last move before the control".
    let mtg = limits
        .movestogo
        .filter(|&m| m > 0)
        .map_or(DEFAULT_MOVES_TO_GO, |m| u64::from(m.min(50)));
    let even = available / mtg + inc * 3 / 4;
    let soft = even * SOFT_PERCENT / 100;
    let cap = if mtg == 1 {
        available * 4 / 5
    } else {
        available / HARD_FRACTION
    };
    let hard = (even * HARD_FACTOR).min(cap);
    Some(Budget {
        soft_ms: soft.min(hard),
        hard_ms: hard,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clock(w: u64, b: u64, inc: u64, mtg: Option<u32>) -> Limits {
        Limits {
            wtime: Some(w),
            btime: Some(b),
            winc: Some(inc),
            binc: Some(inc),
            movestogo: mtg,
            ..Limits::default()
        }
    }

    #[test]
    fn never_more_than_remaining_minus_overhead() {
        for time in [
            0u64, 1, 10, 29, 30, 31, 50, 100, 500, 1_000, 10_000, 600_000,
        ] {
            for inc in [0u64, 10, 100, 1_000, 5_000] {
                for mtg in [None, Some(0), Some(1), Some(2), Some(40)] {
                    for overhead in [0u64, 30, 100] {
                        let l = clock(time, time, inc, mtg);
                        for turn in Color::ALL {
                            let b = budget(&l, turn, overhead).unwrap_or(Budget {
                                soft_ms: u64::MAX,
                                hard_ms: u64::MAX,
                            });
                            let limit = time.saturating_sub(overhead);
                            assert!(b.hard_ms <= limit, "{time} {inc} {mtg:?} {overhead}: {b:?}");
                            assert!(b.soft_ms <= b.hard_ms, "{b:?}");
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn uses_the_side_to_move_clock() {
        let l = clock(60_000, 1_000, 0, None);
        let w = budget(&l, Color::White, 0).map(|b| b.soft_ms);
        let b = budget(&l, Color::Black, 0).map(|b| b.soft_ms);
        assert_eq!(w, Some(1_200));
        assert_eq!(b, Some(19));
    }

    #[test]
    fn movetime_minus_overhead_and_unlimited_cases() {
        let l = Limits {
            movetime: Some(1_000),
            ..Limits::default()
        };
        assert_eq!(
            budget(&l, Color::White, 30),
            Some(Budget {
                soft_ms: 970,
                hard_ms: 970
            })
        );
        assert_eq!(budget(&Limits::default(), Color::White, 30), None);
        let depth = Limits {
            depth: Some(5),
            ..Limits::default()
        };
        assert_eq!(budget(&depth, Color::Black, 30), None);
    }
}
