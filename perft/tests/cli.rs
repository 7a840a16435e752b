//! The `perft` command line: exact counts, and bad input refused with exit
//! status 2 and a one-line reason before any work starts.

use std::process::Command;

fn perft(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_perft"))
        .args(args)
        .output()
        .expect("perft runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn counts_and_divides() {
    let (code, out, _) = perft(&["--depth", "3"]);
    assert_eq!(code, 0);
    assert!(out.contains("Nodes: 8902"), "{out}");
    let (code, out, _) = perft(&[
        "--variant",
        "tavreli",
        "--depth",
        "2",
        "--divide",
        "--threads",
        "2",
    ]);
    assert_eq!(code, 0);
    assert!(out.contains("b1d2: 39"), "{out}");
    assert!(out.contains("Nodes: 1519"), "{out}");
}

#[test]
fn limits_are_refused_with_a_reason() {
    for (args, reason) in [
        (&["--depth", "2000"][..], "2000 is not in 0..=20"),
        (&["--depth", "21"][..], "21 is not in 0..=20"),
        (
            &["--depth", "3", "--threads", "10000"][..],
            "10000 is not in 1..=256",
        ),
        (
            &["--depth", "3", "--threads", "0"][..],
            "0 is not in 1..=256",
        ),
        (&["--depth", "-1"][..], "-1"),
        (
            &["--depth", "3", "--fen", "k16/8/8/8/8/8/8/K7 w - - 0 1"][..],
            "invalid FEN",
        ),
        (
            &[
                "--variant",
                "tavreli",
                "--depth",
                "1",
                "--fen",
                "k16/8/8/8/8/8/8/K7 w - - 0 1",
            ][..],
            "two digits in a row",
        ),
        (
            &[
                "--variant",
                "plunder",
                "--depth",
                "1",
                "--fen",
                "k7/8/8/8/8/8/8/K25 w - - 0 1",
            ][..],
            "two digits in a row",
        ),
        (
            &["--variant", "shogi", "--depth", "1"][..],
            "unknown variant",
        ),
    ] {
        let (code, out, err) = perft(args);
        assert_eq!(code, 2, "{args:?}: {out}{err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains(reason), "{args:?}: {err}");
        assert!(out.is_empty(), "{args:?}: {out}");
    }
}
