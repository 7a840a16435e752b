//! Perft of a vest-rich PlunderChess position performs no heap allocation
//! once the position is set up (its own test binary: the counting allocator
//! is global).
#![allow(
    unsafe_code,
    reason = "a counting GlobalAlloc must be an unsafe impl; it only forwards to System"
)]

use movegen::{perft, Plunder, Position};
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

struct Counting;

static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

// SAFETY: forwards to the system allocator unchanged; only counts calls.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::SeqCst);
        // SAFETY: same contract as the caller's.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: same contract as the caller's.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Vests on both sides, captures with plunder choices, a vested king that
/// can castle, pawn-vested pieces (from `plunder.epd`).
const VEST_RICH: &str =
    "r3k2r/pp1n(q)1ppp/2p(n)1b3/3B(P)4/4P(R)3/2N(B)2Q(N)2/PPP2PPP/R3K(P)2R w KQkq - 0 1";

#[test]
fn plunder_perft_does_not_allocate() {
    movegen::attacks::init();
    let mut pos = Plunder::from_fen(VEST_RICH).expect("valid FEN");
    let before = ALLOCATIONS.load(Ordering::SeqCst);
    let nodes = perft(&mut pos, 3);
    let after = ALLOCATIONS.load(Ordering::SeqCst);
    assert_eq!(nodes, 180_789);
    assert_eq!(after - before, 0, "perft allocated");
}
