//! Move text for people and files, in one place for every front end: SAN
//! ([`san`]), PGN reading and writing ([`pgn`]), opening books
//! ([`openings`]) and moves in words for a board's chooser ([`words`]). Which notation a variant's move lists use is
//! a registry fact ([`Variant::uses_san`](movegen::Variant::uses_san)).
#![deny(missing_docs)]

pub mod fault;
pub mod openings;
pub mod pgn;
mod pgn_reader;
pub mod san;
pub mod words;

use movegen::{Move, Position};

/// The legal move `m` of `pos` as move lists show it: SAN where the variant
/// uses it, the RULES.md move string otherwise.
#[must_use]
pub fn move_text<P: Position>(pos: &P, m: Move) -> String {
    if P::VARIANT.uses_san() {
        san::san(pos, m)
    } else {
        m.to_string()
    }
}

/// Reads a move of a move list: SAN where the variant uses it, or a move
/// string (always accepted, so a SAN variant's file may use either).
#[must_use]
pub fn parse_move_text<P: Position>(pos: &P, text: &str) -> Option<Move> {
    let san = if P::VARIANT.uses_san() {
        san::parse_san(pos, text)
    } else {
        None
    };
    san.or_else(|| pos.parse_move(text).ok())
}

#[cfg(test)]
mod tests {
    use super::*;
    use movegen::{Chess, Plunder, Tavreli};

    #[test]
    fn san_only_where_the_registry_says() {
        let c = Chess::startpos();
        let m = c.parse_move("g1f3").unwrap();
        assert_eq!(move_text(&c, m), "Nf3");
        assert_eq!(parse_move_text(&c, "Nf3"), Some(m));
        assert_eq!(parse_move_text(&c, "g1f3"), Some(m));
        let p = Plunder::startpos();
        let m = p.parse_move("g1f3").unwrap();
        assert_eq!(move_text(&p, m), "g1f3");
        assert_eq!(parse_move_text(&p, "Nf3"), None);
        let t = Tavreli::startpos();
        let m = t.parse_move("g1f3").unwrap();
        assert_eq!(move_text(&t, m), "g1f3");
    }
}
