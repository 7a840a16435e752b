//! Why a PGN text or game was refused, worded twice: in English (the
//! [`Fault`]'s text, for the command line and the API's other callers) and
//! as a catalogue key with values, for the board's pages to word in their
//! reader's language (`pgn.*` in `volkhv/web/lang-*.json`). A value named
//! `…_key` is itself a key the page words first (a FEN tag's reason, a tag
//! line's fault), as [`movegen::FenError`] does.

use movegen::fen::fill;
use movegen::FenError;
use std::fmt;

/// A refusal with its words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fault {
    /// The catalogue key (one of [`REASONS`]).
    pub key: &'static str,
    /// The values its text names.
    pub values: Vec<(&'static str, String)>,
    /// The same in English.
    pub text: String,
}

/// Every PGN fault: key and English template (`{name}` for a value; a
/// `{x}` whose value is `x_key` is that key's English).
pub const REASONS: &[(&str, &str)] = &[
    ("pgn.read", "read error: {error}"),
    ("pgn.utf8", "line {line}: not UTF-8 text"),
    ("pgn.tag_line", "line {line}: bad tag line {text}: {why}"),
    ("pgn.tag.after", "text after the tags"),
    ("pgn.tag.name", "no tag name"),
    ("pgn.tag.quotes", "the value is not in quotes"),
    ("pgn.tag.unclosed", "the value has no closing quote"),
    ("pgn.tag.bracket", "no `]` after the value"),
    ("pgn.brace", "line {line}: `}` with no `{` before it"),
    ("pgn.paren", "line {line}: `)` with no `(` before it"),
    (
        "pgn.line_long",
        "line {line} is longer than a game may be ({mib} MiB)",
    ),
    (
        "pgn.game_long",
        "the game is longer than {mib} MiB (at line {line})",
    ),
    (
        "pgn.comment_open",
        "comment opened on line {line} is not closed",
    ),
    (
        "pgn.variation_open",
        "variation opened on line {line} is not closed",
    ),
    ("pgn.none", "no game found"),
    ("pgn.variant", "unknown variant \"{variant}\""),
    ("pgn.fen_tag", "FEN tag: invalid FEN, {field}: {reason}"),
    ("pgn.illegal", "ply {ply}: \"{move}\" is not legal"),
    ("pgn.in_game", "game {game}: {inner}"),
];

fn english(key: &str) -> &'static str {
    REASONS
        .iter()
        .find(|(k, _)| *k == key)
        .map_or("", |(_, t)| t)
}

impl Fault {
    /// The fault `key` with `values`; values named `…_key` are worded in
    /// English (one level down, as deep as these faults nest) for the text.
    #[must_use]
    pub fn new(key: &'static str, values: Vec<(&'static str, String)>) -> Fault {
        let mut filled = values.clone();
        for &(name, ref value) in &values {
            if let Some(stem) = name.strip_suffix("_key") {
                let inner = english(value);
                let inner = if inner.is_empty() {
                    fen_english(value)
                } else {
                    inner.to_string()
                };
                filled.push((stem, fill(&inner, &values)));
            }
        }
        Fault {
            key,
            text: fill(english(key), &filled),
            values,
        }
    }

    /// A bad `FEN` tag.
    #[must_use]
    pub fn fen_tag(e: &FenError) -> Fault {
        let mut values = vec![
            ("field_key", e.field.key().to_string()),
            ("reason_key", e.key.to_string()),
        ];
        values.extend(e.values.iter().cloned());
        Fault {
            key: "pgn.fen_tag",
            text: format!("FEN tag: {e}"),
            values,
        }
    }

    /// This fault inside game `game` of a text that holds several.
    #[must_use]
    pub fn in_game(self, game: usize) -> Fault {
        let mut values = vec![("game", game.to_string())];
        let text = format!("game {game}: {}", self.text);
        // The inner fault's key becomes `inner`, its values stay.
        values.push(("inner_key", self.key.to_string()));
        values.extend(self.values);
        Fault {
            key: "pgn.in_game",
            values,
            text,
        }
    }
}

/// The English of a FEN reason or field key.
fn fen_english(key: &str) -> String {
    movegen::fen::REASONS
        .iter()
        .find(|(k, _)| *k == key)
        .map_or_else(|| key.to_string(), |(_, t)| (*t).to_string())
}

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

impl std::error::Error for Fault {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nested_keys_are_worded_in_the_english() {
        let f = Fault::new(
            "pgn.tag_line",
            vec![
                ("line", "3".into()),
                ("text", "[Event".into()),
                ("why_key", "pgn.tag.quotes".into()),
            ],
        );
        assert_eq!(
            f.text,
            "line 3: bad tag line [Event: the value is not in quotes"
        );
        let g = f.in_game(2);
        assert_eq!(g.key, "pgn.in_game");
        assert_eq!(
            g.text,
            "game 2: line 3: bad tag line [Event: the value is not in quotes"
        );
        assert!(g.values.contains(&("inner_key", "pgn.tag_line".into())));
        assert!(g.values.contains(&("why_key", "pgn.tag.quotes".into())));
    }

    #[test]
    fn every_template_names_only_values_it_is_given() {
        for (key, template) in REASONS {
            assert!(key.starts_with("pgn."), "{key}");
            assert!(!template.is_empty(), "{key}");
        }
    }
}
