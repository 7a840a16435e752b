//! `perft`: count the legal move tree of a position of any variant.
//!
//! ```text
//! perft --variant chess --fen startpos --depth 5 [--divide] [--threads 2]
//! perft --variant plunder --epd tests/data/perft/plunder.epd [--max-nodes 1000000]
//! ```

use clap::Parser;
use movegen::{divide, fen::STARTPOS, with_variant, Position, Variant, MAX_PERFT_DEPTH};
use perft::{count, parse_epd_line};
use std::process::ExitCode;
use std::time::Instant;

#[derive(Parser, Debug)]
#[command(
    name = "perft",
    version,
    about = "Perft for chess, plunder and tavreli"
)]
struct Args {
    /// chess, plunder or tavreli.
    #[arg(long, default_value = "chess")]
    variant: String,
    /// A FEN, or `startpos`.
    #[arg(long, default_value = "startpos")]
    fen: String,
    /// Depth in plies (at most `movegen::MAX_PERFT_DEPTH`).
    #[arg(long, value_parser = clap::value_parser!(u32).range(..=i64::from(MAX_PERFT_DEPTH)))]
    depth: Option<u32>,
    /// Print the node count under each root move.
    #[arg(long)]
    divide: bool,
    /// Run an EPD suite (`FEN ;D1 n ;D2 n …`) instead of one position.
    #[arg(long)]
    epd: Option<String>,
    /// With --epd: skip depths whose expected count exceeds this.
    #[arg(long)]
    max_nodes: Option<u64>,
    /// Worker threads (root moves are split between them).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=i64::from(MAX_THREADS)))]
    threads: u16,
}

/// More threads than this only cost start-up time (the root has at most a
/// few hundred moves to share out).
const MAX_THREADS: u16 = 256;

/// Exit code 2: the input was bad.
fn bad_input(msg: &str) -> ExitCode {
    eprintln!("perft: {msg}");
    ExitCode::from(2)
}

fn main() -> ExitCode {
    let args = match Args::try_parse() {
        Ok(a) => a,
        Err(e) if e.use_stderr() => {
            let first = e.to_string();
            let line = first.lines().next().unwrap_or("bad arguments");
            return bad_input(line.trim_start_matches("error: "));
        }
        Err(e) => {
            print!("{e}");
            return ExitCode::SUCCESS;
        }
    };
    if let Err(e) = rayon::ThreadPoolBuilder::new()
        .num_threads(usize::from(args.threads))
        .build_global()
    {
        return bad_input(&format!("cannot start threads: {e}"));
    }
    let Some(variant) = Variant::from_name(&args.variant) else {
        return bad_input(&format!(
            "unknown variant \"{}\" ({})",
            args.variant,
            Variant::list()
        ));
    };
    with_variant!(variant, P => run::<P>(&args))
}

fn run<P: Position>(args: &Args) -> ExitCode {
    movegen::attacks::init();
    if let Some(path) = &args.epd {
        return run_epd::<P>(path, args.max_nodes, args.threads > 1);
    }
    let Some(depth) = args.depth else {
        return bad_input("--depth is required (or --epd FILE)");
    };
    let fen = if args.fen == "startpos" {
        STARTPOS
    } else {
        args.fen.as_str()
    };
    let mut pos = match P::from_fen(fen) {
        Ok(p) => p,
        Err(e) => return bad_input(&e.to_string()),
    };
    let start = Instant::now();
    let nodes = if args.divide {
        let lines = divide(&mut pos, depth.max(1));
        for (m, n) in &lines {
            println!("{m}: {n}");
        }
        println!();
        lines.iter().map(|(_, n)| n).sum()
    } else {
        count(&mut pos, depth, args.threads > 1)
    };
    let secs = start.elapsed().as_secs_f64();
    println!("Nodes: {nodes}");
    println!("Time: {:.3} s", secs);
    println!("NPS: {:.0}", nodes as f64 / secs.max(1e-9));
    ExitCode::SUCCESS
}

fn run_epd<P: Position>(path: &str, max_nodes: Option<u64>, parallel: bool) -> ExitCode {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) => return bad_input(&format!("cannot read {path}: {e}")),
    };
    let (mut passed, mut failed) = (0u32, 0u32);
    let mut total_nodes = 0u64;
    let start = Instant::now();
    for (i, line) in text.lines().enumerate() {
        let entry = match parse_epd_line(line) {
            Ok(Some(e)) => e,
            Ok(None) => continue,
            Err(e) => return bad_input(&format!("{path}:{}: {e}", i + 1)),
        };
        let mut pos = match P::from_fen(&entry.fen) {
            Ok(p) => p,
            Err(e) => return bad_input(&format!("{path}:{}: {e}", i + 1)),
        };
        for &(depth, expected) in &entry.expected {
            if max_nodes.is_some_and(|m| expected > m) {
                continue;
            }
            let got = count(&mut pos, depth, parallel);
            total_nodes += got;
            if got == expected {
                passed += 1;
                println!("ok    {} ;D{depth} {got}", entry.fen);
            } else {
                failed += 1;
                println!(
                    "FAIL  {} ;D{depth} expected {expected}, got {got}",
                    entry.fen
                );
            }
        }
    }
    let secs = start.elapsed().as_secs_f64();
    println!(
        "Nodes: {total_nodes}  Time: {secs:.3} s  NPS: {:.0}",
        total_nodes as f64 / secs.max(1e-9)
    );
    println!("{passed} passed, {failed} failed");
    if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
