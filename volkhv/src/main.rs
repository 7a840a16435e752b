//! `volkhv`: the engine binary.
//!
//! ```text
//! volkhv                 speak UCI or XBoard on stdin/stdout (chosen by the first command)
//! volkhv bench [depth]   search the bench positions, print total nodes and nps
//! volkhv match ...       play engine-vs-engine matches
//! volkhv datagen ...     self-play training data for the tuner
//! volkhv rescore ...     a data file labelled again by this build
//! volkhv genfens N seed S book B   openings for OpenBench (see `selfplay::genfens`)
//! volkhv serve ...       the web board (see `volkhv serve --help`)
//! volkhv --help | --version
//! ```
//!
//! The protocol is chosen by the first non-empty line: `xboard` selects
//! CECP v2; anything else (normally `uci`) is handled by the UCI shim, which
//! also answers that first line, so a bare `isready` or `go perft 3` works.

#[cfg(feature = "web")]
mod serve;
mod shell;
#[cfg(test)]
mod shim_props;
mod uci;
mod xboard;

use shell::{Input, Out, Searches};
use std::process::ExitCode;
use std::sync::mpsc;

const USAGE: &str = "\
usage:
  volkhv                 UCI or XBoard/CECP v2 on stdin/stdout (first command decides)
  volkhv bench [depth]   search the bench positions; prints total nodes and nps
  volkhv match ...       engine-vs-engine matches (see `volkhv match --help`)
  volkhv datagen ...     self-play positions for the tuner (see `volkhv datagen --help`)
  volkhv rescore ...     a data file's positions labelled again by this build
                         (see `volkhv rescore --help`)
  volkhv genfens N seed S book <None|FILE> [variant V] [plies P]
                         N random balanced openings as `info string genfens <FEN>`
  volkhv serve ...       the web board on http://127.0.0.1:8080/ (see `volkhv serve --help`)
  volkhv --help          this text
  volkhv --version       the version";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let Some(words) = selfplay::genfens::request_words(&args) {
        return genfens_command(&words);
    }
    match args.first().map(String::as_str) {
        None => {
            protocol_loop();
            ExitCode::SUCCESS
        }
        Some("-h" | "--help" | "help") => {
            println!(
                "{} - chess, plunder and tavreli engine\n\n{USAGE}",
                shell::NAME
            );
            ExitCode::SUCCESS
        }
        Some("-V" | "--version" | "version") => {
            println!("volkhv {}", env!("CARGO_PKG_VERSION"));
            ExitCode::SUCCESS
        }
        Some("bench") => bench_command(&args[1..]),
        Some("match") => match_command(&args[1..]),
        Some("datagen") => datagen_command(&args[1..]),
        Some("rescore") => rescore_command(&args[1..]),
        #[cfg(feature = "web")]
        Some("serve") => serve::run_cli(&args[1..]),
        #[cfg(not(feature = "web"))]
        Some("serve") => {
            eprintln!(
                "volkhv serve: this build has no web board (built without the `web` feature)"
            );
            ExitCode::from(2)
        }
        Some(other) => {
            eprintln!("volkhv: unknown argument \"{other}\"\n\n{USAGE}");
            ExitCode::from(2)
        }
    }
}

fn bench_command(rest: &[String]) -> ExitCode {
    let depth = match rest {
        [] => None,
        [d] => match shell::parse_in_range("depth", d, 1, 64) {
            Ok(d) => u32::try_from(d).ok(),
            Err(e) => {
                eprintln!("volkhv bench: {e}");
                return ExitCode::from(2);
            }
        },
        _ => {
            eprintln!("volkhv bench: expected at most one argument (the depth)");
            return ExitCode::from(2);
        }
    };
    let mut engine = engine::Engine::new();
    engine.bench(
        depth,
        std::sync::Arc::new(|e| match e {
            engine::SearchEvent::Report(l) => println!("{l}"),
            engine::SearchEvent::Message(m) => eprintln!("volkhv bench: {m}"),
            _ => {}
        }),
    );
    engine.wait();
    ExitCode::SUCCESS
}

fn datagen_command(rest: &[String]) -> ExitCode {
    use selfplay::datagen;
    file_tool(
        "datagen",
        rest,
        datagen::USAGE,
        datagen::Config::parse,
        |cfg| datagen::run(cfg, true).map(|s| format!("{s}, written to {}", cfg.out.display())),
    )
}

fn rescore_command(rest: &[String]) -> ExitCode {
    use selfplay::rescore;
    file_tool(
        "rescore",
        rest,
        rescore::USAGE,
        rescore::Config::parse,
        |cfg| rescore::run(cfg).map(|s| format!("{s}, written to {}", cfg.out.display())),
    )
}

/// A subcommand that writes a file: `--help` prints `usage`; arguments
/// `parse` refuses exit with status 2, a failed `run` with 1, each with a
/// one-line reason; what `run` reports goes to stderr.
fn file_tool<C>(
    name: &str,
    rest: &[String],
    usage: &str,
    parse: fn(&[String]) -> Result<C, String>,
    run: impl FnOnce(&C) -> Result<String, String>,
) -> ExitCode {
    if matches!(rest, [h] if h == "--help" || h == "-h") {
        println!("{usage}");
        return ExitCode::SUCCESS;
    }
    let cfg = match parse(rest) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("volkhv {name}: {e}");
            return ExitCode::from(2);
        }
    };
    match run(&cfg) {
        Ok(report) => {
            eprintln!("volkhv {name}: {report}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("volkhv {name}: {e}");
            ExitCode::FAILURE
        }
    }
}

fn genfens_command(words: &[String]) -> ExitCode {
    match selfplay::genfens::run(words, &mut |l| println!("{l}")) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("volkhv genfens: {e}");
            ExitCode::from(2)
        }
    }
}

fn match_command(rest: &[String]) -> ExitCode {
    matchrunner::run_cli(rest)
}

fn protocol_loop() {
    let (tx, rx) = mpsc::channel();
    shell::spawn_reader(tx.clone());
    let out = Out::stdout();
    // The first non-empty line picks the protocol.
    let Some(first) = next_command(&rx) else {
        return;
    };
    let searches = Searches::new(tx);
    if first.trim() == "xboard" {
        // Building the engine may take a while on a cold start (tables of a
        // debug build); GUIs give up on features after 2 s unless
        // `feature done=0` came, so that line goes out before the engine
        // is built.
        let Some(second) = next_command(&rx) else {
            return;
        };
        let early = second.split_whitespace().next() == Some("protover");
        if early {
            out.line("feature done=0");
        }
        let mut shim = xboard::XBoard::new(out, searches);
        if early {
            shim.done0_sent();
        }
        shell::run(&mut shim, &[first, second], &rx);
    } else {
        let mut shim = uci::Uci::new(out, searches);
        shell::run(&mut shim, &[first], &rx);
    }
}

/// The next non-empty line before a protocol is chosen; `None` at end of
/// input. An over-long line cannot be answered in a protocol not yet known:
/// it is reported on stderr and skipped.
fn next_command(rx: &mpsc::Receiver<Input>) -> Option<String> {
    loop {
        match rx.recv() {
            Ok(Input::Line(l)) if l.trim().is_empty() => {}
            Ok(Input::Line(l)) => return Some(l),
            Ok(Input::TooLong(bytes)) => {
                eprintln!("volkhv: {}", shell::too_long_message(bytes));
            }
            Ok(Input::Eof | Input::Search(..)) | Err(_) => return None,
        }
    }
}
