//! Chess evaluation (placeholder: material only).

use crate::{role_value, Evaluate};
use movegen::{Chess, Position};

impl Evaluate for Chess {
    fn evaluate(&self) -> i32 {
        let mut score = 0;
        for sq in movegen::Square::all() {
            if let Some(p) = self.piece_at(sq) {
                let v = role_value(p.role);
                score += if p.color == self.turn() { v } else { -v };
            }
        }
        score
    }
}
