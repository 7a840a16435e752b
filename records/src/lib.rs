//! One labelled position of a self-play data file: the format `volkhv
//! datagen` writes and `volkhv-tune` / `volkhv-nnue` read. It lives apart
//! from the engine so that the tuners read it without depending on search.
//!
//! # File format
//! One position per line, `|`-separated (FENs never contain `|`):
//!
//! ```text
//! <FEN> | <score> | <result>
//! rnbqkb1r/pppppppp/5n2/8/3P4/8/PPP1PPPP/RNBQKBNR w KQkq - 1 2 | 31 | 0.5
//! ```
//!
//! `score`: the search's score in centipawns from White's view; `result`:
//! the game's result from White's view, `1.0`, `0.5` or `0.0`. Lines
//! starting with `#` are comments.
//!
//! The same records also have a compact binary form, [`binary`].

pub mod binary;

/// One labelled position of a data file.
#[derive(Clone, Debug, PartialEq)]
pub struct Record {
    /// The position.
    pub fen: String,
    /// The search's score, centipawns, White's view.
    pub score: i32,
    /// The game's result for White: 1, 0.5 or 0.
    pub result: f64,
}

impl Record {
    /// Reads one data line (see the module doc).
    ///
    /// # Errors
    /// A reason naming the bad field.
    pub fn parse(line: &str) -> Result<Record, String> {
        let fields: Vec<&str> = line.split('|').map(str::trim).collect();
        let [fen, score, result] = fields[..] else {
            return Err(format!(
                "expected 3 '|'-separated fields, got {}",
                fields.len()
            ));
        };
        if fen.is_empty() {
            return Err("empty FEN".to_string());
        }
        let score = score
            .parse::<i32>()
            .map_err(|_| format!("score \"{score}\" is not a whole number"))?;
        let result = match result {
            "1.0" => 1.0,
            "0.5" => 0.5,
            "0.0" => 0.0,
            r => return Err(format!("result \"{r}\" is not 1.0, 0.5 or 0.0")),
        };
        Ok(Record {
            fen: fen.to_string(),
            score,
            result,
        })
    }

    /// The data line (no newline).
    #[must_use]
    pub fn line(&self) -> String {
        format!("{} | {} | {:.1}", self.fen, self.score, self.result)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_round_trip_and_reject_bad_lines() {
        let r = Record {
            fen: "4k3/8/8/3(Pr)4/8/8/3R4/4K3 w - - 0 1".to_string(),
            score: -35,
            result: 0.5,
        };
        assert_eq!(r.line(), "4k3/8/8/3(Pr)4/8/8/3R4/4K3 w - - 0 1 | -35 | 0.5");
        assert_eq!(Record::parse(&r.line()), Ok(r));
        for bad in [
            "x | 1",
            "x | 1 | 2 | 3",
            " | 1 | 1.0",
            "x | 1.5 | 1.0",
            "x | 1 | 1",
        ] {
            assert!(Record::parse(bad).is_err(), "{bad}");
        }
    }
}
