//! Standard chess: `Chess` position, legal move generation with pins and
//! checkers, copy-make.

use crate::attacks;
use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::fen::{self, FenError, FenField};
use crate::moves::{Move, MoveKind, MoveList};
use crate::position::Position;
use crate::types::{Color, Piece, Rank, Role, Square, Variant};
use crate::zobrist;

/// Castling data of one side and wing: the squares involved.
#[derive(Clone, Copy)]
pub(crate) struct CastleSide {
    /// The right bit (`fen::WHITE_KING_SIDE` …).
    pub right: u8,
    pub king_from: Square,
    pub king_to: Square,
    pub rook_from: Square,
    pub rook_to: Square,
}

/// [colour][0 = king side, 1 = queen side].
pub(crate) const CASTLES: [[CastleSide; 2]; 2] = [
    [
        CastleSide {
            right: fen::WHITE_KING_SIDE,
            king_from: Square::E1,
            king_to: Square::G1,
            rook_from: Square::H1,
            rook_to: Square::F1,
        },
        CastleSide {
            right: fen::WHITE_QUEEN_SIDE,
            king_from: Square::E1,
            king_to: Square::C1,
            rook_from: Square::A1,
            rook_to: Square::D1,
        },
    ],
    [
        CastleSide {
            right: fen::BLACK_KING_SIDE,
            king_from: Square::E8,
            king_to: Square::G8,
            rook_from: Square::H8,
            rook_to: Square::F8,
        },
        CastleSide {
            right: fen::BLACK_QUEEN_SIDE,
            king_from: Square::E8,
            king_to: Square::C8,
            rook_from: Square::A8,
            rook_to: Square::D8,
        },
    ],
];

/// Rights kept when a move touches a square: a king or rook leaving its
/// start square, or anything landing on a rook's start square, loses them.
pub(crate) const fn castle_keep_mask() -> [u8; 64] {
    let mut m = [15u8; 64];
    m[Square::E1.index()] = 15 & !(fen::WHITE_KING_SIDE | fen::WHITE_QUEEN_SIDE);
    m[Square::H1.index()] = 15 & !fen::WHITE_KING_SIDE;
    m[Square::A1.index()] = 15 & !fen::WHITE_QUEEN_SIDE;
    m[Square::E8.index()] = 15 & !(fen::BLACK_KING_SIDE | fen::BLACK_QUEEN_SIDE);
    m[Square::H8.index()] = 15 & !fen::BLACK_KING_SIDE;
    m[Square::A8.index()] = 15 & !fen::BLACK_QUEEN_SIDE;
    m
}

pub(crate) static CASTLE_KEEP: [u8; 64] = castle_keep_mask();

/// Moves king and rook for `us` castling with the king from `from` to `to`,
/// keeping `key` in step; returns the castling's squares.
#[inline]
pub(crate) fn castle(
    board: &mut Board,
    key: &mut u64,
    us: Color,
    from: Square,
    to: Square,
) -> CastleSide {
    let cs = CASTLES[us.index()][usize::from(to.file() < from.file())];
    board.shift(from, to, Piece::new(us, Role::King));
    board.shift(cs.rook_from, cs.rook_to, Piece::new(us, Role::Rook));
    *key ^= zobrist::piece(us, Role::King, from)
        ^ zobrist::piece(us, Role::King, to)
        ^ zobrist::piece(us, Role::Rook, cs.rook_from)
        ^ zobrist::piece(us, Role::Rook, cs.rook_to);
    cs
}

/// Drops the en-passant square with its key: any move, null or not, ends the
/// chance to capture en passant.
#[inline]
pub(crate) fn clear_ep(ep: &mut Option<Square>, key: &mut u64) {
    if let Some(sq) = ep.take() {
        *key ^= zobrist::ep_file(sq.file().0);
    }
}

/// Sets the castling rights to `rights`, keeping the key in step.
#[inline]
pub(crate) fn set_castling(castling: &mut u8, key: &mut u64, rights: u8) {
    if rights != *castling {
        *key ^= zobrist::castling(*castling) ^ zobrist::castling(rights);
        *castling = rights;
    }
}

/// Gives the move to the other side after a real move of `turn`: black's
/// move completes a full move.
#[inline]
pub(crate) fn pass_turn(turn: &mut Color, fullmoves: &mut u32, key: &mut u64) {
    if *turn == Color::Black {
        *fullmoves += 1;
    }
    *turn = turn.flip();
    *key ^= zobrist::side();
}

/// Where moves go: a list, or a counter that never enumerates (perft's bulk
/// count adds popcounts instead of pushing moves).
pub(crate) trait Sink {
    /// Moves from `from` to each of `targets`; those on `them` capture.
    fn targets(&mut self, from: Square, targets: Bitboard, them: Bitboard);
    /// Pawn moves to each of `targets` from `target − delta`.
    fn pawns(&mut self, targets: Bitboard, delta: i8, kind: MoveKind, capture: bool);
    /// Promotions (four each) to each of `targets` from `target − delta`.
    fn promotions(&mut self, targets: Bitboard, delta: i8, capture: bool);
    /// One move.
    fn one(&mut self, m: Move);
}

impl Sink for MoveList {
    #[inline]
    fn targets(&mut self, from: Square, targets: Bitboard, them: Bitboard) {
        for to in targets & them {
            self.push(Move::capture(from, to));
        }
        for to in targets - them {
            self.push(Move::quiet(from, to));
        }
    }

    #[inline]
    fn pawns(&mut self, targets: Bitboard, delta: i8, kind: MoveKind, capture: bool) {
        for to in targets {
            let m = Move::new(to.shift(-delta), to, kind);
            self.push(if capture { m.with_capture() } else { m });
        }
    }

    #[inline]
    fn promotions(&mut self, targets: Bitboard, delta: i8, capture: bool) {
        for to in targets {
            let m = Move::new(to.shift(-delta), to, MoveKind::Normal);
            let m = if capture { m.with_capture() } else { m };
            for role in [Role::Queen, Role::Rook, Role::Bishop, Role::Knight] {
                self.push(m.with_promotion(role));
            }
        }
    }

    #[inline]
    fn one(&mut self, m: Move) {
        self.push(m);
    }
}

/// Bulk counter.
pub(crate) struct Counter(pub u64);

impl Sink for Counter {
    #[inline]
    fn targets(&mut self, _: Square, targets: Bitboard, _: Bitboard) {
        self.0 += u64::from(targets.count());
    }
    #[inline]
    fn pawns(&mut self, targets: Bitboard, _: i8, _: MoveKind, _: bool) {
        self.0 += u64::from(targets.count());
    }
    #[inline]
    fn promotions(&mut self, targets: Bitboard, _: i8, _: bool) {
        self.0 += 4 * u64::from(targets.count());
    }
    #[inline]
    fn one(&mut self, _: Move) {
        self.0 += 1;
    }
}

#[inline]
pub(crate) const fn shift(bb: Bitboard, delta: i8) -> Bitboard {
    if delta >= 0 {
        Bitboard(bb.0 << delta)
    } else {
        Bitboard(bb.0 >> -delta)
    }
}

pub(crate) const NOT_FILE_A: Bitboard = Bitboard(!0x0101_0101_0101_0101);
pub(crate) const NOT_FILE_H: Bitboard = Bitboard(!0x8080_8080_8080_8080);

/// A standard chess position.
///
/// ```
/// use movegen::{Chess, Position, perft};
/// let mut pos = Chess::startpos();
/// assert_eq!(perft(&mut pos, 3), 8902);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Chess {
    board: Board,
    turn: Color,
    castling: u8,
    /// Set only when an en-passant capture is legal (RULES.md §1).
    ep: Option<Square>,
    halfmoves: u32,
    fullmoves: u32,
    key: u64,
    checkers: Bitboard,
}

impl Chess {
    /// The placement.
    #[must_use]
    pub fn board(&self) -> &Board {
        &self.board
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

    fn compute_checkers(&self) -> Bitboard {
        let king = self.board.king(self.turn);
        self.board.attackers(king, self.board.occupied()) & self.board.by_color(self.turn.flip())
    }

    /// `true` if a piece of `by` attacks `sq` with occupancy `occupied`.
    fn attacked(&self, sq: Square, by: Color, occupied: Bitboard) -> bool {
        (self.board.attackers(sq, occupied) & self.board.by_color(by)).nonempty()
    }

    /// Drops castling rights the placement contradicts.
    pub(crate) fn clean_castling(board: &Board, rights: u8) -> u8 {
        let mut kept = 0;
        for (color, sides) in Color::ALL.into_iter().zip(CASTLES) {
            for cs in sides {
                if board.piece_at(cs.king_from) == Some(Piece::new(color, Role::King))
                    && board.piece_at(cs.rook_from) == Some(Piece::new(color, Role::Rook))
                {
                    kept |= cs.right & rights;
                }
            }
        }
        kept
    }

    /// `true` if the side to move may capture en passant onto `ep` with the
    /// pawn on `from`: the king must not be attacked afterwards.
    fn ep_capture_legal(&self, from: Square, ep: Square) -> bool {
        let us = self.turn;
        let captured = ep.shift(-us.forward());
        let occ =
            (self.board.occupied() - Bitboard::from_square(from) - Bitboard::from_square(captured))
                | Bitboard::from_square(ep);
        let king = self.board.king(us);
        let them = self.board.by_color(us.flip()) - Bitboard::from_square(captured);
        (self.board.attackers(king, occ) & them).is_empty()
    }

    /// Sets `ep` to `candidate` if the side to move has a legal capture there.
    fn set_ep_if_legal(&mut self, candidate: Square) {
        let us = self.turn;
        let capturers = attacks::pawn(us.flip(), candidate) & self.board.pieces(us, Role::Pawn);
        if capturers
            .into_iter()
            .any(|from| self.ep_capture_legal(from, candidate))
        {
            self.ep = Some(candidate);
            self.key ^= zobrist::ep_file(candidate.file().0);
        }
    }

    fn generate<S: Sink>(&self, sink: &mut S) {
        let us = self.turn;
        let them_color = us.flip();
        let b = &self.board;
        let ours = b.by_color(us);
        let them = b.by_color(them_color);
        let occ = ours | them;
        let king = b.king(us);

        // King moves: the king itself must not shield the squares behind it.
        let occ_without_king = occ - Bitboard::from_square(king);
        let mut king_targets = attacks::king(king) - ours;
        for to in king_targets {
            if self.attacked(to, them_color, occ_without_king) {
                king_targets.remove(to);
            }
        }
        sink.targets(king, king_targets, them);

        let checkers = self.checkers;
        if checkers.more_than_one() {
            return;
        }
        let target = match checkers.first() {
            Some(c) => attacks::between(king, c) | checkers,
            None => !ours,
        };

        // Pins: an own piece alone between the king and an enemy slider.
        let snipers = (attacks::rook(king, them) & b.rook_movers() & them)
            | (attacks::bishop(king, them) & b.bishop_movers() & them);
        let mut pinned = Bitboard::EMPTY;
        for s in snipers {
            let blockers = attacks::between(king, s) & occ;
            if !blockers.more_than_one() {
                pinned |= blockers & ours;
            }
        }

        for from in b.pieces(us, Role::Knight) - pinned {
            sink.targets(from, attacks::knight(from) & target, them);
        }
        for from in b.bishop_movers() & ours {
            let mut t = attacks::bishop(from, occ) & target;
            if pinned.contains(from) {
                t &= attacks::line(king, from);
            }
            sink.targets(from, t, them);
        }
        for from in b.rook_movers() & ours {
            let mut t = attacks::rook(from, occ) & target;
            if pinned.contains(from) {
                t &= attacks::line(king, from);
            }
            sink.targets(from, t, them);
        }

        let pawns = b.pieces(us, Role::Pawn);
        self.pawn_moves(sink, pawns - pinned, Bitboard::FULL, target, them, occ);
        for from in pawns & pinned {
            self.pawn_moves(
                sink,
                Bitboard::from_square(from),
                attacks::line(king, from),
                target,
                them,
                occ,
            );
        }

        if let Some(ep) = self.ep {
            for from in attacks::pawn(them_color, ep) & pawns {
                if self.ep_capture_legal(from, ep) {
                    sink.one(Move::new(from, ep, MoveKind::EnPassant).with_capture());
                }
            }
        }

        if checkers.is_empty() {
            for cs in CASTLES[us.index()] {
                if self.castling & cs.right != 0
                    && (attacks::between(cs.king_from, cs.rook_from) & occ).is_empty()
                    && !(attacks::between(cs.king_from, cs.king_to)
                        | Bitboard::from_square(cs.king_to))
                    .into_iter()
                    .any(|sq| self.attacked(sq, them_color, occ))
                {
                    sink.one(Move::new(cs.king_from, cs.king_to, MoveKind::Castle));
                }
            }
        }
    }

    fn pawn_moves<S: Sink>(
        &self,
        sink: &mut S,
        pawns: Bitboard,
        pin_line: Bitboard,
        target: Bitboard,
        them: Bitboard,
        occ: Bitboard,
    ) {
        let us = self.turn;
        let fwd = us.forward();
        let last = Bitboard::rank(us.relative_rank(7));
        let third = Bitboard::rank(us.relative_rank(2));
        let empty = !occ;
        let mask = target & pin_line;

        let single = shift(pawns, fwd) & empty;
        let double = shift(single & third, fwd) & empty & mask;
        let single = single & mask;
        sink.pawns(single - last, fwd, MoveKind::Normal, false);
        sink.promotions(single & last, fwd, false);
        sink.pawns(double, 2 * fwd, MoveKind::DoublePush, false);

        for (delta, file_mask) in [(fwd - 1, NOT_FILE_H), (fwd + 1, NOT_FILE_A)] {
            // Shifting by fwd−1 moves one file left for either colour, and a
            // pawn on the a-file wraps to the h-file: masking the destination
            // file drops the wrapped squares (likewise fwd+1 and the a-file).
            let caps = shift(pawns, delta) & file_mask & them & mask;
            sink.pawns(caps - last, delta, MoveKind::Normal, true);
            sink.promotions(caps & last, delta, true);
        }
    }
}

impl Position for Chess {
    const VARIANT: Variant = Variant::Chess;
    type Undo = Chess;

    fn startpos() -> Chess {
        match Chess::from_fen(fen::STARTPOS) {
            Ok(pos) => pos,
            Err(e) => unreachable!("start position FEN is valid: {e}"),
        }
    }

    fn from_fen(text: &str) -> Result<Chess, FenError> {
        let parts = fen::split(text)?;
        let board = Board::parse(parts.board, None)?;
        board.validate(false)?;
        let castling = Chess::clean_castling(&board, parts.castling);
        let mut pos = Chess {
            board,
            turn: parts.turn,
            castling,
            ep: None,
            halfmoves: parts.halfmoves,
            fullmoves: parts.fullmoves,
            key: 0,
            checkers: Bitboard::EMPTY,
        };
        let them = parts.turn.flip();
        if pos.attacked(board.king(them), parts.turn, board.occupied()) {
            return Err(FenError::new(
                FenField::Side,
                "the side not to move is in check",
            ));
        }
        pos.checkers = pos.compute_checkers();
        pos.key = pos.key_from_scratch();
        if let Some(ep) = parts.ep {
            validate_ep(&board, parts.turn, ep)?;
            pos.set_ep_if_legal(ep);
        }
        Ok(pos)
    }

    fn fen(&self) -> String {
        fen::write(
            &self.board.write(&|_| None),
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
        self.board.key() ^ zobrist::state(self.turn, self.castling, self.ep)
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

    fn make(&mut self, m: Move) -> Chess {
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
        match m.kind() {
            MoveKind::Normal | MoveKind::DoublePush => {
                if let Some(victim) = self.board.role_at(to) {
                    let captured = Piece::new(us.flip(), victim);
                    self.board.remove(to, captured);
                    self.key ^= zobrist::piece(captured.color, captured.role, to);
                    self.halfmoves = 0;
                }
                self.board.shift(from, to, mover);
                self.key ^= zobrist::piece(us, role, from) ^ zobrist::piece(us, role, to);
                if let Some(promo) = m.promotion() {
                    self.board.remove(to, mover);
                    self.board.put(to, Piece::new(us, promo));
                    self.key ^= zobrist::piece(us, role, to) ^ zobrist::piece(us, promo, to);
                }
            }
            MoveKind::EnPassant => {
                let captured_sq = to.shift(-us.forward());
                self.board
                    .remove(captured_sq, Piece::new(us.flip(), Role::Pawn));
                self.key ^= zobrist::piece(us.flip(), Role::Pawn, captured_sq);
                self.board.shift(from, to, mover);
                self.key ^= zobrist::piece(us, role, from) ^ zobrist::piece(us, role, to);
            }
            MoveKind::Castle => {
                castle(&mut self.board, &mut self.key, us, from, to);
            }
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
    fn unmake(&mut self, _: Move, undo: Chess) {
        *self = undo;
    }

    fn make_null(&mut self) -> Chess {
        let prev = *self;
        clear_ep(&mut self.ep, &mut self.key);
        self.turn = self.turn.flip();
        self.key ^= zobrist::side();
        self.halfmoves += 1;
        self.checkers = self.compute_checkers();
        prev
    }

    fn unmake_null(&mut self, undo: Chess) {
        *self = undo;
    }

    fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.board.piece_at(sq)
    }

    fn insufficient_material(&self) -> bool {
        insufficient_material(&self.board)
    }

    fn pretty(&self) -> String {
        self.board.diagram(&|_| None)
    }
}

/// RULES.md §1: K v K, K+N v K, K+B v K, or kings and bishops all on squares
/// of one colour.
pub(crate) fn insufficient_material(b: &Board) -> bool {
    if (b.by_role(Role::Pawn) | b.rook_movers()).nonempty() {
        return false;
    }
    let knights = b.by_role(Role::Knight);
    let bishops = b.by_role(Role::Bishop);
    if knights.nonempty() {
        return knights.count() == 1 && bishops.is_empty();
    }
    (bishops & Bitboard::LIGHT).is_empty() || (bishops & Bitboard::DARK).is_empty()
}

/// RULES.md §1: an en-passant square must be one a double step could have
/// skipped: on the right rank, empty, with an enemy pawn in front of it.
pub(crate) fn validate_ep(board: &Board, turn: Color, ep: Square) -> Result<(), FenError> {
    let bad = |why: &str| FenError::new(FenField::EnPassant, format!("\"{ep}\": {why}"));
    if ep.rank() != turn.relative_rank(5) {
        return Err(bad("not on the rank a double step skips"));
    }
    if board.occupied().contains(ep) {
        return Err(bad("the square is occupied"));
    }
    let pushed = ep.shift(-turn.forward());
    if board.piece_at(pushed) != Some(Piece::new(turn.flip(), Role::Pawn)) {
        return Err(bad("no enemy pawn in front of it"));
    }
    let origin = ep.shift(turn.forward());
    if board.occupied().contains(origin) {
        return Err(bad("the double step's start square is occupied"));
    }
    let _ = Rank(0);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::perft;

    fn fen_perft(fen: &str, depth: u32) -> u64 {
        perft(&mut Chess::from_fen(fen).unwrap(), depth)
    }

    #[test]
    fn shallow_standard_perfts() {
        assert_eq!(fen_perft(fen::STARTPOS, 3), 8902);
        let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
        assert_eq!(fen_perft(kiwipete, 2), 2039);
        assert_eq!(
            fen_perft("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 3),
            2812
        );
    }

    #[test]
    fn ep_written_only_when_legal() {
        // After e2e4 no black pawn can take: no ep square in the FEN.
        let mut pos = Chess::startpos();
        let m = pos.parse_move("e2e4").unwrap();
        pos.make(m);
        assert_eq!(
            pos.fen(),
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
        );
        // A pinned capturer makes the ep square disappear too.
        let pinned = Chess::from_fen("8/8/8/K2pP2r/8/8/8/7k w - d6 0 1").unwrap();
        assert_eq!(pinned.ep_square(), None);
        let free = Chess::from_fen("8/8/8/3pP3/8/8/8/K6k w - d6 0 1").unwrap();
        assert_eq!(free.fen(), "8/8/8/3pP3/8/8/8/K6k w - d6 0 1");
    }

    #[test]
    fn fen_rejections_name_the_field() {
        let cases = [
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1",
                FenField::Board,
            ),
            (
                "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                FenField::Board,
            ),
            (
                "rnbqkbnr/ppppxppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                FenField::Board,
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQQBNR w KQkq - 0 1",
                FenField::Board,
            ),
            ("4k3/8/8/8/8/8/8/4K2P w - - 0 1", FenField::Board),
            ("4k3/8/8/8/8/8/8/P3K3 w - - 0 1", FenField::Board),
            ("4k3/4R3/8/8/8/8/8/4K3 w - - 0 1", FenField::Side),
            ("4k3/8/8/8/8/8/8/4K3 w - e6 0 1", FenField::EnPassant),
            ("4k3/8/8/4p3/8/8/8/4K3 w - e3 0 1", FenField::EnPassant),
            ("4k3/8/8/8/4p3/8/8/4K3 w - e6 0 1", FenField::EnPassant),
            ("4k3/8/8/4p3/8/8/8/4K3 w - e6 x 1", FenField::Halfmove),
        ];
        for (f, field) in cases {
            let err = Chess::from_fen(f).unwrap_err();
            assert_eq!(err.field, field, "{f}: {err}");
        }
    }

    #[test]
    fn contradicted_castling_rights_are_dropped() {
        let pos = Chess::from_fen("r3k3/8/8/8/8/8/8/4K2R w KQkq - 0 1").unwrap();
        assert_eq!(pos.fen(), "r3k3/8/8/8/8/8/8/4K2R w Kq - 0 1");
    }

    #[test]
    fn insufficient_material_cases() {
        for (f, expected) in [
            ("4k3/8/8/8/8/8/8/4K3 w - - 0 1", true),
            ("4k3/8/8/8/8/8/8/4KN2 w - - 0 1", true),
            ("4k3/8/8/8/8/8/8/4KB2 w - - 0 1", true),
            ("4kb2/8/8/8/8/8/8/2B1K3 w - - 0 1", true),
            ("4k1b1/8/8/8/8/8/8/2B1K3 w - - 0 1", false),
            ("4k3/8/8/8/8/8/8/3NKN2 w - - 0 1", false),
            ("4kn2/8/8/8/8/8/8/4KN2 w - - 0 1", false),
            ("4k3/8/8/8/8/8/8/4K2P w - - 0 1", false),
        ] {
            let f = if f.ends_with("K2P w - - 0 1") {
                "4k3/8/8/8/8/8/7P/4K3 w - - 0 1"
            } else {
                f
            };
            assert_eq!(
                Chess::from_fen(f).unwrap().insufficient_material(),
                expected,
                "{f}"
            );
        }
    }
}
