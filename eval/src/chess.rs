//! Chess evaluation: tapered material and piece-square tables, mobility
//! (linear and a curve by count), threats (pieces attacked by pawns,
//! minors, rooks or a safe pawn push; pieces left unguarded), king safety
//! (attackers near the king, safe checks, pawn shield and storm, open
//! files), pawn structure (doubled, isolated, backward, connected, passed),
//! the king's distance to its pawns, outposts, minors behind pawns, rooks
//! on open files and the seventh rank, bishop pair, pawns on the bishops'
//! colour and tempo, with the weights of [`CHESS`]. Written once,
//! generic over the accumulator: [`evaluate_board`] for the search,
//! [`trace`] for the tuner.

use crate::pst::{self, table_index, S};
use crate::weights::{white_score, Acc, Reader, Trace, Traced};
use crate::Evaluate;
use movegen::attacks;
use movegen::board::Board;
use movegen::{Bitboard, Chess, Color, Move, MoveKind, Position, Role, Square};

use crate::weights::weight_table;

weight_table! {
    /// The chess evaluation weights.
    pub struct ChessWeights("chess");
    /// Material by role (pawn knight bishop rook queen king).
    material: list tapered [6];
    /// Piece-square bonus by role and square, on top of material.
    pst: grid tapered [6 x 64: "pawn", "knight", "bishop", "rook", "queen", "king"];
    /// Bonus for the side to move.
    tempo: scalar tapered [];
    /// Bonus for owning both bishops.
    bishop_pair: scalar tapered [];
    /// Per bishop, per own pawn on squares of the bishop's colour.
    bishop_pawns: scalar tapered [];
    /// Mobility of knight, bishop, rook, queen: per reachable square (not
    /// own-occupied, not attacked by enemy pawns) beyond mobility_base.
    mobility: list tapered [4];
    /// Typical reachable-square counts of knight, bishop, rook, queen.
    mobility_base: list fixed [4];
    /// On top of the linear mobility term, by reachable-square count (as
    /// counted there): the diminishing return of one more square.
    mobility_curve: grid tapered [4 x 28: "knight", "bishop", "rook", "queen"];
    /// Rook on a file without pawns.
    rook_open_file: scalar tapered [];
    /// Rook on a file without own pawns but with enemy ones.
    rook_semi_open_file: scalar tapered [];
    /// Rook on the relative seventh rank.
    rook_on_seventh: scalar tapered [];
    /// Per pawn with another own pawn ahead of it on its file.
    doubled_pawn: scalar tapered [];
    /// Pawn with no own pawn on the adjacent files.
    isolated_pawn: scalar tapered [];
    /// Pawn, not isolated, with no own pawn beside or behind it on the
    /// adjacent files, whose stop square an enemy pawn attacks.
    backward_pawn: scalar tapered [];
    /// Passed pawn by relative rank (rank 1 first).
    passed_pawn: list tapered [8];
    /// Passed pawn on relative rank 4 or beyond whose stop square is empty,
    /// times (relative rank - 3).
    passed_free_path: scalar tapered [];
    /// Passed pawn on relative rank 4 or beyond: per square of (enemy king
    /// distance - own king distance) to its stop square, times (relative
    /// rank - 3).
    passed_king_proximity: scalar tapered [];
    /// Enemy knight, bishop, rook, queen attacked by an own pawn.
    threat_by_pawn: list tapered [4];
    /// Enemy knight, bishop, rook, queen attacked by an own knight or
    /// bishop (a knight or bishop only when no enemy pawn guards it).
    threat_by_minor: list tapered [4];
    /// Enemy knight, bishop, queen attacked by an own rook (a knight or
    /// bishop only when no enemy pawn guards it).
    threat_by_rook: list tapered [3];
    /// Enemy knight, bishop, rook, queen a safe pawn push would attack.
    pawn_push_threat: scalar tapered [];
    /// Enemy pawn, knight, bishop, rook, queen attacked by us and guarded
    /// by nothing of theirs.
    hanging: list tapered [5];
    /// A safe check is available (a square that checks the enemy king,
    /// attacked by our piece of that role, neither own-occupied nor
    /// attacked by the enemy): knight, bishop, rook, queen.
    safe_check: list tapered [4];
    /// Knight, bishop on relative rank 4 to 6, guarded by an own pawn, on
    /// a square no enemy pawn can ever attack.
    outpost: list tapered [2];
    /// Knight or bishop with a pawn (either side's) right in front of it.
    minor_behind_pawn: scalar tapered [];
    /// Pawn with an own pawn beside it or guarding it, by relative rank.
    connected_pawn: list tapered [8];
    /// Own pawn one rank and two ranks in front of the king, on its file
    /// and the adjacent ones, per pawn.
    pawn_shield: list tapered [2];
    /// Per file (the king's and the adjacent ones) without an own pawn.
    king_open_file: scalar tapered [];
    /// Enemy pawn on the king's file or an adjacent one, by that pawn's
    /// relative rank (from its own side).
    pawn_storm: list tapered [8];
    /// Per step from the king to its nearest own pawn (none: nothing).
    king_pawn_distance: scalar tapered [];
    /// King-zone attack units per attacked zone square: knight, bishop,
    /// rook, queen.
    king_attack_weight: list fixed [4];
    /// Bonus by attack units (capped at 31) into the enemy king zone, with
    /// two attackers or more and a queen.
    king_danger: list tapered [32];
    /// Mop-up (one side up a rook's worth or more, the other without
    /// pawns), added after the phase blend: per step of the losing king's
    /// distance from the centre...
    mop_up_edge: scalar flat [];
    /// ...and per step the kings are closer than the maximum of 7.
    mop_up_kings: scalar flat [];
}

/// The weights file, read at compile time (the tuner writes it back).
const SOURCE: &str = include_str!("../params/chess.txt");

/// The chess weights in use.
pub const CHESS: ChessWeights = ChessWeights::parse(SOURCE);

crate::traceable!(Chess, ChessWeights, CHESS, SOURCE, trace);

const FILE_A: u64 = 0x0101_0101_0101_0101;
const FILE_H: u64 = FILE_A << 7;
/// a1, c1, ..., the squares of a1's colour.
const DARK_SQUARES: u64 = 0xaa55_aa55_aa55_aa55;

/// The win/draw/loss model, fitted by `volkhv-tune wdl --variant chess` on
/// `chess-243.bin` (1.53 M positions, session 31): held-out log-loss 0.5821,
/// 0.5929 with the ply alone (`docs/tuning.md`).
pub const WDL: crate::wdl::WdlModel = crate::wdl::WdlModel {
    material_min: 5,
    a: [277.6, -641.5, 370.6],
    b: [124.0, -107.0, 95.0],
    a_ply: 251.7,
    b_ply: 29.4,
};

impl Evaluate for Chess {
    const WDL: crate::wdl::WdlModel = WDL;

    const SINGULAR_EXTENSIONS: bool = true;

    fn evaluate(&self) -> i32 {
        let board = self.board();
        let owned = [board.by_color(Color::White), board.by_color(Color::Black)];
        if let Some(won) = crate::endgame::bare_king(self, owned) {
            return won;
        }
        let hand_written = evaluate_board(board, self.turn());
        if board.by_role(Role::Pawn).is_empty() {
            // Pawnless endings are rare in self-play, so the network's
            // correction there is noise; the hand-written terms know which
            // are drawn and how to drive a bare king to the edge.
            hand_written
        } else {
            hand_written + crate::nets::correction(self)
        }
    }

    fn null_move_safe(&self) -> bool {
        has_non_pawn_material(self.board(), self.turn())
    }

    fn see_ge(&self, m: Move, threshold: i32) -> bool {
        see_ge(self.board(), self.turn(), m, threshold)
    }

    fn correction_key(&self) -> Option<u64> {
        Some(pawn_structure_key(self.board()))
    }
}

/// A hash of both sides' pawns: the evaluation's slowest-changing input,
/// whose misjudgements (a weak pawn, a blocked centre) recur in every
/// position that shares it.
#[must_use]
pub fn pawn_structure_key(board: &Board) -> u64 {
    use movegen::zobrist::mix;
    let white = board.pieces(Color::White, Role::Pawn).0;
    let black = board.pieces(Color::Black, Role::Pawn).0;
    mix(white ^ mix(black ^ 0x9e37_79b9_7f4a_7c15))
}

/// Piece values for exchanges (the king cannot be captured: huge).
const fn see_value(role: Role) -> i32 {
    match role {
        Role::King => 20_000,
        r => crate::role_value(r),
    }
}

/// Static exchange evaluation on a chess board (see
/// [`Evaluate::see_ge`]): the swap algorithm with x-rays through the
/// pieces that have already captured; pins are ignored.
#[must_use]
pub fn see_ge(board: &Board, turn: Color, m: Move, threshold: i32) -> bool {
    if m.kind() == MoveKind::Castle {
        return threshold <= 0;
    }
    let (from, to) = (m.from(), m.to());
    let victim = if m.kind() == MoveKind::EnPassant {
        Some(Role::Pawn)
    } else {
        board.role_at(to)
    };
    let mut swap = victim.map_or(0, see_value) - threshold;
    if let Some(p) = m.promotion() {
        swap += see_value(p) - see_value(Role::Pawn);
    }
    if swap < 0 {
        return false;
    }
    let Some(mover) = m.promotion().or_else(|| board.role_at(from)) else {
        return false;
    };
    swap = see_value(mover) - swap;
    if swap <= 0 {
        return true;
    }
    let mut occupied = board.occupied().without(from).with(to);
    if m.kind() == MoveKind::EnPassant {
        occupied = occupied.without(to.shift(-turn.forward()));
    }
    let mut stm = turn;
    let mut attackers = board.attackers(to, occupied) & occupied;
    let mut res = true;
    loop {
        stm = stm.flip();
        attackers &= occupied;
        let ours = attackers & board.by_color(stm);
        if ours.is_empty() {
            break;
        }
        res = !res;
        let Some((role, sq)) = Role::CHESS
            .into_iter()
            .find_map(|r| (ours & board.by_role(r)).first().map(|sq| (r, sq)))
        else {
            break;
        };
        if role == Role::King {
            // The king may only take last: if the other side still
            // attacks, the capture is illegal and the result flips back.
            if (attackers & board.by_color(stm.flip())).nonempty() {
                res = !res;
            }
            break;
        }
        swap = see_value(role) - swap;
        if swap < i32::from(res) {
            break;
        }
        occupied = occupied.without(sq);
        attackers = board.attackers(to, occupied) & occupied;
    }
    res
}

/// `true` if `color` has a piece other than pawns and king (null-move
/// pruning is unsound in pawn endgames, where zugzwang is common).
#[must_use]
pub fn has_non_pawn_material(board: &Board, color: Color) -> bool {
    (board.by_color(color) & !(board.by_role(Role::Pawn) | board.by_role(Role::King))).nonempty()
}

/// The weights as the evaluation reads them, summed as `A`.
type W<'a, A> = Reader<'a, ChessWeights, A>;

/// The full chess evaluation of a board, in centipawns from `turn`'s view.
#[must_use]
pub fn evaluate_board(board: &Board, turn: Color) -> i32 {
    evaluate_with::<S>(board, turn, &Reader::new(&CHESS))
}

/// The chess evaluation as a linear function of the weights (see
/// [`Trace`]); its `eval` is [`evaluate_board`]'s result.
#[must_use]
pub fn trace(pos: &Chess) -> Trace {
    evaluate_with::<Traced>(pos.board(), pos.turn(), &Reader::new(&CHESS))
}

/// The evaluation, accumulated as `A`: tapered board terms and tempo, the
/// flat mop-up term, and the drawish scaling.
fn evaluate_with<A: Acc>(board: &Board, turn: Color, w: &W<'_, A>) -> A::Out {
    let tempo = match turn {
        Color::White => w.tempo(),
        Color::Black => -w.tempo(),
    };
    let (white, white_attacks) = side_terms(board, Color::White, w);
    let (black, black_attacks) = side_terms(board, Color::Black, w);
    let tapered = white - black
        + contact_terms(board, Color::White, &white_attacks, &black_attacks, w)
        - contact_terms(board, Color::Black, &black_attacks, &white_attacks, w)
        + tempo;
    let phase = pst::phase(board);
    let flat = mop_up(board, w);
    let divisor = drawish_divisor(board, white_score(&tapered, &flat, phase), w);
    A::finish(tapered, flat, phase, divisor, turn)
}

/// Scores that material alone cannot convert are divided by 8: the
/// stronger side has no pawns and is up less than a rook.
fn drawish_divisor<A: Acc>(board: &Board, score: i32, w: &W<'_, A>) -> i32 {
    let strong = if score > 0 {
        Color::White
    } else {
        Color::Black
    };
    if board.pieces(strong, Role::Pawn).nonempty() {
        return 1;
    }
    if non_pawn_material(board, strong, w) - non_pawn_material(board, strong.flip(), w)
        < rook_value(w)
    {
        8
    } else {
        1
    }
}

/// The endgame value of a rook: the material edge the drawish scaling and
/// the mop-up term start from.
fn rook_value<A: Acc>(w: &W<'_, A>) -> i32 {
    material_eg(Role::Rook, w)
}

/// The endgame material value of `role` as a plain number (thresholds are
/// conditions, not terms of the evaluation).
fn material_eg<A: Acc>(role: Role, w: &W<'_, A>) -> i32 {
    Reader::<_, S>::new(w.table()).material(role.index()).1
}

fn non_pawn_material<A: Acc>(board: &Board, c: Color, w: &W<'_, A>) -> i32 {
    [Role::Knight, Role::Bishop, Role::Rook, Role::Queen]
        .iter()
        .map(|&r| board.pieces(c, r).count() as i32 * material_eg(r, w))
        .sum()
}

/// Drives the lone king to the edge and brings the winning king closer,
/// which piece-square tables alone do not do (KQK, KRK), from White's view.
fn mop_up<A: Acc>(board: &Board, w: &W<'_, A>) -> A {
    let diff =
        non_pawn_material(board, Color::White, w) - non_pawn_material(board, Color::Black, w);
    let strong = if diff > 0 { Color::White } else { Color::Black };
    let weak = strong.flip();
    if diff.abs() < rook_value(w) || board.pieces(weak, Role::Pawn).nonempty() {
        return A::default();
    }
    let (wk, sk) = (board.king(weak), board.king(strong));
    let centre = |sq: Square| {
        let f = i32::from(sq.file().0);
        let r = i32::from(sq.rank().0);
        (2 * f - 7).abs() / 2 + (2 * r - 7).abs() / 2
    };
    let bonus = w.mop_up_edge() * centre(wk) + w.mop_up_kings() * (7 - distance(wk, sk));
    if strong == Color::White {
        bonus
    } else {
        -bonus
    }
}

/// Squares attacked by the pawns of `color`.
#[must_use]
pub fn pawn_attacks(pawns: Bitboard, color: Color) -> Bitboard {
    let b = pawns.0;
    Bitboard(match color {
        Color::White => ((b & !FILE_A) << 7) | ((b & !FILE_H) << 9),
        Color::Black => ((b & !FILE_A) >> 9) | ((b & !FILE_H) >> 7),
    })
}

/// Everything ahead of the bits of `b` from `color`'s view, excluding `b`.
fn front_span(b: u64, color: Color) -> u64 {
    match color {
        Color::White => {
            let mut x = b << 8;
            x |= x << 8;
            x |= x << 16;
            x |= x << 32;
            x
        }
        Color::Black => {
            let mut x = b >> 8;
            x |= x >> 8;
            x |= x >> 16;
            x |= x >> 32;
            x
        }
    }
}

/// `b` moved one rank towards `color`'s promotion rank.
fn one_rank_up(b: u64, color: Color) -> u64 {
    match color {
        Color::White => b << 8,
        Color::Black => b >> 8,
    }
}

fn adjacent_files(file_mask: u64) -> u64 {
    ((file_mask & !FILE_A) >> 1) | ((file_mask & !FILE_H) << 1)
}

fn distance(a: Square, b: Square) -> i32 {
    let df = (i32::from(a.file().0) - i32::from(b.file().0)).abs();
    let dr = (i32::from(a.rank().0) - i32::from(b.rank().0)).abs();
    df.max(dr)
}

fn relative_rank(color: Color, sq: Square) -> usize {
    match color {
        Color::White => usize::from(sq.rank().0),
        Color::Black => 7 - usize::from(sq.rank().0),
    }
}

/// The squares one side attacks, gathered while its pieces are scored and
/// read by the terms that need both sides' attacks.
struct Attacks {
    /// By knights, bishops, rooks, queens.
    by_role: [Bitboard; 4],
    /// By every piece, pawns and king included.
    all: Bitboard,
}

/// Terms of one side that need only its own attacks, from that side's
/// view, and those attacks.
fn side_terms<A: Acc>(board: &Board, us: Color, w: &W<'_, A>) -> (A, Attacks) {
    let them = us.flip();
    let occupied = board.occupied();
    let own = board.by_color(us);
    let our_pawns = board.pieces(us, Role::Pawn);
    let their_pawns = board.pieces(them, Role::Pawn);
    let mut s = A::default();

    for sq in own {
        if let Some(role) = board.role_at(sq) {
            s += w.material(role.index()) + w.pst(role.index(), table_index(us, sq));
        }
    }

    if board.pieces(us, Role::Bishop).more_than_one() {
        s += w.bishop_pair();
    }
    for sq in board.pieces(us, Role::Bishop) {
        let colour = if DARK_SQUARES & (1u64 << sq.index()) != 0 {
            DARK_SQUARES
        } else {
            !DARK_SQUARES
        };
        s += w.bishop_pawns() * (our_pawns.0 & colour).count_ones() as i32;
    }

    // Mobility, and attacks into the enemy king zone for king safety.
    let pawn_guarded = pawn_attacks(their_pawns, them);
    let safe = !own & !pawn_guarded;
    let their_king = board.king(them);
    let zone = king_zone(their_king, them);
    let mut attackers = 0;
    let mut units = 0;
    let mut by_role = [Bitboard(0); 4];
    for (i, role) in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen]
        .into_iter()
        .enumerate()
    {
        for sq in board.pieces(us, role) {
            let att = match role {
                Role::Knight => attacks::knight(sq),
                Role::Bishop => attacks::bishop(sq, occupied),
                Role::Rook => attacks::rook(sq, occupied),
                _ => attacks::queen(sq, occupied),
            };
            let reach = (att & safe).count() as usize;
            s += w.mobility(i) * (reach as i32 - w.mobility_base(i));
            s += w.mobility_curve(i, reach.min(MOBILITY_CURVE_LAST));
            by_role[i] |= att;
            let hits = (att & zone).count() as i32;
            if hits > 0 {
                attackers += 1;
                units += w.king_attack_weight(i) * hits;
            }
            if role == Role::Rook {
                if relative_rank(us, sq) == 6 {
                    s += w.rook_on_seventh();
                }
                let file = Bitboard::file(sq.file()).0;
                if file & our_pawns.0 == 0 {
                    s += if file & their_pawns.0 == 0 {
                        w.rook_open_file()
                    } else {
                        w.rook_semi_open_file()
                    };
                }
            }
        }
    }
    if attackers >= 2 && board.pieces(us, Role::Queen).nonempty() {
        s += w.king_danger((units as usize).min(KING_DANGER_CAP));
    }

    let minor_attacks = by_role[0] | by_role[1];
    s += threats(board, us, pawn_guarded, minor_attacks, by_role[2], w);
    s += outposts(board, us, w);
    s += minors_behind_pawns(board, us, w);
    s += pawn_structure(board, us, w);
    s += king_shelter(board, us, w);
    s += king_pawn_distance(board, us, w);
    let all = by_role.iter().fold(
        pawn_attacks(our_pawns, us) | attacks::king(board.king(us)),
        |a, &b| a | b,
    );
    (s, Attacks { by_role, all })
}

/// The last entry of a mobility curve row (a queen reaches at most 27).
const MOBILITY_CURVE_LAST: usize = 27;

/// The roles of the `hanging` list, in its order.
const HANGING_ROLES: [Role; 5] = [
    Role::Pawn,
    Role::Knight,
    Role::Bishop,
    Role::Rook,
    Role::Queen,
];

/// Terms of `us` that weigh its attacks against the enemy's: pieces the
/// enemy leaves unguarded, and checks it cannot answer by capture.
fn contact_terms<A: Acc>(
    board: &Board,
    us: Color,
    ours: &Attacks,
    theirs: &Attacks,
    w: &W<'_, A>,
) -> A {
    let them = us.flip();
    let mut s = A::default();
    let unguarded = ours.all & !theirs.all;
    for (i, role) in HANGING_ROLES.into_iter().enumerate() {
        s += w.hanging(i) * (board.pieces(them, role) & unguarded).count() as i32;
    }
    // A push is safe where we guard the square or nothing of theirs does.
    s += pawn_push_threats(board, us, ours.all | !theirs.all, w);
    let king = board.king(them);
    let occupied = board.occupied();
    let safe = !board.by_color(us) & !theirs.all;
    let diagonal = attacks::bishop(king, occupied);
    let straight = attacks::rook(king, occupied);
    let checks_from = [
        attacks::knight(king),
        diagonal,
        straight,
        diagonal | straight,
    ];
    for (i, (from, reach)) in checks_from.iter().zip(ours.by_role).enumerate() {
        if (*from & reach & safe).nonempty() {
            s += w.safe_check(i);
        }
    }
    s
}

/// Enemy pieces that a pawn push to a safe square would attack (safe: no
/// enemy pawn guards it, and it is in `held`).
fn pawn_push_threats<A: Acc>(board: &Board, us: Color, held: Bitboard, w: &W<'_, A>) -> A {
    let them = us.flip();
    let empty = !board.occupied().0;
    let third_rank = match us {
        Color::White => 0xff << 16,
        Color::Black => 0xff << 40,
    };
    let single = one_rank_up(board.pieces(us, Role::Pawn).0, us) & empty;
    let pushes = single | (one_rank_up(single & third_rank, us) & empty);
    let enemy_pawn_guard = pawn_attacks(board.pieces(them, Role::Pawn), them).0;
    let safe = pushes & !enemy_pawn_guard & held.0;
    let pieces =
        board.by_color(them).0 & !(board.by_role(Role::Pawn).0 | board.by_role(Role::King).0);
    let hit = pawn_attacks(Bitboard(safe), us).0 & pieces;
    w.pawn_push_threat() * hit.count_ones() as i32
}

/// Knights and bishops with a pawn right in front: sheltered from
/// frontal attack, and the pawn shields them on the file.
fn minors_behind_pawns<A: Acc>(board: &Board, us: Color, w: &W<'_, A>) -> A {
    let minors = (board.pieces(us, Role::Knight) | board.pieces(us, Role::Bishop)).0;
    let ahead = one_rank_up(minors, us);
    w.minor_behind_pawn() * (ahead & board.by_role(Role::Pawn).0).count_ones() as i32
}

/// Knights and bishops on outposts: relative rank 4 to 6, guarded by an
/// own pawn, and out of reach of every enemy pawn for good.
fn outposts<A: Acc>(board: &Board, us: Color, w: &W<'_, A>) -> A {
    let them = us.flip();
    let guarded = pawn_attacks(board.pieces(us, Role::Pawn), us);
    let their_pawns = board.pieces(them, Role::Pawn).0;
    let mut s = A::default();
    for (i, role) in [Role::Knight, Role::Bishop].into_iter().enumerate() {
        for sq in board.pieces(us, role) & guarded {
            if !(3..=5).contains(&relative_rank(us, sq)) {
                continue;
            }
            let span = front_span(1u64 << sq.index(), us);
            if adjacent_files(span) & their_pawns == 0 {
                s += w.outpost(i);
            }
        }
    }
    s
}

/// Enemy pieces attacked by own pawns, minors or rooks (`pawn_guarded`:
/// the squares the enemy pawns guard): the side to move can take, the
/// other must spend a move on it.
fn threats<A: Acc>(
    board: &Board,
    us: Color,
    pawn_guarded: Bitboard,
    minor_attacks: Bitboard,
    rook_attacks: Bitboard,
    w: &W<'_, A>,
) -> A {
    let them = us.flip();
    let by_pawns = pawn_attacks(board.pieces(us, Role::Pawn), us);
    let exposed = |role: Role| {
        let victims = board.pieces(them, role);
        if matches!(role, Role::Knight | Role::Bishop) {
            victims & !pawn_guarded
        } else {
            victims
        }
    };
    let mut s = A::default();
    for (i, role) in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen]
        .into_iter()
        .enumerate()
    {
        s += w.threat_by_pawn(i) * (board.pieces(them, role) & by_pawns).count() as i32;
        s += w.threat_by_minor(i) * (exposed(role) & minor_attacks).count() as i32;
    }
    for (i, role) in [Role::Knight, Role::Bishop, Role::Queen]
        .into_iter()
        .enumerate()
    {
        s += w.threat_by_rook(i) * (exposed(role) & rook_attacks).count() as i32;
    }
    s
}

/// The last entry of the king danger list (more units count as this many).
const KING_DANGER_CAP: usize = 31;

/// The king's square, its neighbours, and the three squares two ranks
/// ahead of it (where attacks on a castled king land).
fn king_zone(king: Square, color: Color) -> Bitboard {
    let near = attacks::king(king).with(king);
    near | Bitboard(one_rank_up(near.0, color))
}

fn pawn_structure<A: Acc>(board: &Board, us: Color, w: &W<'_, A>) -> A {
    let them = us.flip();
    let ours = board.pieces(us, Role::Pawn);
    let theirs = board.pieces(them, Role::Pawn);
    let own_king = board.king(us);
    let their_king = board.king(them);
    let mut s = A::default();
    for sq in ours {
        let bit = 1u64 << sq.index();
        let file = Bitboard::file(sq.file()).0;
        if front_span(bit, us) & ours.0 != 0 {
            s += w.doubled_pawn();
        }
        if adjacent_files(file) & ours.0 == 0 {
            s += w.isolated_pawn();
        } else if is_backward(bit, us, ours.0, theirs.0) {
            s += w.backward_pawn();
        }
        let beside = adjacent_files(bit);
        let guards = pawn_attacks(Bitboard(bit), us.flip()).0;
        if (beside | guards) & ours.0 != 0 {
            s += w.connected_pawn(relative_rank(us, sq));
        }
        let span = front_span(bit, us);
        let blockers = span | adjacent_files(span);
        if blockers & theirs.0 == 0 && span & ours.0 == 0 {
            let rank = relative_rank(us, sq);
            s += w.passed_pawn(rank);
            if rank >= 3 {
                let stop = sq.shift(us.forward());
                let weight = rank as i32 - 2;
                if !board.occupied().contains(stop) {
                    s += w.passed_free_path() * weight;
                }
                let proximity = distance(their_king, stop) - distance(own_king, stop);
                s += w.passed_king_proximity() * (proximity * weight);
            }
        }
    }
    s
}

/// A pawn no own pawn beside or behind it can support, whose advance an
/// enemy pawn stops.
fn is_backward(bit: u64, us: Color, ours: u64, theirs: u64) -> bool {
    let level_and_behind = bit | front_span(bit, us.flip());
    if adjacent_files(level_and_behind) & ours != 0 {
        return false;
    }
    let stop = one_rank_up(bit, us);
    stop & pawn_attacks(Bitboard(theirs), us.flip()).0 != 0
}

/// In the endgame the king must reach its pawns: the distance to the
/// nearest one.
fn king_pawn_distance<A: Acc>(board: &Board, us: Color, w: &W<'_, A>) -> A {
    let king = board.king(us);
    board
        .pieces(us, Role::Pawn)
        .into_iter()
        .map(|sq| distance(king, sq))
        .min()
        .map_or_else(A::default, |d| w.king_pawn_distance() * d)
}

fn king_shelter<A: Acc>(board: &Board, us: Color, w: &W<'_, A>) -> A {
    let king = board.king(us);
    let ours = board.pieces(us, Role::Pawn).0;
    let file = Bitboard::file(king.file()).0;
    let files = file | adjacent_files(file);
    let mut s = A::default();
    let one = one_rank_up(1u64 << king.index(), us);
    let one = one | adjacent_files(one);
    let two = one_rank_up(one, us);
    s += w.pawn_shield(0) * (one & ours).count_ones() as i32;
    s += w.pawn_shield(1) * (two & ours).count_ones() as i32;
    let mut mask = files;
    while mask != 0 {
        let f = FILE_A << (mask.trailing_zeros() % 8);
        if f & ours == 0 {
            s += w.king_open_file();
        }
        mask &= !f;
    }
    for sq in board.pieces(us.flip(), Role::Pawn) & Bitboard(files) {
        s += w.pawn_storm(relative_rank(us.flip(), sq));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn eval(fen: &str) -> i32 {
        Chess::from_fen(fen).map_or(i32::MIN, |p| evaluate_board(p.board(), p.turn()))
    }

    #[test]
    fn the_search_adds_the_network_to_the_hand_written_terms_with_pawns() {
        for fen in [
            "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
            "8/5k2/8/8/8/8/1P3K2/8 b - - 0 1",
        ] {
            let p = Chess::from_fen(fen).unwrap();
            let hand = evaluate_board(p.board(), p.turn());
            let net = crate::nets::correction(&p);
            assert_eq!(p.evaluate(), hand + net, "{fen}");
        }
        let pawnless = Chess::from_fen("8/8/4k3/8/8/3n4/4K3/4R3 w - - 0 1").unwrap();
        assert_eq!(
            pawnless.evaluate(),
            evaluate_board(pawnless.board(), pawnless.turn())
        );
    }

    #[test]
    fn start_position_is_near_level() {
        let p = Chess::startpos();
        let e = evaluate_board(p.board(), p.turn());
        assert_eq!(
            e,
            Reader::<_, S>::new(&CHESS).tempo().0,
            "only the tempo bonus remains by symmetry"
        );
    }

    #[test]
    fn the_correction_key_reads_the_pawns_alone() {
        let key = |fen: &str| Chess::from_fen(fen).ok().and_then(|p| p.correction_key());
        let start = key("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        assert!(start.is_some());
        // Pieces and the side to move do not matter; a pawn's square does.
        assert_eq!(
            start,
            key("rnbqkb1r/pppppppp/5n2/8/8/5N2/PPPPPPPP/RNBQKB1R b KQkq - 2 2")
        );
        assert_ne!(
            start,
            key("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1")
        );
        // A white pawn and a black pawn on the same square differ.
        assert_ne!(
            key("4k3/8/8/8/4P3/8/8/4K3 w - - 0 1"),
            key("4k3/8/8/8/4p3/8/8/4K3 w - - 0 1")
        );
    }

    #[test]
    fn colour_flip_negates() {
        // The same position with colours swapped and the other side to move
        // scores the same for the side to move.
        let a = eval("r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4");
        let b = eval("rnbqk2r/pppp1ppp/5n2/2b1p3/4P3/2N2N2/PPPP1PPP/R1BQKB1R b KQkq - 4 4");
        assert_eq!(a, b);
    }

    #[test]
    fn extra_queen_is_winning() {
        // More than a rook's worth, whatever the tuner makes of the queen
        // and its squares.
        let rook = Reader::<_, S>::new(&CHESS).material(Role::Rook.index()).1;
        assert!(eval("4k3/8/8/8/8/8/8/3QK3 w - - 0 1") > rook);
        assert!(eval("4k3/8/8/8/8/8/8/3QK3 b - - 0 1") < -rook);
    }

    #[test]
    fn passed_pawn_beats_blocked_pawn() {
        let passed = eval("4k3/8/8/3P4/8/8/8/4K3 w - - 0 1");
        let blocked = eval("4k3/3p4/8/3P4/8/8/8/4K3 w - - 0 1");
        assert!(passed > blocked + 60, "{passed} vs {blocked}");
    }

    fn see(fen: &str, mv: &str, threshold: i32) -> bool {
        let pos = Chess::from_fen(fen).expect("valid fen");
        let m = pos.parse_move(mv).expect("legal move");
        pos.see_ge(m, threshold)
    }

    #[test]
    fn static_exchange() {
        // Pawn takes a defended knight: wins a knight for a pawn.
        let f = "4k3/8/2p5/3n4/4P3/8/8/4K3 w - - 0 1";
        assert!(see(f, "e4d5", 200));
        assert!(!see(f, "e4d5", 260));
        // Rook takes a pawn defended by a pawn: loses the exchange.
        let f = "4k3/8/2p5/3p4/8/8/8/3RK3 w - - 0 1";
        assert!(!see(f, "d1d5", 0));
        assert!(see(f, "d1d5", -400));
        // Undefended queen: free.
        let f = "4k3/8/8/3q4/8/8/8/3RK3 w - - 0 1";
        assert!(see(f, "d1d5", 900));
        // X-ray: the second rook behind the first supports the capture.
        let f = "3rk3/8/8/3p4/8/8/3R4/3RK3 w - - 0 1";
        assert!(see(f, "d2d5", 100));
        assert!(!see(f, "d2d5", 101));
        // A quiet move onto a square a pawn guards loses the piece.
        let f = "4k3/8/8/8/3p4/8/8/3NK3 w - - 0 1";
        assert!(!see(f, "d1e3", 0));
        assert!(see(f, "d1f2", 0));
        // En passant wins a pawn.
        assert!(see("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2", "e5d6", 100));
        // The pawn taken en passant leaves its square: the rook behind it
        // then guards d6, so the rook in front cannot win the pawn back.
        let f = "3r2k1/8/8/3pP3/8/8/8/3RK3 w - d6 0 2";
        assert!(see(f, "e5d6", 100));
        assert!(!see(f, "e5d6", 101));
    }

    /// The coefficient of the tapered weight `field` in the trace of `pos`.
    fn traced(pos: &str, field: &str) -> i32 {
        use crate::weights::Table;
        let names = ChessWeights::names();
        let Some(index) = names.iter().position(|n| n == field) else {
            panic!("no weight {field}");
        };
        let pos = Chess::from_fen(pos).unwrap();
        trace(&pos)
            .tapered
            .iter()
            .filter(|&&(i, _)| i as usize == index)
            .map(|&(_, c)| c)
            .sum()
    }

    /// `(fen, weight, coefficient)`: what each term of the trace counts,
    /// one position at a time.
    const TRACED: &[(&str, &str, i32)] = &[
        // A passer on d6 (relative rank 6, weight 3) with d7 empty has a
        // free path; with a black knight on d7 it has not.
        ("6k1/8/3P4/8/8/8/8/K7 w - - 0 1", "passed_free_path", 3),
        ("6k1/3n4/3P4/8/8/8/8/K7 w - - 0 1", "passed_free_path", 0),
        // King distances are to d7: black's king on g8 is 3 away, White's
        // on a1 is 6 away, so (3 - 6) * 3.
        (
            "6k1/8/3P4/8/8/8/8/K7 w - - 0 1",
            "passed_king_proximity",
            -9,
        ),
        // The e4 pawn hits the knight on d5 and the bishop on f5 (list
        // entries: knight, bishop, rook, queen).
        (
            "4k3/8/8/3n1b2/4P3/8/8/4K3 w - - 0 1",
            "threat_by_pawn[0]",
            1,
        ),
        (
            "4k3/8/8/3n1b2/4P3/8/8/4K3 w - - 0 1",
            "threat_by_pawn[1]",
            1,
        ),
        (
            "4k3/8/8/3n1b2/4P3/8/8/4K3 w - - 0 1",
            "threat_by_pawn[2]",
            0,
        ),
        // The knights on d5 and f4 attack each other, but each is guarded
        // by a pawn, so neither counts; a queen on d5 always counts.
        (
            "4k3/8/2p5/3n4/5N2/6P1/8/4K3 w - - 0 1",
            "threat_by_minor[0]",
            0,
        ),
        (
            "4k3/8/2p5/3q4/5N2/6P1/8/4K3 w - - 0 1",
            "threat_by_minor[3]",
            1,
        ),
        // A rook on d1 sees the unguarded knight on d5 (and Black's knight
        // attacks nothing of White's): the coefficients are White's minus
        // Black's.
        ("4k3/8/8/3n4/8/8/8/3RK3 w - - 0 1", "threat_by_rook[0]", 1),
        ("4k3/8/8/3N4/8/8/8/3rK3 w - - 0 1", "threat_by_rook[0]", -1),
        // The rook on d1 hits the knight on d5, which nothing guards; the
        // pawn on c6 would guard it.
        ("4k3/8/8/3n4/8/8/8/3RK3 w - - 0 1", "hanging[1]", 1),
        ("4k3/8/2p5/3n4/8/8/8/3RK3 w - - 0 1", "hanging[1]", 0),
        // Ra1-a8 checks and nothing of Black's covers a8: a safe rook
        // check. From d1 the only check is on d8, which the king guards.
        ("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", "safe_check[2]", 1),
        ("4k3/8/8/8/8/8/8/3RK3 w - - 0 1", "safe_check[2]", 0),
        // The knight on e4 can check from d6 and f6: a pawn on g7 covers
        // f6 only, pawns on e7 and g7 cover both.
        ("4k3/8/8/8/4N3/8/8/4K3 w - - 0 1", "safe_check[0]", 1),
        ("4k3/6p1/8/8/4N3/8/8/4K3 w - - 0 1", "safe_check[0]", 1),
        ("4k3/4p1p1/8/8/4N3/8/8/4K3 w - - 0 1", "safe_check[0]", 0),
        // Knight on e5 guarded by d4, no black pawn on d or f files ahead;
        // a black pawn on f7 can still drive it away; unguarded, none.
        ("4k3/8/8/4N3/3P4/8/8/4K3 w - - 0 1", "outpost[0]", 1),
        ("4k3/5p2/8/4N3/3P4/8/8/4K3 w - - 0 1", "outpost[0]", 0),
        ("4k3/8/8/4N3/8/8/8/4K3 w - - 0 1", "outpost[0]", 0),
        // d4 and e4 side by side: both connected, relative rank 4 (index
        // 3); d4 guarding e5 from behind: e5 is connected, d4 is not.
        ("4k3/8/8/8/3PP3/8/8/4K3 w - - 0 1", "connected_pawn[3]", 2),
        ("4k3/8/8/4P3/3P4/8/8/4K3 w - - 0 1", "connected_pawn[4]", 1),
        ("4k3/8/8/4P3/3P4/8/8/4K3 w - - 0 1", "connected_pawn[3]", 0),
        // d3 cannot be supported (e4 is ahead of it) and c5 guards its stop
        // square; e4 has d3 behind it. Black's c5 is isolated, which is
        // scored as such and not as backward.
        ("4k3/8/8/2p5/4P3/3P4/8/4K3 w - - 0 1", "backward_pawn", 1),
        ("4k3/8/8/8/4P3/3P4/8/4K3 w - - 0 1", "backward_pawn", 0),
        // e4-e5 would hit the knight on d6; a pawn on f6 guards e5.
        ("4k3/8/3n4/8/4P3/8/8/4K3 w - - 0 1", "pawn_push_threat", 1),
        ("4k3/8/3n1p2/8/4P3/8/8/4K3 w - - 0 1", "pawn_push_threat", 0),
        // The double step d2-d4 hits c5, though the knight attacks d3.
        ("4k3/8/8/2n5/8/8/3P4/4K3 w - - 0 1", "pawn_push_threat", 1),
        // The pawn on g4 is on Black's fifth rank (index 4), on the files
        // of White's king on g1; White's e5 storms Black's king.
        ("4k3/8/8/8/6p1/8/8/6K1 w - - 0 1", "pawn_storm[4]", 1),
        ("4k3/8/8/4P3/6p1/8/8/6K1 w - - 0 1", "pawn_storm[4]", 0),
        // White's king on e1 is 4 from a2 and 3 from h4; Black has no pawn.
        ("4k3/8/8/8/7P/8/P7/4K3 w - - 0 1", "king_pawn_distance", 3),
        // The c1 bishop is on dark squares, as are b2 and d2; a2 and c2
        // are light.
        ("4k3/8/8/8/8/8/1P1P4/2B1K3 w - - 0 1", "bishop_pawns", 2),
        ("4k3/8/8/8/8/8/P1P5/2B1K3 w - - 0 1", "bishop_pawns", 0),
        ("4k3/R7/8/8/8/8/8/4K3 w - - 0 1", "rook_on_seventh", 1),
        ("4k3/8/8/8/8/8/r7/4K3 w - - 0 1", "rook_on_seventh", -1),
        // A pawn of either side in front of the knight counts.
        ("4k3/8/8/3p4/3N4/8/8/4K3 w - - 0 1", "minor_behind_pawn", 1),
        ("4k3/8/8/8/3N4/8/8/4K3 w - - 0 1", "minor_behind_pawn", 0),
        // A lone knight on a1 reaches b3 and c2: entry 2 of its curve.
        (
            "4k3/8/8/8/8/8/8/N3K3 w - - 0 1",
            "mobility_curve.knight[2]",
            1,
        ),
        (
            "4k3/8/8/8/8/8/8/N3K3 w - - 0 1",
            "mobility_curve.knight[3]",
            0,
        ),
    ];

    #[test]
    fn each_term_counts_what_it_names() {
        for &(fen, field, expected) in TRACED {
            assert_eq!(traced(fen, field), expected, "{field} in {fen}");
        }
    }

    #[test]
    fn minor_piece_alone_is_scaled_down() {
        let e = eval("4k3/8/8/8/8/8/8/3NK3 w - - 0 1");
        assert!((0..100).contains(&e), "{e}");
    }
}
