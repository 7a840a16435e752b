//! fastchess's command line, as OpenBench's client writes it, turned into
//! a [`MatchConfig`] with fastchess's output, so `volkhv match` can stand in
//! for fastchess (and referee plunder and tavreli, which fastchess cannot).
//!
//! ```text
//! volkhv match -recover -variant standard -testEnv -concurrency 2 -rounds 8 -games 2 \
//!     -resign movecount=3 score=400 -draw movenumber=40 movecount=8 score=10 \
//!     -engine dir=Engines/ cmd=./dev proto=uci tc=8.00+0.08 timemargin=250 \
//!         option.Threads=1 option.Hash=16 name=Volkhv-dev \
//!     -engine dir=Engines/ cmd=./base proto=uci tc=8.00+0.08 timemargin=250 \
//!         option.Threads=1 option.Hash=16 name=Volkhv-base \
//!     -openings file=Books/book.epd format=epd order=random start=1 -srand 7 \
//!     -pgnout file=out.pgn seldepth=true nodes=true match_line='^info string pgncomment .*'
//! ```
//!
//! The options are parsed here and checked by [`cli::parse`], which the
//! translated native options go through. fastchess options that change
//! nothing in Volkhv's runner (`-recover`: engines are always restarted;
//! `-testEnv`, `-log`, …) are accepted; Syzygy adjudication (`-tb…`) is
//! not available and is ignored with a note on stderr; the rest are refused
//! with a reason.

use crate::cli::{self, CliError};
use crate::runner::{BookFormat, BookSpec, MatchConfig, OpeningSource, OutputStyle};
use crate::spec::shell_quote;
use std::path::{Path, PathBuf};

/// Whether `args` (after `match`) are fastchess's: the first word is a
/// single-dash option such as `-engine` or `-recover`.
#[must_use]
pub fn is_fastchess_style(args: &[String]) -> bool {
    args.first().is_some_and(|a| is_option(a) && a != "-h")
}

fn is_option(w: &str) -> bool {
    let mut c = w.chars();
    c.next() == Some('-') && c.next().is_some_and(|c| c.is_ascii_alphabetic())
}

fn bad<T>(s: impl Into<String>) -> Result<T, CliError> {
    Err(CliError::Bad(s.into()))
}

/// The options and their values, in order.
fn group(args: &[String]) -> Result<Vec<(String, Vec<String>)>, CliError> {
    let mut out: Vec<(String, Vec<String>)> = Vec::new();
    for a in args {
        if is_option(a) {
            out.push((a[1..].to_string(), Vec::new()));
        } else if let Some((_, values)) = out.last_mut() {
            values.push(a.clone());
        } else {
            return bad(format!("{a:?}: expected an option such as -engine"));
        }
    }
    Ok(out)
}

fn one<'a>(opt: &str, v: &'a [String]) -> Result<&'a str, CliError> {
    match v {
        [x] => Ok(x),
        _ => bad(format!("-{opt}: expected one value, got {}", v.len())),
    }
}

fn whole(opt: &str, v: &[String]) -> Result<u64, CliError> {
    let x = one(opt, v)?;
    x.parse()
        .or_else(|_| bad(format!("-{opt} {x:?}: expected a whole number")))
}

/// `k=v` words as pairs.
fn pairs<'a>(opt: &str, v: &'a [String]) -> Result<Vec<(&'a str, &'a str)>, CliError> {
    v.iter()
        .map(|w| {
            w.split_once('=')
                .ok_or_else(|| CliError::Bad(format!("-{opt}: expected key=value, got {w:?}")))
        })
        .collect()
}

/// An engine's search limit and time margin as fastchess gives them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Limit {
    tc: Option<String>,
    st: Option<String>,
    nodes: Option<String>,
    depth: Option<String>,
    timemargin: Option<String>,
}

impl Limit {
    /// The native options that say the same.
    fn native(&self) -> Result<Vec<String>, CliError> {
        let clock = self.tc.as_deref().filter(|t| *t != "inf");
        if let Some(tc) = clock {
            if tc.contains('/') {
                return bad(format!(
                    "tc={tc}: moves per period are not supported (use BASE+INC)"
                ));
            }
        }
        let limits = [
            ("--tc", clock),
            ("--st", self.st.as_deref()),
            ("--nodes", self.nodes.as_deref()),
            ("--depth", self.depth.as_deref()),
        ];
        let given: Vec<_> = limits.iter().filter(|(_, v)| v.is_some()).collect();
        let [(flag, Some(value))] = given.as_slice() else {
            return bad(
                "each engine needs exactly one limit: tc=, st=, nodes= or depth= (tc=inf with nodes= or depth=)",
            );
        };
        let mut out = vec![(*flag).to_string(), (*value).to_string()];
        if let Some(m) = &self.timemargin {
            out.extend(["--timemargin".to_string(), m.clone()]);
        }
        Ok(out)
    }
}

/// One `-engine` (with `-each` before it): the native `--engine` value and
/// the limit.
fn engine(words: &[String], each: &[String]) -> Result<(String, Limit), CliError> {
    let mut limit = Limit::default();
    let mut spec = Vec::new();
    let mut cmd = None;
    let mut dir = None;
    let mut extra_args = Vec::new();
    for w in each.iter().chain(words) {
        let Some((k, v)) = w.split_once('=') else {
            return bad(format!("-engine: expected key=value, got {w:?}"));
        };
        match k {
            "tc" => limit.tc = Some(v.to_string()),
            "st" => limit.st = Some(v.to_string()),
            "nodes" => limit.nodes = Some(v.to_string()),
            "depth" | "plies" => limit.depth = Some(v.to_string()),
            "timemargin" => limit.timemargin = Some(v.to_string()),
            "restart" => {}
            "cmd" => cmd = Some(v.to_string()),
            "dir" => dir = Some(v.to_string()),
            "args" => extra_args.push(v.to_string()),
            "name" | "proto" => spec.push(w.clone()),
            _ if k.starts_with("option.") => spec.push(w.clone()),
            _ => return bad(format!("-engine: unknown key {k:?}")),
        }
    }
    let Some(cmd) = cmd else {
        return bad("-engine: no cmd=");
    };
    let program = program_path(&cmd, dir.as_deref());
    let mut command = shell_quote(&program);
    for a in extra_args {
        command.push(' ');
        command.push_str(&a);
    }
    spec.push(format!("cmd={command}"));
    if let Some(d) = dir {
        spec.push(format!("dir={d}"));
    }
    let value = spec.iter().map(|w| shell_quote(w)).collect::<Vec<_>>();
    Ok((value.join(" "), limit))
}

/// fastchess runs `cmd` from `dir`: a relative path with a directory part
/// is made absolute here, so it does not depend on how the operating system
/// resolves a relative program against a changed working directory.
fn program_path(cmd: &str, dir: Option<&str>) -> String {
    let path = Path::new(cmd);
    if path.is_absolute() || !cmd.contains('/') {
        return match dir {
            Some(d) if !path.is_absolute() && Path::new(d).join(cmd).is_file() => {
                absolute(&Path::new(d).join(cmd))
            }
            _ => cmd.to_string(),
        };
    }
    absolute(&Path::new(dir.unwrap_or(".")).join(path))
}

fn absolute(p: &Path) -> String {
    std::env::current_dir()
        .map(|cwd| cwd.join(p))
        .unwrap_or_else(|_| p.to_path_buf())
        .to_string_lossy()
        .into_owned()
}

/// `-variant`: fastchess's `standard` is chess; Chess960 is not supported.
fn variant(v: &str) -> Result<&str, CliError> {
    match v {
        "standard" => Ok("chess"),
        "fischerandom" | "chess960" | "frc" => bad(format!(
            "-variant {v}: Chess960 is not supported by volkhv match"
        )),
        other => Ok(other),
    }
}

/// `-openings file=F format=epd|pgn order=random|sequential start=N plies=P`.
fn openings(v: &[String], srand: Option<u64>) -> Result<BookSpec, CliError> {
    let mut file = None;
    let mut format = None;
    let mut random = false;
    let mut start = 1;
    let mut plies = None;
    for (k, val) in pairs("openings", v)? {
        let number = |what: &str| -> Result<usize, CliError> {
            val.parse()
                .or_else(|_| bad(format!("-openings {what}={val:?}: expected a whole number")))
        };
        match k {
            "file" => file = Some(PathBuf::from(val)),
            "format" => {
                format = Some(match val {
                    "epd" => BookFormat::Epd,
                    "pgn" => BookFormat::Pgn,
                    _ => return bad(format!("-openings format={val}: expected epd or pgn")),
                });
            }
            "order" => {
                random = match val {
                    "random" => true,
                    "sequential" => false,
                    _ => {
                        return bad(format!(
                            "-openings order={val}: expected random or sequential"
                        ))
                    }
                };
            }
            "start" => start = number("start")?.max(1),
            "plies" => plies = Some(number("plies")?),
            "policy" => {}
            _ => return bad(format!("-openings: unknown key {k:?}")),
        }
    }
    let Some(path) = file else {
        return bad("-openings: no file=");
    };
    let format = format.unwrap_or_else(|| {
        if path
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("pgn"))
        {
            BookFormat::Pgn
        } else {
            BookFormat::Epd
        }
    });
    Ok(BookSpec {
        path,
        format,
        // Without -srand fastchess picks a seed at random; 0 keeps a rerun
        // the same.
        shuffle: random.then_some(srand.unwrap_or(0)),
        start: start - 1,
        plies,
    })
}

/// `-resign movecount=3 score=400 [twosided=true]` and `-draw …` as the
/// native comma-separated values. Volkhv adjudicates only when both engines
/// agree, fastchess's `twosided=true`.
fn adjudication(opt: &str, v: &[String]) -> Result<String, CliError> {
    let kept: Vec<String> = pairs(opt, v)?
        .into_iter()
        .filter(|(k, _)| *k != "twosided")
        .map(|(k, val)| format!("{k}={val}"))
        .collect();
    Ok(kept.join(","))
}

/// Options that change nothing in Volkhv's runner.
const ACCEPTED: &[&str] = &[
    "recover",
    "testEnv",
    "log",
    "scoreinterval",
    "autosaveinterval",
    "report",
    "wait",
    "force-concurrency",
    "use-affinity",
    "show-latency",
];

/// Parses fastchess's arguments.
///
/// # Errors
/// [`CliError::Bad`] with a one-line reason.
pub fn parse(args: &[String]) -> Result<MatchConfig, CliError> {
    let mut native: Vec<String> = Vec::new();
    let mut engines = Vec::new();
    let mut each = Vec::new();
    let (mut rounds, mut games, mut repeat) = (1, 1, false);
    let mut book_words = None;
    let mut srand = None;
    let mut rating_interval = 10;
    for (opt, v) in group(args)? {
        let mut flag = |name: &str, value: String| native.extend([name.to_string(), value]);
        match opt.as_str() {
            "engine" => engines.push(v),
            "each" => each.extend(v),
            "rounds" => rounds = whole(&opt, &v)?,
            "games" => games = whole(&opt, &v)?,
            "repeat" if v.is_empty() => repeat = true,
            "repeat" => games = whole(&opt, &v)?,
            "concurrency" => flag("--concurrency", whole(&opt, &v)?.to_string()),
            "variant" => flag("--variant", variant(one(&opt, &v)?)?.to_string()),
            "openings" => book_words = Some(v),
            "srand" => srand = Some(whole(&opt, &v)?),
            "pgnout" => flag("--pgn", pgn_file(&v)?),
            "resign" => flag("--resign", adjudication(&opt, &v)?),
            "draw" => flag("--draw", adjudication(&opt, &v)?),
            "maxmoves" => flag("--maxmoves", whole(&opt, &v)?.to_string()),
            "sprt" => flag("--sprt", adjudication(&opt, &v)?),
            "ratinginterval" => rating_interval = whole(&opt, &v)? as usize,
            "output" => match v.as_slice() {
                [f] if f == "format=fastchess" || f == "format=cutechess" => {}
                _ => return bad("-output: only format=fastchess is supported"),
            },
            "tb" | "tbpieces" | "tbadjudicate" => {
                eprintln!("volkhv match: -{opt} ignored (no Syzygy adjudication)");
            }
            o if ACCEPTED.contains(&o) => {}
            o => return bad(format!("-{o} is not supported by volkhv match")),
        }
    }
    if repeat {
        games = 2;
    }
    if !(1..=2).contains(&games) {
        return bad(format!("-games {games}: expected 1 or 2"));
    }
    if rounds == 0 {
        return bad("-rounds must be at least 1");
    }
    let [first, second] = engines.as_slice() else {
        return bad(format!(
            "-engine must be given exactly twice (got {})",
            engines.len()
        ));
    };
    let (spec_a, limit_a) = engine(first, &each)?;
    let (spec_b, limit_b) = engine(second, &each)?;
    if limit_a != limit_b {
        return bad("the engines' tc=/st=/nodes=/depth=/timemargin= differ; volkhv match gives both one limit");
    }
    native.extend(["--engine".into(), spec_a, "--engine".into(), spec_b]);
    native.extend(limit_a.native()?);
    native.extend(["--games".into(), (rounds * games).to_string()]);
    if games == 2 {
        native.push("--repeat".into());
    }
    let mut cfg = cli::parse(&native)?;
    let book = book_words.map(|w| openings(&w, srand)).transpose()?;
    cfg.output = OutputStyle::Fastchess {
        rating_interval,
        book: book.as_ref().map(|b| file_name(&b.path)),
    };
    if let Some(b) = book {
        cfg.openings = OpeningSource::Book(b);
    }
    Ok(cfg)
}

/// `-pgnout file=F …` or `-pgnout F …`: the file (the other keys ask for
/// comments Volkhv's PGN does not write).
fn pgn_file(v: &[String]) -> Result<String, CliError> {
    v.iter()
        .find_map(|w| w.strip_prefix("file="))
        .or_else(|| v.first().filter(|w| !w.contains('=')).map(String::as_str))
        .map(str::to_string)
        .ok_or_else(|| CliError::Bad("-pgnout: no file=".into()))
}

fn file_name(p: &Path) -> String {
    p.file_name().map_or_else(
        || p.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::TimeControl;
    use crate::spec::shell_split;
    use movegen::Variant;

    fn args(s: &str) -> Vec<String> {
        shell_split(s).unwrap()
    }

    fn err(s: &str) -> String {
        match parse(&args(s)) {
            Err(CliError::Bad(m)) => m,
            other => panic!("expected an error for {s}, got {other:?}"),
        }
    }

    /// The command OpenBench's client (`Client/worker.py`,
    /// `build_runner_command`) builds for an SPRT, minus the executable.
    const OPENBENCH: &str =
        "-recover -variant standard -testEnv -concurrency 2 -rounds 8 -games 2 \
        -resign movecount=3 score=400 -draw movenumber=40 movecount=8 score=10  \
        -engine dir=Engines/ cmd=./Volkhv-AAAA proto=uci tc=8.00+0.08 timemargin=250 \
        option.Threads=1 option.Hash=16 name=Volkhv-dev \
        -engine dir=Engines/ cmd=./Volkhv-BBBB proto=uci tc=8.00+0.08 timemargin=250 \
        option.Threads=1 option.Hash=16 name=Volkhv-base \
        -openings file=Books/x.epd format=epd order=random start=17 -srand 12345 \
        -pgnout file=PGNs/1.pgn seldepth=true nodes=true match_line='^info string pgncomment .*'";

    #[test]
    fn openbench_command_line() {
        assert!(is_fastchess_style(&args(OPENBENCH)));
        let c = parse(&args(OPENBENCH)).unwrap();
        assert_eq!(c.game.variant, Variant::Chess);
        assert_eq!((c.games, c.repeat, c.concurrency), (16, true, 2));
        assert_eq!(
            c.game.tc,
            TimeControl::Clock {
                base_ms: 8000,
                inc_ms: 80
            }
        );
        assert_eq!(c.game.margin_ms, 250);
        assert_eq!(c.game.adjudication.resign, Some((3, 400)));
        assert_eq!(c.game.adjudication.draw, Some((40, 8, 10)));
        assert_eq!(c.pgn, Some(PathBuf::from("PGNs/1.pgn")));
        let [a, b] = &c.engines;
        assert_eq!(
            (a.name.as_str(), b.name.as_str()),
            ("Volkhv-dev", "Volkhv-base")
        );
        assert!(a.cmd[0].ends_with("Engines/./Volkhv-AAAA"), "{:?}", a.cmd);
        assert!(Path::new(&a.cmd[0]).is_absolute());
        assert_eq!(a.dir.as_deref(), Some("Engines/"));
        assert_eq!(
            a.options,
            [("Threads".into(), "1".into()), ("Hash".into(), "16".into())]
        );
        assert_eq!(
            c.openings,
            OpeningSource::Book(BookSpec {
                path: "Books/x.epd".into(),
                format: BookFormat::Epd,
                shuffle: Some(12345),
                start: 16,
                plies: None
            })
        );
        assert_eq!(
            c.output,
            OutputStyle::Fastchess {
                rating_interval: 10,
                book: Some("x.epd".into())
            }
        );
    }

    #[test]
    fn limits_variants_and_each() {
        let two = "-engine cmd=a name=x -engine cmd=b name=y";
        let c = parse(&args(&format!(
            "{two} -each tc=inf nodes=5000 proto=uci -rounds 3 -variant plunder"
        )))
        .unwrap();
        assert_eq!(c.game.tc, TimeControl::Nodes(5000));
        assert_eq!((c.games, c.repeat), (3, false));
        assert_eq!(c.game.variant, Variant::Plunder);
        assert_eq!(c.openings, OpeningSource::StartPos);
        let c = parse(&args(&format!(
            "{two} -each st=0.25 -repeat -rounds 2 -variant tavreli"
        )))
        .unwrap();
        assert_eq!(c.game.tc, TimeControl::MoveTime(250));
        assert_eq!(
            (c.games, c.repeat, c.game.variant),
            (4, true, Variant::Tavreli)
        );
        let c = parse(&args(&format!(
            "{two} -each tc=inf depth=3 -openings file=b.pgn plies=8"
        )))
        .unwrap();
        assert_eq!(c.game.tc, TimeControl::Depth(3));
        let OpeningSource::Book(b) = c.openings else {
            panic!("a book")
        };
        assert_eq!(
            (b.format, b.shuffle, b.start, b.plies),
            (BookFormat::Pgn, None, 0, Some(8))
        );
    }

    #[test]
    fn unsupported_or_bad_options_have_reasons() {
        let two = "-engine cmd=a -engine cmd=b";
        assert!(err(&format!("{two} -each tc=1+0.1 -variant fischerandom")).contains("Chess960"));
        assert!(err(&format!("{two} -each tc=40/8+0.1")).contains("moves per period"));
        assert!(err(&format!("{two} -each tc=inf")).contains("exactly one limit"));
        assert!(err(&format!("{two} -each tc=1+0.1 nodes=5")).contains("exactly one limit"));
        assert!(err("-engine cmd=a tc=1 -engine cmd=b tc=2").contains("differ"));
        assert!(err(&format!("{two} -each tc=1 -games 3")).contains("-games 3"));
        assert!(err(&format!("{two} -each tc=1 -bogus")).contains("-bogus"));
        assert!(err(&format!("{two} -each tc=1 -rounds x")).contains("whole number"));
        assert!(err(&format!("{two} -each tc=1 -openings format=epd")).contains("no file="));
        assert!(err(&format!("{two} -each tc=1 -openings file=x order=odd")).contains("order=odd"));
        assert!(err(&format!("{two} -each tc=1 hue=3")).contains("hue"));
        assert!(err("-engine cmd=a -each tc=1").contains("exactly twice"));
        assert!(err(&format!("{two} -each tc=1 -variant shogi")).contains("shogi"));
        assert!(err(&format!("{two} -each tc=ten")).contains("bad time"));
        assert!(!is_fastchess_style(&args("--engine cmd=a")));
        assert!(!is_fastchess_style(&args("-h")));
    }
}
