//! PlunderChess (RULES.md §3): chess plus **vests**. A capturing piece may
//! plunder the movement set of the captured piece's type (or the vest it
//! wore) and use it once, as a vest move.
//!
//! Vests live in one bitboard per vest kind (`vests[P N B R Q]`, both colours;
//! the wearer's colour comes from the board), so attack detection and move
//! generation are the chess bitboard code with vested pieces ORed into the
//! mover sets. Legal generation uses checkers and pin masks like [`Chess`];
//! vested sliders are snipers too. En passant, whose capture changes three
//! squares, is checked by recomputing the king's attackers.
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
//!
//! [`Chess`]: crate::Chess

mod gen;
#[cfg(test)]
mod tests;

use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::chess::{self, castle, clear_ep, pass_turn, set_castling, CASTLE_KEEP};
use crate::fen::{self, FenError, FenField};
use crate::moves::{Move, MoveKind, MoveList};
use crate::position::Position;
use crate::types::{Color, Piece, Role, Square, Variant};
use crate::zobrist;
use gen::Counter;

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
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Plunder {
    board: Board,
    /// Squares of pieces wearing a vest of `VEST_ROLES[i]` (either colour).
    vests: [Bitboard; 5],
    turn: Color,
    castling: u8,
    /// Set only when an en-passant capture is among the legal moves
    /// (after the collision rule of RULES.md §3.4).
    ep: Option<Square>,
    halfmoves: u32,
    fullmoves: u32,
    key: u64,
    checkers: Bitboard,
}

impl Plunder {
    /// The placement (roles and colours; vests are separate).
    #[must_use]
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The vest worn by the piece on `sq`, if any.
    #[must_use]
    #[inline]
    pub fn vest_at(&self, sq: Square) -> Option<Role> {
        (0..5)
            .find(|&i| self.vests[i].contains(sq))
            .map(|i| VEST_ROLES[i])
    }

    /// Squares of pieces (both colours) wearing a vest of `vest` (P..Q);
    /// empty for other roles.
    #[must_use]
    pub fn vests(&self, vest: Role) -> Bitboard {
        self.vests.get(vest.index()).copied().unwrap_or_default()
    }

    /// Squares of all vested pieces.
    #[must_use]
    #[inline]
    pub fn vested(&self) -> Bitboard {
        self.vests[0] | self.vests[1] | self.vests[2] | self.vests[3] | self.vests[4]
    }

    /// Castling rights, 4 bits (`fen::WHITE_KING_SIDE` …).
    #[must_use]
    pub fn castling(&self) -> u8 {
        self.castling
    }

    /// The en-passant square, set only when a capture there is legal.
    #[must_use]
    pub fn ep_square(&self) -> Option<Square> {
        self.ep
    }

    /// Pieces giving check.
    #[must_use]
    pub fn checkers(&self) -> Bitboard {
        self.checkers
    }

    /// Pieces of either colour attacking `sq` by an ordinary or a vest move
    /// (RULES.md §3.3 "Check"), given the occupancy `occ`.
    #[inline]
    pub(crate) fn attackers(&self, sq: Square, occ: Bitboard) -> Bitboard {
        let b = &self.board;
        let v = &self.vests;
        let rooks = b.rook_movers() | v[3] | v[4];
        let bishops = b.bishop_movers() | v[2] | v[4];
        let knights = b.by_role(Role::Knight) | v[1];
        let pawnish = b.by_role(Role::Pawn) | v[0];
        (crate::attacks::rook(sq, occ) & rooks)
            | (crate::attacks::bishop(sq, occ) & bishops)
            | (crate::attacks::knight(sq) & knights)
            | (crate::attacks::king(sq) & b.by_role(Role::King))
            | (crate::attacks::pawn(Color::White, sq) & pawnish & b.by_color(Color::Black))
            | (crate::attacks::pawn(Color::Black, sq) & pawnish & b.by_color(Color::White))
    }

    /// `true` if a piece of `by` attacks `sq` with occupancy `occ`.
    #[inline]
    pub(crate) fn attacked(&self, sq: Square, by: Color, occ: Bitboard) -> bool {
        (self.attackers(sq, occ) & self.board.by_color(by)).nonempty()
    }

    fn compute_checkers(&self) -> Bitboard {
        // `attackers` restricted to the enemy and without kings (a king
        // never gives check): a few operations fewer on every make.
        let b = &self.board;
        let v = &self.vests;
        let king = b.king(self.turn);
        let occ = b.occupied();
        let rooks = b.rook_movers() | v[3] | v[4];
        let bishops = b.bishop_movers() | v[2] | v[4];
        let knights = b.by_role(Role::Knight) | v[1];
        let pawnish = b.by_role(Role::Pawn) | v[0];
        ((crate::attacks::rook(king, occ) & rooks)
            | (crate::attacks::bishop(king, occ) & bishops)
            | (crate::attacks::knight(king) & knights)
            | (crate::attacks::pawn(self.turn, king) & pawnish))
            & b.by_color(self.turn.flip())
    }

    /// Sets `ep` to `candidate` if the side to move has an en-passant
    /// capture there among its legal moves.
    fn set_ep_if_legal(&mut self, candidate: Square) {
        let mut c = Counter(0);
        self.ep_moves(&mut c, candidate);
        if c.0 > 0 {
            self.ep = Some(candidate);
            self.key ^= zobrist::ep_file(candidate.file().0);
        }
    }

    fn remove_vest(&mut self, sq: Square, color: Color, vest: Role) {
        self.vests[vest.index()].remove(sq);
        self.key ^= zobrist::vest(color, vest, sq);
    }

    fn put_vest(&mut self, sq: Square, color: Color, vest: Role) {
        self.vests[vest.index()].add(sq);
        self.key ^= zobrist::vest(color, vest, sq);
    }

    /// Removes the enemy piece on `sq` together with its vest.
    fn capture_at(&mut self, sq: Square) {
        let Some(victim) = self.board.piece_at(sq) else {
            return;
        };
        if let Some(v) = self.vest_at(sq) {
            self.remove_vest(sq, victim.color, v);
        }
        self.board.remove(sq, victim);
        self.key ^= zobrist::piece(victim.color, victim.role, sq);
        self.halfmoves = 0;
    }

    fn vest_suffix(&self, sq: Square) -> Option<String> {
        let vest = self.vest_at(sq)?;
        let color = self.board.piece_at(sq)?.color;
        Some(format!("({})", vest.char_for(color)))
    }
}

/// RULES.md §1 for plunder: the en-passant square must be one a double step
/// could have skipped — right rank, empty, the start square empty, and in
/// front of it an enemy pawn or an enemy knight, bishop or king without a
/// vest (those double-step only with a pawn vest, which the step consumes).
fn validate_ep(pos: &Plunder, ep: Square) -> Result<(), FenError> {
    let turn = pos.turn;
    let board = &pos.board;
    let bad = |why: &str| FenError::new(FenField::EnPassant, format!("\"{ep}\": {why}"));
    if ep.rank() != turn.relative_rank(5) {
        return Err(bad("not on the rank a double step skips"));
    }
    if board.occupied().contains(ep) {
        return Err(bad("the square is occupied"));
    }
    let pushed = ep.shift(-turn.forward());
    let able = match board.piece_at(pushed) {
        Some(p) if p.color != turn => match p.role {
            Role::Pawn => true,
            Role::Knight | Role::Bishop | Role::King => pos.vest_at(pushed).is_none(),
            _ => false,
        },
        _ => false,
    };
    if !able {
        return Err(bad(
            "no enemy piece in front of it could have double-stepped",
        ));
    }
    if board.occupied().contains(ep.shift(turn.forward())) {
        return Err(bad("the double step's start square is occupied"));
    }
    Ok(())
}

fn role_name(role: Role) -> &'static str {
    match role {
        Role::Pawn => "pawn",
        Role::Knight => "knight",
        Role::Bishop => "bishop",
        Role::Rook => "rook",
        Role::Queen => "queen",
        Role::King => "king",
        Role::Helgi => "helgi",
    }
}

/// Reads the text inside `X(...)`: one vest letter (either case) allowed on X.
fn parse_vest(piece: Piece, inner: &str) -> Result<Role, FenError> {
    let token = format!("{}({inner})", piece.char());
    let bad = |why: String| FenError::new(FenField::Board, format!("vest \"{token}\": {why}"));
    let mut chars = inner.chars();
    let (Some(c), None) = (chars.next(), chars.next()) else {
        return Err(bad("expected one vest letter (p n b r q)".to_string()));
    };
    let vest = match Role::from_char(c) {
        Some(r) if r.index() < 5 => r,
        _ => return Err(bad(format!("'{c}' is not a vest letter (p n b r q)"))),
    };
    if !vest_allowed(vest, piece.role) {
        return Err(bad(format!(
            "a {} may not wear a {} vest (RULES.md 3.2)",
            role_name(piece.role),
            role_name(vest)
        )));
    }
    Ok(vest)
}

impl Position for Plunder {
    const VARIANT: Variant = Variant::Plunder;
    type Undo = Plunder;

    fn startpos() -> Plunder {
        match Plunder::from_fen(fen::STARTPOS) {
            Ok(pos) => pos,
            Err(e) => unreachable!("start position FEN is valid: {e}"),
        }
    }

    fn from_fen(text: &str) -> Result<Plunder, FenError> {
        let parts = fen::split(text)?;
        let mut vests = [Bitboard::EMPTY; 5];
        let mut hook = |sq: Square, piece: Piece, inner: &str| -> Result<(), FenError> {
            let vest = parse_vest(piece, inner)?;
            vests[vest.index()].add(sq);
            Ok(())
        };
        let board = Board::parse(parts.board, Some(&mut hook))?;
        board.validate(true)?;
        for color in Color::ALL {
            let n = board.by_color(color).count();
            if n > MAX_PIECES_PER_SIDE {
                return Err(FenError::new(
                    FenField::Board,
                    format!(
                        "{n} {} pieces, at most {MAX_PIECES_PER_SIDE} allowed",
                        color.name()
                    ),
                ));
            }
        }
        let mut pos = Plunder {
            board,
            vests,
            turn: parts.turn,
            castling: chess::Chess::clean_castling(&board, parts.castling),
            ep: None,
            halfmoves: parts.halfmoves,
            fullmoves: parts.fullmoves,
            key: 0,
            checkers: Bitboard::EMPTY,
        };
        if pos.attacked(board.king(parts.turn.flip()), parts.turn, board.occupied()) {
            return Err(FenError::new(
                FenField::Side,
                "the side not to move is in check",
            ));
        }
        pos.checkers = pos.compute_checkers();
        pos.key = pos.key_from_scratch();
        if let Some(ep) = parts.ep {
            validate_ep(&pos, ep)?;
            pos.set_ep_if_legal(ep);
        }
        Ok(pos)
    }

    fn fen(&self) -> String {
        fen::write(
            &self.board.write(&|sq| self.vest_suffix(sq)),
            self.turn,
            self.castling,
            self.ep,
            self.halfmoves,
            self.fullmoves,
        )
    }

    #[inline]
    fn turn(&self) -> Color {
        self.turn
    }

    fn halfmoves(&self) -> u32 {
        self.halfmoves
    }

    fn fullmoves(&self) -> u32 {
        self.fullmoves
    }

    #[inline]
    fn key(&self) -> u64 {
        self.key
    }

    fn key_from_scratch(&self) -> u64 {
        let mut key = self.board.key() ^ zobrist::state(self.turn, self.castling, self.ep);
        for (i, &role) in VEST_ROLES.iter().enumerate() {
            for sq in self.vests[i] {
                if let Some(p) = self.board.piece_at(sq) {
                    key ^= zobrist::vest(p.color, role, sq);
                }
            }
        }
        key
    }

    #[inline]
    fn is_check(&self) -> bool {
        self.checkers.nonempty()
    }

    fn legal_moves(&self, moves: &mut MoveList) {
        self.generate(moves);
    }

    fn count_legal(&self) -> u64 {
        let mut c = Counter(0);
        self.generate(&mut c);
        c.0
    }

    fn make(&mut self, m: Move) -> Plunder {
        let prev = *self;
        let us = self.turn;
        let (from, to) = (m.from(), m.to());
        let Some(role) = self.board.role_at(from) else {
            debug_assert!(false, "make: no piece on {from}");
            return prev;
        };
        let mover = Piece::new(us, role);
        clear_ep(&mut self.ep, &mut self.key);
        self.halfmoves += 1;
        if role == Role::Pawn {
            self.halfmoves = 0;
        }
        // The mover's vest travels with it unless this move used it up.
        let old_vest = self.vest_at(from);
        if let Some(v) = old_vest {
            self.remove_vest(from, us, v);
        }
        let mut worn = if m.is_vest_move() { None } else { old_vest };
        match m.kind() {
            MoveKind::Normal | MoveKind::DoublePush => {
                self.capture_at(to);
                self.board.shift(from, to, mover);
                self.key ^= zobrist::piece(us, role, from) ^ zobrist::piece(us, role, to);
                if let Some(promo) = m.promotion() {
                    self.board.remove(to, mover);
                    self.board.put(to, Piece::new(us, promo));
                    self.key ^= zobrist::piece(us, role, to) ^ zobrist::piece(us, promo, to);
                    worn = worn.filter(|&v| vest_allowed(v, promo));
                }
            }
            MoveKind::EnPassant => {
                self.capture_at(to.shift(-us.forward()));
                self.board.shift(from, to, mover);
                self.key ^= zobrist::piece(us, role, from) ^ zobrist::piece(us, role, to);
            }
            MoveKind::Castle => {
                let cs = castle(&mut self.board, &mut self.key, us, from, to);
                if let Some(v) = self.vest_at(cs.rook_from) {
                    self.remove_vest(cs.rook_from, us, v);
                    self.put_vest(cs.rook_to, us, v);
                }
            }
        }
        if let Some(v) = m.vest() {
            worn = Some(v);
        }
        if let Some(v) = worn {
            self.put_vest(to, us, v);
        }
        let rights = self.castling & CASTLE_KEEP[from.index()] & CASTLE_KEEP[to.index()];
        set_castling(&mut self.castling, &mut self.key, rights);
        pass_turn(&mut self.turn, &mut self.fullmoves, &mut self.key);
        self.checkers = self.compute_checkers();
        if m.kind() == MoveKind::DoublePush {
            self.set_ep_if_legal(from.shift(us.forward()));
        }
        prev
    }

    #[inline]
    fn unmake(&mut self, _: Move, undo: Plunder) {
        *self = undo;
    }

    fn make_null(&mut self) -> Plunder {
        let prev = *self;
        clear_ep(&mut self.ep, &mut self.key);
        self.turn = self.turn.flip();
        self.key ^= zobrist::side();
        self.halfmoves += 1;
        self.checkers = self.compute_checkers();
        prev
    }

    fn unmake_null(&mut self, undo: Plunder) {
        *self = undo;
    }

    fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.board.piece_at(sq)
    }

    /// RULES.md §1: only with no vest on the board (a vest can mate).
    fn insufficient_material(&self) -> bool {
        self.vested().is_empty() && chess::insufficient_material(&self.board)
    }

    fn pretty(&self) -> String {
        self.board.diagram(&|sq| self.vest_suffix(sq))
    }
}
