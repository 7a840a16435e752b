//! `volkhv datagen` through the real binary: the files parse, every
//! position is one of its game's positions with a quiet move played from
//! it, the output does not depend on the concurrency, runs append, and bad
//! arguments exit with status 2 and a one-line reason.

use movegen::{Chess, Plunder, Position, Tavreli, Variant};
use selfplay::datagen::{play_any, Config, Record};
use std::path::{Path, PathBuf};
use std::process::Command;

fn temp_file(name: &str) -> PathBuf {
    let p = std::env::temp_dir().join(format!("volkhv-datagen-{}-{name}", std::process::id()));
    let _ = std::fs::remove_file(&p);
    p
}

fn datagen(args: &str, out: &Path) -> std::process::Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_volkhv"));
    cmd.arg("datagen")
        .args(args.split_whitespace())
        .arg("--out")
        .arg(out);
    cmd.output().expect("volkhv runs")
}

const ARGS: &str = "--games 2 --nodes 300 --random-plies 6 --seed 11";

fn config(variant: Variant, out: &Path) -> Config {
    let mut args: Vec<String> = ARGS.split_whitespace().map(String::from).collect();
    args.extend(["--variant".into(), variant.name().into(), "--out".into()]);
    args.push(out.display().to_string());
    Config::parse(&args).expect("valid arguments")
}

/// Every record of game `index` is a position of that game, not in check,
/// from which the game went on with a move that is not a capture, labelled
/// with the game's result.
fn check_game<P: Position>(cfg: &Config, index: u64, file_records: &[Record]) -> usize {
    let game = play_any(cfg, index);
    let mut pos = P::startpos();
    let mut seen = 0;
    for mv in &game.moves {
        let fen = pos.fen();
        let m = pos.parse_move(mv).expect("every move of the game is legal");
        if let Some(r) = game.records.get(seen).filter(|r| r.fen == fen) {
            assert!(!pos.is_check(), "{fen}: in check");
            assert!(!m.is_capture(), "{fen}: the move played, {mv}, captures");
            assert_eq!(r.result, game.result);
            let parsed = P::from_fen(&r.fen).expect("the FEN parses");
            assert_eq!(parsed.fen(), r.fen, "the FEN round-trips");
            seen += 1;
        }
        pos.make(m);
    }
    assert_eq!(
        seen,
        game.records.len(),
        "every record is a position of the game"
    );
    assert!(
        seen > 10,
        "a game of {} plies gave {seen} records",
        game.plies
    );
    assert_eq!(
        &file_records[..seen],
        &game.records[..],
        "the file holds game {index}"
    );
    seen
}

fn check_variant<P: Position>(variant: Variant) {
    let out = temp_file(&format!("{variant}.txt"));
    let run = datagen(&format!("--variant {variant} {ARGS} --concurrency 2"), &out);
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let text = std::fs::read_to_string(&out).expect("the file is written");
    let mut lines = text.lines();
    let cfg = config(variant, &out);
    assert_eq!(lines.next(), Some(cfg.header().as_str()));
    let records: Vec<Record> = lines
        .map(|l| Record::parse(l).unwrap_or_else(|e| panic!("{l}: {e}")))
        .collect();
    let first = check_game::<P>(&cfg, 0, &records);
    let second = check_game::<P>(&cfg, 1, &records[first..]);
    assert_eq!(first + second, records.len());
    let _ = std::fs::remove_file(&out);
}

#[test]
fn files_parse_and_replay_legally() {
    check_variant::<Chess>(Variant::Chess);
    check_variant::<Plunder>(Variant::Plunder);
    check_variant::<Tavreli>(Variant::Tavreli);
}

#[test]
fn output_does_not_depend_on_concurrency_and_runs_append() {
    let (a, b) = (temp_file("one.txt"), temp_file("three.txt"));
    let args = format!("--variant plunder {ARGS}");
    assert!(datagen(&format!("{args} --concurrency 1"), &a)
        .status
        .success());
    assert!(datagen(&format!("{args} --concurrency 3"), &b)
        .status
        .success());
    let one = std::fs::read_to_string(&a).expect("written");
    assert_eq!(one, std::fs::read_to_string(&b).expect("written"));
    assert!(datagen(&format!("{args} --concurrency 2"), &a)
        .status
        .success());
    assert_eq!(std::fs::read_to_string(&a).expect("written"), one.repeat(2));
    let other_seed = temp_file("seed.txt");
    let run = datagen(
        "--variant plunder --games 2 --nodes 300 --random-plies 6 --seed 12",
        &other_seed,
    );
    assert!(run.status.success());
    assert_ne!(std::fs::read_to_string(&other_seed).expect("written"), one);
    for f in [a, b, other_seed] {
        let _ = std::fs::remove_file(f);
    }
}

#[test]
fn bad_arguments_exit_with_status_2() {
    let out = temp_file("bad.txt");
    for (args, reason) in [
        (
            "--variant shogi --games 1 --nodes 10",
            "--variant \"shogi\" is not one of",
        ),
        ("--variant chess --nodes 10", "--games is required"),
        (
            "--variant chess --games 1 --nodes -5",
            "--nodes expects a whole number",
        ),
        (
            "--variant chess --games 1 --nodes 10 --threads 2",
            "unknown argument \"--threads\"",
        ),
    ] {
        let run = datagen(args, &out);
        assert_eq!(run.status.code(), Some(2), "{args}");
        let err = String::from_utf8_lossy(&run.stderr);
        assert_eq!(err.lines().count(), 1, "{args}: {err}");
        assert!(
            err.starts_with(&format!("volkhv datagen: {reason}")),
            "{args}: {err}"
        );
    }
    assert!(!out.exists(), "nothing is written on bad arguments");
}

/// A binary run holds the text run's records: its text form is the text
/// file, in every variant.
#[test]
fn binary_output_is_the_text_output_packed() {
    for variant in Variant::ALL {
        let (text, bin) = (
            temp_file(&format!("{variant}-same.txt")),
            temp_file(&format!("{variant}-same.bin")),
        );
        let args = format!("--variant {variant} {ARGS}");
        assert!(datagen(&args, &text).status.success());
        assert!(datagen(&args, &bin).status.success());
        let text_file = std::fs::read_to_string(&text).expect("written");
        let bin_file = std::fs::read(&bin).expect("written");
        assert!(records::binary::is_binary(&bin_file));
        assert!(text_file.lines().count() > 20);
        // The binary header leaves the number of games out (a resumed run
        // may raise it).
        let header = text_file.lines().next().unwrap_or_default().to_string();
        let text_file = text_file.replacen(&header, &header.replace(" --games 2", ""), 1);
        assert_eq!(
            records::binary::binary_to_text(&bin_file),
            Ok(text_file.clone())
        );
        let (again, dropped) = records::binary::text_to_binary(&text_file, None).expect("packs");
        assert_eq!(dropped, 0);
        assert_eq!(records::binary::binary_to_text(&again), Ok(text_file));
        for f in [text, bin] {
            let _ = std::fs::remove_file(f);
        }
    }
}

/// A binary run stopped after some games, or in the middle of a record,
/// resumes into the file an uninterrupted run writes; another run's file
/// is refused.
#[test]
fn binary_runs_resume() {
    let whole = temp_file("whole.bin");
    let args = |games: u64| {
        format!("--variant tavreli --games {games} --nodes 300 --random-plies 6 --seed 11 --format binary")
    };
    assert!(datagen(&args(3), &whole).status.success());
    let expected = std::fs::read(&whole).expect("written");

    let cut = temp_file("cut.bin");
    assert!(datagen(&args(1), &cut).status.success());
    let resumed = datagen(&args(3), &cut);
    assert!(resumed.status.success());
    assert!(String::from_utf8_lossy(&resumed.stderr).contains("resumed at game"));
    assert_eq!(std::fs::read(&cut).expect("written"), expected);

    // Killed in the middle of a record of the last game.
    std::fs::write(&cut, &expected[..expected.len() - 100]).expect("written");
    assert!(datagen(&args(3), &cut).status.success());
    assert_eq!(std::fs::read(&cut).expect("written"), expected);

    // A finished run asked again adds nothing.
    assert!(datagen(&args(3), &cut).status.success());
    assert_eq!(std::fs::read(&cut).expect("written"), expected);

    let other = datagen(&args(3).replace("--seed 11", "--seed 12"), &cut);
    assert_eq!(other.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&other.stderr).contains("holds another run"));
    assert_eq!(std::fs::read(&cut).expect("untouched"), expected);
    for f in [whole, cut] {
        let _ = std::fs::remove_file(f);
    }
}
