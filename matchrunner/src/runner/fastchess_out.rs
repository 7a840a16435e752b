//! fastchess's output, for clients that parse it (OpenBench's): every line
//! on stdout, in fastchess's words and number formats.
//!
//! ```text
//! Started game 1 of 4 (dev vs base)
//! Finished game 1 (dev vs base): 1-0 {White mates}
//! --------------------------------------------------
//! Results of dev vs base (8+0.08, 1t, 16MB, book.epd):
//! Elo: 12.34 +/- 5.67, nElo: 20.00 +/- 9.19
//! LOS: 99.99 %, DrawRatio: 40.00 %, PairsRatio: 1.50
//! Games: 4, Wins: 2, Losses: 1, Draws: 1, Points: 2.5 (62.50 %)
//! Ptnml(0-2): [0, 1, 0, 1, 0], WL/DD Ratio: nan
//! --------------------------------------------------
//! Tournament finished
//! Finished match
//! ```
//!
//! OpenBench reads `Finished game N (A vs B): <result> {reason}`: the
//! result is the seventh word, games `2k − 1` and `2k` form a pair, and
//! the reason's words `disconnect`, `stalls`, `on time` and `illegal` count
//! crashes, time losses and illegal moves, so the reasons are fastchess's.

use super::pool::a_color;
use super::{MatchConfig, OutputStyle, Tally};
use crate::engine::{fmt_seconds, TimeControl};
use crate::game::{GameRecord, GameResult, Termination};
use crate::stats::{erf, score_to_elo, Sprt, Verdict, Z95};
use movegen::Color;
use std::fmt::Write as _;

const RULE: &str = "--------------------------------------------------";

/// The fastchess-style printer of a match.
pub(super) struct FastchessOut {
    rating_interval: usize,
    book: Option<String>,
    /// Rounds complete at the last results block.
    rounds_shown: usize,
}

impl FastchessOut {
    /// `None` for Volkhv's own output.
    pub(super) fn new(cfg: &MatchConfig) -> Option<FastchessOut> {
        match &cfg.output {
            OutputStyle::Native => None,
            OutputStyle::Fastchess {
                rating_interval,
                book,
            } => Some(FastchessOut {
                rating_interval: *rating_interval,
                book: book.clone(),
                rounds_shown: 0,
            }),
        }
    }

    /// `Started game N of M (white vs black)`.
    pub(super) fn started(&self, cfg: &MatchConfig, index: usize) {
        let (white, black) = players(cfg, index);
        println!(
            "Started game {} of {} ({white} vs {black})",
            index + 1,
            cfg.games
        );
    }

    /// The game's `Finished game` line, then a results block when a
    /// rating interval of rounds is complete (the last one is the summary's).
    pub(super) fn finished(
        &mut self,
        cfg: &MatchConfig,
        tally: &Tally,
        index: usize,
        record: &GameRecord,
    ) {
        let (white, black) = players(cfg, index);
        println!(
            "Finished game {} ({white} vs {black}): {} {{{}}}",
            index + 1,
            record.result.pgn(),
            annotation(record)
        );
        let rounds = if cfg.repeat {
            tally.penta.iter().sum::<u32>() as usize
        } else {
            tally.games() as usize
        };
        let last = tally.games() as usize >= cfg.games;
        if self.rating_interval > 0
            && !last
            && rounds > self.rounds_shown
            && rounds.is_multiple_of(self.rating_interval)
        {
            self.rounds_shown = rounds;
            print!("{}", self.block(cfg, tally));
        }
    }

    /// The final results block and the closing lines.
    pub(super) fn summary(&self, cfg: &MatchConfig, t: &Tally, verdict: Option<Verdict>) -> String {
        let mut out = self.block(cfg, t);
        match (verdict, &cfg.sprt) {
            (Some(v), Some(s)) => {
                let h = match v {
                    Verdict::H0 => "H0",
                    Verdict::H1 => "H1",
                };
                let _ = writeln!(
                    out,
                    "SPRT ([{:.2}, {:.2}]) completed - {h} was accepted",
                    s.elo0, s.elo1
                );
            }
            _ => out.push_str("Tournament finished\n"),
        }
        out.push_str("Finished match\n");
        out
    }

    /// One results block between rules.
    fn block(&self, cfg: &MatchConfig, t: &Tally) -> String {
        let [a, b] = &cfg.engines;
        let mut out = format!("{RULE}\n");
        let _ = writeln!(
            out,
            "Results of {} vs {} ({}, {}, {}{}):",
            a.name,
            b.name,
            tc_label(cfg.game.tc),
            both(cfg, "Threads", "t"),
            both(cfg, "Hash", "MB"),
            self.book
                .as_deref()
                .map_or_else(String::new, |b| format!(", {b}"))
        );
        let e = if cfg.repeat {
            Estimate::pentanomial(t)
        } else {
            Estimate::wdl(t)
        };
        let _ = writeln!(
            out,
            "Elo: {} +/- {}, nElo: {} +/- {}",
            num(e.elo),
            num(e.elo_error),
            num(e.nelo),
            num(e.nelo_error)
        );
        let _ = write!(
            out,
            "LOS: {} %, DrawRatio: {} %",
            num(100.0 * e.los),
            num(e.draw_pct)
        );
        if cfg.repeat {
            let p = &t.penta;
            let ratio = f64::from(p[3] + p[4]) / f64::from(p[0] + p[1]);
            let _ = write!(out, ", PairsRatio: {}", num(ratio));
        }
        out.push('\n');
        let points = f64::from(t.wins) + 0.5 * f64::from(t.draws);
        let _ = writeln!(
            out,
            "Games: {}, Wins: {}, Losses: {}, Draws: {}, Points: {points:.1} ({} %)",
            t.games(),
            t.wins,
            t.losses,
            t.draws,
            num(100.0 * points / f64::from(t.games()))
        );
        if cfg.repeat {
            let p = &t.penta;
            let dd = p[2] - t.wl_pairs;
            let _ = writeln!(
                out,
                "Ptnml(0-2): [{}, {}, {}, {}, {}], WL/DD Ratio: {}",
                p[0],
                p[1],
                p[2],
                p[3],
                p[4],
                num(f64::from(t.wl_pairs) / f64::from(dd))
            );
        }
        if let Some(s) = &cfg.sprt {
            out.push_str(&llr_line(s, t, cfg.repeat));
        }
        out.push_str(RULE);
        out.push('\n');
        out
    }
}

/// White's and Black's names in game `index`.
fn players(cfg: &MatchConfig, index: usize) -> (&str, &str) {
    let [a, b] = &cfg.engines;
    match a_color(index) {
        Color::White => (&a.name, &b.name),
        Color::Black => (&b.name, &a.name),
    }
}

/// `LLR: 1.23 (41.8%) (-2.94, 2.94) [0.00, 5.00]`.
fn llr_line(s: &Sprt, t: &Tally, pairs: bool) -> String {
    let llr = t.llr(s, pairs) + 0.0;
    let fraction = if llr >= 0.0 {
        llr / s.upper()
    } else {
        llr / s.lower()
    };
    format!(
        "LLR: {llr:.2} ({:.1}%) ({:.2}, {:.2}) [{:.2}, {:.2}]\n",
        100.0 * fraction,
        s.lower(),
        s.upper(),
        s.elo0,
        s.elo1
    )
}

/// fastchess's time control label: `8+0.08`, `0.5/move`, `5000 nodes`.
fn tc_label(tc: TimeControl) -> String {
    match tc {
        TimeControl::Clock { base_ms, inc_ms } if inc_ms > 0 => {
            format!("{}+{}", fmt_seconds(base_ms), fmt_seconds(inc_ms))
        }
        TimeControl::Clock { base_ms, .. } => fmt_seconds(base_ms),
        TimeControl::MoveTime(ms) => format!("{}/move", fmt_seconds(ms)),
        TimeControl::Nodes(n) => format!("{n} nodes"),
        TimeControl::Depth(d) => format!("{d} plies"),
    }
}

/// `1t` when both engines set the option alike, `1t - 2t` when they differ,
/// `NULL` for an engine that does not set it (fastchess's wording).
fn both(cfg: &MatchConfig, option: &str, unit: &str) -> String {
    let [a, b] = cfg.engines.each_ref().map(|e| {
        e.options
            .iter()
            .rev()
            .find(|(k, _)| k == option)
            .map_or_else(|| "NULL".to_string(), |(_, v)| format!("{v}{unit}"))
    });
    if a == b {
        a
    } else {
        format!("{a} - {b}")
    }
}

/// Two decimals, with fastchess's `nan` and `inf`.
fn num(x: f64) -> String {
    if x.is_nan() {
        "nan".into()
    } else if x.is_infinite() {
        if x > 0.0 { "inf" } else { "-inf" }.into()
    } else {
        format!("{:.2}", x + 0.0)
    }
}

/// The figures of a results block, computed as fastchess does (which
/// differs from `stats::elo_*` only in the normalised Elo it adds).
struct Estimate {
    elo: f64,
    elo_error: f64,
    nelo: f64,
    nelo_error: f64,
    los: f64,
    draw_pct: f64,
}

impl Estimate {
    /// From game pairs: outcomes of 0, ¼, ½, ¾ and 1 point per game.
    fn pentanomial(t: &Tally) -> Estimate {
        let counts = t.penta.map(f64::from);
        let mut e = Estimate::from_counts(&[0.0, 0.25, 0.5, 0.75, 1.0], &counts, 2.0);
        e.draw_pct = 100.0 * counts[2] / counts.iter().sum::<f64>();
        e
    }

    /// From single games.
    fn wdl(t: &Tally) -> Estimate {
        let counts = [t.losses, t.draws, t.wins].map(f64::from);
        let mut e = Estimate::from_counts(&[0.0, 0.5, 1.0], &counts, 1.0);
        e.draw_pct = 100.0 * counts[1] / counts.iter().sum::<f64>();
        e
    }

    /// `games_per_unit` scales the variance to one game for the nElo.
    fn from_counts(scores: &[f64], counts: &[f64], games_per_unit: f64) -> Estimate {
        let n: f64 = counts.iter().sum();
        let score: f64 = scores.iter().zip(counts).map(|(s, c)| s * c / n).sum();
        let var: f64 = scores
            .iter()
            .zip(counts)
            .map(|(s, c)| c / n * (s - score).powi(2))
            .sum();
        let per_unit = var / n;
        let half = Z95 * per_unit.sqrt();
        let nelo =
            |x: f64| (x - 0.5) / (games_per_unit * var).sqrt() * (800.0 / std::f64::consts::LN_10);
        Estimate {
            elo: score_to_elo(score),
            elo_error: (score_to_elo(score + half) - score_to_elo(score - half)) / 2.0,
            nelo: nelo(score),
            nelo_error: (nelo(score + half) - nelo(score - half)) / 2.0,
            los: los(score, per_unit),
            draw_pct: 0.0,
        }
    }
}

/// The likelihood of superiority; with no variance (every unit alike) it
/// is certain either way, or undefined at an even score, as in fastchess.
fn los(score: f64, variance: f64) -> f64 {
    if variance > 0.0 {
        (1.0 - erf(-(score - 0.5) / (2.0 * variance).sqrt())) / 2.0
    } else if score == 0.5 {
        f64::NAN
    } else if score > 0.5 {
        1.0
    } else {
        0.0
    }
}

/// fastchess's reason for the end of `r` (`White mates`, `Black loses on
/// time`, `Draw by 3-fold repetition`, …).
fn annotation(r: &GameRecord) -> String {
    let (winner, loser) = match r.result {
        GameResult::WhiteWins => ("White", "Black"),
        GameResult::BlackWins => ("Black", "White"),
        GameResult::Draw => return draw_annotation(r),
    };
    match r.termination {
        Termination::Normal if r.reason.ends_with("resigns") => format!("{loser} resigns"),
        Termination::Normal => format!("{winner} mates"),
        Termination::Adjudication => format!("{winner} wins by adjudication"),
        // The arbiter kills an engine that never answers: fastchess's stall.
        Termination::TimeForfeit if r.reason.contains("did not reply") => {
            format!("{loser}'s connection stalls")
        }
        Termination::TimeForfeit => format!("{loser} loses on time"),
        Termination::RulesInfraction => format!("{loser} makes an illegal move"),
        Termination::Abandoned => format!("{loser} disconnects"),
    }
}

fn draw_annotation(r: &GameRecord) -> String {
    match (r.termination, r.reason.as_str()) {
        (Termination::Adjudication, _) => "Draw by adjudication".into(),
        (_, "Stalemate") => "Draw by stalemate".into(),
        (_, "Insufficient material") => "Draw by insufficient mating material".into(),
        (_, "Fifty-move rule") => "Draw by fifty moves rule".into(),
        (_, "Threefold repetition") => "Draw by 3-fold repetition".into(),
        // An opening that cannot be played: Volkhv's own words.
        (_, other) => other.replace(['{', '}'], ""),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(result: GameResult, termination: Termination, reason: &str) -> GameRecord {
        GameRecord {
            round: 1,
            white: "a".into(),
            black: "b".into(),
            fen: None,
            moves: Vec::new(),
            notation: Vec::new(),
            result,
            termination,
            reason: reason.into(),
        }
    }

    #[test]
    fn reasons_carry_the_words_openbench_counts() {
        use GameResult::{BlackWins, Draw, WhiteWins};
        use Termination::*;
        let cases = [
            (WhiteWins, Normal, "White mates", "White mates"),
            (BlackWins, Normal, "White (a) resigns", "White resigns"),
            (WhiteWins, Adjudication, "x", "White wins by adjudication"),
            (Draw, Adjudication, "x", "Draw by adjudication"),
            (
                Draw,
                Normal,
                "Threefold repetition",
                "Draw by 3-fold repetition",
            ),
            (Draw, Normal, "Fifty-move rule", "Draw by fifty moves rule"),
            (Draw, Normal, "Stalemate", "Draw by stalemate"),
            (
                Draw,
                Normal,
                "Insufficient material",
                "Draw by insufficient mating material",
            ),
            (
                WhiteWins,
                TimeForfeit,
                "Black (b) lost on time (1.2 s used)",
                "Black loses on time",
            ),
            (
                BlackWins,
                TimeForfeit,
                "White (a) did not reply within 60 s and was killed",
                "White's connection stalls",
            ),
            (
                BlackWins,
                RulesInfraction,
                "…",
                "White makes an illegal move",
            ),
            (
                WhiteWins,
                Abandoned,
                "Black (b) crashed",
                "Black disconnects",
            ),
        ];
        for (result, termination, reason, want) in cases {
            assert_eq!(annotation(&record(result, termination, reason)), want);
        }
    }

    #[test]
    fn estimates_match_fastchess_figures() {
        // Pairs [LL, LD, DD+WL, WD, WW] = [1, 2, 3, 2, 2]: score 0.55.
        let t = Tally {
            wins: 8,
            draws: 7,
            losses: 5,
            penta: [1, 2, 3, 2, 2],
            wl_pairs: 1,
        };
        let e = Estimate::pentanomial(&t);
        assert!((e.elo - score_to_elo(0.55)).abs() < 1e-9);
        // var = Σ p (s − 0.55)² = 0.0975 per pair.
        let var: f64 = 0.0975;
        let nelo = 0.05 / (2.0 * var).sqrt() * 800.0 / std::f64::consts::LN_10;
        assert!((e.nelo - nelo).abs() < 1e-9, "{}", e.nelo);
        assert!((e.draw_pct - 30.0).abs() < 1e-9);
        assert!(e.los > 0.5 && e.los < 1.0);
        assert_eq!(num(f64::NAN), "nan");
        assert!(los(0.5, 0.0).is_nan());
        assert_eq!((los(1.0, 0.0), los(0.0, 0.0)), (1.0, 0.0));
        assert_eq!(num(-0.0), "0.00");
    }

    #[test]
    fn labels() {
        assert_eq!(
            tc_label(TimeControl::Clock {
                base_ms: 8000,
                inc_ms: 80
            }),
            "8+0.08"
        );
        assert_eq!(tc_label(TimeControl::MoveTime(500)), "0.5/move");
        assert_eq!(tc_label(TimeControl::Nodes(5000)), "5000 nodes");
    }
}
