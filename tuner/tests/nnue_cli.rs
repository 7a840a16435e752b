//! `volkhv-nnue` end to end: data files convert text → binary → text
//! unchanged in every variant, a variant's network trains on binary data
//! with the held-out losses printed, and bad input is refused.

use eval::nets::Features;
use movegen::{Plunder, Position, Tavreli, Variant};
use selfplay::datagen::{self, Config};
use std::path::PathBuf;
use std::process::{Command, Output};

fn temp_file(name: &str) -> PathBuf {
    let p = std::env::temp_dir().join(format!("volkhv-nnue-{}-{name}", std::process::id()));
    let _ = std::fs::remove_file(&p);
    p
}

fn nnue(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_volkhv-nnue"))
        .args(args)
        .output()
        .expect("volkhv-nnue runs")
}

/// A small text data file of `variant` made by the real generator (`tag`
/// keeps the files of tests running at once apart).
fn data(variant: Variant, games: u64, tag: &str) -> PathBuf {
    let out = temp_file(&format!("{variant}-{tag}.txt"));
    let args: Vec<String> = format!(
        "--variant {variant} --games {games} --nodes 300 --random-plies 8 --seed 5 --concurrency 2 --out"
    )
    .split_whitespace()
    .map(String::from)
    .chain([out.display().to_string()])
    .collect();
    let cfg = Config::parse(&args).expect("valid arguments");
    let summary = datagen::run(&cfg, false).expect("datagen runs");
    assert!(summary.positions > 10, "{summary}");
    out
}

fn path(p: &std::path::Path) -> String {
    p.display().to_string()
}

fn succeeded(run: &Output) -> String {
    let stdout = String::from_utf8_lossy(&run.stdout).into_owned();
    assert!(
        run.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&run.stderr)
    );
    stdout
}

#[test]
fn text_binary_text_round_trips_in_every_variant() {
    for variant in Variant::ALL {
        let text = data(variant, 2, "round-trip");
        let (bin, back) = (
            temp_file(&format!("{variant}.bin")),
            temp_file(&format!("{variant}.back")),
        );
        let note = succeeded(&nnue(&["convert", &path(&text), &path(&bin)]));
        assert!(note.contains("text to binary"), "{note}");
        let note = succeeded(&nnue(&["convert", &path(&bin), &path(&back)]));
        assert!(note.contains("binary to text"), "{note}");
        let original = std::fs::read_to_string(&text).expect("written");
        assert_eq!(std::fs::read_to_string(&back).expect("written"), original);
        let bytes = std::fs::read(&bin).expect("written");
        assert!(bytes.len() < original.len(), "binary is the smaller form");
        for f in [text, bin, back] {
            let _ = std::fs::remove_file(f);
        }
    }
}

/// Trains `variant` on `data` into `out` with `options` after the three
/// required ones; its standard output.
fn trained(
    variant: Variant,
    data: &std::path::Path,
    out: &std::path::Path,
    options: &str,
) -> String {
    let (data, out) = (path(data), path(out));
    let mut args = vec!["--variant", variant.name(), "--data", &data, "--out", &out];
    args.extend(options.split_whitespace());
    succeeded(&nnue(&args))
}

/// Trains `variant` for two epochs on `file`; the network file it writes.
fn train(variant: Variant, file: &std::path::Path) -> (String, Vec<u8>) {
    let net = temp_file(&format!("{variant}.nnue"));
    let stdout = trained(
        variant,
        file,
        &net,
        "--epochs 2 --holdout 20 --threads 2 --batch 64",
    );
    let bytes = std::fs::read(&net).expect("the network is written");
    let _ = std::fs::remove_file(net);
    (stdout, bytes)
}

#[test]
fn trains_each_variant_on_binary_data_and_prints_held_out_losses() {
    for variant in [Variant::Plunder, Variant::Tavreli] {
        let text = data(variant, 3, "train");
        let bin = temp_file(&format!("{variant}-train.bin"));
        succeeded(&nnue(&["convert", &path(&text), &path(&bin)]));
        let (stdout, bytes) = train(variant, &bin);
        assert!(
            stdout.contains("hand-written evaluation: held-out loss"),
            "{stdout}"
        );
        assert!(
            stdout.contains("epoch   2") && stdout.contains("held-out"),
            "{stdout}"
        );
        let read = match variant {
            Variant::Plunder => {
                eval::nets::Network::from_bytes(&bytes, Plunder::MAGIC, Plunder::INPUTS)
            }
            _ => eval::nets::Network::from_bytes(&bytes, Tavreli::MAGIC, Tavreli::INPUTS),
        };
        assert!(read.is_ok(), "{read:?}");
        // The same data as text trains the same network.
        assert_eq!(train(variant, &text).1, bytes);
        for f in [text, bin] {
            let _ = std::fs::remove_file(f);
        }
    }
}

#[test]
fn another_width_is_written_with_its_width_and_read_by_the_engine() {
    let text = data(Variant::Plunder, 1, "width");
    let net = temp_file("width.nnue");
    trained(
        Variant::Plunder,
        &text,
        &net,
        "--epochs 1 --hidden 16 --holdout 0 --threads 1",
    );
    let bytes = std::fs::read(&net).expect("the network is written");
    assert_eq!(bytes[8..12], 16u32.to_le_bytes());
    let inputs = Plunder::INPUTS;
    assert_eq!(bytes.len(), 12 + (inputs + 3) * 16 * 2 + 4 + inputs * 4);
    let read = eval::nets::Network::from_bytes(&bytes, Plunder::MAGIC, inputs);
    assert_eq!(read.map(|n| n.width()), Ok(16));
    for f in [text, net] {
        let _ = std::fs::remove_file(f);
    }
}

/// The positions of a text data file.
fn boards(text: &std::path::Path) -> Vec<Plunder> {
    positions(text)
        .iter()
        .map(|line| {
            let fen = line.split('|').next().unwrap_or_default().trim();
            Plunder::from_fen(fen).expect("datagen writes FENs")
        })
        .collect()
}

#[test]
fn a_widened_network_evaluates_as_the_narrow_one_and_then_learns() {
    let text = data(Variant::Plunder, 4, "widen");
    let (narrow, wide, trained_wide) = (
        temp_file("widen-64.nnue"),
        temp_file("widen-96.nnue"),
        temp_file("widen-96-trained.nnue"),
    );
    trained(
        Variant::Plunder,
        &text,
        &narrow,
        "--epochs 3 --threads 1 --batch 64",
    );
    let init = format!(
        "--init {} --hidden 96 --threads 1 --batch 64",
        path(&narrow)
    );
    let stdout = trained(
        Variant::Plunder,
        &text,
        &wide,
        &format!("{init} --epochs 1 --lr 0 --wd 0"),
    );
    assert!(
        stdout.contains("widened from 64 to 96 hidden units"),
        "{stdout}"
    );
    trained(
        Variant::Plunder,
        &text,
        &trained_wide,
        &format!("{init} --epochs 2 --lr 0.01"),
    );
    let read = |f: &PathBuf| {
        let bytes = std::fs::read(f).expect("written");
        eval::nets::Network::from_bytes(&bytes, Plunder::MAGIC, Plunder::INPUTS)
            .expect("the engine reads it")
    };
    let (narrow_net, wide_net, trained_net) = (read(&narrow), read(&wide), read(&trained_wide));
    assert_eq!((narrow_net.width(), wide_net.width()), (64, 96));
    let boards = boards(&text);
    assert!(boards.len() > 50);
    let differ = |a: &eval::nets::Network, b: &eval::nets::Network| {
        boards
            .iter()
            .filter(|p| a.evaluate(*p) != b.evaluate(*p))
            .count()
    };
    // The engine evaluates every position exactly as before the widening;
    // training on from it moves the evaluation.
    assert_eq!(differ(&narrow_net, &wide_net), 0);
    assert!(differ(&wide_net, &trained_net) > boards.len() / 2);
    for f in [text, narrow, wide, trained_wide] {
        let _ = std::fs::remove_file(f);
    }
}

#[test]
fn a_cosine_run_keeps_every_epoch_and_its_losses() {
    // Six games: the hold-out takes whole blocks of 64, and two short games
    // can be held out whole.
    let text = data(Variant::Plunder, 6, "checkpoints");
    let net = temp_file("checkpoints.nnue");
    let dir = temp_file("checkpoints");
    let _ = std::fs::remove_dir_all(&dir);
    trained(
        Variant::Plunder,
        &text,
        &net,
        &format!(
            "--epochs 3 --schedule cosine --warmup 2 --batch 8 --holdout 20 --threads 1 \
             --checkpoints {}",
            path(&dir)
        ),
    );
    let losses = std::fs::read_to_string(dir.join("losses.tsv")).expect("losses.tsv");
    let lines: Vec<Vec<&str>> = losses.lines().map(|l| l.split('\t').collect()).collect();
    assert_eq!(
        lines[0],
        ["epoch", "lr", "train", "held_out", "held_out_results"]
    );
    assert_eq!(lines.len(), 4, "{losses}");
    let lr: Vec<f64> = lines[1..].iter().map(|l| l[1].parse().unwrap()).collect();
    for (i, l) in lines[1..].iter().enumerate() {
        assert_eq!(l[0], (i + 1).to_string());
        assert!(
            l[2..]
                .iter()
                .all(|x| x.parse::<f64>().is_ok_and(f64::is_finite)),
            "{l:?}"
        );
    }
    // Each epoch starts lower on the cosine (the first in the warm-up).
    assert!(lr[1] < 0.001 && lr[2] < lr[1], "{lr:?}");
    // Every epoch's network is kept; the last is the one written to --out.
    let last = std::fs::read(dir.join("epoch-003.nnue")).expect("epoch 3");
    assert_eq!(last, std::fs::read(&net).expect("the network"));
    assert!(dir.join("epoch-001.nnue").exists() && dir.join("epoch-002.nnue").exists());
    let bad = nnue(&["--data", "x", "--out", "y", "--schedule", "linear"]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("--schedule is step or cosine"));
    let _ = std::fs::remove_dir_all(dir);
    for f in [text, net] {
        let _ = std::fs::remove_file(f);
    }
}

/// The number printed right after `label` in `text`.
fn number_after(text: &str, label: &str) -> f64 {
    let rest = text
        .split(label)
        .nth(1)
        .unwrap_or_else(|| panic!("{label:?} in {text}"));
    let end = rest
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(rest.len());
    rest[..end]
        .parse()
        .unwrap_or_else(|_| panic!("a number after {label:?} in {text}"))
}

#[test]
fn a_run_from_a_network_starts_where_that_network_is() {
    let text = data(Variant::Plunder, 8, "init");
    let (first, second) = (temp_file("init-first.nnue"), temp_file("init-second.nnue"));
    let options = "--epochs 20 --lr 0.01 --holdout 20 --threads 1 --batch 64";
    let stdout = trained(Variant::Plunder, &text, &first, options);
    let last_epoch = stdout
        .lines()
        .rfind(|l| l.starts_with("epoch"))
        .expect("an epoch line");
    let trained_loss = number_after(last_epoch, "held-out ");
    // Started from the first run's file: the start is that network, so its
    // held-out loss is the first run's last (up to the quantisation).
    let resumed = trained(
        Variant::Plunder,
        &text,
        &second,
        &format!("{options} --init {}", path(&first)),
    );
    let start = resumed
        .lines()
        .find(|l| l.starts_with("start network"))
        .expect("the start network's loss");
    let start_loss = number_after(start, "held-out loss ");
    assert!(
        (start_loss - trained_loss).abs() < 0.01 * trained_loss,
        "{start_loss} vs {trained_loss}"
    );
    // The hand-written evaluation alone (a fresh network's start) is far
    // from it.
    let hand = number_after(&stdout, "hand-written evaluation: held-out loss ");
    assert!(
        (hand - start_loss).abs() > 0.05 * hand,
        "{hand} vs {start_loss}"
    );
    // The file read back and written again is the same bytes: one epoch
    // at a zero step size and no decay leaves every weight where it was.
    trained(
        Variant::Plunder,
        &text,
        &second,
        &format!(
            "--epochs 1 --lr 0 --wd 0 --threads 1 --init {}",
            path(&first)
        ),
    );
    assert_eq!(std::fs::read(&second).ok(), std::fs::read(&first).ok());
    // Another variant's network, another width, or a missing file: refused
    // with one line.
    let (data_file, out) = (path(&text), path(&temp_file("init-refused.nnue")));
    let first = path(&first);
    let tavreli_net = temp_file("init-tavreli.nnue");
    let settings = tuner::nnue::Settings {
        k: 1.0,
        lambda: 1.0,
        lr: 0.001,
        batch: 64,
        seed: 1,
        residual: true,
        weight_decay: 0.0,
    };
    let tavreli_bytes = tuner::nnue::Trainer::new::<Tavreli>(settings).to_bytes();
    std::fs::write(&tavreli_net, tavreli_bytes).expect("a temp file");
    let tavreli_net = path(&tavreli_net);
    for (variant, init, hidden, reason) in [
        (
            "plunder",
            tavreli_net.as_str(),
            None,
            "not a network of this variant",
        ),
        (
            "plunder",
            first.as_str(),
            Some("32"),
            "widened, not narrowed",
        ),
        ("plunder", "/nonexistent.nnue", None, "cannot read"),
    ] {
        let mut args = vec![
            "--variant",
            variant,
            "--data",
            &data_file,
            "--out",
            &out,
            "--init",
            init,
        ];
        args.extend(hidden.map(|h| ["--hidden", h]).into_iter().flatten());
        let run = nnue(&args);
        assert_eq!(run.status.code(), Some(1), "{args:?}");
        let err = String::from_utf8_lossy(&run.stderr);
        assert!(err.contains(reason) && err.lines().count() == 1, "{err}");
    }
    for f in [text, second] {
        let _ = std::fs::remove_file(f);
    }
    for f in [first, tavreli_net] {
        let _ = std::fs::remove_file(f);
    }
}

#[test]
fn bad_input_is_refused() {
    let plunder = data(Variant::Plunder, 1, "refuse");
    let bin = temp_file("refuse.bin");
    succeeded(&nnue(&["convert", &path(&plunder), &path(&bin)]));
    let out = path(&temp_file("refused.nnue"));
    for file in [&plunder, &bin] {
        let run = nnue(&["--variant", "chess", "--data", &path(file), "--out", &out]);
        assert_eq!(run.status.code(), Some(1));
        let err = String::from_utf8_lossy(&run.stderr);
        assert!(
            err.contains("data of variant plunder, tuning chess"),
            "{err}"
        );
    }
    for (args, reason) in [
        (
            vec!["--variant", "go", "--data", "x", "--out", "y"],
            "--variant \"go\"",
        ),
        (vec!["convert", "x"], "convert takes IN OUT"),
        (vec!["--data", "x"], "--data and --out are required"),
        (
            vec!["--data", "x", "--out", "y", "--hidden", "0"],
            "--hidden is 1..=512",
        ),
        (
            vec!["--data", "x", "--out", "y", "--hidden", "513"],
            "--hidden is 1..=512",
        ),
    ] {
        let run = nnue(&args);
        assert_eq!(run.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&run.stderr);
        assert!(err.contains(reason) && err.lines().count() == 1, "{err}");
    }
    // Ten positions are one block of 64, held out whole: nothing to train on.
    let all_held = nnue(&[
        "--variant",
        "plunder",
        "--data",
        &path(&plunder),
        "--out",
        &out,
        "--limit",
        "10",
    ]);
    assert_eq!(all_held.status.code(), Some(1));
    let err = String::from_utf8_lossy(&all_held.stderr);
    assert!(
        err.contains("no training positions: all 10 were held out"),
        "{err}"
    );
    assert!(!std::path::Path::new(&out).exists(), "no network written");
    let missing = nnue(&["convert", "/nonexistent/in", "/nonexistent/out"]);
    assert_eq!(missing.status.code(), Some(1));
    for f in [plunder, bin] {
        let _ = std::fs::remove_file(f);
    }
}

/// The data lines (positions) of a text data file.
fn positions(text: &std::path::Path) -> Vec<String> {
    std::fs::read_to_string(text)
        .expect("written")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(String::from)
        .collect()
}

#[test]
fn split_data_holds_out_the_start_of_every_file() {
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../scripts/split_data.py");
    let (first, second) = (
        data(Variant::Tavreli, 2, "split-a"),
        data(Variant::Tavreli, 3, "split-b"),
    );
    let mut bins = Vec::new();
    for text in [&first, &second] {
        let bin = temp_file(&format!("{}.bin", text.display()).replace('/', "_"));
        succeeded(&nnue(&["convert", &path(text), &path(&bin)]));
        bins.push(bin);
    }
    let (valid, train) = (temp_file("split-valid.bin"), temp_file("split-train.bin"));
    let run = Command::new("python3")
        .arg(&script)
        .args([path(&valid), path(&train), "4".to_string()])
        .args(bins.iter().map(|b| path(b)))
        .output()
        .expect("python3 runs (CI installs it)");
    succeeded(&run);
    let back = |bin: &PathBuf| {
        let text = temp_file(&format!("{}.txt", bin.display()).replace('/', "_"));
        succeeded(&nnue(&["convert", &path(bin), &path(&text)]));
        let lines = positions(&text);
        let _ = std::fs::remove_file(text);
        lines
    };
    let (a, b) = (positions(&first), positions(&second));
    let expected_valid: Vec<String> = a[..4].iter().chain(&b[..4]).cloned().collect();
    let expected_train: Vec<String> = a[4..].iter().chain(&b[4..]).cloned().collect();
    assert_eq!(back(&valid), expected_valid);
    assert_eq!(back(&train), expected_train);
    let usage = Command::new("python3").arg(&script).output().expect("runs");
    assert_eq!(usage.status.code(), Some(2));
    for f in [first, second, valid, train].into_iter().chain(bins) {
        let _ = std::fs::remove_file(f);
    }
}
