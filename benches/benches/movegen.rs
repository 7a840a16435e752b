//! Chess move generation and perft.

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use movegen::{perft, Chess, MoveList, Position};

const POSITIONS: [(&str, &str); 3] = [
    (
        "start",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    ),
    (
        "kiwipete",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    ),
    ("endgame", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"),
];

fn legal_moves(c: &mut Criterion) {
    let mut group = c.benchmark_group("chess/legal_moves");
    for (name, fen) in POSITIONS {
        let pos = Chess::from_fen(fen).unwrap();
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
    let mut group = c.benchmark_group("chess/perft");
    group.sample_size(10);
    for (name, fen, depth, nodes) in [
        ("start-5", POSITIONS[0].1, 5, 4_865_609),
        ("kiwipete-4", POSITIONS[1].1, 4, 4_085_603),
    ] {
        let pos = Chess::from_fen(fen).unwrap();
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
