//! PlunderChess perft and legal-move generation: the start position and a
//! vest-rich position from `plunder.epd`, node counts asserted.

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use movegen::{perft, MoveList, Plunder, Position};

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
const VEST_RICH: &str =
    "r3k2r/pp1n(q)1ppp/2p(n)1b3/3B(P)4/4P(R)3/2N(B)2Q(N)2/PPP2PPP/R3K(P)2R w KQkq - 0 1";

fn legal_moves(c: &mut Criterion) {
    let mut group = c.benchmark_group("plunder/legal_moves");
    for (name, fen, count) in [("start", START, 20), ("vest-rich", VEST_RICH, 69)] {
        let pos = Plunder::from_fen(fen).unwrap();
        let mut moves = MoveList::new();
        pos.legal_moves(&mut moves);
        assert_eq!(moves.len(), count);
        group.bench_function(name, |b| {
            b.iter(|| {
                let mut moves = MoveList::new();
                black_box(&pos).legal_moves(&mut moves);
                black_box(moves.len())
            });
        });
    }
    group.finish();
}

fn perfts(c: &mut Criterion) {
    let mut group = c.benchmark_group("plunder/perft");
    group.sample_size(10);
    for (name, fen, depth, nodes) in [
        ("start-4", START, 4, 198_699),
        ("vest-rich-3", VEST_RICH, 3, 180_789),
    ] {
        let pos = Plunder::from_fen(fen).unwrap();
        assert_eq!(perft(&mut pos.clone(), depth), nodes);
        group.throughput(Throughput::Elements(nodes));
        group.bench_function(name, |b| {
            b.iter(|| perft(&mut black_box(pos), black_box(depth)));
        });
    }
    group.finish();
}

criterion_group!(benches, legal_moves, perfts);
criterion_main!(benches);
