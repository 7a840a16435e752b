//! Tavreli in words: every piece of a tower, and the group a move lifts.

use super::{Tavreli, Tower, TowerPiece};
use crate::describe::{capitalised, side};
use crate::{Describe, Move, MoverParts, PieceParts, Square, Token};

fn tower_piece_parts(p: TowerPiece) -> PieceParts {
    let promotion = p.promotion();
    PieceParts {
        color: p.color(),
        role: p.role(),
        promotes_to: promotion.filter(|_| p.is_pawn()),
        promoted: promotion.is_some() && !p.is_pawn(),
        vest: None,
    }
}

fn tower_piece_name(p: TowerPiece) -> String {
    let role = p.role().name();
    match p.promotion() {
        Some(promo) if p.is_pawn() => format!("pawn (promotes to {})", promo.name()),
        Some(_) => format!("promoted pawn, now a {role}"),
        None => role.to_string(),
    }
}

impl Describe for Tavreli {
    fn tokens(&self, sq: Square) -> Vec<Token> {
        self.tower(sq)
            .iter()
            .map(|p| Token {
                piece: p.token(sq.file()),
                vest: None,
                name: format!("{} {}", side(p.color()), tower_piece_name(p)),
                parts: tower_piece_parts(p),
            })
            .collect()
    }

    fn mover(&self, m: Move) -> String {
        let (tower, height, k) = self.lifted(m);
        // The group's pieces bottom to top; those of the other side say so.
        let owner = tower.top().map(TowerPiece::color);
        let group: Vec<String> = tower
            .iter()
            .skip(height - k)
            .map(|p| {
                if Some(p.color()) == owner {
                    tower_piece_name(p)
                } else {
                    format!("{} {}", side(p.color()), tower_piece_name(p))
                }
            })
            .collect();
        if height == 1 {
            capitalised(&group.join(""))
        } else if k == height {
            format!("Whole tower of {height} ({})", group.join(", "))
        } else {
            format!("Top {k} of {height} ({})", group.join(", "))
        }
    }

    fn mover_parts(&self, m: Move) -> MoverParts {
        let (tower, height, k) = self.lifted(m);
        MoverParts {
            k,
            height,
            pieces: tower
                .iter()
                .skip(height - k)
                .map(tower_piece_parts)
                .collect(),
            by_vest: None,
        }
    }
}

impl Tavreli {
    /// The tower a move lifts from, its height and how many pieces move
    /// (a split's `k`, else all).
    fn lifted(&self, m: Move) -> (Tower, usize, usize) {
        let tower = self.tower(m.from());
        let height = tower.len();
        let k = match usize::from(m.split()) {
            0 => height,
            k => k,
        };
        (tower, height, k)
    }
}
