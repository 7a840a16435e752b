//! The summary printed on stdout when the match ends.

use super::{tc_tag, MatchConfig, Tally};
use crate::stats::{draw_ratio, los, EloEstimate, Pentanomial, Sprt, SprtModel, Verdict};

/// `x` without the sign of a negative zero (`-0.00` reads as a loss).
pub(super) fn z(x: f64) -> f64 {
    x + 0.0
}

/// `12.34 +/- 5.67`, or `-` before there is an estimate.
pub(super) fn fmt_elo(e: Option<EloEstimate>) -> String {
    e.map_or_else(
        || "-".to_string(),
        |e| format!("{:.2} +/- {:.2}", z(e.elo), e.error),
    )
}

/// The summary's lines, each ending in a newline.
pub(super) fn summary_text(cfg: &MatchConfig, t: &Tally, verdict: Option<Verdict>) -> String {
    let lines = [
        Some(title(cfg, t.games())),
        Some(score(t)),
        t.elo(cfg.repeat).map(|e| elo(t, e)),
        cfg.repeat.then(|| pairs(&t.penta)),
        cfg.sprt.as_ref().map(|s| sprt(s, t, cfg.repeat, verdict)),
    ];
    lines.into_iter().flatten().map(|l| l + "\n").collect()
}

fn title(cfg: &MatchConfig, games: u32) -> String {
    format!(
        "Results of {} vs {} ({}, {}, {} games{}):",
        cfg.engines[0].name,
        cfg.engines[1].name,
        cfg.game.variant,
        tc_tag(cfg.game.tc),
        games,
        if cfg.repeat {
            ", openings repeated"
        } else {
            ""
        }
    )
}

fn score(t: &Tally) -> String {
    let n = t.games();
    let points = f64::from(2 * t.wins + t.draws) / 2.0;
    let pct = if n == 0 {
        0.0
    } else {
        100.0 * points / f64::from(n)
    };
    format!(
        "Games: {n}, Wins: {}, Draws: {}, Losses: {}, Points: {points:.1} ({pct:.2}%)",
        t.wins, t.draws, t.losses
    )
}

fn elo(t: &Tally, e: EloEstimate) -> String {
    format!(
        "Elo: {:.2} +/- {:.2}, 95% interval [{:.2}, {:.2}], LOS: {:.2}%, DrawRatio: {:.2}%",
        z(e.elo),
        e.error,
        z(e.lower),
        z(e.upper),
        100.0 * los(t.wins, t.losses),
        100.0 * draw_ratio(t.wins, t.draws, t.losses)
    )
}

fn pairs(p: &Pentanomial) -> String {
    format!(
        "Ptnml(0-2): [{}, {}, {}, {}, {}]",
        p[0], p[1], p[2], p[3], p[4]
    )
}

fn sprt(sp: &Sprt, t: &Tally, pairs: bool, verdict: Option<Verdict>) -> String {
    let llr = z(t.llr(sp, pairs));
    format!(
        "SPRT ({}Elo [{}, {}], alpha {}, beta {}): LLR {llr:.2}, bounds [{:.2}, {:.2}] - {}",
        match sp.model {
            SprtModel::Normalized => "normalized ",
            SprtModel::Logistic => "logistic ",
        },
        sp.elo0,
        sp.elo1,
        sp.alpha,
        sp.beta,
        sp.lower(),
        sp.upper(),
        verdict.map_or("no decision".to_string(), |v| v.to_string())
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli;
    use crate::spec::shell_split;

    fn config(extra: &str) -> MatchConfig {
        let line = format!("--engine \"cmd=x name=a\" --engine \"cmd=y name=b\" {extra}");
        cli::parse(&shell_split(&line).unwrap()).expect("valid arguments")
    }

    #[test]
    fn negative_zero_loses_its_sign() {
        assert_eq!(format!("{:.2}", z(-0.0)), "0.00");
        assert_eq!(format!("{:.2}", z(-1.5)), "-1.50");
        assert_eq!(fmt_elo(None), "-");
    }

    #[test]
    fn pairs_and_sprt_add_their_lines() {
        let cfg = config("--tc 10+0.1 --games 4 --repeat --sprt elo0=0,elo1=5");
        let t = Tally {
            wins: 2,
            draws: 1,
            losses: 1,
            penta: [0, 1, 0, 1, 0],
            wl_pairs: 0,
        };
        let text = summary_text(&cfg, &t, Some(Verdict::H0));
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 5, "{text}");
        assert_eq!(
            lines[0],
            "Results of a vs b (chess, 10+0.1, 4 games, openings repeated):"
        );
        assert_eq!(
            lines[1],
            "Games: 4, Wins: 2, Draws: 1, Losses: 1, Points: 2.5 (62.50%)"
        );
        assert!(lines[2].starts_with("Elo: "), "{text}");
        assert_eq!(lines[3], "Ptnml(0-2): [0, 1, 0, 1, 0]");
        let sprt = cfg.sprt.unwrap();
        let llr = z(t.llr(&sprt, true));
        assert_eq!(
            lines[4],
            format!(
                "SPRT (normalized Elo [0, 5], alpha 0.05, beta 0.05): LLR {llr:.2}, \
                 bounds [{:.2}, {:.2}] - {}",
                sprt.lower(),
                sprt.upper(),
                Verdict::H0
            )
        );
        assert!(text.ends_with('\n'));
    }

    #[test]
    fn no_games_no_estimate() {
        let text = summary_text(&config("--nodes 1"), &Tally::default(), None);
        assert_eq!(
            text,
            "Results of a vs b (chess, -, 0 games):\n\
             Games: 0, Wins: 0, Draws: 0, Losses: 0, Points: 0.0 (0.00%)\n"
        );
    }
}
