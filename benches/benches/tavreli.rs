//! Tavreli benchmarks: perft from the start and from a tower-rich
//! middlegame (node counts asserted against `tests/data/perft/tavreli.epd`),
//! and the move generator alone on the six Tavreli bench positions — the
//! fast generator beside the trial-of-every-move reference it replaced
//! (`legal_moves_by_trial`), bulk counting, and make/unmake of every legal
//! move.

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use movegen::{perft, MoveList, Position, Tavreli};

const TOWERS: &str =
    "r1b1k2r/pp(PQ~)p1ppp/2n(bn)1n2/3(pN)4/2(BP=Hq)5/5(pN)2/PP1P1PPP/R3K2R w KQkq - 0 1";

/// The Tavreli positions of `volkhv bench` (towers in all but the first).
const BENCH: [&str; 6] = [
    movegen::fen::STARTPOS,
    TOWERS,
    "rn2kbnr/ppp1pp1p/8/2p=q3p1/1P2P3/N1P2(PP=Q)P(Pb)/P7/R1BQK1N(RqB) b Qkq - 0 10",
    "rnbqk1nr/ppp2p1p/3p4/6p1/(PbP=N)2P4/N7/2(PBQK)2(P=HP)(PB)P/R5(Np=hR)1 b kq - 1 12",
    "rn3(bk)nr/p1p1p1p1/3(pPQq)1p1p/1(pB)3(bP=N)2/8/1P2P2P/P1P2P2/RNB1K1NR b KQ - 0 8",
    "r3k2r/8/8/8/8/4(Pn)3/8/R3K2R w KQkq - 0 1",
];

fn perft_bench(c: &mut Criterion) {
    movegen::attacks::init();
    let mut group = c.benchmark_group("tavreli_perft");
    group.sample_size(10);
    for (name, fen, depth, nodes) in [
        ("startpos_d3", movegen::fen::STARTPOS, 3, 68_299u64),
        ("towers_d3", TOWERS, 3, 409_540),
    ] {
        let pos = Tavreli::from_fen(fen).expect("valid FEN");
        group.throughput(Throughput::Elements(nodes));
        group.bench_function(name, |b| {
            b.iter(|| {
                let mut p = black_box(pos.clone());
                let n = perft(&mut p, black_box(depth));
                assert_eq!(n, nodes);
                n
            });
        });
    }
    group.finish();
}

/// Throughput is in legal moves over the six positions.
fn movegen_bench(c: &mut Criterion) {
    movegen::attacks::init();
    let positions: Vec<Tavreli> = BENCH
        .iter()
        .map(|f| Tavreli::from_fen(f).expect("valid FEN"))
        .collect();
    let lists: Vec<MoveList> = positions
        .iter()
        .map(|p| {
            let mut list = MoveList::new();
            p.legal_moves_by_trial(&mut list);
            list
        })
        .collect();
    let total: usize = lists.iter().map(MoveList::len).sum();
    let mut group = c.benchmark_group("tavreli_movegen");
    group.throughput(Throughput::Elements(total as u64));
    group.bench_function("legal_moves", |b| {
        b.iter(|| {
            let mut n = 0;
            for p in &positions {
                let mut list = MoveList::new();
                black_box(p).legal_moves(&mut list);
                n += black_box(&list).len();
            }
            assert_eq!(n, total);
            n
        });
    });
    group.bench_function("legal_moves_by_trial", |b| {
        b.iter(|| {
            let mut n = 0;
            for p in &positions {
                let mut list = MoveList::new();
                black_box(p).legal_moves_by_trial(&mut list);
                n += black_box(&list).len();
            }
            assert_eq!(n, total);
            n
        });
    });
    group.bench_function("count_legal", |b| {
        b.iter(|| {
            let n: u64 = positions.iter().map(|p| black_box(p).count_legal()).sum();
            assert_eq!(n, total as u64);
            n
        });
    });
    group.bench_function("make_unmake", |b| {
        let mut positions = positions.clone();
        b.iter(|| {
            let mut keys = 0;
            for (p, list) in positions.iter_mut().zip(&lists) {
                for &m in list {
                    let undo = p.make(black_box(m));
                    keys ^= p.key();
                    p.unmake(m, undo);
                }
            }
            keys
        });
    });
    group.finish();
}

criterion_group!(benches, perft_bench, movegen_bench);
criterion_main!(benches);
