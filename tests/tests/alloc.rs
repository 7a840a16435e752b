//! Perft performs no heap allocation once the position is set up, in every
//! variant: a counting global allocator watches the perft call.
#![allow(
    unsafe_code,
    reason = "a counting GlobalAlloc must be an unsafe impl; it only forwards to System"
)]

use movegen::{perft, Chess, Plunder, Position, Tavreli};
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

thread_local! {
    // Per thread, so tests running in parallel do not see each other's
    // allocations. A const-initialised Cell needs no allocation itself.
    static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
}

struct Counting;

// SAFETY: forwards to the system allocator unchanged; only counts calls.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let _ = ALLOCATIONS.try_with(|n| n.set(n.get() + 1));
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

/// Runs perft on `pos` and returns (nodes, allocations made meanwhile).
fn counted<P: Position>(pos: &mut P, depth: u32) -> (u64, usize) {
    movegen::attacks::init();
    let before = ALLOCATIONS.with(Cell::get);
    let nodes = perft(pos, depth);
    (nodes, ALLOCATIONS.with(Cell::get) - before)
}

#[test]
fn the_counter_sees_allocations() {
    let before = ALLOCATIONS.with(Cell::get);
    let v = std::hint::black_box(vec![1u8; 100]);
    assert!(ALLOCATIONS.with(Cell::get) > before, "{}", v.len());
}

#[test]
fn chess_perft_does_not_allocate() {
    let (nodes, allocations) = counted(&mut Chess::startpos(), 4);
    assert_eq!(nodes, 197_281);
    assert_eq!(allocations, 0);
}

/// Vests on both sides, captures with plunder choices, a vested king that
/// can castle, pawn-vested pieces (from `plunder.epd`).
#[test]
fn plunder_perft_does_not_allocate() {
    let fen = "r3k2r/pp1n(q)1ppp/2p(n)1b3/3B(P)4/4P(R)3/2N(B)2Q(N)2/PPP2PPP/R3K(P)2R w KQkq - 0 1";
    let (nodes, allocations) = counted(&mut Plunder::from_fen(fen).unwrap(), 3);
    assert_eq!(nodes, 180_789);
    assert_eq!(allocations, 0);
}

/// Tall mixed towers, promoted pawns and pawns with foreign promotion pieces
/// (from `tavreli.epd`).
#[test]
fn tavreli_perft_does_not_allocate() {
    let fen = "6(nrp=bP=RRk)1/3(pQRP=Bn)3p/2(pP=Nbp=nP=H)5/6p1/1(p=rrp=hqB)P=Q3P1/8/2(P=Rb)5/1N3(BNPK)2 b - - 0 35";
    let (nodes, allocations) = counted(&mut Tavreli::from_fen(fen).unwrap(), 3);
    assert_eq!(nodes, 379_988);
    assert_eq!(allocations, 0);
}
