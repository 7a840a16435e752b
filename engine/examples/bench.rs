//! `cargo run --release -p engine --example bench -- [depth]`: the bench
//! signature; `-- ttd <threads> <depth> [variant]` times Lazy SMP to a fixed
//! depth over the bench positions (of one variant if named).

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("ttd") {
        let threads = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(2);
        let depth = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(12);
        let variant = args.get(3).and_then(|s| movegen::Variant::from_name(s));
        let t = engine::bench::time_to_depth(threads, depth, variant);
        println!(
            "threads {} depth {} time_ms {} nodes {}",
            t.threads, t.depth, t.time_ms, t.nodes
        );
        return;
    }
    let depth = args.first().and_then(|s| s.parse().ok());
    engine::bench::run(depth);
}
