//! `volkhv rescore` through the real binary: the rescored file keeps the
//! source's positions in order (less those the new search leaves out), their
//! games and results, under a header that names the rescore; the scores are
//! the new search's; the output does not depend on the concurrency; bad
//! input is refused with a one-line reason and the right status.

use movegen::{with_variant, Position, Variant};
use records::binary::{self, RECORD_BYTES};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn temp_file(name: &str) -> PathBuf {
    let p = std::env::temp_dir().join(format!("volkhv-rescore-{}-{name}", std::process::id()));
    let _ = std::fs::remove_file(&p);
    p
}

fn volkhv(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_volkhv"))
        .args(args)
        .output()
        .expect("volkhv runs")
}

fn path(p: &Path) -> &str {
    p.to_str().expect("a UTF-8 temporary path")
}

fn succeeded(run: &Output) -> String {
    let err = String::from_utf8_lossy(&run.stderr).into_owned();
    assert!(run.status.success(), "{err}");
    err
}

/// A small binary datagen file of `variant` (`tag` keeps the tests' files
/// apart).
fn data(variant: Variant, tag: &str) -> PathBuf {
    let out = temp_file(&format!("{tag}-{variant}.bin"));
    succeeded(&volkhv(&[
        "datagen",
        "--variant",
        variant.name(),
        "--games",
        "3",
        "--nodes",
        "300",
        "--random-plies",
        "6",
        "--seed",
        "5",
        "--out",
        path(&out),
    ]));
    out
}

fn rescore(input: &Path, out: &Path, concurrency: &str) -> String {
    succeeded(&volkhv(&[
        "rescore",
        "--in",
        path(input),
        "--out",
        path(out),
        "--nodes",
        "1200",
        "--concurrency",
        concurrency,
    ]))
}

/// Each record's last-of-game mark, read from the raw bytes.
fn last_marks(bytes: &[u8]) -> Vec<bool> {
    let (_, start) = binary::Header::read(bytes).expect("a header");
    bytes[start..]
        .chunks_exact(RECORD_BYTES)
        .map(|c| binary::is_last(c.try_into().expect("a whole record")))
        .collect()
}

#[test]
fn rescored_files_keep_the_positions_and_take_the_new_scores() {
    for variant in Variant::ALL {
        let source = data(variant, "kept");
        let (one, two) = (
            temp_file(&format!("{variant}-1.bin")),
            temp_file(&format!("{variant}-2.bin")),
        );
        let said = rescore(&source, &one, "1");
        assert!(said.contains("positions rescored"), "{said}");
        rescore(&source, &two, "2");
        let bytes = std::fs::read(&one).expect("the rescored file");
        assert_eq!(bytes, std::fs::read(&two).expect("the other"), "{variant}");

        let old_bytes = std::fs::read(&source).expect("the source");
        let (old_header, old) = binary::read_all(&old_bytes).expect("the source reads");
        let (header, new) = binary::read_all(&bytes).expect("the rescored file reads");
        assert_eq!(header.variant, variant);
        assert_eq!(
            header.text,
            format!("# volkhv rescore --nodes 1200\n{}", old_header.text)
        );
        // The new records are the old ones in order, less some, with the
        // same positions, games and results.
        assert!(!new.is_empty() && new.len() <= old.len(), "{variant}");
        let mut rest = old.iter();
        let mut changed = 0;
        for (record, game) in &new {
            let (was, _) = rest
                .find(|(r, g)| r.fen == record.fen && g == game)
                .unwrap_or_else(|| panic!("{variant}: {} is not in the source", record.fen));
            assert_eq!(record.result, was.result);
            changed += usize::from(record.score != was.score);
            let in_check = with_variant!(variant, P => P::from_fen(&record.fen)
                .expect("the FEN parses")
                .is_check());
            assert!(!in_check, "{}", record.fen);
        }
        // 1200 nodes see further than the 300 of the games.
        assert!(
            changed > new.len() / 4,
            "{variant}: {changed} of {}",
            new.len()
        );
        // The last record of each game, and only it, is marked.
        let marks = last_marks(&bytes);
        for (i, (_, game)) in new.iter().enumerate() {
            let last = new.get(i + 1).is_none_or(|(_, next)| next != game);
            assert_eq!(marks[i], last, "{variant}: record {i}");
        }
        for f in [source, one, two] {
            let _ = std::fs::remove_file(f);
        }
    }
}

#[test]
fn bad_input_is_refused() {
    let source = data(Variant::Chess, "refused");
    let taken = temp_file("taken.bin");
    std::fs::write(&taken, b"keep me").expect("written");
    let text = temp_file("text.txt");
    std::fs::write(&text, "8/8/8/4k3/8/8/8/3QK3 w - - 0 1 | 900 | 1.0\n").expect("written");
    let fresh = temp_file("fresh.bin");
    let cases: [(Vec<&str>, i32, &str); 5] = [
        (
            vec!["--in", path(&source), "--out", path(&fresh)],
            2,
            "--in, --out and --nodes are required",
        ),
        (
            vec!["--in", path(&source), "--out", path(&fresh), "--nodes", "0"],
            2,
            "--nodes: \"0\" is not a number from 1",
        ),
        (
            vec!["--in", path(&source), "--out", path(&fresh), "--nodes"],
            2,
            "--nodes needs a value",
        ),
        (
            vec![
                "--in",
                path(&source),
                "--out",
                path(&taken),
                "--nodes",
                "100",
            ],
            1,
            "exists: rescore writes a new file",
        ),
        (
            vec!["--in", path(&text), "--out", path(&fresh), "--nodes", "100"],
            1,
            "is not binary data",
        ),
    ];
    for (args, status, reason) in cases {
        let run = volkhv(&[&["rescore"], args.as_slice()].concat());
        assert_eq!(run.status.code(), Some(status), "{args:?}");
        let err = String::from_utf8_lossy(&run.stderr);
        assert!(
            err.contains(reason) && err.lines().count() == 1,
            "{args:?}: {err}"
        );
    }
    assert_eq!(std::fs::read(&taken).expect("kept"), b"keep me");
    assert!(!fresh.exists(), "nothing written on a refusal");
    for f in [source, taken, text] {
        let _ = std::fs::remove_file(f);
    }
}
