//! What OpenBench's client does with Volkhv, replayed with the real binary:
//! the client's code paths (AndyGrant/OpenBench, `Client/bench.py`,
//! `Client/genfens.py`, `Client/worker.py`) are rebuilt here in Rust, down
//! to the strings it formats and the fields it reads, and run against two
//! copies of `volkhv` under two names (as the client's `Engines/` holds a
//! dev and a base build). `volkhv match` stands where the client runs
//! `./fastchess-ob`; for plunder and tavreli the only change is the
//! `-variant` word, which is what a fork of the client would send.

use matchrunner::spec::shell_split;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;

const VOLKHV: &str = env!("CARGO_BIN_EXE_volkhv");

/// A fresh directory laid out as the client's: `Engines/` with the two
/// builds, `Books/`, `PGNs/`.
fn client_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("volkhv-openbench-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    for sub in ["Engines", "Books", "PGNs"] {
        std::fs::create_dir_all(dir.join(sub)).unwrap();
    }
    for build in ["Volkhv-DEV00000", "Volkhv-BASE0000"] {
        std::fs::copy(VOLKHV, dir.join("Engines").join(build)).unwrap();
    }
    dir
}

/// `bench.py: parse_stream_output`: the output read bottom-up, each line
/// with its non-alphanumerics blanked, the first `<n> nodes` / `nodes <n>`
/// / `nodes searched <n>` and `<n> nps` / `nps <n>` / `nodes second <n>`.
fn parse_bench(stdout: &str) -> (Option<u64>, Option<u64>) {
    let (mut nodes, mut nps) = (None, None);
    for line in stdout.trim().lines().rev() {
        let clean: String = line
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || c == ' ' {
                    c
                } else {
                    ' '
                }
            })
            .collect();
        let words: Vec<String> = clean.split_whitespace().map(str::to_lowercase).collect();
        nps = nps.or_else(|| find_count(&words, "nps", &[&["nodes", "second"]]));
        nodes = nodes.or_else(|| find_count(&words, "nodes", &[&["nodes", "searched"]]));
    }
    (nodes, nps)
}

/// The leftmost `<n> word`, `word <n>` or `<prefix…> <n>` in `words`.
fn find_count(words: &[String], word: &str, prefixes: &[&[&str]]) -> Option<u64> {
    let num = |i: usize| words.get(i).and_then(|w| w.parse::<u64>().ok());
    (0..words.len()).find_map(|i| {
        if words.get(i + 1).is_some_and(|w| w == word) && num(i).is_some() {
            return num(i);
        }
        if words[i] == word && num(i + 1).is_some() {
            return num(i + 1);
        }
        prefixes.iter().find_map(|p| {
            let fits = p
                .iter()
                .enumerate()
                .all(|(k, w)| words.get(i + k).is_some_and(|x| x == w));
            if fits {
                num(i + p.len())
            } else {
                None
            }
        })
    })
}

#[test]
fn bench_is_read_as_the_client_reads_it_and_repeats() {
    let run = || {
        let out = Command::new(VOLKHV).args(["bench", "3"]).output().unwrap();
        assert!(out.status.success());
        String::from_utf8(out.stdout).unwrap()
    };
    let (a, b) = (run(), run());
    let (nodes, nps) = parse_bench(&a);
    let total = a
        .lines()
        .find_map(|l| l.strip_prefix("Nodes searched  : "))
        .and_then(|n| n.trim().parse::<u64>().ok());
    assert_eq!(nodes, total, "the client must read the total:\n{a}");
    assert!(nps.is_some_and(|n| n > 0), "{a}");
    assert_eq!(parse_bench(&b).0, nodes, "Non-Deterministic Benches");
}

/// `genfens.py`: `./engine "genfens N seed S book B <extra>" "quit"`, the
/// lines after `info string genfens `, each turned into EPD by
/// `convert_fen_to_epd` (which needs exactly six FEN fields).
fn genfens(dir: &Path, n: u32, seed: u64, book: &str, extra: &str) -> Vec<String> {
    let out = Command::new("./Engines/Volkhv-DEV00000")
        .current_dir(dir)
        .args([
            format!("genfens {n} seed {seed} book {book} {extra}"),
            "quit".into(),
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .filter_map(|l| l.strip_prefix("info string genfens "))
        .map(|fen| {
            let f: Vec<&str> = fen.split(' ').collect();
            let [board, turn, castle, ep, half, full] = f.as_slice() else {
                panic!("not six fields: {fen}");
            };
            let (half, full): (u32, u32) = (half.parse().unwrap(), full.parse().unwrap());
            format!("{board} {turn} {castle} {ep} hmvc {half}; fmvn {full};")
        })
        .collect()
}

/// The workload fields `build_runner_command` reads.
struct Workload {
    variant: &'static str,
    datagen: bool,
    play_reverses: bool,
    concurrency: u32,
    rounds: u32,
    win_adj: &'static str,
    draw_adj: &'static str,
    /// As `scale_time_control` formats it.
    control: &'static str,
    options: &'static str,
    book: &'static str,
    book_index: u32,
    book_seed: u64,
}

/// `worker.py: build_runner_command` for runner 0, with `volkhv match` as
/// the executable.
fn runner_command(w: &Workload) -> String {
    let games_per_round = if w.datagen && !w.play_reverses { 1 } else { 2 };
    let adj = |flag: &str, v: &str| {
        if v == "None" {
            String::new()
        } else {
            format!("{flag} {v}")
        }
    };
    let engine = |cmd: &str, branch: &str| {
        let options: String = w
            .options
            .split_whitespace()
            .map(|o| format!(" option.{o}"))
            .collect();
        format!(
            "-engine dir=Engines/ cmd=./{cmd} proto=uci {}{options} name=Volkhv-{branch}",
            w.control
        )
    };
    let (runner_idx, pairs) = (0, w.rounds / 2);
    let book = if w.datagen {
        let start = 1 + runner_idx * pairs * (1 + u32::from(!w.play_reverses));
        format!(
            "-openings file=Books/openbench.genfens.epd format=epd order=sequential start={start}"
        )
    } else {
        let suffix = w.book.rsplit('.').next().unwrap();
        format!(
            "-openings file=Books/{} format={suffix} order=random start={} -srand {}",
            w.book,
            w.book_index + runner_idx * pairs,
            w.book_seed
        )
    };
    format!(
        "{VOLKHV} match -recover -variant {} -testEnv -concurrency {} -rounds {} -games {games_per_round} \
         {} {} {} {} {book} -pgnout file=PGNs/runner0.pgn seldepth=true nodes=true match_line={}",
        w.variant,
        w.concurrency,
        w.rounds,
        adj("-resign", w.win_adj),
        adj("-draw", w.draw_adj),
        engine("Volkhv-DEV00000", "dev"),
        engine("Volkhv-BASE0000", "base"),
        "'^info string pgncomment .*'"
    )
}

/// What `run_and_parse_runner` and `MatchRunner.update_results` count.
#[derive(Debug, Default)]
struct Results {
    trinomial: [u32; 3],
    pentanomial: [u32; 5],
    games: HashMap<u32, String>,
    crashes: u32,
    finished: u32,
}

impl Results {
    /// `update_results` for one `Finished game` line.
    fn update(&mut self, line: &str) {
        let reason = line.split(':').nth(1).unwrap();
        self.crashes += u32::from(reason.contains("disconnect") || reason.contains("stalls"));
        let tokens: Vec<&str> = line.split_whitespace().collect();
        let (game, result) = (tokens[2].parse::<u32>().unwrap(), tokens[6].to_string());
        self.finished += 1;
        self.games.insert(game, result);
        let (first, second) = if game % 2 == 1 {
            (game, game + 1)
        } else {
            (game - 1, game)
        };
        let (Some(r1), Some(r2)) = (self.games.get(&first), self.games.get(&second)) else {
            return;
        };
        let lookup = |r: &str| match r {
            "0-1" => 0,
            "1/2-1/2" => 1,
            "1-0" => 2,
            other => panic!("result {other:?}"),
        };
        let (l1, l2) = (lookup(r1), lookup(r2));
        self.trinomial[l1] += 1;
        self.trinomial[2 - l2] += 1;
        self.pentanomial[l1 + 2 - l2] += 1;
        self.games.remove(&first);
        self.games.remove(&second);
    }
}

/// Runs the command from `dir` and parses its stdout line by line as the
/// client does; also returns the output.
fn run_runner(dir: &Path, command: &str) -> (Results, String) {
    let words = shell_split(command).unwrap();
    let out = Command::new(&words[0])
        .args(&words[1..])
        .current_dir(dir)
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        out.status.success(),
        "{text}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut r = Results::default();
    for line in text.lines().map(str::trim) {
        if line.contains("Finished game") {
            r.update(line);
        }
    }
    (r, text)
}

/// The final results block's `Ptnml(0-2): [..]` and `Games: N`.
fn summary_counts(text: &str) -> ([u32; 5], u32) {
    let last = |prefix: &str| {
        text.lines()
            .rev()
            .find_map(|l| l.strip_prefix(prefix))
            .unwrap()
    };
    let penta: Vec<u32> = last("Ptnml(0-2): [")
        .split(']')
        .next()
        .unwrap()
        .split(", ")
        .map(|n| n.parse().unwrap())
        .collect();
    let games = last("Games: ").split(',').next().unwrap().parse().unwrap();
    (penta.try_into().unwrap(), games)
}

fn sprt_workload(variant: &'static str, control: &'static str) -> Workload {
    Workload {
        variant,
        datagen: false,
        play_reverses: true,
        concurrency: 2,
        rounds: 3,
        win_adj: "movecount=3 score=400",
        draw_adj: "movenumber=40 movecount=8 score=10",
        control,
        options: "Threads=1 Hash=16",
        book: "openbench.epd",
        book_index: 2,
        book_seed: 77,
    }
}

/// An SPRT workload in each variant, with a book the engine generated.
fn sprt_in(variant: &'static str, control: &'static str) {
    let dir = client_dir(&format!("sprt-{variant}"));
    let extra = if variant == "standard" {
        String::new()
    } else {
        format!("variant {variant}")
    };
    let book = genfens(&dir, 4, 5, "None", &extra);
    assert_eq!(book.len(), 4);
    std::fs::write(dir.join("Books/openbench.epd"), book.join("\n") + "\n").unwrap();
    let w = sprt_workload(variant, control);
    let (r, text) = run_runner(&dir, &runner_command(&w));
    let games = w.rounds * 2;
    assert_eq!(r.finished, games, "{text}");
    assert_eq!(r.pentanomial.iter().sum::<u32>(), w.rounds, "{text}");
    assert_eq!(r.trinomial.iter().sum::<u32>(), games, "{text}");
    assert!(r.games.is_empty(), "every pair completed: {text}");
    assert_eq!(r.crashes, 0, "{text}");
    assert_eq!(summary_counts(&text), (r.pentanomial, games), "{text}");
    assert_eq!(
        text.lines()
            .filter(|l| l.starts_with("Started game"))
            .count() as u32,
        games
    );
    assert!(text.ends_with("Finished match\n"), "{text}");
    let pgn = std::fs::read_to_string(dir.join("PGNs/runner0.pgn")).unwrap();
    assert_eq!(pgn.matches("[Event ").count() as u32, games);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn chess_sprt_with_a_clock() {
    sprt_in("standard", "tc=1.00+0.01 timemargin=250");
}

#[test]
fn plunder_sprt_at_fixed_nodes() {
    sprt_in("plunder", "tc=inf nodes=400");
}

#[test]
fn tavreli_sprt_at_fixed_nodes() {
    sprt_in("tavreli", "tc=inf nodes=400");
}

#[test]
fn datagen_workload_without_reverses() {
    // DATAGEN: the book is genfens output, read in order, one game a round.
    let dir = client_dir("datagen");
    let book = genfens(&dir, 3, 9, "None", "");
    std::fs::write(
        dir.join("Books/openbench.genfens.epd"),
        book.join("\n") + "\n",
    )
    .unwrap();
    let w = Workload {
        datagen: true,
        play_reverses: false,
        concurrency: 1,
        win_adj: "None",
        draw_adj: "None",
        control: "tc=inf nodes=300",
        ..sprt_workload("standard", "")
    };
    let command = runner_command(&w);
    assert!(
        command.contains("-games 1 ") && !command.contains("-resign"),
        "{command}"
    );
    let (r, text) = run_runner(&dir, &command);
    assert_eq!(r.finished, w.rounds, "{text}");
    let pgn = std::fs::read_to_string(dir.join("PGNs/runner0.pgn")).unwrap();
    // Game i starts from book line i, in order.
    for line in &book[..w.rounds as usize] {
        let fields: Vec<&str> = line.split(' ').take(4).collect();
        assert!(pgn.contains(&fields.join(" ")), "{line} not in\n{pgn}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn genfens_from_a_book_in_the_clients_form() {
    let dir = client_dir("genfens-book");
    let first = genfens(&dir, 2, 1, "None", "");
    std::fs::write(dir.join("Books/start.epd"), first.join("\n") + "\n").unwrap();
    let a = genfens(&dir, 5, 3, "Books/start.epd", "");
    assert_eq!(a.len(), 5);
    assert_eq!(
        a,
        genfens(&dir, 5, 3, "Books/start.epd", ""),
        "same seed, same book"
    );
    assert_ne!(a, genfens(&dir, 5, 4, "Books/start.epd", ""));
    let bad = Command::new(VOLKHV)
        .args(["genfens 2 seed 1 book Books/missing.epd", "quit"])
        .current_dir(&dir)
        .output()
        .unwrap();
    assert_eq!(bad.status.code(), Some(2));
    assert_eq!(String::from_utf8_lossy(&bad.stderr).lines().count(), 1);
    let _ = std::fs::remove_dir_all(&dir);
}
