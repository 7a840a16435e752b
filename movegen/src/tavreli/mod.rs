//! Tavreli (RULES.md §4): towers of pieces of both colours on each square,
//! moves of the top k pieces, automatic promotion, en passant that carries
//! the whole double-stepped tower, castling, and make/unmake with a
//! fixed-size undo record (a move changes at most four towers).
//!
//! ```
//! use movegen::{perft, Position, Tavreli};
//! let mut pos = Tavreli::startpos();
//! assert_eq!(perft(&mut pos, 2), 1519);
//! let m = pos.parse_move("b1d2").unwrap(); // the knight onto its own pawn
//! pos.make(m);
//! assert_eq!(pos.fen(), "rnbqkbnr/pppppppp/8/8/8/8/PPP(PN)PPPP/R1BQKBNR b KQkq - 1 1");
//! ```
//!
//! `MAX_MOVES` bound: a move is (own tower, k, destination). Every top
//! reaches at most 35 destinations (a helgi in the centre: 27 queen squares
//! plus 8 knight squares; a king 8 + 2 castlings; a pawn 4), and the heights
//! of the mover's towers sum to at most 31 (32 pieces, the enemy king stands
//! on top of a tower of its own). So a position has at most 31 · 35 = 1085
//! legal moves, below `MAX_MOVES` = 1152; the test
//! `move_list_capacity_worst_case` builds a tall tower under a helgi in the
//! open that comes close.

mod describe;
mod fen;
mod movegen;
mod tower;

pub use tower::{home_piece, Tower, TowerPiece, TOWER_CAPACITY};

use crate::bitboard::Bitboard;
use crate::chess::{clear_ep, pass_turn, set_castling, CASTLES};
use crate::fen::{self as fenfmt, FenError, FenField};
use crate::moves::{Move, MoveKind, MoveList};
use crate::position::{MoveError, Position};
use crate::types::{Color, File, Piece, Rank, Role, Square};
use crate::zobrist;
use crate::Variant;
use movegen::{Plan, Tops};

/// Key of the piece with `code` at `depth` of the tower on `sq`.
#[inline]
fn piece_key(sq: Square, depth: u32, code: u8) -> u64 {
    zobrist::splitmix(
        0x7A5E_11B0_0000_0000 ^ (sq.index() as u64) << 10 ^ u64::from(depth) << 5 ^ u64::from(code),
    )
}

/// XOR of the keys of the pieces at the depths in `mask`.
#[inline]
fn depths_key(sq: Square, t: Tower, mut mask: u32) -> u64 {
    let mut key = 0;
    while mask != 0 {
        let d = mask.trailing_zeros();
        if let Some(p) = t.get(d as usize) {
            key ^= piece_key(sq, d, p.code());
        }
        mask &= mask - 1;
    }
    key
}

/// The key change of `group`'s pieces moving from `from` (bottom piece at
/// depth `lifted`) to `to` (bottom piece at depth `landed`), codes unchanged.
#[inline]
fn group_key(from: Square, lifted: usize, to: Square, landed: usize, group: Tower) -> u64 {
    let (lifted, landed) = (lifted as u32, landed as u32);
    group.iter().zip(0..).fold(0, |key, (p, i)| {
        key ^ piece_key(from, lifted + i, p.code()) ^ piece_key(to, landed + i, p.code())
    })
}

/// The key change of the piece at `depth` on `sq` turning from `old` into `new`.
#[inline]
fn changed_key(sq: Square, depth: usize, old: Option<TowerPiece>, new: Option<TowerPiece>) -> u64 {
    match (old, new) {
        (Some(a), Some(b)) if a != b => {
            piece_key(sq, depth as u32, a.code()) ^ piece_key(sq, depth as u32, b.code())
        }
        _ => 0,
    }
}

/// The whole-board key of a tower (all its pieces).
fn tower_key(sq: Square, t: Tower) -> u64 {
    depths_key(sq, t, t.diff_mask(Tower::EMPTY))
}

/// A Tavreli position.
#[derive(Clone, PartialEq, Eq)]
pub struct Tavreli {
    towers: [Tower; 64],
    tops: Tops,
    turn: Color,
    /// The enemy tops attacking the king of the side to move: kept because
    /// the search asks `is_check` about twice a node and move generation
    /// needs them too; `make` finds them once.
    checkers: Bitboard,
    castling: u8,
    /// Set only when an en-passant capture is legal (RULES.md §1).
    ep: Option<Square>,
    halfmoves: u32,
    fullmoves: u32,
    key: u64,
}

/// What `make` saved: the two towers it replaced that the move cannot
/// rebuild (from and to; en passant: from and the double-stepped tower;
/// castling: king and rook — the squares they go to were empty) and the
/// irreversible state.
#[derive(Clone, Copy, Debug)]
pub struct TavreliUndo {
    towers: [Tower; 2],
    checkers: Bitboard,
    castling: u8,
    ep: Option<Square>,
    halfmoves: u32,
    fullmoves: u32,
    key: u64,
}

impl std::fmt::Debug for Tavreli {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Tavreli({})", self.fen())
    }
}

impl Tavreli {
    /// The tower on a square.
    #[must_use]
    #[inline]
    pub fn tower(&self, sq: Square) -> Tower {
        self.towers[sq.index()]
    }

    /// Squares whose tower belongs to `color` (its top is `color`'s).
    #[must_use]
    #[inline]
    pub fn owned(&self, color: Color) -> Bitboard {
        self.tops.color[color.index()]
    }

    /// Squares whose top moves as `role` (either colour; a promoted pawn
    /// counts as its promotion piece).
    #[must_use]
    #[inline]
    pub fn tops_of(&self, role: Role) -> Bitboard {
        self.tops.role[role.index()]
    }

    /// The legal moves found the slow way, by the trial of every
    /// pseudo-legal move (play its towers on the top bitboards, is the own
    /// king attacked?), in the same order as `legal_moves`: the reference
    /// the fast generator is tested and benchmarked against.
    #[doc(hidden)]
    pub fn legal_moves_by_trial(&self, moves: &mut MoveList) {
        self.generate_by_trial(&mut |m| moves.push(m));
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

    /// `true` if a tower of `by` attacks `sq` (RULES.md §4.5).
    #[must_use]
    pub fn is_attacked(&self, sq: Square, by: Color) -> bool {
        self.tops.attacked(sq, by)
    }

    /// Puts `t` on `sq`, keeping the top bitboards (not the key) in step.
    #[inline]
    fn put(&mut self, sq: Square, t: Tower) {
        self.replace(sq, self.towers[sq.index()], t);
    }

    /// `put` when the caller already holds the tower `old` on `sq`.
    #[inline]
    fn replace(&mut self, sq: Square, old: Tower, new: Tower) {
        self.tops.set(sq, old.top(), new.top());
        self.towers[sq.index()] = new;
    }

    /// Plays a move that is neither en passant nor castling straight onto
    /// the board (the same towers as `plan`, without building one): the
    /// top k pieces leave `from` and land on `to`, the two new tops promote
    /// and a covered promoted pawn demotes (RULES.md §4.1, §4.3). Returns
    /// (capture, moved group topped by a pawn).
    #[inline]
    fn move_group(&mut self, m: Move, undo: &mut TavreliUndo) -> (bool, bool) {
        let (from, to) = (m.from(), m.to());
        let source = self.towers[from.index()];
        let dest = self.towers[to.index()];
        undo.towers = [source, dest];
        let h = source.len();
        let k = match m.split() {
            0 => h,
            k => usize::from(k),
        };
        let (mut bottom, group) = source.split(k);
        let uncovered = bottom.top();
        bottom.promote_top_on(from);
        let mut landed = dest;
        landed.place(group);
        landed.promote_top_on(to);
        let d = dest.len();
        // At most 32 pieces on the board, so the group always fits.
        debug_assert_eq!(landed.len(), d + k);
        let mut key = group_key(from, h - k, to, d, group);
        if k < h {
            key ^= changed_key(from, h - k - 1, uncovered, bottom.top());
        }
        key ^= changed_key(to, d + k - 1, group.top(), landed.top());
        if d > 0 {
            key ^= changed_key(to, d - 1, dest.top(), landed.get(d - 1));
        }
        self.key ^= key;
        self.replace(from, source, bottom);
        self.replace(to, dest, landed);
        let capture = dest.top().is_some_and(|p| p.color() != self.turn);
        (capture, group.top().is_some_and(TowerPiece::is_pawn))
    }

    /// The enemy tops attacking the king of the side to move.
    #[inline]
    fn find_checkers(&self) -> Bitboard {
        let king = self.tops.king(self.turn);
        self.tops
            .attackers(king, self.turn.flip(), self.tops.occupied())
    }

    /// The enemy tops attacking the king of the side to move (kept up to date by `make`).
    #[inline]
    pub(super) fn checkers(&self) -> Bitboard {
        self.checkers
    }

    /// Restores the state `make` saved besides the towers.
    #[inline]
    fn restore(&mut self, undo: &TavreliUndo) {
        self.checkers = undo.checkers;
        self.castling = undo.castling;
        self.ep = undo.ep;
        self.halfmoves = undo.halfmoves;
        self.fullmoves = undo.fullmoves;
        self.key = undo.key;
    }

    /// Applies a plan, updating the key by the pieces that changed only.
    fn apply(&mut self, plan: &Plan) {
        for i in 0..plan.len {
            let (sq, new) = (plan.squares[i], plan.towers[i]);
            let old = self.towers[sq.index()];
            let mask = old.diff_mask(new);
            self.key ^= depths_key(sq, old, mask) ^ depths_key(sq, new, mask);
            self.put(sq, new);
        }
    }

    /// Drops castling rights unless king and rook stand alone on their
    /// start squares (RULES.md §1, §4.5).
    fn clean_castling(towers: &[Tower; 64], rights: u8) -> u8 {
        let mut kept = 0;
        for (color, sides) in Color::ALL.into_iter().zip(CASTLES) {
            for cs in sides {
                let alone = |sq: Square, role| {
                    let t = towers[sq.index()];
                    t.len() == 1 && t.top() == Some(TowerPiece::new(color, role))
                };
                if alone(cs.king_from, Role::King) && alone(cs.rook_from, Role::Rook) {
                    kept |= cs.right & rights;
                }
            }
        }
        kept
    }

    /// Sets `ep` if the side to move has a legal capture there.
    fn set_ep_if_legal(&mut self, candidate: Square) {
        if self.ep_capture_exists(candidate) {
            self.ep = Some(candidate);
            self.key ^= zobrist::ep_file(candidate.file().0);
        }
    }

    /// RULES.md §1: the en-passant square must be one a double step of the
    /// opponent could just have skipped: the right rank, empty, and in front
    /// of it an enemy tower topped by an unpromoted pawn of that file's home
    /// promotion piece (only those double-step, §4.2).
    fn validate_ep(&self, ep: Square) -> Result<(), FenError> {
        let bad = |key: &'static str| fenfmt::ep_error(ep, key);
        let turn = self.turn;
        if ep.rank() != turn.relative_rank(5) {
            return Err(bad("fen.ep_rank"));
        }
        if !self.towers[ep.index()].is_empty() {
            return Err(bad("fen.ep_occupied"));
        }
        let pushed = ep.shift(-turn.forward());
        let top = self.towers[pushed.index()].top();
        let ok = top.is_some_and(|p| {
            p.is_pawn() && p.color() != turn && p.promotion() == Some(home_piece(ep.file()))
        });
        if !ok {
            return Err(bad("fen.ep_no_tower"));
        }
        Ok(())
    }

    fn count_pieces(towers: &[Tower; 64]) -> usize {
        towers.iter().map(|t| t.len()).sum()
    }
}

impl Position for Tavreli {
    const VARIANT: Variant = Variant::Tavreli;
    type Undo = TavreliUndo;

    fn startpos() -> Tavreli {
        match Tavreli::from_fen(fenfmt::STARTPOS) {
            Ok(pos) => pos,
            Err(e) => unreachable!("start position FEN is valid: {e}"),
        }
    }

    fn from_fen(text: &str) -> Result<Tavreli, FenError> {
        let parts = fenfmt::split(text)?;
        let towers = fen::parse_board(parts.board)?;
        let pieces = Tavreli::count_pieces(&towers);
        if pieces > TOWER_CAPACITY {
            // Nothing enters the board after the 32 pieces of the start, and
            // a bigger set could stack into a tower over the capacity.
            return Err(FenError::keyed(
                FenField::Board,
                "fen.tower_pieces",
                [
                    ("found", pieces.to_string()),
                    ("most", TOWER_CAPACITY.to_string()),
                ],
            ));
        }
        let mut pos = Tavreli {
            towers: [Tower::EMPTY; 64],
            tops: Tops::default(),
            turn: parts.turn,
            checkers: Bitboard::EMPTY,
            castling: Tavreli::clean_castling(&towers, parts.castling),
            ep: None,
            halfmoves: parts.halfmoves,
            fullmoves: parts.fullmoves,
            key: 0,
        };
        for sq in Square::all() {
            pos.put(sq, towers[sq.index()]);
        }
        for color in Color::ALL {
            let n = pos.tops.pieces(color, Role::King).count();
            if n != 1 {
                let key = match color {
                    Color::White => "fen.tower_white_kings",
                    Color::Black => "fen.tower_black_kings",
                };
                return Err(FenError::keyed(
                    FenField::Board,
                    key,
                    [("found", n.to_string()), ("text", parts.board.to_string())],
                ));
            }
        }
        let them = parts.turn.flip();
        if pos.tops.attacked(pos.tops.king(them), parts.turn) {
            return Err(FenError::keyed(FenField::Side, "fen.side_in_check", []));
        }
        pos.key = pos.key_from_scratch();
        pos.checkers = pos.find_checkers();
        if let Some(ep) = parts.ep {
            pos.validate_ep(ep)?;
            pos.set_ep_if_legal(ep);
        }
        Ok(pos)
    }

    fn fen(&self) -> String {
        fenfmt::write(
            &fen::write_board(&self.towers),
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
        let mut key = zobrist::state(self.turn, self.castling, self.ep);
        for sq in Square::all() {
            key ^= tower_key(sq, self.towers[sq.index()]);
        }
        key
    }

    #[inline]
    fn is_check(&self) -> bool {
        self.checkers.nonempty()
    }

    fn legal_moves(&self, moves: &mut MoveList) {
        self.generate(&mut |m| moves.push(m));
    }

    fn tactical_moves(&self, moves: &mut MoveList) {
        self.generate_captures(&mut |m| moves.push(m));
    }

    fn count_legal(&self) -> u64 {
        self.count()
    }

    fn make(&mut self, m: Move) -> TavreliUndo {
        let mut undo = TavreliUndo {
            towers: [Tower::EMPTY; 2],
            checkers: self.checkers,
            castling: self.castling,
            ep: self.ep,
            halfmoves: self.halfmoves,
            fullmoves: self.fullmoves,
            key: self.key,
        };
        let us = self.turn;
        let double_onto_empty =
            m.kind() == MoveKind::DoublePush && self.towers[m.to().index()].is_empty();
        clear_ep(&mut self.ep, &mut self.key);
        let (capture, pawn) = match m.kind() {
            MoveKind::Normal | MoveKind::DoublePush => self.move_group(m, &mut undo),
            MoveKind::EnPassant | MoveKind::Castle => {
                let plan = self.plan(m);
                // The plan's squares are from, (pushed | to), …: see `plan`.
                let (a, b) = (plan.squares[0], plan.squares[1]);
                let b = if m.kind() == MoveKind::Castle {
                    plan.squares[2]
                } else {
                    b
                };
                undo.towers = [self.towers[a.index()], self.towers[b.index()]];
                self.apply(&plan);
                (plan.capture, plan.pawn)
            }
        };
        self.halfmoves = if capture || pawn {
            0
        } else {
            self.halfmoves + 1
        };
        let rights = self.rights_after(m.from(), m.to());
        set_castling(&mut self.castling, &mut self.key, rights);
        pass_turn(&mut self.turn, &mut self.fullmoves, &mut self.key);
        self.checkers = self.find_checkers();
        if double_onto_empty {
            self.set_ep_if_legal(m.from().shift(us.forward()));
        }
        undo
    }

    fn unmake(&mut self, m: Move, undo: TavreliUndo) {
        self.turn = self.turn.flip();
        let (from, to) = (m.from(), m.to());
        let [first, second] = undo.towers;
        match m.kind() {
            MoveKind::Normal | MoveKind::DoublePush => {
                self.put(from, first);
                self.put(to, second);
            }
            MoveKind::EnPassant => {
                self.put(to, Tower::EMPTY);
                self.put(from, first);
                self.put(to.shift(-self.turn.forward()), second);
            }
            MoveKind::Castle => {
                let cs = CASTLES[self.turn.index()][usize::from(to.file() < from.file())];
                self.put(cs.king_to, Tower::EMPTY);
                self.put(cs.rook_to, Tower::EMPTY);
                self.put(cs.king_from, first);
                self.put(cs.rook_from, second);
            }
        }
        self.restore(&undo);
    }

    fn make_null(&mut self) -> TavreliUndo {
        let undo = TavreliUndo {
            towers: [Tower::EMPTY; 2],
            checkers: self.checkers,
            castling: self.castling,
            ep: self.ep,
            halfmoves: self.halfmoves,
            fullmoves: self.fullmoves,
            key: self.key,
        };
        clear_ep(&mut self.ep, &mut self.key);
        pass_turn(&mut self.turn, &mut self.fullmoves, &mut self.key);
        self.checkers = self.find_checkers();
        self.halfmoves += 1;
        undo
    }

    fn unmake_null(&mut self, undo: TavreliUndo) {
        self.turn = self.turn.flip();
        self.restore(&undo);
    }

    fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.towers[sq.index()]
            .top()
            .map(|p| Piece::new(p.color(), p.role()))
    }

    fn insufficient_material(&self) -> bool {
        false
    }

    fn pretty(&self) -> String {
        let mut s = String::new();
        let mut towers = Vec::new();
        for rank in (0..8).rev() {
            s.push_str(&format!(" {} ", rank + 1));
            for file in 0..8 {
                let sq = Square::from_coords(File(file), Rank(rank));
                let t = self.towers[sq.index()];
                match t.top() {
                    None => s.push_str(" ."),
                    Some(p) => {
                        s.push(' ');
                        s.push(p.role().char_for(p.color()));
                        if t.len() > 1 {
                            towers.push(format!("{sq}: {}", t.token(File(file))));
                        }
                    }
                }
            }
            s.push('\n');
        }
        s.push_str("    a b c d e f g h\n");
        if !towers.is_empty() {
            s.push_str(&format!("Towers (bottom to top): {}\n", towers.join(", ")));
        }
        // The FEN and key are the caller's to add (`d` prints them once for
        // every variant).
        s
    }

    /// Reads `<from><to>` (whole tower) or `<from><to>:<k>`; `:<height>` is
    /// accepted as the whole-tower move (RULES.md §4.6).
    fn parse_move(&self, s: &str) -> Result<Move, MoveError> {
        let syntax = || MoveError::Syntax(s.to_string());
        if !s.is_ascii() || s.len() < 4 {
            return Err(syntax());
        }
        let (Some(from), Some(to)) = (Square::parse(&s[0..2]), Square::parse(&s[2..4])) else {
            return Err(syntax());
        };
        let k = match &s[4..] {
            "" => 0,
            rest => {
                let digits = rest.strip_prefix(':').ok_or_else(syntax)?;
                if digits.is_empty()
                    || digits.len() > 2
                    || !digits.bytes().all(|b| b.is_ascii_digit())
                {
                    return Err(syntax());
                }
                digits.parse::<usize>().map_err(|_| syntax())?
            }
        };
        let h = self.towers[from.index()].len();
        let split = if k == h { 0 } else { k };
        if split > h || (k == 0 && !s[4..].is_empty()) {
            return Err(MoveError::Illegal(s.to_string()));
        }
        let mut moves = MoveList::new();
        self.legal_moves(&mut moves);
        moves
            .iter()
            .copied()
            .find(|m| m.from() == from && m.to() == to && usize::from(m.split()) == split)
            .ok_or_else(|| MoveError::Illegal(s.to_string()))
    }
}

#[cfg(test)]
mod tests;
