//! The bench signature: `volkhv bench` searches a fixed set of positions to
//! a fixed depth and its node count names the engine's behaviour
//! (`Bench: <nodes>` in commit messages). A change that alters it must say
//! so by changing `engine::bench::SIGNATURE` in the same commit.

use std::process::Command;

#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "the signature is measured by the release build (cargo test --release)"
)]
fn bench_node_count_is_the_signature() {
    let out = Command::new(env!("CARGO_BIN_EXE_volkhv"))
        .arg("bench")
        .output()
        .expect("volkhv runs");
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    let nodes = text
        .lines()
        .find_map(|l| l.strip_prefix("Nodes searched  : "))
        .expect("a total line");
    assert_eq!(nodes.trim(), engine::bench::SIGNATURE.to_string(), "{text}");
    assert_eq!(
        text.lines().filter(|l| l.starts_with("position ")).count(),
        engine::bench::positions().len()
    );
    // OpenBench reads the output bottom-up for `<n> nodes` and `<n> nps`.
    let last: Vec<&str> = text.lines().last().unwrap_or("").split(' ').collect();
    assert!(
        matches!(last.as_slice(), [n, "nodes", nps, "nps"]
            if *n == engine::bench::SIGNATURE.to_string() && nps.parse::<u64>().is_ok()),
        "{text}"
    );
}
