//! `volkhv match` with the real engine on both sides, in every variant, at a
//! tiny node limit: the games complete, every move replays legally with
//! movegen, and the PGN reads back with the tags the runner promises.

use movegen::{status, Position, Variant};
use notation::pgn::{read_pgn, PgnGame};
use std::process::Command;

const VOLKHV: &str = env!("CARGO_BIN_EXE_volkhv");

/// Replays every game with the rules `P` and checks its tags and ending.
fn replay<P: Position>(games: &[PgnGame]) {
    for g in games {
        let (pos, keys) = g
            .replay_with_history::<P>()
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(g.tag("Variant"), Some(P::VARIANT.name()));
        assert_eq!(g.tag("PlyCount"), Some(g.moves.len().to_string().as_str()));
        for tag in ["White", "Black", "Result", "TimeControl", "Termination"] {
            assert!(g.tag(tag).is_some(), "missing {tag}");
        }
        let termination = g.tag("Termination").unwrap_or_default();
        assert!(
            termination == "normal" || termination == "adjudication",
            "{termination}: {:?}",
            g.comments
        );
        if termination == "normal" {
            let outcome = status(&pos, &keys).expect("a normal end is a finished game");
            assert_eq!(outcome.result(), g.result);
        }
    }
}

#[test]
fn volkhv_against_volkhv_in_every_variant() {
    for variant in Variant::ALL {
        let pgn = std::env::temp_dir().join(format!(
            "volkhv-selfplay-{}-{variant}.pgn",
            std::process::id()
        ));
        let _ = std::fs::remove_file(&pgn);
        let out = Command::new(VOLKHV)
            .args(["match", "--variant", variant.name()])
            .args(["--engine", &format!("cmd={VOLKHV} name=a option.Hash=4")])
            .args(["--engine", &format!("cmd={VOLKHV} name=b option.Hash=2")])
            .args(["--nodes", "300", "--games", "2", "--repeat"])
            .args(["--random-plies", "4", "--seed", "5", "--maxmoves", "50"])
            .arg("--pgn")
            .arg(&pgn)
            .output()
            .expect("volkhv runs");
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success(),
            "{variant}: {stdout} {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(stdout.contains("Games: 2,"), "{variant}: {stdout}");
        let games =
            read_pgn(&std::fs::read_to_string(&pgn).expect("PGN written")).expect("PGN parses");
        assert_eq!(games.len(), 2, "{variant}");
        assert!(games.iter().all(|g| !g.moves.is_empty()));
        movegen::with_variant!(variant, P => replay::<P>(&games));
        let _ = std::fs::remove_file(&pgn);
    }
}
