//! Tavreli perft from the start and from a tower-rich middlegame, node
//! counts asserted against `tests/data/perft/tavreli.epd`.

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use movegen::{perft, Position, Tavreli};

const TOWERS: &str =
    "r1b1k2r/pp(PQ~)p1ppp/2n(bn)1n2/3(pN)4/2(BP=Hq)5/5(pN)2/PP1P1PPP/R3K2R w KQkq - 0 1";

fn bench(c: &mut Criterion) {
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

criterion_group!(benches, bench);
criterion_main!(benches);
