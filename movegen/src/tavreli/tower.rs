//! `TowerPiece` and `Tower`: a stack of up to 32 Tavreli pieces packed into
//! plain integers, so splitting and stacking are shifts and masks.
//!
//! ```
//! use movegen::{Color, Role, Tower, TowerPiece};
//! let mut t = Tower::EMPTY;
//! t.push(TowerPiece::pawn(Color::White, Role::Queen));
//! t.push(TowerPiece::new(Color::Black, Role::Rook));
//! let (bottom, group) = t.split(1);
//! assert_eq!(bottom.top(), Some(TowerPiece::pawn(Color::White, Role::Queen)));
//! assert_eq!(group.top().map(|p| p.role()), Some(Role::Rook));
//! ```

use crate::types::{Color, File, Rank, Role, Square};

/// Most pieces a tower can hold (the whole set; 31 is reachable in play).
pub const TOWER_CAPACITY: usize = 32;

/// Kind codes (4 bits). Pawns carry their promotion piece in the code, so a
/// piece is one nibble plus a colour bit:
///
/// ```text
/// 0 K  1 Q  2 R  3 B  4 N  5 H
/// 6..=10   pawn promoting to N B R Q H
/// 11..=15  promoted pawn now moving as N B R Q H
/// ```
const PAWN0: u8 = 6;
const PROMOTED0: u8 = 11;

/// The promotion pieces in code order.
const PROMOS: [Role; 5] = [
    Role::Knight,
    Role::Bishop,
    Role::Rook,
    Role::Queen,
    Role::Helgi,
];

/// The role each kind code moves as.
const KIND_ROLE: [Role; 16] = [
    Role::King,
    Role::Queen,
    Role::Rook,
    Role::Bishop,
    Role::Knight,
    Role::Helgi,
    Role::Pawn,
    Role::Pawn,
    Role::Pawn,
    Role::Pawn,
    Role::Pawn,
    Role::Knight,
    Role::Bishop,
    Role::Rook,
    Role::Queen,
    Role::Helgi,
];

const fn promo_index(role: Role) -> Option<u8> {
    match role {
        Role::Knight => Some(0),
        Role::Bishop => Some(1),
        Role::Rook => Some(2),
        Role::Queen => Some(3),
        Role::Helgi => Some(4),
        _ => None,
    }
}

const fn plain_kind(role: Role) -> u8 {
    match role {
        Role::King => 0,
        Role::Queen => 1,
        Role::Rook => 2,
        Role::Bishop => 3,
        Role::Knight => 4,
        Role::Helgi => 5,
        Role::Pawn => PAWN0 + 3,
    }
}

/// The piece that starts on a file and so the promotion piece of that file's
/// pawns: a/h rook, b/g knight, c/f bishop, d queen, e helgi.
#[must_use]
pub const fn home_piece(file: File) -> Role {
    match file.0 {
        0 | 7 => Role::Rook,
        1 | 6 => Role::Knight,
        2 | 5 => Role::Bishop,
        3 => Role::Queen,
        _ => Role::Helgi,
    }
}

/// One piece inside a tower: colour, role, and for pawns the promotion piece
/// and whether it is promoted. Packed in 5 bits (`code()`).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct TowerPiece(u8);

impl TowerPiece {
    /// A king, queen, rook, bishop, knight or helgi. For `Role::Pawn` this
    /// gives a queen pawn; use [`TowerPiece::pawn`] to choose.
    #[must_use]
    pub const fn new(color: Color, role: Role) -> TowerPiece {
        TowerPiece(plain_kind(role) | (color as u8) << 4)
    }

    /// An unpromoted pawn with promotion piece `promo` (N B R Q H; anything
    /// else gives a queen pawn).
    #[must_use]
    pub const fn pawn(color: Color, promo: Role) -> TowerPiece {
        let p = match promo_index(promo) {
            Some(p) => p,
            None => 3,
        };
        TowerPiece((PAWN0 + p) | ((color as u8) << 4))
    }

    /// A promoted pawn moving as `promo` (N B R Q H; anything else gives Q~).
    #[must_use]
    pub const fn promoted(color: Color, promo: Role) -> TowerPiece {
        let p = match promo_index(promo) {
            Some(p) => p,
            None => 3,
        };
        TowerPiece((PROMOTED0 + p) | ((color as u8) << 4))
    }

    /// The 5-bit code (kind | colour << 4), 0..32, for tables and keys.
    #[must_use]
    #[inline]
    pub const fn code(self) -> u8 {
        self.0
    }

    #[inline]
    const fn kind(self) -> u8 {
        self.0 & 15
    }

    /// Its side.
    #[must_use]
    #[inline]
    pub const fn color(self) -> Color {
        if self.0 & 16 == 0 {
            Color::White
        } else {
            Color::Black
        }
    }

    /// The role it moves as (a promoted pawn moves as its promotion piece).
    #[must_use]
    #[inline]
    pub const fn role(self) -> Role {
        KIND_ROLE[self.kind() as usize]
    }

    /// The role a piece of kind code `kind` (0–15, the low four bits of a
    /// piece code) moves as, for code outside movegen that indexes by kind.
    #[must_use]
    pub const fn role_of_kind(kind: usize) -> Role {
        KIND_ROLE[kind % KIND_ROLE.len()]
    }

    /// `true` for an unpromoted pawn.
    #[must_use]
    #[inline]
    pub const fn is_pawn(self) -> bool {
        self.kind() >= PAWN0 && self.kind() < PROMOTED0
    }

    /// `true` for a promoted pawn (`Q~` …).
    #[must_use]
    #[inline]
    pub const fn is_promoted(self) -> bool {
        self.kind() >= PROMOTED0
    }

    /// The promotion piece of a pawn, promoted or not.
    #[must_use]
    pub const fn promotion(self) -> Option<Role> {
        let k = self.kind();
        if k >= PROMOTED0 {
            Some(PROMOS[(k - PROMOTED0) as usize])
        } else if k >= PAWN0 {
            Some(PROMOS[(k - PAWN0) as usize])
        } else {
            None
        }
    }

    /// A pawn turned into its promotion piece; other pieces unchanged.
    #[must_use]
    #[inline]
    pub const fn promote(self) -> TowerPiece {
        if self.is_pawn() {
            TowerPiece(self.0 + (PROMOTED0 - PAWN0))
        } else {
            self
        }
    }

    /// A promoted pawn turned back into a pawn; other pieces unchanged.
    #[must_use]
    #[inline]
    pub const fn demote(self) -> TowerPiece {
        if self.is_promoted() {
            TowerPiece(self.0 - (PROMOTED0 - PAWN0))
        } else {
            self
        }
    }

    /// `true` if this is an unpromoted pawn on its own last rank (it must
    /// promote when it ends a move as a tower's top there).
    #[must_use]
    #[inline]
    pub const fn must_promote_on(self, rank: Rank) -> bool {
        self.is_pawn() && rank.0 == self.color().relative_rank(7).0
    }

    /// The FEN token on a square of `file` (RULES.md §4.6): `K`, `p`,
    /// `P=N` (only when the promotion piece is not the file's home piece), `Q~`.
    #[must_use]
    pub fn token(self, file: File) -> String {
        let color = self.color();
        let mut s = String::new();
        if self.is_pawn() {
            s.push(Role::Pawn.char_for(color));
            if let Some(p) = self.promotion() {
                if p != home_piece(file) {
                    s.push('=');
                    s.push(p.char_for(color));
                }
            }
        } else {
            s.push(self.role().char_for(color));
            if self.is_promoted() {
                s.push('~');
            }
        }
        s
    }
}

/// A stack of 0..=32 pieces, bottom to top: 4-bit kind codes in a `u128`
/// (bottom at the low end), colour bits in a `u32`, the height, and the top
/// piece's code (0 when empty) kept beside them, because the top is read
/// far more often than it changes and a variable `u128` shift is not free
/// (it fills padding: the size stays 32 bytes). Bits above the height are
/// always zero, so derived equality compares stacks.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Tower {
    kinds: u128,
    colors: u32,
    len: u8,
    top: u8,
}

const _: () = assert!(std::mem::size_of::<Tower>() == 32);

#[inline]
const fn low_nibbles(n: u32) -> u128 {
    if n >= 32 {
        !0
    } else {
        (1u128 << (4 * n)) - 1
    }
}

#[inline]
const fn low_bits(n: u32) -> u32 {
    if n >= 32 {
        !0
    } else {
        (1u32 << n) - 1
    }
}

impl Tower {
    /// The empty square.
    pub const EMPTY: Tower = Tower {
        kinds: 0,
        colors: 0,
        len: 0,
        top: 0,
    };

    /// A tower of one piece.
    #[must_use]
    #[inline]
    pub const fn single(p: TowerPiece) -> Tower {
        Tower {
            kinds: p.kind() as u128,
            colors: (p.0 >> 4) as u32,
            len: 1,
            top: p.0,
        }
    }

    /// Number of pieces.
    #[must_use]
    #[inline]
    pub const fn len(self) -> usize {
        self.len as usize
    }

    /// `true` for an empty square.
    #[must_use]
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.len == 0
    }

    /// The piece at `depth` (0 = bottom).
    #[must_use]
    #[inline]
    pub const fn get(self, depth: usize) -> Option<TowerPiece> {
        if depth >= self.len as usize {
            return None;
        }
        let kind = ((self.kinds >> (4 * depth)) & 15) as u8;
        let color = ((self.colors >> depth) & 1) as u8;
        Some(TowerPiece(kind | color << 4))
    }

    /// The top piece, which owns and moves the tower.
    #[must_use]
    #[inline]
    pub const fn top(self) -> Option<TowerPiece> {
        if self.len == 0 {
            None
        } else {
            Some(TowerPiece(self.top))
        }
    }

    /// Puts one piece on top; `false` (tower unchanged) if it is full.
    pub fn push(&mut self, p: TowerPiece) -> bool {
        if self.len() >= TOWER_CAPACITY {
            return false;
        }
        self.kinds |= u128::from(p.kind()) << (4 * u32::from(self.len));
        self.colors |= u32::from(p.0 >> 4) << self.len;
        self.len += 1;
        self.top = p.0;
        true
    }

    /// Replaces the top piece (no-op on an empty tower).
    #[inline]
    pub fn set_top(&mut self, p: TowerPiece) {
        if self.len == 0 {
            return;
        }
        let d = u32::from(self.len) - 1;
        self.kinds = (self.kinds & !(15u128 << (4 * d))) | u128::from(p.kind()) << (4 * d);
        self.colors = (self.colors & !(1 << d)) | u32::from(p.0 >> 4) << d;
        self.top = p.0;
    }

    /// Splits off the top `k` pieces (clamped to the height): `(bottom, group)`.
    #[must_use]
    #[inline]
    pub const fn split(self, k: usize) -> (Tower, Tower) {
        let k = if k > self.len as usize {
            self.len as u32
        } else {
            k as u32
        };
        let rest = self.len as u32 - k;
        let mut bottom = Tower {
            kinds: self.kinds & low_nibbles(rest),
            colors: self.colors & low_bits(rest),
            len: rest as u8,
            top: 0,
        };
        if rest > 0 {
            bottom.top = match self.get(rest as usize - 1) {
                Some(p) => p.0,
                None => 0,
            };
        }
        let group = Tower {
            kinds: if rest >= 32 {
                0
            } else {
                self.kinds >> (4 * rest)
            },
            colors: if rest >= 32 { 0 } else { self.colors >> rest },
            len: k as u8,
            top: if k == 0 { 0 } else { self.top },
        };
        (bottom, group)
    }

    /// Places `group` on top (order kept). A promoted pawn that gets covered
    /// turns back into a pawn (RULES.md §4.3). Pieces beyond the capacity are
    /// dropped, which a legal position (at most 32 pieces) never reaches.
    #[inline]
    pub fn place(&mut self, group: Tower) {
        if let Some(top) = self.top() {
            if group.len > 0 && top.is_promoted() {
                self.set_top(top.demote());
            }
        }
        let keep = (TOWER_CAPACITY - self.len()).min(group.len());
        let g = if keep == group.len() {
            group
        } else {
            group.split(group.len() - keep).0
        };
        let shift = u32::from(self.len);
        self.kinds |= g.kinds.checked_shl(4 * shift).unwrap_or(0);
        self.colors |= g.colors.checked_shl(shift).unwrap_or(0);
        self.len += g.len;
        if g.len > 0 {
            self.top = g.top;
        }
    }

    /// Promotes the top if it is an unpromoted pawn on its last rank at `sq`.
    #[inline]
    pub fn promote_top_on(&mut self, sq: Square) {
        if let Some(top) = self.top() {
            if top.must_promote_on(sq.rank()) {
                self.set_top(top.promote());
            }
        }
    }

    /// Bit `d` set where the pieces at depth `d` of `self` and `other` differ
    /// (including one being absent): the depths whose keys change.
    #[must_use]
    #[inline]
    pub fn diff_mask(self, other: Tower) -> u32 {
        let (lo, hi) = if self.len < other.len {
            (self.len, other.len)
        } else {
            (other.len, self.len)
        };
        let mut mask =
            (self.colors ^ other.colors) | (low_bits(u32::from(hi)) & !low_bits(u32::from(lo)));
        let mut x = self.kinds ^ other.kinds;
        // Fold each nibble onto its lowest bit, then visit the set nibbles.
        x |= x >> 1;
        x |= x >> 2;
        x &= 0x1111_1111_1111_1111_1111_1111_1111_1111;
        while x != 0 {
            mask |= 1 << (x.trailing_zeros() / 4);
            x &= x - 1;
        }
        mask
    }

    /// The pieces bottom to top.
    #[inline]
    pub fn iter(self) -> impl Iterator<Item = TowerPiece> {
        Pieces {
            kinds: self.kinds,
            colors: self.colors,
            left: self.len,
        }
    }

    /// The FEN token of the tower on a square of `file`: `""` when empty, a
    /// piece token for one piece, `( … )` bottom to top otherwise.
    #[must_use]
    pub fn token(self, file: File) -> String {
        match self.len {
            0 => String::new(),
            1 => self.top().map(|p| p.token(file)).unwrap_or_default(),
            _ => {
                let mut s = String::from("(");
                for p in self.iter() {
                    s.push_str(&p.token(file));
                }
                s.push(')');
                s
            }
        }
    }
}

/// The pieces of a tower bottom to top, shifted out one by one (constant
/// shifts, unlike `Tower::get`).
struct Pieces {
    kinds: u128,
    colors: u32,
    left: u8,
}

impl Iterator for Pieces {
    type Item = TowerPiece;

    #[inline]
    fn next(&mut self) -> Option<TowerPiece> {
        if self.left == 0 {
            return None;
        }
        let p = TowerPiece((self.kinds & 15) as u8 | ((self.colors & 1) as u8) << 4);
        self.kinds >>= 4;
        self.colors >>= 1;
        self.left -= 1;
        Some(p)
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        (usize::from(self.left), Some(usize::from(self.left)))
    }
}

impl ExactSizeIterator for Pieces {}

impl std::fmt::Debug for Tower {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // The d-file token: promotion pieces other than a queen are spelled out.
        write!(f, "Tower[{}]", self.token(File(3)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tower(pieces: &[TowerPiece]) -> Tower {
        let mut t = Tower::EMPTY;
        for &p in pieces {
            assert!(t.push(p));
        }
        t
    }

    /// Every role a piece that is not a pawn may have.
    const PLAIN_ROLES: [Role; 6] = [
        Role::King,
        Role::Queen,
        Role::Rook,
        Role::Bishop,
        Role::Knight,
        Role::Helgi,
    ];

    #[test]
    fn role_of_kind_agrees_with_each_piece_code() {
        for color in Color::ALL {
            for role in PLAIN_ROLES {
                let piece = TowerPiece::new(color, role);
                assert_eq!(TowerPiece::role_of_kind(piece.code() as usize & 15), role);
            }
            for promo in PROMOS {
                let pawn = TowerPiece::pawn(color, promo);
                assert_eq!(
                    TowerPiece::role_of_kind(pawn.code() as usize & 15),
                    Role::Pawn
                );
                let promoted = TowerPiece::promoted(color, promo);
                assert_eq!(
                    TowerPiece::role_of_kind(promoted.code() as usize & 15),
                    promo
                );
            }
        }
    }

    #[test]
    fn pieces_round_trip_their_fields() {
        for color in Color::ALL {
            for role in PROMOS {
                let p = TowerPiece::pawn(color, role);
                assert_eq!(
                    (p.color(), p.role(), p.promotion()),
                    (color, Role::Pawn, Some(role))
                );
                assert!(p.is_pawn() && !p.is_promoted());
                let q = p.promote();
                assert_eq!(
                    (q.color(), q.role(), q.promotion()),
                    (color, role, Some(role))
                );
                assert!(q.is_promoted() && !q.is_pawn());
                assert_eq!(q.demote(), p);
                assert_eq!(TowerPiece::promoted(color, role), q);
            }
            for role in PLAIN_ROLES {
                let p = TowerPiece::new(color, role);
                assert_eq!((p.color(), p.role(), p.promotion()), (color, role, None));
                assert_eq!(p.promote(), p);
            }
        }
    }

    #[test]
    fn split_and_place_keep_order() {
        let w = |r| TowerPiece::new(Color::White, r);
        let b = |r| TowerPiece::new(Color::Black, r);
        let t = tower(&[
            w(Role::Rook),
            b(Role::Knight),
            w(Role::Bishop),
            b(Role::Queen),
        ]);
        let (bottom, group) = t.split(3);
        assert_eq!(bottom, tower(&[w(Role::Rook)]));
        assert_eq!(
            group,
            tower(&[b(Role::Knight), w(Role::Bishop), b(Role::Queen)])
        );
        let mut again = bottom;
        again.place(group);
        assert_eq!(again, t);
        assert_eq!(t.split(4), (Tower::EMPTY, t));
        assert_eq!(t.split(9), (Tower::EMPTY, t));
        // A full tower splits and restacks without losing the top nibble.
        let full = tower(&[b(Role::Helgi); 32]);
        let (lo, hi) = full.split(1);
        assert_eq!((lo.len(), hi.len()), (31, 1));
        let mut back = lo;
        back.place(hi);
        assert_eq!(back, full);
    }

    #[test]
    fn covering_demotes_a_promoted_top() {
        let mut t = tower(&[TowerPiece::promoted(Color::White, Role::Knight)]);
        t.place(Tower::single(TowerPiece::new(Color::Black, Role::Rook)));
        assert_eq!(t.get(0), Some(TowerPiece::pawn(Color::White, Role::Knight)));
    }

    #[test]
    fn diff_mask_marks_changed_depths() {
        let w = |r| TowerPiece::new(Color::White, r);
        let a = tower(&[w(Role::Rook), w(Role::King)]);
        let b = tower(&[w(Role::Rook), w(Role::Queen), w(Role::King)]);
        assert_eq!(a.diff_mask(b), 0b110);
        assert_eq!(a.diff_mask(a), 0);
        let c = tower(&[w(Role::Rook), TowerPiece::new(Color::Black, Role::King)]);
        assert_eq!(a.diff_mask(c), 0b10);
    }
}
