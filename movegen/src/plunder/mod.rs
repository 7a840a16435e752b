//! PlunderChess (RULES.md §3): chess plus **vests**. A capturing piece may
//! plunder the movement set of the captured piece's type (or the vest it
//! wore) and use it once, as a vest move.
//!
//! PlunderChess is the chess family with a vest layer, [`Vests`]: one
//! bitboard per vest kind (`P N B R Q`, both colours; the wearer's colour
//! comes from the board). Attack detection and move generation are chess's
//! bitboard code with vested pieces ORed into the mover sets, checkers and
//! pin masks included (vested sliders are snipers too); this module adds
//! the vest suffixes of FEN, the plunder choices of captures, the vested
//! pieces' moves (`gen`) and what a move does to vests.
//!
//! ```
//! use movegen::{perft, Plunder, Position};
//! let mut pos = Plunder::startpos();
//! assert_eq!(perft(&mut pos, 3), 8922); // chess has 8902: captures plunder
//! let mut pos = Plunder::from_fen("k7/8/8/8/3N(B)4/8/8/7K w - - 0 1").unwrap();
//! assert_eq!(pos.fen(), "k7/8/8/8/3N(B)4/8/8/7K w - - 0 1");
//! // The knight's bishop slide is a vest move: the vest is used up.
//! let m = pos.parse_move("d4g7").unwrap();
//! pos.make(m);
//! assert_eq!(pos.fen(), "k7/6N1/8/8/8/8/8/7K b - - 1 1");
//! ```

mod describe;
mod gen;
#[cfg(test)]
mod tests;

use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::family::{Ctx, Family, Layer, Movers, Order, Sink};
use crate::fen::{FenError, FenField};
use crate::moves::Move;
use crate::types::{Color, Piece, Role, Square};
use crate::zobrist;
use crate::Variant;
use gen::Opts;

/// The vest kinds in index order (`vests[i]` holds vests of `VEST_ROLES[i]`).
pub(crate) const VEST_ROLES: [Role; 5] = [
    Role::Pawn,
    Role::Knight,
    Role::Bishop,
    Role::Rook,
    Role::Queen,
];

/// RULES.md §3.2 allow table: bit `v` of `ALLOWED[wearer]` is set iff a vest
/// of role index `v` adds moves to the wearer (its movement set is not
/// contained in the wearer's).
const ALLOWED: [u8; 6] = [
    0b11110, // pawn: N B R Q
    0b11101, // knight: P B R Q
    0b11011, // bishop: P N R Q
    0b10111, // rook: P N B Q
    0b00011, // queen: P N
    0b11111, // king: P N B R Q
];

/// `true` if a vest of `vest` may be worn by a piece of type `wearer`
/// (RULES.md §3.2): the vest must add moves the wearer cannot make.
///
/// ```
/// use movegen::{vest_allowed, Role};
/// assert!(vest_allowed(Role::Pawn, Role::Queen));
/// assert!(!vest_allowed(Role::Rook, Role::Queen));
/// assert!(!vest_allowed(Role::King, Role::Knight)); // no king vests
/// ```
#[must_use]
pub const fn vest_allowed(vest: Role, wearer: Role) -> bool {
    let v = vest.index();
    let w = wearer.index();
    v < 5 && w < 6 && ALLOWED[w] & (1 << v) != 0
}

/// The most pieces one side may have in a plunder FEN. There are no drops,
/// so 16 is the most a game can reach; the bound on [`MAX_MOVES`] relies on it.
///
/// [`MAX_MOVES`]: crate::MAX_MOVES
pub const MAX_PIECES_PER_SIDE: u32 = 16;

/// A PlunderChess position.
///
/// # Move-list bound
/// A legal position has at most 16 pieces a side (FENs with more are
/// rejected). One piece contributes `Σ_dest m(dest)` moves, where a quiet
/// destination gives 1 move, a capture at most 3 (decline plus at most two
/// new vests: the captured type's and the captured piece's worn one; the
/// en-passant collision likewise gives a quiet step plus at most two
/// suffixed captures), and a promotion multiplies by 4. Writing `D` for the
/// destinations, `C` for the capture destinations and `P` for the promotion
/// destinations: moves ≤ `D + 2·C + 3·Σ_P (1 + 2·capture)`.
/// - Non-pawns: `D ≤ 35` (queen or knight with the other's vest: 27 + 8),
///   `C ≤ 16` (the first piece on each of 8 rays plus 8 leaps), so ≤ 67.
///   The king: `D ≤ 27` (queen vest; castling lands on a square of its own
///   slide, one string), `C ≤ 8 + 1` (rays, en passant): ≤ 45; with a knight
///   vest `D ≤ 18, C ≤ 16`: ≤ 50.
/// - Pawns: with a queen vest `D ≤ 27, C ≤ 8`, promotion squares ≤ 3:
///   ≤ 27 + 16 + 3·9 = 70; with a knight vest from the 7th rank `D ≤ 9`
///   (push, two captures, six leaps), `C ≤ 7`, promotion squares ≤ 5:
///   ≤ 9 + 14 + 3·15 = 68; rook/bishop vests and bare pawns stay lower.
///
/// So a piece makes at most 70 moves and a side at most 16 · 70 = 1120 ≤
/// [`MAX_MOVES`] = 1152.
///
/// [`MAX_MOVES`]: crate::MAX_MOVES
pub type Plunder = Family<Vests>;

/// The PlunderChess layer: the squares of the pieces wearing a vest of
/// each kind, `P N B R Q` (either colour).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Vests {
    by_kind: [Bitboard; 5],
    /// Their union: most questions are "is there a vest here at all?".
    all: Bitboard,
}

impl Vests {
    fn new(by_kind: [Bitboard; 5]) -> Vests {
        let all = by_kind.iter().fold(Bitboard::EMPTY, |all, &v| all | v);
        Vests { by_kind, all }
    }

    fn remove(&mut self, sq: Square, color: Color, vest: Role, key: &mut u64) {
        self.by_kind[vest.index()].remove(sq);
        self.all.remove(sq);
        *key ^= zobrist::vest(color, vest, sq);
    }

    fn put(&mut self, sq: Square, color: Color, vest: Role, key: &mut u64) {
        self.by_kind[vest.index()].add(sq);
        self.all.add(sq);
        *key ^= zobrist::vest(color, vest, sq);
    }
}

impl Layer for Vests {
    const VARIANT: Variant = Variant::Plunder;
    const ORDER: Order = Order::PLUNDER;
    type Opts = Opts;
    const BARE: Vests = Vests {
        by_kind: [Bitboard::EMPTY; 5],
        all: Bitboard::EMPTY,
    };

    /// Pawns may stand on their own first rank (a vest move can take them
    /// there); at most 16 pieces a side.
    fn read_board(field: &str) -> Result<(Board, Vests), FenError> {
        let mut vests = [Bitboard::EMPTY; 5];
        let mut hook = |sq: Square, piece: Piece, inner: &str| -> Result<(), FenError> {
            let vest = parse_vest(piece, inner)?;
            vests[vest.index()].add(sq);
            Ok(())
        };
        let board = Board::parse(field, Some(&mut hook))?;
        board.validate(true)?;
        for color in Color::ALL {
            let n = board.by_color(color).count();
            if n > MAX_PIECES_PER_SIDE {
                let key = match color {
                    Color::White => "fen.white_too_many",
                    Color::Black => "fen.black_too_many",
                };
                return Err(FenError::keyed(
                    FenField::Board,
                    key,
                    [
                        ("found", n.to_string()),
                        ("most", MAX_PIECES_PER_SIDE.to_string()),
                    ],
                ));
            }
        }
        Ok((board, Vests::new(vests)))
    }

    fn suffix(&self, board: &Board, sq: Square) -> Option<String> {
        let vest = self.vest_at(sq)?;
        let color = board.piece_at(sq)?.color;
        Some(format!("({})", vest.char_for(color)))
    }

    fn key(&self, board: &Board) -> u64 {
        let mut key = 0;
        for (vests, role) in self.by_kind.into_iter().zip(VEST_ROLES) {
            for sq in vests {
                if let Some(p) = board.piece_at(sq) {
                    key ^= zobrist::vest(p.color, role, sq);
                }
            }
        }
        key
    }

    #[inline]
    fn vested(&self) -> Bitboard {
        self.all
    }

    #[inline]
    fn vest_at(&self, sq: Square) -> Option<Role> {
        // Most pieces wear nothing: one test of the union first.
        if !self.all.contains(sq) {
            return None;
        }
        (0..5)
            .find(|&i| self.by_kind[i].contains(sq))
            .map(|i| VEST_ROLES[i])
    }

    #[inline]
    fn vest_movers(&self) -> Movers {
        let v = &self.by_kind;
        Movers {
            rooks: v[3] | v[4],
            bishops: v[2] | v[4],
            knights: v[1],
            pawns: v[0],
        }
    }

    /// An enemy pawn, or an enemy knight, bishop or king without a vest
    /// (those double-step only with a pawn vest, which the step consumes).
    fn double_stepper(&self, board: &Board, sq: Square, turn: Color) -> Result<(), &'static str> {
        let able = match board.piece_at(sq) {
            Some(p) if p.color != turn => match p.role {
                Role::Pawn => true,
                Role::Knight | Role::Bishop | Role::King => self.vest_at(sq).is_none(),
                _ => false,
            },
            _ => false,
        };
        if able {
            Ok(())
        } else {
            Err("fen.ep_no_piece")
        }
    }

    #[inline]
    fn choices(&self, board: &Board, wearer: Role, kept: Option<Role>) -> Opts {
        gen::choices(self, board, wearer, kept)
    }

    fn king_vest_moves<S: Sink<Opts>>(pos: &Plunder, sink: &mut S, cx: &Ctx, castled: Bitboard) {
        gen::king_vest_moves(pos, sink, cx, castled);
    }

    fn vested_pieces<S: Sink<Opts>>(pos: &Plunder, sink: &mut S, cx: &Ctx) {
        for from in pos.layer.vested() & (cx.ours - Bitboard::from_square(cx.king)) {
            gen::vested_piece(pos, sink, cx, from);
        }
    }

    fn ep_capture<S: Sink<Opts>>(
        pos: &Plunder,
        sink: &mut S,
        from: Square,
        ep: Square,
        base: Move,
    ) {
        gen::ep_capture(pos, sink, from, ep, base);
    }

    #[inline]
    fn lift(&mut self, sq: Square, color: Color, key: &mut u64) -> Option<Role> {
        let vest = self.vest_at(sq)?;
        self.remove(sq, color, vest, key);
        Some(vest)
    }

    /// RULES.md §3.2–3.3: a vest move uses the vest up; a newly taken vest
    /// replaces the one worn; a promoted pawn keeps its vest if its new type
    /// may wear it.
    #[inline]
    fn dress(&mut self, m: Move, role: Role, color: Color, carried: Option<Role>, key: &mut u64) {
        let kept = carried.filter(|&v| !m.is_vest_move() && vest_allowed(v, role));
        if let Some(v) = m.vest().or(kept) {
            self.put(m.to(), color, v, key);
        }
    }

    #[inline]
    fn carry(&mut self, from: Square, to: Square, color: Color, key: &mut u64) {
        if let Some(v) = self.lift(from, color, key) {
            self.put(to, color, v, key);
        }
    }
}

impl Plunder {
    /// The vest worn by the piece on `sq`, if any.
    #[must_use]
    #[inline]
    pub fn vest_at(&self, sq: Square) -> Option<Role> {
        self.layer.vest_at(sq)
    }

    /// Squares of pieces (both colours) wearing a vest of `vest` (P..Q);
    /// empty for other roles.
    #[must_use]
    pub fn vests(&self, vest: Role) -> Bitboard {
        self.layer
            .by_kind
            .get(vest.index())
            .copied()
            .unwrap_or_default()
    }

    /// Squares of all vested pieces.
    #[must_use]
    #[inline]
    pub fn vested(&self) -> Bitboard {
        self.layer.vested()
    }
}

/// Reads the text inside `X(...)`: one vest letter (either case) allowed on X.
fn parse_vest(piece: Piece, inner: &str) -> Result<Role, FenError> {
    let token = format!("{}({inner})", piece.char());
    let mut chars = inner.chars();
    let (Some(c), None) = (chars.next(), chars.next()) else {
        return Err(FenError::keyed(
            FenField::Board,
            "fen.vest_one",
            [("token", token)],
        ));
    };
    let vest = match Role::from_char(c) {
        Some(r) if r.index() < 5 => r,
        _ => {
            return Err(FenError::keyed(
                FenField::Board,
                "fen.vest_letter",
                [("token", token), ("char", c.to_string())],
            ))
        }
    };
    if !vest_allowed(vest, piece.role) {
        return Err(FenError::keyed(
            FenField::Board,
            "fen.vest_forbidden",
            [
                ("token", token),
                ("piece", Role::name(piece.role).to_string()),
                ("vest", Role::name(vest).to_string()),
            ],
        ));
    }
    Ok(vest)
}
