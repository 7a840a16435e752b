//! How the board's refusals are worded for its pages: catalogue keys and
//! values ([`Words`]) for the errors movegen and the engine return — a
//! refused FEN, a malformed or illegal move — so that a page says them in
//! its reader's language. The English stays in the message, for the API's
//! other callers.

use super::http::Words;
use engine::Error;
use movegen::{FenError, MoveError};
use notation::fault::Fault;

/// A refused FEN: `error.fen` with the field and the reason as keys (and
/// the reason's values: the bad token, a count…).
pub fn fen(e: &FenError) -> Words {
    let mut values = vec![
        ("field_key", e.field.key().to_string()),
        ("reason_key", e.key.to_string()),
    ];
    values.extend(page_values(&e.values));
    Words::new("error.fen", values)
}

/// A reason's values as a page words them: a vest's wearer and vest are
/// role names, which become the page's own piece names (the vest in the
/// form "a vest of …" takes).
fn page_values(values: &[(&'static str, String)]) -> Vec<(&'static str, String)> {
    values
        .iter()
        .map(|(name, value)| match *name {
            "piece" => ("piece_key", format!("role.{value}")),
            "vest" => ("vest_key", format!("role_of.{value}")),
            _ => (*name, value.clone()),
        })
        .collect()
}

/// A refused move string.
pub fn move_error(e: &MoveError) -> Words {
    match e {
        MoveError::Syntax(s) => Words::new("error.move_malformed", vec![("move", s.clone())]),
        MoveError::Illegal(s) => Words::new("error.move_illegal", vec![("move", s.clone())]),
    }
}

/// A refused game of a PGN file (an import's report lists it by number).
pub fn fault(f: &Fault) -> Words {
    Words::new(f.key, page_values(&f.values))
}

/// A refused PGN text: `error.pgn` with the fault as `fault_key` (and its
/// values).
pub fn pgn_text(f: &Fault) -> Words {
    let mut values = vec![("fault_key", f.key.to_string())];
    values.extend(page_values(&f.values));
    Words::new("error.pgn", values)
}

/// Any engine error.
pub fn engine(e: &Error) -> Words {
    match e {
        Error::Fen(f) => fen(f),
        Error::Move(m) => move_error(m),
        Error::MoveInList { index, error } => {
            let inner = move_error(error);
            let mut values = vec![
                ("n", (index + 1).to_string()),
                ("reason_key", inner.key.to_string()),
            ];
            values.extend(inner.values);
            Words::new("error.move_in_list", values)
        }
        Error::HashTooBig {
            requested,
            physical,
        } => Words::new(
            "error.hash",
            vec![
                ("requested", requested.to_string()),
                ("physical", physical.to_string()),
            ],
        ),
        Error::NothingToUndo => Words::new("error.undo.409", Vec::new()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use movegen::{Chess, Position, Tavreli};

    #[test]
    fn a_refused_fen_names_its_field_and_reason_as_keys() {
        let e = Chess::from_fen("rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
            .unwrap_err();
        let w = fen(&e);
        assert_eq!(w.key, "error.fen");
        assert!(w.values.contains(&("field_key", "fen.field.board".into())));
        assert!(w.values.contains(&("reason_key", e.key.to_string())));
        assert!(
            w.values.iter().any(|(k, v)| *k == "text" && v == "9"),
            "{w:?}"
        );
        let e = Tavreli::from_fen("4k3/8/8/3()4/8/8/8/4K3 w - - 0 1").unwrap_err();
        assert_eq!(fen(&e).values[1], ("reason_key", "fen.tower_empty".into()));
    }

    #[test]
    fn a_bad_move_in_a_list_keeps_its_number_and_reason() {
        let e = Error::MoveInList {
            index: 2,
            error: MoveError::Illegal("e2e5".into()),
        };
        let w = engine(&e);
        assert_eq!(w.key, "error.move_in_list");
        assert_eq!(
            w.values,
            vec![
                ("n", "3".to_string()),
                ("reason_key", "error.move_illegal".to_string()),
                ("move", "e2e5".to_string())
            ]
        );
    }
}
