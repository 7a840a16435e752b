//! Tavreli evaluation: material of the pieces in the towers each side owns
//! (the top at full value, own pieces beneath nearly so, prisoners at part
//! value because they are freed if the tower falls), buried own pieces under
//! enemy tops at a small part value (they may be freed), a bonus per owned
//! stack, mobility of the tops weighted by tower height (every square a tall
//! tower reaches is several moves), and piece-square tables, with the flat
//! weights of [`TAVRELI`]. Also the
//! search's Tavreli exchange model: what a capture can win (the whole
//! tower) and a static exchange evaluation where the stack grows with each
//! capture.
//!
//! ```
//! use movegen::{Position, Tavreli};
//! // The hand-written terms cancel by symmetry; the network adds a bonus
//! // for the side to move (`docs/tuning.md`).
//! assert_eq!(eval::tavreli::hand_written(&Tavreli::startpos()), 0);
//! ```

use crate::pst::{table_index, PHASE_MAX, S};
use crate::weights::{Acc, Reader, Traced};
use crate::{attacks_of, Evaluate};
use movegen::{
    attacks, Bitboard, Color, Move, MoveKind, Position, Role, Square, Tavreli, Tower, TowerPiece,
};

use crate::weights::weight_table;

pub mod features;

weight_table! {
    /// The Tavreli evaluation weights.
    pub struct TavreliWeights("tavreli");
    /// Material by role (pawn knight bishop rook queen king helgi) of the
    /// top of a tower and of the pieces a capture can win.
    material: list flat [7];
    /// Worth of an own piece under an own top, by role.
    own_below: list flat [7];
    /// Worth of a prisoner (enemy piece under an own top) to the top's
    /// owner, by the prisoner's role.
    prisoner: list flat [7];
    /// Worth of a buried piece (under an enemy top) to its own side, by role.
    buried: list flat [7];
    /// Per piece beneath the top of a tower, to the top's owner.
    stack_bonus: scalar flat [];
    /// Per square the top reaches (kings excluded), by tower height 1, 2,
    /// 3, 4 or more.
    mobility: list flat [4];
    /// Square bonus of the top by role and square.
    pst: grid flat [7 x 64: "pawn", "knight", "bishop", "rook", "queen", "king", "helgi"];
}

/// The weights file, read at compile time (the tuner writes it back).
const SOURCE: &str = include_str!("../params/tavreli.txt");

/// The tavreli weights in use.
pub const TAVRELI: TavreliWeights = TavreliWeights::parse(SOURCE);

// Its trace: the evaluation as a linear function of the weights.
crate::traceable!(Tavreli, TavreliWeights, TAVRELI, SOURCE, |pos: &Tavreli| {
    evaluate_with::<Traced>(pos, &Reader::new(&TAVRELI))
});

/// The weights as the evaluation reads them, summed as `A`.
type W<'a, A> = Reader<'a, TavreliWeights, A>;

/// The weights as plain numbers (the exchange model's values).
const VALUES: W<'static, S> = Reader::new(&TAVRELI);

/// Material of a piece as it stands (a promoted pawn as its piece, kings 0).
fn value(p: TowerPiece) -> i32 {
    VALUES.material(p.role().index()).0
}

/// How much taking piece `p` in a tower swings the score: an enemy top or
/// prisoner goes from its full value for them to a prisoner for us plus a
/// buried piece for them; our own buried piece comes free the same way.
fn swing(p: TowerPiece) -> i32 {
    role_swing(p.role())
}

fn role_swing(role: Role) -> i32 {
    let r = role.index();
    VALUES.material(r).0 - VALUES.buried(r).0 + VALUES.prisoner(r).0
}

/// The swing of a whole tower.
fn tower_swing(t: Tower) -> i32 {
    t.iter().map(swing).sum()
}

/// Squares the top on `sq` attacks (a pawn: its two capture squares).
fn reach(sq: Square, top: TowerPiece, occ: Bitboard) -> Bitboard {
    attacks_of(top.role(), top.color(), sq, occ)
}

/// Tops of `color` that could move onto `to` through `occ`, but not those
/// on `used` squares (they already took part in the exchange).
fn attackers(pos: &Tavreli, to: Square, color: Color, occ: Bitboard, used: Bitboard) -> Bitboard {
    let helgi = pos.tops_of(Role::Helgi);
    let queens = pos.tops_of(Role::Queen) | helgi;
    let all = (attacks::knight(to) & (pos.tops_of(Role::Knight) | helgi))
        | (attacks::king(to) & pos.tops_of(Role::King))
        | (attacks::pawn(color.flip(), to) & pos.tops_of(Role::Pawn))
        | (attacks::bishop(to, occ) & (pos.tops_of(Role::Bishop) | queens))
        | (attacks::rook(to, occ) & (pos.tops_of(Role::Rook) | queens));
    all & pos.owned(color) & (occ - used)
}

/// Static exchange on the target square of `m` (see [`Evaluate::see_ge`]).
/// Every capture there takes the whole stack, which grows by the capturing
/// group, so each recapture wins more than the last; both sides recapture
/// with their least valuable top alone (the tower beneath stays behind and
/// keeps blocking its lines; what it reveals is not looked at). A king may
/// recapture only when nothing can take back.
fn exchange_ge(pos: &Tavreli, m: Move, threshold: i32) -> bool {
    if m.kind() == MoveKind::Castle {
        return threshold <= 0;
    }
    let (from, to) = (m.from(), m.to());
    let us = pos.turn();
    let source = pos.tower(from);
    let k = match usize::from(m.split()) {
        0 => source.len(),
        k => k,
    };
    let (_, group) = source.split(k);
    let mut occ = pos.owned(Color::White) | pos.owned(Color::Black);
    // The swing of what is on the square before the move (reinforcing an
    // own tower puts nothing new at stake but the group).
    let taken = if m.kind() == MoveKind::EnPassant {
        let pushed = to.shift(-us.forward());
        occ.remove(pushed);
        occ.add(to);
        tower_swing(pos.tower(pushed))
    } else if m.is_capture() {
        tower_swing(pos.tower(to))
    } else {
        0
    };
    if k == source.len() {
        occ.remove(from);
    }
    occ.add(to);
    let mut used = Bitboard::from_square(from) | Bitboard::from_square(to);
    let mut gains = [0i32; 40];
    gains[0] = taken;
    let mut stake = taken + tower_swing(group);
    let mut side = us.flip();
    let mut d = 0;
    // Nothing is ever placed on a king: a group the king tops is safe.
    let king_moved = group.top().is_some_and(|t| t.role() == Role::King);
    while !king_moved && d + 1 < gains.len() {
        let mine = attackers(pos, to, side, occ, used);
        let Some((sq, top)) = least_valuable(pos, mine) else {
            break;
        };
        if top.role() == Role::King
            && attackers(pos, to, side.flip(), occ, used | Bitboard::from_square(sq)).nonempty()
        {
            break;
        }
        d += 1;
        gains[d] = stake - gains[d - 1];
        if (-gains[d - 1]).max(gains[d]) < 0 {
            break;
        }
        if top.role() == Role::King {
            break;
        }
        stake += swing(top);
        used.add(sq);
        if pos.tower(sq).len() == 1 {
            occ.remove(sq);
        }
        side = side.flip();
    }
    while d > 0 {
        gains[d - 1] = -(-gains[d - 1]).max(gains[d]);
        d -= 1;
    }
    gains[0] >= threshold
}

/// The attacker whose top piece is worth least (the king last).
fn least_valuable(pos: &Tavreli, attackers: Bitboard) -> Option<(Square, TowerPiece)> {
    attackers
        .filter_map(|sq| pos.tower(sq).top().map(|t| (sq, t)))
        .min_by_key(|&(_, t)| {
            if t.role() == Role::King {
                i32::MAX
            } else {
                value(t)
            }
        })
}

/// White's score minus black's, as `A`.
fn white_terms<A: Acc>(pos: &Tavreli, w: &W<'_, A>) -> A {
    let occ = pos.owned(Color::White) | pos.owned(Color::Black);
    let kings = pos.tops_of(Role::King);
    let mut score = [A::default(), A::default()];
    for sq in occ {
        let tower = pos.tower(sq);
        let Some(top) = tower.top() else { continue };
        let owner = top.color();
        let h = tower.len();
        let o = owner.index();
        let r = top.role().index();
        score[o] += w.material(r) + w.pst(r, table_index(owner, sq));
        for p in tower.iter().take(h - 1) {
            let r = p.role().index();
            if p.color() == owner {
                score[o] += w.own_below(r);
            } else {
                score[o] += w.prisoner(r);
                score[p.color().index()] += w.buried(r);
            }
            score[o] += w.stack_bonus();
        }
        let height = h.min(MOBILITY_HEIGHTS);
        let squares = (reach(sq, top, occ) - kings).count() as i32;
        score[o] += w.mobility(height - 1) * squares;
    }
    let [white, black] = score;
    white - black
}

/// Tower heights with their own mobility weight (taller ones count as this).
const MOBILITY_HEIGHTS: usize = 4;

fn evaluate_with<A: Acc>(pos: &Tavreli, w: &W<'_, A>) -> A::Out {
    // Flat weights only: the blend at full phase leaves the sum as it is.
    A::finish(white_terms(pos, w), A::default(), PHASE_MAX, 1, pos.turn())
}

/// The hand-written evaluation (side to move's view): the evaluation
/// without the network's correction (`features`), what the tuner fits.
#[must_use]
pub fn hand_written(pos: &Tavreli) -> i32 {
    evaluate_with::<S>(pos, &Reader::new(&TAVRELI))
}

/// The win/draw/loss model, fitted by `volkhv-tune wdl --variant tavreli`
/// on `tavreli-413.bin` in session 32 (204 k positions). Tavreli's material
/// moves little, so the ply carries most of it: 0.6814 held-out log-loss,
/// 0.6784 with the ply alone (`docs/tuning.md`, the data in `docs/data.md`).
pub const WDL: crate::wdl::WdlModel = crate::wdl::WdlModel {
    material_min: 53,
    a: [5.8, -9.2, 3.7],
    b: [163.0, 56.9, 370.4],
    a_ply: 213.6,
    b_ply: 236.1,
};

/// How much a piece under a tower's top counts in the material of the
/// win/draw/loss model, in halves of its value. Pieces never leave a
/// Tavreli board, so counting them all would make every game's material the
/// same; counting only the tops would forget that a split frees what stands
/// below. Half measured best on held-out games (`docs/tuning.md`).
pub const BURIED_HALVES: u32 = 1;

/// The material for the win/draw/loss model: every tower's top at its
/// value and the pieces under it at `buried_halves` halves of theirs.
#[must_use]
pub fn material_counting_buried(pos: &Tavreli, buried_halves: u32) -> u32 {
    let mut tops = 0;
    let mut buried = 0;
    for sq in pos.owned(Color::White) | pos.owned(Color::Black) {
        let tower = pos.tower(sq);
        let height = tower.len();
        for (i, piece) in tower.iter().enumerate() {
            let value = crate::wdl::material_value(piece.role());
            if i + 1 == height {
                tops += value;
            } else {
                buried += value;
            }
        }
    }
    tops + buried * buried_halves / 2
}

impl Evaluate for Tavreli {
    const WDL: crate::wdl::WdlModel = WDL;

    fn material(&self) -> u32 {
        material_counting_buried(self, BURIED_HALVES)
    }

    const QSEARCH_PLIES: usize = 6;

    /// Smaller than chess's, though a Tavreli centipawn is worth less (Texel
    /// K 0.54 against chess's 1.68): a tower is taken back and forth and the
    /// tree is wide, so pruning more is what the clock rewards. × 0.6 passed
    /// its SPRT against chess's (+34.7 ± 18.0, 974 games); × 2 failed
    /// (−57.4 ± 27.4). `docs/tuning.md`, "Search tuned per variant".
    const MARGINS: crate::margins::Margins = crate::margins::Margins::CHESS.scaled(60);

    fn quiescence_candidate(&self, m: Move) -> bool {
        m.split() <= 1
    }

    /// Taking a tower wins every piece in it: the enemy's become prisoners,
    /// our buried ones come free. Each piece swings the score by more than
    /// its value (its material, less its buried worth, plus its prisoner
    /// worth), so the sum bounds the gain only with that share added.
    fn capture_value(&self, m: Move) -> i32 {
        let tower = self.tower(m.to());
        if tower.is_empty() {
            // En passant: the pawn's tower is taken; a pawn is the usual case.
            return role_swing(Role::Pawn);
        }
        tower_swing(tower) + VALUES.stack_bonus().0 * 2 * tower.len() as i32
    }

    fn see_ge(&self, m: Move, threshold: i32) -> bool {
        exchange_ge(self, m, threshold)
    }

    fn evaluate(&self) -> i32 {
        let owned = [self.owned(Color::White), self.owned(Color::Black)];
        if let Some(won) = crate::endgame::bare_king(self, owned) {
            return won;
        }
        hand_written(self) + crate::nets::correction(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_util::mirror;

    const FENS: [&str; 6] = [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "4k3/8/8/3(Pr)4/8/8/3R4/4K3 w - - 0 1",
        "r1b1k2r/pp(PQ~)p1ppp/2n(bn)1n2/3(pN)4/2(BP=Hq)5/5(pN)2/PP1P1PPP/R3K2R w KQkq - 0 1",
        "rn1bk2r/6(pP=HQb)1/5(pPp=h)1p/p1(P=Qn)(pp=bP=Nq)4/(Pp=nR)7/2(PN)3P1/7P/2B1KBNR w Kkq - 0 20",
        "6(nrp=bP=RRk)1/3(pQRP=Bn)3p/2(pP=Nbp=nP=H)5/6p1/1(p=rrp=hqB)P=Q3P1/8/2(P=Rb)5/1N3(BNPK)2 b - - 0 35",
        "k7/8/8/3(Np)(RP)3/8/8/8/4K3 w - d6 0 2",
    ];

    #[test]
    fn mirror_symmetry() {
        for fen in FENS {
            let a = Tavreli::from_fen(fen).unwrap();
            let b = Tavreli::from_fen(&mirror(fen)).unwrap();
            assert_eq!(a.evaluate(), b.evaluate(), "{fen} vs {}", mirror(fen));
        }
    }

    #[test]
    fn start_is_balanced_and_moves_change_it() {
        // The network's correction is left out: it gives the side to move
        // a bonus, so only the hand-written terms cancel at the start.
        let start = Tavreli::startpos();
        assert_eq!(hand_written(&start), 0);
        let mut p = start.clone();
        p.make(p.parse_move("e2e4").unwrap());
        // Black to move after a free centre pawn move: white is better.
        assert!(hand_written(&p) < 0, "{}", hand_written(&p));
    }

    #[test]
    fn capturing_a_tower_is_good() {
        let mut p = Tavreli::from_fen("4k3/8/8/3(Pr)4/8/8/3R4/4K3 w - - 0 1").unwrap();
        let before = p.evaluate();
        let quiet = {
            let mut q = p.clone();
            q.make(q.parse_move("d2d3").unwrap());
            -q.evaluate()
        };
        p.make(p.parse_move("d2d5").unwrap());
        let after = -p.evaluate();
        assert!(after > before + 300, "before {before}, after {after}");
        assert!(after > quiet + 300, "quiet {quiet}, capture {after}");
    }

    #[test]
    fn capture_value_counts_the_whole_tower() {
        // A black pawn on top of a white queen and a black rook: taking the
        // tower wins far more than the pawn on top. (Black keeps a pawn on
        // h7: a bare king would be a known win, a jump no capture bounds.)
        let p = Tavreli::from_fen("4k3/7p/8/3(Qrp)4/8/8/3R4/4K3 w - - 0 1").unwrap();
        let m = p.parse_move("d2d5").unwrap();
        let lone = Tavreli::from_fen("4k3/7p/8/3p4/8/8/3R4/4K3 w - - 0 1").unwrap();
        let m_lone = lone.parse_move("d2d5").unwrap();
        assert!(p.capture_value(m) > lone.capture_value(m_lone) + 1400);
        assert!(p.capture_order(m) > lone.capture_order(m_lone));
        // The bound really bounds: the evaluation gain of the capture.
        for (pos, mv) in [(&p, m), (&lone, m_lone)] {
            let mut after = pos.clone();
            after.make(mv);
            let gain = -after.evaluate() - pos.evaluate();
            assert!(gain <= pos.capture_value(mv) + 200, "{gain}");
        }
    }

    /// `see_ge` at the thresholds just below and at `expected + 1`.
    fn exchange_is(fen: &str, mv: &str, expected: i32) {
        let p = Tavreli::from_fen(fen).unwrap();
        let m = p.parse_move(mv).unwrap();
        assert!(p.see_ge(m, expected), "{fen} {mv}: below {expected}");
        assert!(!p.see_ge(m, expected + 1), "{fen} {mv}: above {expected}");
    }

    #[test]
    fn exchanges_take_the_growing_stack() {
        // Each piece of a taken tower swings the score by its material, less
        // its buried worth, plus its prisoner worth (the table's numbers).
        let s = |roles: &[Role]| roles.iter().map(|&r| role_swing(r)).sum::<i32>();
        let (p, n, r, q) = (Role::Pawn, Role::Knight, Role::Rook, Role::Queen);
        // An undefended tower: its whole material.
        exchange_is("4k3/8/8/3(Qp)4/8/8/3R4/4K3 w - - 0 1", "d2d5", s(&[q, p]));
        // A pawn-topped tower defended by a pawn, taken by the rook: black
        // takes back the stack with the rook on it.
        exchange_is(
            "4k3/8/4p3/3(Np)4/8/8/3R4/4K3 w - - 0 1",
            "d2d5",
            s(&[n, p]) - s(&[n, p, r]),
        );
        // ... unless white can take back again: then black stops.
        exchange_is(
            "4k3/8/4p3/3(Np)4/2P5/8/3R4/4K3 w - - 0 1",
            "d2d5",
            s(&[n, p]),
        );
        // A quiet move onto a square a pawn attacks loses the group.
        exchange_is("4k3/8/4p3/8/8/8/3R4/4K3 w - - 0 1", "d2d5", -s(&[r]));
        // Moving only the top of a tower puts only the top at stake.
        exchange_is("4k3/8/4p3/8/8/8/3(QR)4/4K3 w - - 0 1", "d2d5:1", -s(&[r]));
        exchange_is("4k3/8/4p3/8/8/8/3(QR)4/4K3 w - - 0 1", "d2d5", -s(&[q, r]));
        // A king's group cannot be taken.
        exchange_is("4k3/8/8/8/8/3p4/4K3/8 w - - 0 1", "e2d3", s(&[p]));
    }

    #[test]
    fn prisoners_and_buried_pieces() {
        // The same material, once free and once a white queen buried under
        // a black knight: white is worse off when buried.
        let free = Tavreli::from_fen("4k3/8/8/3n4/8/8/3Q4/4K3 w - - 0 1").unwrap();
        let buried = Tavreli::from_fen("4k3/8/8/3(Qn)4/8/8/8/4K3 w - - 0 1").unwrap();
        assert!(buried.evaluate() < free.evaluate() - 500);
        // A black knight holding a white queen beats a lone black knight.
        let lone = Tavreli::from_fen("4k3/8/8/3n4/8/8/8/4K3 b - - 0 1").unwrap();
        let holding = Tavreli::from_fen("4k3/8/8/3(Qn)4/8/8/8/4K3 b - - 0 1").unwrap();
        assert!(holding.evaluate() > lone.evaluate() + 100);
    }
}
