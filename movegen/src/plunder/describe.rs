//! PlunderChess in words: a piece and the vest it wears.

use super::Plunder;
use crate::describe::{capitalised, lone_mover, plain_token, role_on};
use crate::{Describe, Move, MoverParts, Position, Square, Token};

impl Describe for Plunder {
    fn tokens(&self, sq: Square) -> Vec<Token> {
        let Some(p) = self.piece_at(sq) else {
            return Vec::new();
        };
        let mut t = plain_token(p);
        if let Some(v) = self.vest_at(sq) {
            t.vest = Some(v.char_for(p.color));
            t.name = format!("{} wearing a {} vest", t.name, v.name());
            t.parts.vest = Some(v);
        }
        vec![t]
    }

    fn mover(&self, m: Move) -> String {
        let name = capitalised(role_on(self.piece_at(m.from())).name());
        match self.vest_at(m.from()) {
            Some(v) if m.is_vest_move() => format!("{name} using its {} vest", v.name()),
            _ => name,
        }
    }

    fn mover_parts(&self, m: Move) -> MoverParts {
        let vest = self.vest_at(m.from());
        let mut parts = lone_mover(self.piece_at(m.from()), vest.filter(|_| m.is_vest_move()));
        parts.pieces[0].vest = vest;
        parts
    }
}
