//! `volkhv-tune` end to end: datagen data in, a loss per epoch and a
//! parsable table out; bad arguments exit with status 2.

use eval::plunder::{PlunderWeights, PLUNDER};
use eval::weights::Table;
use selfplay::datagen::{self, Config};
use std::path::PathBuf;
use std::process::Command;

fn temp_file(name: &str) -> PathBuf {
    let p = std::env::temp_dir().join(format!("volkhv-tune-{}-{name}", std::process::id()));
    let _ = std::fs::remove_file(&p);
    p
}

fn tune(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_volkhv-tune"))
        .args(args)
        .output()
        .expect("volkhv-tune runs")
}

#[test]
fn tunes_datagen_data_and_writes_the_table() {
    let data = temp_file("plunder.txt");
    let args: Vec<String> =
        "--variant plunder --games 4 --nodes 300 --random-plies 8 --seed 3 --concurrency 2 --out"
            .split_whitespace()
            .map(String::from)
            .chain([data.display().to_string()])
            .collect();
    let cfg = Config::parse(&args).expect("valid arguments");
    let summary = datagen::run(&cfg, false).expect("datagen runs");
    assert!(summary.positions > 100, "{summary}");

    let out = temp_file("table.txt");
    let (data_s, out_s) = (data.display().to_string(), out.display().to_string());
    let run = tune(&[
        "--variant",
        "plunder",
        "--data",
        &data_s,
        "--out",
        &out_s,
        "--epochs",
        "5",
        "--threads",
        "2",
        "--holdout",
        "20",
        "--l2",
        "0.0001",
    ]);
    let stdout = String::from_utf8_lossy(&run.stdout);
    assert!(
        run.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&run.stderr)
    );
    assert!(
        stdout.contains(&format!("{} positions traced", summary.positions)),
        "{stdout}"
    );
    assert!(stdout.contains("K = "), "{stdout}");
    assert!(stdout.contains("held out"), "{stdout}");
    let losses: Vec<f64> = stdout
        .lines()
        .filter(|l| l.starts_with("epoch"))
        .map(|l| {
            l.split_whitespace()
                .nth(3)
                .and_then(|x| x.parse().ok())
                .expect("a loss")
        })
        .collect();
    assert_eq!(losses.len(), 5, "{stdout}");
    assert!(losses[4] < losses[0], "{losses:?}");
    let table = PlunderWeights::from_text(&std::fs::read_to_string(&out).expect("written"))
        .expect("the written table parses");
    assert_ne!(table, PLUNDER, "some weight moved");
    assert_eq!(
        table.to_text(),
        std::fs::read_to_string(&out).expect("written")
    );

    // Data of one variant is refused for another.
    let run = tune(&[
        "--variant",
        "chess",
        "--data",
        &data_s,
        "--out",
        &out_s,
        "--epochs",
        "1",
    ]);
    assert_eq!(run.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&run.stderr).contains("data of variant plunder, tuning chess"));
    for f in [data, out] {
        let _ = std::fs::remove_file(f);
    }
}

#[test]
fn bad_arguments_exit_with_status_2() {
    let cases = [
        ("--variant go --data x --out y", "--variant \"go\""),
        ("--variant chess --out y", "--data is required"),
        ("--variant chess --data x", "--out is required"),
        ("--variant chess --data x --out y --lambda 2", "--lambda 2"),
        (
            "--variant chess --data x --out y --epochs many",
            "--epochs expects",
        ),
        (
            "--variant chess --data x --out y --bogus 1",
            "unknown argument",
        ),
    ];
    let runs: Vec<(Option<i32>, String)> = cases
        .iter()
        .map(|(args, _)| {
            let run = tune(&args.split_whitespace().collect::<Vec<_>>());
            (
                run.status.code(),
                String::from_utf8_lossy(&run.stderr).into_owned(),
            )
        })
        .collect();
    for ((args, reason), (code, err)) in cases.iter().zip(&runs) {
        let one_line = err.lines().count() == 1;
        let named = err.starts_with(&format!("volkhv-tune: {reason}"));
        assert!(
            *code == Some(2) && one_line && named,
            "{args}: {code:?} {err}"
        );
    }
    // An unknown field name is refused before any work.
    let run = tune(&[
        "--variant",
        "chess",
        "--data",
        "/nonexistent",
        "--out",
        "y",
        "--only",
        "materiel",
    ]);
    assert!(String::from_utf8_lossy(&run.stderr).contains("no field \"materiel\""));
}
