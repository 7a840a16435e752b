//! perft(4) from the start performs no heap allocation once the position is set up.
#![allow(
    unsafe_code,
    reason = "a counting GlobalAlloc must be an unsafe impl; it only forwards to System"
)]

use movegen::{perft, Chess, Position};
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

#[test]
fn perft_does_not_allocate() {
    movegen::attacks::init();
    let mut pos = Chess::startpos();
    let before = ALLOCATIONS.load(Ordering::SeqCst);
    let nodes = perft(&mut pos, 4);
    let after = ALLOCATIONS.load(Ordering::SeqCst);
    assert_eq!(nodes, 197_281);
    assert_eq!(after - before, 0, "perft allocated");
}
