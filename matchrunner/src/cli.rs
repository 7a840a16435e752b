//! The `volkhv match` command line, turned into a [`MatchConfig`].

use crate::engine::TimeControl;
use crate::game::{Adjudication, GameSettings};
use crate::runner::{MatchConfig, OpeningSource, OutputStyle};
use crate::spec::{EngineSpec, Protocol};
use crate::stats::{Sprt, SprtModel};
use clap::Parser;
use movegen::Variant;
use std::collections::HashMap;
use std::path::PathBuf;
use std::time::Duration;

#[derive(Parser, Debug)]
#[command(
    name = "volkhv match",
    no_binary_name = true,
    about = "Play engine-vs-engine matches refereed by movegen",
    after_help = "Example:\n  volkhv match --variant chess --engine \"cmd=./new name=new\" \
                  --engine \"cmd=./old name=old\" --tc 10+0.1 --games 200 --repeat \
                  --random-plies 8 --seed 1 --concurrency 2 --pgn out.pgn \
                  --sprt elo0=0,elo1=5,alpha=0.05,beta=0.05\n\n\
                  fastchess's command line (-engine cmd=... name=... tc=..., -each ..., -rounds N \
                  -games 2, -openings file=... format=epd|pgn order=random start=N, -srand, \
                  -variant standard|plunder|tavreli, ...) is accepted too, with fastchess's \
                  output (see docs/openbench.md)."
)]
struct Args {
    /// chess, plunder or tavreli.
    #[arg(long, default_value = "chess")]
    variant: String,
    /// "cmd=PROGRAM [ARGS] name=NAME proto=uci|xboard dir=DIR option.NAME=VALUE …" (twice).
    #[arg(long, required = true)]
    engine: Vec<String>,
    /// Total number of games.
    #[arg(long, default_value_t = 2)]
    games: usize,
    /// Clock: BASE[+INC] in seconds (`10+0.1`, `1:30+1`).
    #[arg(long)]
    tc: Option<String>,
    /// Fixed seconds per move.
    #[arg(long)]
    st: Option<f64>,
    /// Fixed nodes per move (UCI engines).
    #[arg(long)]
    nodes: Option<u64>,
    /// Fixed depth per move.
    #[arg(long)]
    depth: Option<u32>,
    /// Games played at once (each with its own pair of engine processes).
    #[arg(long, default_value_t = 1)]
    concurrency: usize,
    /// File of openings: FEN/EPD lines or lines of move strings.
    #[arg(long)]
    openings: Option<PathBuf>,
    /// Random legal plies from the start position as openings.
    #[arg(long)]
    random_plies: Option<u32>,
    /// Seed of --random-plies.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Write the games here.
    #[arg(long)]
    pgn: Option<PathBuf>,
    /// Play each opening twice with colours swapped (pentanomial stats).
    #[arg(long)]
    repeat: bool,
    /// elo0=E0,elo1=E1[,alpha=A][,beta=B][,model=normalized|logistic].
    #[arg(long)]
    sprt: Option<String>,
    /// movecount=N,score=CP: resign when both engines agree.
    #[arg(long)]
    resign: Option<String>,
    /// movenumber=N,movecount=M,score=CP: draw when both engines agree.
    #[arg(long)]
    draw: Option<String>,
    /// Adjudicate a draw after this many full moves (default: none; tavreli
    /// 300, where captures never bring the end nearer).
    #[arg(long)]
    maxmoves: Option<u32>,
    /// Milliseconds an engine may exceed its time before it forfeits.
    #[arg(long, default_value_t = 100)]
    timemargin: u64,
    /// Seconds a --nodes/--depth move may take before the engine counts as hung.
    #[arg(long, default_value_t = 60.0)]
    move_timeout: f64,
}

/// A command line that cannot run.
#[derive(Debug, PartialEq, Eq)]
pub enum CliError {
    /// `--help` or `--version`: print this and exit 0.
    Help(String),
    /// Bad options: a one-line reason (exit code 2).
    Bad(String),
}

fn bad<T>(s: impl Into<String>) -> Result<T, CliError> {
    Err(CliError::Bad(s.into()))
}

/// Parses `k=v,k=v` with the allowed keys.
fn key_values(opt: &str, s: &str, keys: &[&str]) -> Result<HashMap<String, f64>, CliError> {
    let mut out = HashMap::new();
    for part in s.split(',').filter(|p| !p.trim().is_empty()) {
        let Some((k, v)) = part.split_once('=') else {
            return bad(format!("{opt}: expected key=value, got {part:?}"));
        };
        let k = k.trim();
        if !keys.contains(&k) {
            return bad(format!(
                "{opt}: unknown key {k:?} (expected {})",
                keys.join(", ")
            ));
        }
        if k == "model" {
            continue;
        }
        let Ok(x) = v.trim().parse::<f64>() else {
            return bad(format!("{opt}: {k}={v:?} is not a number"));
        };
        if !x.is_finite() {
            return bad(format!("{opt}: {k}={v:?} is not finite"));
        }
        out.insert(k.to_string(), x);
    }
    Ok(out)
}

fn need(opt: &str, m: &HashMap<String, f64>, k: &str) -> Result<f64, CliError> {
    match m.get(k) {
        Some(&x) => Ok(x),
        None => bad(format!("{opt}: missing {k}=")),
    }
}

fn count(opt: &str, k: &str, x: f64) -> Result<u32, CliError> {
    if x >= 0.0 && x.fract() == 0.0 && x <= f64::from(u32::MAX) {
        #[expect(
            clippy::cast_possible_truncation,
            clippy::cast_sign_loss,
            reason = "checked"
        )]
        Ok(x as u32)
    } else {
        bad(format!("{opt}: {k} must be a whole number ≥ 0, got {x}"))
    }
}

fn seconds_to_ms(opt: &str, s: &str) -> Result<u64, CliError> {
    let secs = if let Some((m, sec)) = s.split_once(':') {
        match (m.parse::<u64>(), sec.parse::<f64>()) {
            (Ok(m), Ok(sec)) if sec >= 0.0 => m as f64 * 60.0 + sec,
            _ => return bad(format!("{opt}: bad time {s:?}")),
        }
    } else {
        match s.parse::<f64>() {
            Ok(x) => x,
            Err(_) => return bad(format!("{opt}: bad time {s:?}")),
        }
    };
    if !(0.0..1e9).contains(&secs) {
        return bad(format!("{opt}: bad time {s:?}"));
    }
    #[expect(
        clippy::cast_possible_truncation,
        clippy::cast_sign_loss,
        reason = "range checked"
    )]
    Ok((secs * 1000.0).round() as u64)
}

/// Parses the arguments after `match`.
///
/// # Errors
/// [`CliError::Bad`] with a one-line reason, or [`CliError::Help`].
#[expect(clippy::too_many_lines, reason = "one check per option, in order")]
pub fn parse(args: &[String]) -> Result<MatchConfig, CliError> {
    let a = match Args::try_parse_from(args) {
        Ok(a) => a,
        Err(e) if e.use_stderr() => {
            let text = e.to_string();
            let line = text.lines().next().unwrap_or("bad arguments");
            return bad(line.trim_start_matches("error: "));
        }
        Err(e) => return Err(CliError::Help(e.to_string())),
    };
    let Some(variant) = Variant::from_name(&a.variant) else {
        return bad(format!(
            "--variant {:?}: expected {}",
            a.variant,
            Variant::list()
        ));
    };
    if a.engine.len() != 2 {
        return bad(format!(
            "--engine must be given exactly twice (got {})",
            a.engine.len()
        ));
    }
    let mut specs = Vec::new();
    for e in &a.engine {
        specs.push(EngineSpec::parse(e).map_err(|m| CliError::Bad(format!("--engine: {m}")))?);
    }
    if specs[0].name == specs[1].name {
        specs[1].name.push_str("-2");
    }
    let limits = [
        a.tc.is_some(),
        a.st.is_some(),
        a.nodes.is_some(),
        a.depth.is_some(),
    ];
    if limits.iter().filter(|&&x| x).count() != 1 {
        return bad("give exactly one of --tc, --st, --nodes, --depth");
    }
    let tc = if let Some(tc) = &a.tc {
        let (base, inc) = tc.split_once('+').unwrap_or((tc, "0"));
        let base_ms = seconds_to_ms("--tc", base)?;
        let inc_ms = seconds_to_ms("--tc", inc)?;
        if base_ms == 0 && inc_ms == 0 {
            return bad("--tc: no time at all");
        }
        TimeControl::Clock { base_ms, inc_ms }
    } else if let Some(st) = a.st {
        let ms = seconds_to_ms("--st", &st.to_string())?;
        if ms == 0 {
            return bad("--st must be at least 0.001");
        }
        TimeControl::MoveTime(ms)
    } else if let Some(n) = a.nodes {
        if n == 0 {
            return bad("--nodes must be at least 1");
        }
        TimeControl::Nodes(n)
    } else if let Some(d) = a.depth {
        if d == 0 {
            return bad("--depth must be at least 1");
        }
        TimeControl::Depth(d)
    } else {
        return bad("give exactly one of --tc, --st, --nodes, --depth");
    };
    // CECP has no node limit, and `st` counts whole seconds.
    for e in specs.iter().filter(|e| e.protocol == Protocol::Xboard) {
        match tc {
            TimeControl::Nodes(_) => {
                return bad(format!(
                    "--nodes: xboard engine {} has no node limit",
                    e.name
                ))
            }
            TimeControl::MoveTime(ms) if ms % 1000 != 0 => {
                return bad(format!(
                    "--st: xboard engine {} needs whole seconds per move",
                    e.name
                ))
            }
            _ => {}
        }
    }
    if a.games == 0 {
        return bad("--games must be at least 1");
    }
    if a.repeat && a.games % 2 != 0 {
        return bad(format!("--games {} must be even with --repeat", a.games));
    }
    if a.concurrency == 0 {
        return bad("--concurrency must be at least 1");
    }
    let openings = match (&a.openings, a.random_plies) {
        (Some(_), Some(_)) => return bad("--openings and --random-plies exclude each other"),
        (Some(p), None) => OpeningSource::File(p.clone()),
        (None, Some(plies)) => OpeningSource::Random {
            plies,
            seed: a.seed,
        },
        (None, None) => OpeningSource::StartPos,
    };
    let sprt = match &a.sprt {
        None => None,
        Some(s) => {
            let m = key_values("--sprt", s, &["elo0", "elo1", "alpha", "beta", "model"])?;
            let model = match s.split(',').find_map(|p| p.trim().strip_prefix("model=")) {
                None | Some("normalized") => SprtModel::Normalized,
                Some("logistic") => SprtModel::Logistic,
                Some(x) => {
                    return bad(format!(
                        "--sprt: model={x:?}: expected normalized or logistic"
                    ))
                }
            };
            let elo0 = need("--sprt", &m, "elo0")?;
            let elo1 = need("--sprt", &m, "elo1")?;
            let alpha = m.get("alpha").copied().unwrap_or(0.05);
            let beta = m.get("beta").copied().unwrap_or(0.05);
            Some(
                Sprt::new(elo0, elo1, alpha, beta, model)
                    .map_err(|e| CliError::Bad(format!("--sprt: {e}")))?,
            )
        }
    };
    let score = |opt: &str, x: f64| -> Result<i32, CliError> {
        if x.fract() == 0.0 && x.abs() < 1e6 {
            #[expect(clippy::cast_possible_truncation, reason = "range checked")]
            Ok(x as i32)
        } else {
            bad(format!(
                "{opt}: score must be a whole number of centipawns, got {x}"
            ))
        }
    };
    let mut adjudication = Adjudication {
        maxmoves: a.maxmoves.or(variant.match_move_cap()),
        ..Adjudication::default()
    };
    if a.maxmoves == Some(0) {
        return bad("--maxmoves must be at least 1");
    }
    if let Some(r) = &a.resign {
        let m = key_values("--resign", r, &["movecount", "score"])?;
        let mc = count("--resign", "movecount", need("--resign", &m, "movecount")?)?;
        let sc = score("--resign", need("--resign", &m, "score")?)?;
        if mc == 0 || sc <= 0 {
            return bad("--resign: movecount and score must be positive");
        }
        adjudication.resign = Some((mc, sc));
    }
    if let Some(d) = &a.draw {
        let m = key_values("--draw", d, &["movenumber", "movecount", "score"])?;
        let mn = count("--draw", "movenumber", need("--draw", &m, "movenumber")?)?;
        let mc = count("--draw", "movecount", need("--draw", &m, "movecount")?)?;
        let sc = score("--draw", need("--draw", &m, "score")?)?;
        if mc == 0 || sc < 0 {
            return bad("--draw: movecount must be positive and score not negative");
        }
        adjudication.draw = Some((mn, mc, sc));
    }
    if !(a.move_timeout.is_finite() && a.move_timeout > 0.0 && a.move_timeout < 1e7) {
        return bad("--move-timeout must be a positive number of seconds");
    }
    let Ok(engines) = <[EngineSpec; 2]>::try_from(specs) else {
        return bad("--engine must be given exactly twice");
    };
    Ok(MatchConfig {
        engines,
        games: a.games,
        concurrency: a.concurrency,
        openings,
        repeat: a.repeat,
        pgn: a.pgn,
        sprt,
        game: GameSettings {
            variant,
            tc,
            margin_ms: a.timemargin,
            move_timeout: Duration::from_secs_f64(a.move_timeout),
            adjudication,
        },
        output: OutputStyle::Native,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(s: &str) -> Vec<String> {
        crate::spec::shell_split(s).unwrap()
    }

    fn err(s: &str) -> String {
        match parse(&args(s)) {
            Err(CliError::Bad(m)) => m,
            other => panic!("expected an error for {s}, got {other:?}"),
        }
    }

    const TWO: &str = "--engine 'cmd=a name=x' --engine 'cmd=b'";

    #[test]
    fn full_command_line() {
        let c = parse(&args(&format!(
            "--variant chess {TWO} --games 10 --tc 1:30+0.5 --concurrency 3 --random-plies 6 \
             --seed 9 --repeat --pgn out.pgn --sprt elo0=0,elo1=5,alpha=0.05,beta=0.1 \
             --resign movecount=3,score=600 --draw movenumber=40,movecount=8,score=10 --maxmoves 200"
        )))
        .unwrap();
        assert_eq!(c.engines[0].name, "x");
        assert_eq!(c.engines[1].name, "b");
        assert_eq!(c.games, 10);
        assert_eq!(
            c.game.tc,
            TimeControl::Clock {
                base_ms: 90_000,
                inc_ms: 500
            }
        );
        assert_eq!(c.concurrency, 3);
        assert_eq!(c.openings, OpeningSource::Random { plies: 6, seed: 9 });
        assert!(c.repeat);
        let s = c.sprt.unwrap();
        assert_eq!((s.elo0, s.elo1, s.alpha, s.beta), (0.0, 5.0, 0.05, 0.1));
        assert_eq!(c.game.adjudication.resign, Some((3, 600)));
        assert_eq!(c.game.adjudication.draw, Some((40, 8, 10)));
        assert_eq!(c.game.adjudication.maxmoves, Some(200));
    }

    #[test]
    fn tavreli_games_are_capped_unless_told_otherwise() {
        let cap = |extra: &str| {
            parse(&args(&format!("{TWO} --tc 10 {extra}")))
                .unwrap()
                .game
                .adjudication
                .maxmoves
        };
        assert_eq!(cap(""), None, "chess ends by its own rules");
        assert_eq!(cap("--variant plunder"), None);
        assert_eq!(cap("--variant tavreli"), Some(300));
        assert_eq!(cap("--variant tavreli --maxmoves 50"), Some(50));
    }

    #[test]
    fn limits() {
        let c = parse(&args(&format!("{TWO} --st 0.25"))).unwrap();
        assert_eq!(c.game.tc, TimeControl::MoveTime(250));
        let c = parse(&args(&format!("{TWO} --nodes 1"))).unwrap();
        assert_eq!(c.game.tc, TimeControl::Nodes(1));
        assert_eq!(c.engines[1].name, "b");
        let c = parse(&args("--engine cmd=a --engine cmd=a --depth 3")).unwrap();
        assert_eq!(c.game.tc, TimeControl::Depth(3));
        assert_eq!(
            (c.engines[0].name.as_str(), c.engines[1].name.as_str()),
            ("a", "a-2")
        );
    }

    #[test]
    fn bad_options_have_reasons() {
        assert!(err(&format!("{TWO} --tc 10 --bogus")).contains("--bogus"));
        assert!(err(TWO).contains("exactly one of"));
        assert!(err(&format!("{TWO} --tc 10 --st 1")).contains("exactly one of"));
        assert!(err(&format!("{TWO} --tc ten")).contains("bad time"));
        assert!(err(&format!("{TWO} --nodes 0")).contains("--nodes"));
        assert!(err("--engine cmd=a --tc 10").contains("exactly twice"));
        assert!(err(&format!("--variant shogi {TWO} --tc 10")).contains("shogi"));
        assert!(err(&format!("{TWO} --tc 10 --games 3 --repeat")).contains("even"));
        assert!(err(&format!("{TWO} --tc 10 --sprt elo0=5,elo1=0")).contains("elo0"));
        assert!(err(&format!("{TWO} --tc 10 --sprt elo1=5")).contains("missing elo0"));
        assert!(err(&format!("{TWO} --tc 10 --sprt elo0=0,elo1=x")).contains("not a number"));
        assert!(err(&format!("{TWO} --tc 10 --sprt elo0=0,elo1=5,gamma=1")).contains("gamma"));
        assert!(err(&format!("{TWO} --tc 10 --resign movecount=3")).contains("missing score"));
        assert!(err(&format!(
            "{TWO} --tc 10 --draw movenumber=1.5,movecount=2,score=3"
        ))
        .contains("whole number"));
        assert!(err(&format!("{TWO} --tc 10 --openings x --random-plies 2")).contains("exclude"));
        assert!(err("--engine name=x --engine cmd=b --tc 10").contains("no cmd="));
        assert!(err(&format!("{TWO} --tc 10 --concurrency 0")).contains("concurrency"));
        let xb = "--engine cmd=a --engine 'cmd=b proto=xboard'";
        assert!(err(&format!("{xb} --nodes 5")).contains("no node limit"));
        assert!(err(&format!("{xb} --st 0.5")).contains("whole seconds"));
        assert!(parse(&args(&format!("{xb} --st 2"))).is_ok());
        for e in [
            err(&format!("{TWO} --tc 10 --bogus")),
            err(&format!("{TWO} --tc x")),
        ] {
            assert!(!e.contains('\n'), "{e}");
        }
    }

    #[test]
    fn help_is_not_an_error() {
        assert!(matches!(parse(&args("--help")), Err(CliError::Help(_))));
    }
}
