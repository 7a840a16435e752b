//! PlunderChess evaluation: material, piece-square tables, the worth of
//! each worn vest by its wearer, and a light mobility term that counts vest
//! power too, with the weights of [`PLUNDER`]. Centipawns
//! from the side to move. Also PlunderChess's static exchange evaluation.
//!
//! A vest is worth a share of the movement it **adds** to its wearer
//! (RULES.md §3.2 forbids vests that add nothing): a queen vest on a knight
//! adds a whole queen's lines, a pawn vest on a queen adds only en passant.
//! The share is small because a vest move uses the vest up; its lasting
//! worth is the extra threat (attacks and checks keep the vest).
//!
//! ```
//! use movegen::{Plunder, Position};
//! // The hand-written terms cancel by symmetry; the network adds a bonus
//! // for the side to move (`docs/tuning.md`).
//! assert_eq!(eval::plunder::hand_written(&Plunder::startpos()), 0);
//! ```

use crate::pst::{self, table_index, S};
use crate::weights::{Acc, Reader, Traced};
use crate::{attacks_of, Evaluate};
use movegen::{
    attacks, vest_allowed, Bitboard, Color, Move, MoveKind, Plunder, Position, Role, Square,
};

use crate::weights::weight_table;

pub mod features;

weight_table! {
    /// The PlunderChess evaluation weights.
    pub struct PlunderWeights("plunder");
    /// Material by role (pawn knight bishop rook queen king).
    material: list tapered [6];
    /// Piece-square bonus by role and square.
    pst: grid tapered [6 x 64: "pawn", "knight", "bishop", "rook", "queen", "king"];
    /// Added to the king's square bonus while the enemy has a queen.
    king_vs_queen: list tapered [64];
    /// Worth of a worn vest (pawn knight bishop rook queen) by wearer: a
    /// share of the movement it adds; zero where RULES.md 3.2 forbids it.
    vest: grid tapered [6 x 5: "pawn", "knight", "bishop", "rook", "queen", "king"];
    /// By role: per square the piece attacks (own pieces excluded), by its
    /// own movement (not pawns and kings) or its vest's.
    mobility: list tapered [6];
}

/// The weights file, read at compile time (the tuner writes it back).
const SOURCE: &str = include_str!("../params/plunder.txt");

/// The plunder weights in use.
pub const PLUNDER: PlunderWeights = PlunderWeights::parse(SOURCE);

// Its trace: the evaluation as a linear function of the weights.
crate::traceable!(Plunder, PlunderWeights, PLUNDER, SOURCE, |pos: &Plunder| {
    evaluate_with::<Traced>(pos, &Reader::new(&PLUNDER))
});

/// The weights as the evaluation reads them, summed as `A`.
type W<'a, A> = Reader<'a, PlunderWeights, A>;

/// The win/draw/loss model, fitted by `volkhv-tune wdl --variant plunder`
/// on `plunder-413.bin` as it stood in session 32 (296 k positions; the
/// material pays there, 0.6889 held-out log-loss against 0.7009 for the ply
/// alone: `docs/tuning.md`).
pub const WDL: crate::wdl::WdlModel = crate::wdl::WdlModel {
    material_min: 4,
    a: [299.0, -585.0, 289.6],
    b: [221.6, -116.4, 93.6],
    a_ply: 99.4,
    b_ply: 9.3,
};

impl Evaluate for Plunder {
    const WDL: crate::wdl::WdlModel = WDL;

    fn evaluate(&self) -> i32 {
        let board = self.board();
        let owned = [board.by_color(Color::White), board.by_color(Color::Black)];
        if let Some(won) = crate::endgame::bare_king(self, owned) {
            return won;
        }
        hand_written(self) + crate::nets::correction(self)
    }

    /// The vest-aware [`exchange`]: the search prunes losing captures and
    /// quiet moves that hang the piece with it, as in chess (it passed an
    /// SPRT against the build before it, +363 ± 74 at 2+0.02).
    fn see_ge(&self, m: Move, threshold: i32) -> bool {
        exchange(self, m) >= threshold
    }

    /// A capture wins the victim with the vest it wore and changes the
    /// mover's own vest (plundered, or used up by a vest move), so the
    /// capture order and quiescence's delta pruning see a vested victim and
    /// a plundered queen vest. Moves that take nothing keep the default.
    fn capture_value(&self, m: Move) -> i32 {
        match FirstStep::of(self, m).filter(|f| f.victim.is_some()) {
            Some(first) => first.capture_gain().max(0),
            None => crate::top_piece_value(self, m),
        }
    }
}

/// The hand-written evaluation (side to move's view): the evaluation
/// without the network's correction (`features`), what the tuner fits.
#[must_use]
pub fn hand_written(pos: &Plunder) -> i32 {
    evaluate_with::<S>(pos, &Reader::new(&PLUNDER))
}

fn evaluate_with<A: Acc>(pos: &Plunder, w: &W<'_, A>) -> A::Out {
    let tapered = side_terms(pos, Color::White, w) - side_terms(pos, Color::Black, w);
    A::finish(
        tapered,
        A::default(),
        pst::phase(pos.board()),
        1,
        pos.turn(),
    )
}

/// One side's pieces, from that side's view.
fn side_terms<A: Acc>(pos: &Plunder, color: Color, w: &W<'_, A>) -> A {
    let board = pos.board();
    let occ = board.occupied();
    let own = board.by_color(color);
    let enemy_queens = board.pieces(color.flip(), Role::Queen).nonempty();
    let mut s = A::default();
    for sq in own {
        let Some(role) = board.role_at(sq) else {
            continue;
        };
        let (r, t) = (role.index(), table_index(color, sq));
        s += w.material(r) + w.pst(r, t);
        // Shelter while the enemy queen lives, activity after.
        if role == Role::King && enemy_queens {
            s += w.king_vs_queen(t);
        }
        let mut reach = if matches!(role, Role::Pawn | Role::King) {
            Bitboard::EMPTY
        } else {
            attacks_of(role, color, sq, occ)
        };
        if let Some(vest) = pos.vest_at(sq) {
            s += w.vest(r, vest.index());
            reach |= attacks_of(vest, color, sq, occ);
        }
        s += w.mobility(r) * (reach - own).count() as i32;
    }
    s
}

/// What a piece of `role` wearing `vest` is worth in an exchange: the
/// middle of its material and vest pairs (the king: never taken, so it
/// only ever captures last and its worth does not matter).
fn worth(role: Role, vest: Option<Role>) -> i32 {
    let w = Reader::<_, S>::new(&PLUNDER);
    let mid = |s: S| (s.0 + s.1) / 2;
    let base = mid(w.material(role.index()));
    vest.map_or(base, |v| base + mid(w.vest(role.index(), v.index())))
}

/// Pieces of either colour attacking `to` through `occ`, vests included
/// (RULES.md §3.3: a vested piece attacks with its vest's power too).
fn attackers(pos: &Plunder, to: Square, occ: Bitboard) -> Bitboard {
    let b = pos.board();
    let rooks = b.rook_movers() | pos.vests(Role::Rook) | pos.vests(Role::Queen);
    let bishops = b.bishop_movers() | pos.vests(Role::Bishop) | pos.vests(Role::Queen);
    let knights = b.by_role(Role::Knight) | pos.vests(Role::Knight);
    let pawnish = b.by_role(Role::Pawn) | pos.vests(Role::Pawn);
    let all = (attacks::rook(to, occ) & rooks)
        | (attacks::bishop(to, occ) & bishops)
        | (attacks::knight(to) & knights)
        | (attacks::king(to) & b.by_role(Role::King))
        | (attacks::pawn(Color::White, to) & pawnish & b.by_color(Color::Black))
        | (attacks::pawn(Color::Black, to) & pawnish & b.by_color(Color::White));
    all & occ
}

/// A piece in an exchange: its role and the vest it wears.
#[derive(Clone, Copy)]
struct Occupant {
    role: Role,
    vest: Option<Role>,
}

impl Occupant {
    fn worth(self) -> i32 {
        worth(self.role, self.vest)
    }
}

/// The piece `attacker` (on `sq`) becomes when it takes `victim` on `to`:
/// a pawn reaching its last rank promotes (to a queen); a capture its own
/// movement cannot make uses its vest up; then it plunders the best vest it
/// may wear (the victim's type or the victim's vest) or keeps what it has.
fn after_capture(
    pos: &Plunder,
    sq: Square,
    to: Square,
    attacker: Occupant,
    victim: Occupant,
    occ: Bitboard,
) -> Occupant {
    let color = pos.board().piece_at(sq).map_or(Color::White, |p| p.color);
    let last_rank = match color {
        Color::White => 7,
        Color::Black => 0,
    };
    let role = if attacker.role == Role::Pawn && to.rank().0 == last_rank {
        Role::Queen
    } else {
        attacker.role
    };
    let own_move = attacks_of(attacker.role, color, sq, occ).contains(to);
    let kept = attacker.vest.filter(|&v| own_move && vest_allowed(v, role));
    let plundered = [Some(victim.role), victim.vest]
        .into_iter()
        .flatten()
        .filter(|&v| vest_allowed(v, role));
    let best = plundered
        .map(Some)
        .chain([kept])
        .max_by_key(|&v| worth(role, v))
        .flatten();
    Occupant { role, vest: best }
}

/// The piece that makes move `m` as it stands on the target square
/// afterwards: the move says it all (promotion, vest taken, vest used up).
fn after_move(m: Move, mover: Occupant) -> Occupant {
    let role = m.promotion().unwrap_or(mover.role);
    let kept = if m.is_vest_move() {
        None
    } else {
        mover.vest.filter(|&v| vest_allowed(v, role))
    };
    Occupant {
        role,
        vest: m.vest().or(kept),
    }
}

/// The move that starts an exchange: the piece that moves, what it takes
/// (en passant: the pawn beside the target square), the piece it is on the
/// target square afterwards and the occupancy then.
struct FirstStep {
    mover: Occupant,
    victim: Option<Occupant>,
    on_square: Occupant,
    occ: Bitboard,
}

impl FirstStep {
    /// `None` for castling (no exchange follows) or an empty origin.
    fn of(pos: &Plunder, m: Move) -> Option<FirstStep> {
        if m.kind() == MoveKind::Castle {
            return None;
        }
        let board = pos.board();
        let (from, to) = (m.from(), m.to());
        let mover = Occupant {
            role: board.role_at(from)?,
            vest: pos.vest_at(from),
        };
        let mut occ = board.occupied().without(from).with(to);
        let captured_on = if m.kind() == MoveKind::EnPassant {
            let sq = to.shift(-pos.turn().forward());
            occ = occ.without(sq);
            Some(sq)
        } else {
            m.is_capture().then_some(to)
        };
        let victim = captured_on.and_then(|sq| {
            board.role_at(sq).map(|role| Occupant {
                role,
                vest: pos.vest_at(sq),
            })
        });
        Some(FirstStep {
            mover,
            victim,
            on_square: after_move(m, mover),
            occ,
        })
    }

    /// What the move wins before any reply: the victim with the vest it
    /// wore, plus the mover's own change (a vest plundered, a vest used up,
    /// a promotion).
    fn gain(&self) -> i32 {
        self.victim.map_or(0, Occupant::worth) + self.on_square.worth() - self.mover.worth()
    }

    /// [`FirstStep::gain`] without the promotion, which the move order
    /// counts on its own.
    fn capture_gain(&self) -> i32 {
        let wearer_after = Occupant {
            role: self.mover.role,
            vest: self.on_square.vest,
        };
        self.victim.map_or(0, Occupant::worth) + wearer_after.worth() - self.mover.worth()
    }
}

/// Static exchange evaluation of `m` in centipawns for the mover: the swap
/// list on its target square, each side capturing with its least valuable
/// attacker (vests count, both as attack power and as worth) or stopping
/// when that is better. Every capture changes what the capturer is worth:
/// it may plunder a vest (the victim's type or the vest it wore; the best
/// allowed one is taken) and a capture by vest power uses the vest up, so
/// each step wins the victim plus the capturer's own change. X-rays
/// through pieces that have captured are seen; pins are not, and a pawn
/// recapturing on its last rank becomes a queen.
#[must_use]
pub fn exchange(pos: &Plunder, m: Move) -> i32 {
    let Some(first) = FirstStep::of(pos, m) else {
        return 0;
    };
    let (board, to) = (pos.board(), m.to());
    let (mut on_square, mut occ) = (first.on_square, first.occ);
    let mut gains = [0i32; 34];
    gains[0] = first.gain();
    let mut side = pos.turn().flip();
    let mut d = 0;
    // Nothing ever captures a king: a king's move ends the exchange.
    while on_square.role != Role::King && d + 1 < gains.len() {
        let theirs = attackers(pos, to, occ) & board.by_color(side) & !Bitboard::from_square(to);
        let Some((sq, attacker)) = least_valuable(pos, theirs) else {
            break;
        };
        if attacker.role == Role::King {
            let defenders = attackers(pos, to, occ.without(sq)) & board.by_color(side.flip());
            if (defenders & !Bitboard::from_square(to)).nonempty() {
                break;
            }
        }
        let after = after_capture(pos, sq, to, attacker, on_square, occ);
        d += 1;
        gains[d] = on_square.worth() + after.worth() - attacker.worth() - gains[d - 1];
        on_square = after;
        occ = occ.without(sq);
        side = side.flip();
    }
    while d > 0 {
        gains[d - 1] = -(-gains[d - 1]).max(gains[d]);
        d -= 1;
    }
    gains[0]
}

/// The attacker worth least (the king last).
fn least_valuable(pos: &Plunder, attackers: Bitboard) -> Option<(Square, Occupant)> {
    attackers
        .filter_map(|sq| {
            pos.board().role_at(sq).map(|role| {
                (
                    sq,
                    Occupant {
                        role,
                        vest: pos.vest_at(sq),
                    },
                )
            })
        })
        .min_by_key(|&(_, o)| {
            if o.role == Role::King {
                i32::MAX
            } else {
                o.worth()
            }
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_util::mirror;

    /// The middlegame worth of vest `vest` on `wearer` (equal halves today).
    fn vest_value(vest: Role, wearer: Role) -> i32 {
        Reader::<_, S>::new(&PLUNDER)
            .vest(wearer.index(), vest.index())
            .0
    }

    fn eval(fen: &str) -> i32 {
        Plunder::from_fen(fen)
            .unwrap_or_else(|e| panic!("{fen}: {e}"))
            .evaluate()
    }

    #[test]
    fn mirrored_position_scores_the_same() {
        for fen in [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1",
            "r3k2r/pp1n(q)1ppp/2p(n)1b3/3B(P)4/4P(R)3/2N(B)2Q(N)2/PPP2PPP/R3K(P)2R w - - 0 1",
            "4kbn1/p3ppp1/b7/1r(n)1p4/4P3/P4NP1/3B3R(P)/1R(N)2KB2 b - - 0 15",
            "1n6/4k(b)3/7n(p)/8/8/5K(P)2/3b(r)4/8 b - - 5 36",
        ] {
            let m = mirror(fen);
            assert_eq!(eval(&m), eval(fen), "{fen} vs {m}");
        }
        assert_eq!(
            mirror("4k3/8/8/8/8/8/8/2N(q)1K(P)2 w - - 0 1"),
            "2n(Q)1k(p)2/8/8/8/8/8/8/4K3 b - - 0 1"
        );
    }

    #[test]
    fn start_position_is_balanced() {
        // Without the network, which gives the side to move a bonus.
        assert_eq!(hand_written(&Plunder::startpos()), 0);
    }

    #[test]
    fn side_to_move_view() {
        let hand = |fen: &str| hand_written(&Plunder::from_fen(fen).unwrap());
        let white = hand("4k3/8/8/8/8/8/8/3QK3 w - - 0 1");
        let black = hand("4k3/8/8/8/8/8/8/3QK3 b - - 0 1");
        assert!(white > 900, "{white}");
        assert_eq!(black, -white);
        // With the network: still the side to move's view, the mover's
        // bonus aside.
        let white = eval("4k3/8/8/8/8/8/8/3QK3 w - - 0 1");
        let black = eval("4k3/8/8/8/8/8/8/3QK3 b - - 0 1");
        assert!(white > 900 && black < -900, "{white} {black}");
    }

    #[test]
    fn a_vest_is_worth_something() {
        let plain = eval("4k3/8/8/8/3N4/8/8/4K3 w - - 0 1");
        let vested = eval("4k3/8/8/8/3N(Q)4/8/8/4K3 w - - 0 1");
        // The queen vest's value plus the queen lines' mobility.
        assert!(vested - plain >= vest_value(Role::Queen, Role::Knight));
        assert!(vest_value(Role::Queen, Role::Knight) >= 200);
        // A pawn vest on a king is worth little (the fitted table puts it
        // just below zero); on a knight more.
        let king_pawn = vest_value(Role::Pawn, Role::King);
        assert!(king_pawn.abs() < 20, "{king_pawn}");
        assert!(king_pawn < vest_value(Role::Pawn, Role::Knight));
        // Forbidden vests are worth nothing.
        for &wearer in &Role::ALL[..6] {
            for &vest in &Role::ALL[..5] {
                if !vest_allowed(vest, wearer) {
                    assert_eq!(vest_value(vest, wearer), 0, "{vest:?} on {wearer:?}");
                }
            }
        }
        // Black's vest counts for black.
        let black_vest = eval("4k3/8/8/8/3n(q)4/8/8/4K3 w - - 0 1");
        let black_plain = eval("4k3/8/8/8/3n4/8/8/4K3 w - - 0 1");
        assert!(black_vest < black_plain);
    }

    /// The exchange value of move `mv` in `fen`.
    fn see(fen: &str, mv: &str) -> i32 {
        let pos = Plunder::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        let m = pos
            .parse_move(mv)
            .unwrap_or_else(|e| panic!("{fen} {mv}: {e}"));
        exchange(&pos, m)
    }

    /// Exchange worth of a piece (no vest) and of one wearing `vest`.
    fn bare(role: Role) -> i32 {
        worth(role, None)
    }
    fn wearing(role: Role, vest: Role) -> i32 {
        worth(role, Some(vest))
    }

    #[test]
    fn exchange_counts_plundered_vests() {
        use Role::{Knight, Pawn};
        // An undefended pawn: declining wins the pawn, plundering its
        // vest also makes the knight worth more.
        let f = "4k3/8/8/3p4/8/4N3/8/4K3 w - - 0 1";
        assert_eq!(see(f, "e3d5"), bare(Pawn));
        assert_eq!(
            see(f, "e3d5p"),
            bare(Pawn) + wearing(Knight, Pawn) - bare(Knight)
        );
        // Defended by a pawn, which then takes a knight vest: the knight
        // for a pawn and a vest for black, plundered or not.
        let f = "4k3/8/2p5/3p4/8/4N3/8/4K3 w - - 0 1";
        let lost = bare(Pawn) - bare(Knight) - (wearing(Pawn, Knight) - bare(Pawn));
        assert_eq!(see(f, "e3d5"), lost);
        assert_eq!(see(f, "e3d5p"), lost);
        // Pawn takes a defended knight: plundering the knight vest hands it
        // to the recapturing pawn, which may take the vest its victim wore.
        let f = "4k3/8/2p5/3n4/4P3/8/8/4K3 w - - 0 1";
        assert_eq!(see(f, "e4d5"), bare(Knight) - bare(Pawn));
        assert_eq!(
            see(f, "e4d5n"),
            bare(Knight) - bare(Pawn) - (wearing(Pawn, Knight) - bare(Pawn))
        );
        // Sanity of the numbers the cases rely on.
        assert!(wearing(Pawn, Knight) > bare(Pawn));
        assert!(see(f, "e4d5n") < see(f, "e4d5"));
    }

    #[test]
    fn exchange_sees_vest_attackers() {
        use Role::{Bishop, Knight, Pawn, Rook};
        // The pawn's only defender is a knight's bishop vest on a8: taking
        // it loses the rook; the knight recaptures through its vest (used
        // up) and plunders a rook vest.
        let f = "n(b)3k3/8/8/3p4/8/8/8/3RK3 w - - 0 1";
        let recapture = wearing(Knight, Rook) - wearing(Knight, Bishop);
        assert_eq!(see(f, "d1d5"), bare(Pawn) - bare(Rook) - recapture);
        // Without the vest the pawn is free.
        assert_eq!(see("n3k3/8/8/3p4/8/8/8/3RK3 w - - 0 1", "d1d5"), bare(Pawn));
    }

    #[test]
    fn exchange_of_quiet_and_king_moves() {
        use Role::{Knight, Queen};
        // A quiet vest move uses the vest up.
        let f = "4k3/8/8/8/8/8/8/N(Q)3K3 w - - 0 1";
        assert_eq!(see(f, "a1a5"), bare(Knight) - wearing(Knight, Queen));
        // The knight's own move keeps it.
        assert_eq!(see(f, "a1b3"), 0);
        // A king taking a defended pawn is illegal, an undefended one free;
        // nothing is ever taken back from a king.
        assert_eq!(
            see("4k3/8/8/8/8/8/3p4/4K3 w - - 0 1", "e1d2"),
            bare(Role::Pawn)
        );
        // Castling puts nothing at stake.
        assert_eq!(see("4k3/8/8/8/8/8/8/4K2R w K - 0 1", "e1g1"), 0);
    }

    #[test]
    fn capture_value_counts_the_victims_vest_and_the_movers_change() {
        use Role::{Bishop, Knight, Pawn, Queen, Rook};
        let value = |fen: &str, mv: &str| {
            let pos = Plunder::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
            let m = pos.parse_move(mv).unwrap_or_else(|e| panic!("{mv}: {e}"));
            pos.capture_value(m)
        };
        // A rook wearing a queen vest is worth the pair, not the rook.
        let f = "4k3/8/8/3r(q)4/8/4N3/8/4K3 w - - 0 1";
        assert_eq!(value(f, "e3d5"), wearing(Rook, Queen));
        // Plundering the queen vest adds the knight's gain; the defended
        // rook is still valued as if it were free (a bound, not an exchange).
        assert_eq!(
            value(f, "e3d5q"),
            wearing(Rook, Queen) + wearing(Knight, Queen) - bare(Knight)
        );
        // A capture by the vest's power uses the vest up.
        let f = "4k3/8/8/8/8/2p5/8/N(B)3K3 w - - 0 1";
        assert_eq!(
            value(f, "a1c3"),
            bare(Pawn) + bare(Knight) - wearing(Knight, Bishop)
        );
        // En passant takes the pawn beside the target square.
        let f = "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2";
        assert_eq!(value(f, "e5d6"), bare(Pawn));
        // A quiet move keeps the default (the move order counts promotions
        // on their own).
        let f = "4k3/P7/8/8/8/8/8/4K3 w - - 0 1";
        assert_eq!(value(f, "a7a8q"), 100);
    }

    #[test]
    fn search_prunes_with_the_exchange() {
        // A knight taking a pawn guarded by a pawn loses material; the
        // search's test answers by the exchange's value on either side of it.
        let pos = Plunder::from_fen("4k3/8/2p5/3p4/8/4N3/8/4K3 w - - 0 1").unwrap();
        let m = pos.parse_move("e3d5").unwrap();
        let lost = exchange(&pos, m);
        assert!(lost < 0);
        assert!(!pos.see_ge(m, 0));
        assert!(pos.see_ge(m, lost));
        assert!(!pos.see_ge(m, lost + 1));
    }
}
