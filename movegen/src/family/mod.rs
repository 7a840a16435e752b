//! The chess family: chess and PlunderChess are one position type,
//! [`Family`], generic over a vest [`Layer`]. Chess is the family with no
//! vests ([`NoVests`](crate::NoVests), a zero-sized layer), PlunderChess the
//! family with one bitboard per vest kind ([`Vests`](crate::Vests)). Each is
//! monomorphised, so chess pays nothing for the vests it does not have.
//!
//! Here lives the one copy of what the two share: FEN reading and writing,
//! keys, checkers and pins, castling, pawn pushes and captures, en passant,
//! the unvested pieces' moves, and copy-make. The layer adds what vests add:
//! the suffixes in FEN, vest attacks ORed into the attacker sets, the plunder
//! choices of a capture, the vested pieces' moves, and the vest a move
//! carries, uses up or takes.

mod gen;

pub(crate) use gen::{shift, Counter, Tactical, PROMOTIONS};
pub use gen::{Choices, Ctx, NoChoices, Sink};

use crate::attacks;
use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::fen::{self, FenError, FenField};
use crate::moves::{Move, MoveKind, MoveList};
use crate::position::Position;
use crate::types::{Color, Piece, Role, Square};
use crate::zobrist;
use crate::Variant;
use std::fmt;

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
const fn castle_keep_mask() -> [u8; 64] {
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

/// Pieces (both colours) by the way they attack: a vested piece is in the
/// sets of its own type and of its vest's.
#[derive(Clone, Copy, Default)]
pub struct Movers {
    /// Attack along ranks and files (rooks, queens).
    pub(crate) rooks: Bitboard,
    /// Attack along diagonals (bishops, queens).
    pub(crate) bishops: Bitboard,
    /// Attack by knight leaps.
    pub(crate) knights: Bitboard,
    /// Attack diagonally forward, as pawns of their colour.
    pub(crate) pawns: Bitboard,
}

impl Movers {
    /// The movers of `set` only.
    #[inline]
    fn within(self, set: Bitboard) -> Movers {
        Movers {
            rooks: self.rooks & set,
            bishops: self.bishops & set,
            knights: self.knights & set,
            pawns: self.pawns & set,
        }
    }
}

/// The order a variant generates its moves in. The search breaks ties
/// between equal move scores by generation order, so each variant keeps the
/// order it had when the two generators were separate (and `Bench:` with it).
#[derive(Clone, Copy)]
pub struct Order {
    /// Castling and en passant right after the king's moves (plunder), or
    /// after everything else (chess).
    pub(crate) specials_first: bool,
    /// Queens with the bishops (their diagonal moves) and again with the
    /// rooks (chess), or on their own after the rooks (plunder).
    pub(crate) queens_with_sliders: bool,
    /// Push promotions right after the single pushes (chess), or after all
    /// other pawn moves (plunder).
    pub(crate) push_promotions_first: bool,
}

impl Order {
    /// Chess: king steps, knights, bishops and queens, rooks and queens,
    /// pawns (pushes, push promotions, double pushes, captures), en passant,
    /// castling.
    pub(crate) const CHESS: Order = Order {
        specials_first: false,
        queens_with_sliders: true,
        push_promotions_first: true,
    };
    /// PlunderChess: king steps, castling, king vest moves, en passant,
    /// knights, bishops, rooks, queens, pawns (pushes, double pushes,
    /// captures, push promotions), vested pieces.
    pub(crate) const PLUNDER: Order = Order {
        specials_first: true,
        queens_with_sliders: false,
        push_promotions_first: false,
    };
}

/// What a variant of the chess family adds to chess. Implemented by
/// [`NoVests`](crate::NoVests) (chess: every hook's default) and
/// [`Vests`](crate::Vests) (PlunderChess); it cannot be implemented outside
/// this crate (its hooks name the generator's internal types).
pub trait Layer: Copy + Eq + Send + Sync + fmt::Debug + 'static {
    /// The variant.
    const VARIANT: Variant;
    /// The generation order.
    const ORDER: Order;
    /// The layer without any vest.
    const BARE: Self;
    /// The plunder choices a capture offers.
    type Opts: Choices;

    /// Reads and checks the placement field (RULES.md §1 and the variant's
    /// own board rules).
    ///
    /// # Errors
    /// A board-field [`FenError`].
    fn read_board(field: &str) -> Result<(Board, Self), FenError>;

    /// Text written after the piece on `sq` in FEN and diagrams.
    fn suffix(&self, _board: &Board, _sq: Square) -> Option<String> {
        None
    }

    /// The layer's part of the Zobrist key.
    fn key(&self, _board: &Board) -> u64 {
        0
    }

    /// Squares of the pieces wearing a vest.
    fn vested(&self) -> Bitboard {
        Bitboard::EMPTY
    }

    /// The vest worn on `sq`.
    fn vest_at(&self, _sq: Square) -> Option<Role> {
        None
    }

    /// Pieces that attack like a rook, bishop, knight or pawn by their vest.
    fn vest_movers(&self) -> Movers {
        Movers::default()
    }

    /// Whether the piece on `sq` could just have double-stepped (it stands
    /// in front of a FEN's en-passant square; `turn` is to move); if not,
    /// why.
    ///
    /// # Errors
    /// The reason, for the en-passant field's error.
    fn double_stepper(&self, board: &Board, sq: Square, turn: Color) -> Result<(), &'static str> {
        if board.piece_at(sq) == Some(Piece::new(turn.flip(), Role::Pawn)) {
            Ok(())
        } else {
            Err("fen.ep_no_pawn")
        }
    }

    /// The choices of the captures of a mover of type `wearer` still
    /// wearing `kept` after the move.
    fn choices(&self, _board: &Board, _wearer: Role, _kept: Option<Role>) -> Self::Opts {
        Self::Opts::default()
    }

    /// The king's vest moves; `castled` holds the castling targets generated
    /// (they own their strings).
    fn king_vest_moves<S: Sink<Self::Opts>>(
        _pos: &Family<Self>,
        _sink: &mut S,
        _cx: &Ctx,
        _castled: Bitboard,
    ) {
    }

    /// The moves of the vested pieces other than the king.
    fn vested_pieces<S: Sink<Self::Opts>>(_pos: &Family<Self>, _sink: &mut S, _cx: &Ctx) {}

    /// The moves a legal en-passant capture `base` from `from` onto `ep`
    /// becomes.
    fn ep_capture<S: Sink<Self::Opts>>(
        _pos: &Family<Self>,
        sink: &mut S,
        _from: Square,
        _ep: Square,
        base: Move,
    ) {
        sink.one(base);
    }

    /// Takes the vest off `sq` (a piece of `color`), returning it.
    fn lift(&mut self, _sq: Square, _color: Color, _key: &mut u64) -> Option<Role> {
        None
    }

    /// After `m`, leaves its mover (now of type `role`) wearing what the
    /// move gives it: a newly taken vest, or `carried` if the move did not
    /// use it up and the new type may wear it.
    fn dress(
        &mut self,
        _m: Move,
        _role: Role,
        _color: Color,
        _carried: Option<Role>,
        _key: &mut u64,
    ) {
    }

    /// Moves the vest (if any) of the piece of `color` going from `from` to
    /// `to` (the castling rook).
    fn carry(&mut self, _from: Square, _to: Square, _color: Color, _key: &mut u64) {}
}

/// A position of the chess family: [`Chess`](crate::Chess) and
/// [`Plunder`](crate::Plunder).
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Family<V: Layer> {
    pub(crate) board: Board,
    pub(crate) layer: V,
    pub(crate) turn: Color,
    pub(crate) castling: u8,
    /// Set only when an en-passant capture is among the legal moves
    /// (RULES.md §1, and §3.4's collision rule in plunder).
    pub(crate) ep: Option<Square>,
    pub(crate) halfmoves: u32,
    pub(crate) fullmoves: u32,
    pub(crate) key: u64,
    pub(crate) checkers: Bitboard,
}

impl<V: Layer> fmt::Debug for Family<V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple(V::VARIANT.name()).field(&self.fen()).finish()
    }
}

impl<V: Layer> Family<V> {
    /// The placement (roles and colours; vests are separate).
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

    /// Pieces of both colours by the way they attack, vests included.
    #[inline]
    fn movers(&self) -> Movers {
        self.movers_in(&self.layer)
    }

    /// The same with the vests of `layer` (this position's, or none).
    #[inline(always)]
    fn movers_in(&self, layer: &V) -> Movers {
        let b = &self.board;
        let v = layer.vest_movers();
        Movers {
            rooks: b.rook_movers() | v.rooks,
            bishops: b.bishop_movers() | v.bishops,
            knights: b.by_role(Role::Knight) | v.knights,
            pawns: b.by_role(Role::Pawn) | v.pawns,
        }
    }

    /// Pieces of either colour attacking `sq` by an ordinary or a vest move
    /// (RULES.md §3.3 "Check"), given the occupancy `occ`.
    #[inline]
    pub(crate) fn attackers(&self, sq: Square, occ: Bitboard) -> Bitboard {
        let b = &self.board;
        let m = self.movers();
        (attacks::rook(sq, occ) & m.rooks)
            | (attacks::bishop(sq, occ) & m.bishops)
            | (attacks::knight(sq) & m.knights)
            | (attacks::king(sq) & b.by_role(Role::King))
            | (attacks::pawn(Color::White, sq) & m.pawns & b.by_color(Color::Black))
            | (attacks::pawn(Color::Black, sq) & m.pawns & b.by_color(Color::White))
    }

    /// `true` if a piece of `by` attacks `sq` with occupancy `occ`.
    #[inline]
    pub(crate) fn attacked(&self, sq: Square, by: Color, occ: Bitboard) -> bool {
        (self.attackers(sq, occ) & self.board.by_color(by)).nonempty()
    }

    /// The enemy pieces attacking the king of the side to move (a king never
    /// gives check, so kings are left out).
    #[inline(always)]
    fn compute_checkers(&self) -> Bitboard {
        self.compute_checkers_in(&self.layer)
    }

    /// The same with the vests of `layer` (this position's, or none).
    #[inline(always)]
    fn compute_checkers_in(&self, layer: &V) -> Bitboard {
        let b = &self.board;
        let m = self.movers_in(layer);
        let king = b.king(self.turn);
        let occ = b.occupied();
        ((attacks::rook(king, occ) & m.rooks)
            | (attacks::bishop(king, occ) & m.bishops)
            | (attacks::knight(king) & m.knights)
            | (attacks::pawn(self.turn, king) & m.pawns))
            & b.by_color(self.turn.flip())
    }

    /// Drops castling rights the placement contradicts.
    fn clean_castling(board: &Board, rights: u8) -> u8 {
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

    /// RULES.md §1: an en-passant square must be one a double step could
    /// have skipped: on the right rank, empty, its start square empty, and in
    /// front of it an enemy piece that could have made the step.
    fn validate_ep(&self, ep: Square) -> Result<(), FenError> {
        let turn = self.turn;
        let occupied = self.board.occupied();
        fen::check_ep_rank_and_emptiness(ep, turn, occupied)?;
        self.layer
            .double_stepper(&self.board, ep.shift(-turn.forward()), turn)
            .map_err(|why| fen::ep_error(ep, why))?;
        if occupied.contains(ep.shift(turn.forward())) {
            return Err(fen::ep_error(ep, "fen.ep_start_occupied"));
        }
        Ok(())
    }

    /// Sets `ep` to `candidate` if the side to move has an en-passant
    /// capture there among its legal moves.
    fn set_ep_if_legal(&mut self, candidate: Square) {
        let mut c = Counter(0);
        self.en_passant(&mut c, candidate);
        if c.0 > 0 {
            self.ep = Some(candidate);
            self.key ^= zobrist::ep_file(candidate.file().0);
        }
    }

    /// Removes the enemy piece on `sq` (with its vest), if any.
    #[inline]
    fn capture_at<const BARE: bool>(&mut self, sq: Square) {
        let Some(role) = self.board.role_at(sq) else {
            return;
        };
        let them = self.turn.flip();
        if !BARE {
            self.layer.lift(sq, them, &mut self.key);
        }
        self.board.remove(sq, Piece::new(them, role));
        self.key ^= zobrist::piece(them, role, sq);
        self.halfmoves = 0;
    }

    /// Moves the mover's piece, keeping the key in step.
    #[inline]
    fn shift_piece(&mut self, from: Square, to: Square, piece: Piece) {
        self.board.shift(from, to, piece);
        self.key ^= zobrist::piece(piece.color, piece.role, from)
            ^ zobrist::piece(piece.color, piece.role, to);
    }

    /// Moves king and rook of the side to move castling from `from` to `to`.
    #[inline]
    fn castle<const BARE: bool>(&mut self, from: Square, to: Square) {
        let us = self.turn;
        let cs = CASTLES[us.index()][usize::from(to.file() < from.file())];
        self.shift_piece(from, to, Piece::new(us, Role::King));
        self.shift_piece(cs.rook_from, cs.rook_to, Piece::new(us, Role::Rook));
        if !BARE {
            self.layer
                .carry(cs.rook_from, cs.rook_to, us, &mut self.key);
        }
    }

    /// `make` without the undo; with `BARE`, in a position wearing no vest
    /// (so nothing to lift or carry, and checkers come from the board
    /// alone unless the move took a vest).
    #[inline(always)]
    fn make_in<const BARE: bool>(&mut self, m: Move) {
        let us = self.turn;
        let (from, to) = (m.from(), m.to());
        let Some(role) = self.board.role_at(from) else {
            debug_assert!(false, "make: no piece on {from}");
            return;
        };
        clear_ep(&mut self.ep, &mut self.key);
        self.halfmoves += 1;
        if role == Role::Pawn {
            self.halfmoves = 0;
        }
        let carried = if BARE {
            None
        } else {
            self.layer.lift(from, us, &mut self.key)
        };
        let mut role_after = role;
        match m.kind() {
            MoveKind::Normal | MoveKind::DoublePush => {
                self.capture_at::<BARE>(to);
                self.shift_piece(from, to, Piece::new(us, role));
                if let Some(promo) = m.promotion() {
                    self.board.remove(to, Piece::new(us, role));
                    self.board.put(to, Piece::new(us, promo));
                    self.key ^= zobrist::piece(us, role, to) ^ zobrist::piece(us, promo, to);
                    role_after = promo;
                }
            }
            MoveKind::EnPassant => {
                self.capture_at::<BARE>(to.shift(-us.forward()));
                self.shift_piece(from, to, Piece::new(us, role));
            }
            MoveKind::Castle => self.castle::<BARE>(from, to),
        }
        self.layer.dress(m, role_after, us, carried, &mut self.key);
        let rights = self.castling & CASTLE_KEEP[from.index()] & CASTLE_KEEP[to.index()];
        set_castling(&mut self.castling, &mut self.key, rights);
        pass_turn(&mut self.turn, &mut self.fullmoves, &mut self.key);
        self.checkers = if BARE && self.layer.vested().is_empty() {
            self.compute_checkers_in(&V::BARE)
        } else {
            self.compute_checkers()
        };
        if m.kind() == MoveKind::DoublePush {
            self.set_ep_if_legal(from.shift(us.forward()));
        }
    }
}

/// RULES.md §1: K v K, K+N v K, K+B v K, or kings and bishops all on squares
/// of one colour.
fn insufficient_material(b: &Board) -> bool {
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

impl<V: Layer> Position for Family<V> {
    const VARIANT: Variant = V::VARIANT;
    type Undo = Family<V>;

    fn startpos() -> Family<V> {
        match Family::from_fen(fen::STARTPOS) {
            Ok(pos) => pos,
            Err(e) => unreachable!("start position FEN is valid: {e}"),
        }
    }

    fn from_fen(text: &str) -> Result<Family<V>, FenError> {
        let parts = fen::split(text)?;
        let (board, layer) = V::read_board(parts.board)?;
        let mut pos = Family {
            board,
            layer,
            turn: parts.turn,
            castling: Family::<V>::clean_castling(&board, parts.castling),
            ep: None,
            halfmoves: parts.halfmoves,
            fullmoves: parts.fullmoves,
            key: 0,
            checkers: Bitboard::EMPTY,
        };
        if pos.attacked(board.king(parts.turn.flip()), parts.turn, board.occupied()) {
            return Err(FenError::keyed(FenField::Side, "fen.side_in_check", []));
        }
        pos.checkers = pos.compute_checkers();
        pos.key = pos.key_from_scratch();
        if let Some(ep) = parts.ep {
            pos.validate_ep(ep)?;
            pos.set_ep_if_legal(ep);
        }
        Ok(pos)
    }

    fn fen(&self) -> String {
        fen::write(
            &self.board.write(&|sq| self.layer.suffix(&self.board, sq)),
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
        self.board.key()
            ^ self.layer.key(&self.board)
            ^ zobrist::state(self.turn, self.castling, self.ep)
    }

    #[inline]
    fn is_check(&self) -> bool {
        self.checkers.nonempty()
    }

    fn legal_moves(&self, moves: &mut MoveList) {
        self.generate(moves);
    }

    fn tactical_moves(&self, moves: &mut MoveList) {
        self.generate(&mut Tactical(moves));
    }

    fn count_legal(&self) -> u64 {
        let mut c = Counter(0);
        self.generate(&mut c);
        c.0
    }

    fn make(&mut self, m: Move) -> Family<V> {
        let prev = *self;
        // Most positions wear no vest (every chess one).
        if self.layer.vested().is_empty() {
            self.make_in::<true>(m);
        } else {
            self.make_in::<false>(m);
        }
        prev
    }

    #[inline]
    fn unmake(&mut self, _: Move, undo: Family<V>) {
        *self = undo;
    }

    fn make_null(&mut self) -> Family<V> {
        let prev = *self;
        clear_ep(&mut self.ep, &mut self.key);
        self.turn = self.turn.flip();
        self.key ^= zobrist::side();
        self.halfmoves += 1;
        self.checkers = self.compute_checkers();
        prev
    }

    fn unmake_null(&mut self, undo: Family<V>) {
        *self = undo;
    }

    fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.board.piece_at(sq)
    }

    /// RULES.md §1; in plunder only with no vest on the board (a vest can
    /// mate).
    fn insufficient_material(&self) -> bool {
        self.layer.vested().is_empty() && insufficient_material(&self.board)
    }

    fn pretty(&self) -> String {
        self.board.diagram(&|sq| self.layer.suffix(&self.board, sq))
    }
}
