//! Tavreli perft of a tower-rich position performs no heap allocation once
//! the position is set up (move lists, undo records and towers are values).
#![allow(
    unsafe_code,
    reason = "a counting GlobalAlloc must be an unsafe impl; it only forwards to System"
)]

use movegen::{perft, Position, Tavreli};
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
fn tavreli_perft_does_not_allocate() {
    movegen::attacks::init();
    let fen = "6(nrp=bP=RRk)1/3(pQRP=Bn)3p/2(pP=Nbp=nP=H)5/6p1/1(p=rrp=hqB)P=Q3P1/8/2(P=Rb)5/1N3(BNPK)2 b - - 0 35";
    let mut pos = Tavreli::from_fen(fen).unwrap();
    let before = ALLOCATIONS.load(Ordering::SeqCst);
    let nodes = perft(&mut pos, 3);
    let after = ALLOCATIONS.load(Ordering::SeqCst);
    assert_eq!(nodes, 379_988);
    assert_eq!(after - before, 0, "perft allocated");
}
