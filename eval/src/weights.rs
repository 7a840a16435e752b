//! Evaluation weights as data: one table per variant, stored as the plain
//! numbers of a text file (`eval/params/<variant>.txt`) that is read at
//! compile time, and the machinery that lets one evaluation function serve
//! both the search and the tuner.
//!
//! - A table type is declared with `weight_table!` (in each variant's module):
//!   named fields of three kinds — [`Kind::Tapered`] `(mg, eg)` pairs,
//!   [`Kind::Flat`] single values, [`Kind::Fixed`] structural constants the
//!   tuner leaves alone — each a scalar, a list or a grid with row labels.
//! - The evaluation reads weights through a [`Reader`], generic over an
//!   accumulator [`Acc`]: with [`S`] it adds plain score pairs (the search's
//!   evaluation, no overhead); with [`Traced`] every weight also carries its
//!   index, so the same code yields a [`Trace`]: the evaluation as a linear
//!   function of the weights, exact by construction.
//! - [`Table`] flattens a table to its weights (what the tuner fits), names
//!   them, and writes the text file back.
//!
//! ```
//! use eval::chess::CHESS;
//! use eval::weights::Table;
//! let text = CHESS.to_text();
//! assert_eq!(eval::chess::ChessWeights::from_text(&text).unwrap(), CHESS);
//! ```

use crate::pst::{taper, S};
use movegen::Color;
use std::fmt::Write as _;
use std::marker::PhantomData;
use std::ops::{Add, AddAssign, Mul, Neg, Sub, SubAssign};

/// How a field's numbers enter the evaluation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A `(middlegame, endgame)` pair blended by the game phase: two
    /// numbers per weight, two tuner parameters.
    Tapered,
    /// One value whatever the phase: one number, one tuner parameter.
    Flat,
    /// A structural constant (a count subtracted, an index weight): read by
    /// the evaluation, never tuned.
    Fixed,
}

/// One field of a table: a scalar (`rows == cols == 1`), a list
/// (`rows == 1`) or a grid with one label per row.
#[derive(Clone, Copy, Debug)]
pub struct FieldInfo {
    /// The field's name in code and in the file.
    pub name: &'static str,
    /// How its numbers are used.
    pub kind: Kind,
    /// Rows (1 unless a grid).
    pub rows: usize,
    /// Entries per row; 64 is written as a board.
    pub cols: usize,
    /// Names of the rows of a grid (empty otherwise).
    pub row_labels: &'static [&'static str],
    /// What the field means (its doc comment).
    pub doc: &'static str,
}

impl FieldInfo {
    /// Numbers per entry in the file.
    const fn width(&self) -> usize {
        match self.kind {
            Kind::Tapered => 2,
            Kind::Flat | Kind::Fixed => 1,
        }
    }

    /// Numbers the field takes in the file.
    #[must_use]
    pub const fn numbers(&self) -> usize {
        self.rows * self.cols * self.width()
    }

    /// Weights the field adds to the tuner's vector (none if fixed).
    #[must_use]
    pub const fn weights(&self) -> usize {
        match self.kind {
            Kind::Fixed => 0,
            Kind::Tapered | Kind::Flat => self.rows * self.cols,
        }
    }
}

/// Where a field starts: in the file's numbers and in the weight vector.
#[doc(hidden)]
#[derive(Clone, Copy, Debug)]
pub struct At {
    pub number: usize,
    pub weight: usize,
    pub rows: usize,
    pub cols: usize,
}

/// Total numbers of a layout.
#[must_use]
pub const fn number_count(layout: &[FieldInfo]) -> usize {
    locate(layout, "").number
}

/// Total tunable weights of a layout.
#[must_use]
pub const fn weight_count(layout: &[FieldInfo]) -> usize {
    locate(layout, "").weight
}

const fn str_eq(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// The offsets of field `name` (evaluated at compile time by the
/// accessors; an unknown name is a compile error); `""` gives the totals.
#[doc(hidden)]
#[must_use]
pub const fn locate(layout: &[FieldInfo], name: &str) -> At {
    let (mut number, mut weight) = (0, 0);
    let mut i = 0;
    while i < layout.len() {
        if str_eq(layout[i].name, name) {
            return At {
                number,
                weight,
                rows: layout[i].rows,
                cols: layout[i].cols,
            };
        }
        number += layout[i].numbers();
        weight += layout[i].weights();
        i += 1;
    }
    assert!(name.is_empty(), "weight_table: no such field");
    At {
        number,
        weight,
        rows: 0,
        cols: 0,
    }
}

/// One step of reading a table file.
enum Scan {
    /// A number and the position after it.
    Number(i32, usize),
    /// Only white space, names and comments were left.
    End,
    /// Something that is neither at this byte position.
    Bad(usize),
}

/// Largest magnitude a table number may have (keeps every product of a
/// weight and a coefficient far from overflow).
const MAX_NUMBER: i32 = 1_000_000;

/// The next number at or after `pos`: white space is skipped, `#` starts a
/// comment to the end of the line, and a token starting with a letter or
/// `_` is a name (for people; skipped).
const fn scan(bytes: &[u8], mut pos: usize) -> Scan {
    while pos < bytes.len() {
        let b = bytes[pos];
        if b.is_ascii_whitespace() {
            pos += 1;
        } else if b == b'#' {
            while pos < bytes.len() && bytes[pos] != b'\n' {
                pos += 1;
            }
        } else if b.is_ascii_alphabetic() || b == b'_' {
            while pos < bytes.len() && !bytes[pos].is_ascii_whitespace() {
                pos += 1;
            }
        } else if b == b'-' || b.is_ascii_digit() {
            return scan_number(bytes, pos);
        } else {
            return Scan::Bad(pos);
        }
    }
    Scan::End
}

const fn scan_number(bytes: &[u8], start: usize) -> Scan {
    let negative = bytes[start] == b'-';
    let mut pos = start + negative as usize;
    let first = pos;
    let mut v: i32 = 0;
    while pos < bytes.len() && bytes[pos].is_ascii_digit() {
        v = v * 10 + (bytes[pos] - b'0') as i32;
        if v > MAX_NUMBER {
            return Scan::Bad(start);
        }
        pos += 1;
    }
    if pos == first || (pos < bytes.len() && !bytes[pos].is_ascii_whitespace()) {
        return Scan::Bad(start);
    }
    Scan::Number(if negative { -v } else { v }, pos)
}

/// Reads exactly `N` numbers from a table file at compile time.
///
/// # Panics
/// (A compile error when used in a `const`.) On a malformed token or a
/// count other than `N`.
#[doc(hidden)]
#[must_use]
pub const fn parse_numbers<const N: usize>(text: &str) -> [i32; N] {
    let bytes = text.as_bytes();
    let mut out = [0; N];
    let mut n = 0;
    let mut pos = 0;
    loop {
        match scan(bytes, pos) {
            Scan::Number(v, next) => {
                assert!(n < N, "weight table file: more numbers than the layout has");
                out[n] = v;
                n += 1;
                pos = next;
            }
            Scan::End => break,
            Scan::Bad(_) => panic!("weight table file: a token is neither a number nor a name"),
        }
    }
    assert!(
        n == N,
        "weight table file: fewer numbers than the layout has"
    );
    out
}

/// Reads the numbers of a table file at run time.
///
/// # Errors
/// The line of a malformed token, or the counts if they differ from `expected`.
pub fn read_numbers(text: &str, expected: usize) -> Result<Vec<i32>, String> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(expected);
    let mut pos = 0;
    loop {
        match scan(bytes, pos) {
            Scan::Number(v, next) => {
                out.push(v);
                pos = next;
            }
            Scan::End => break,
            Scan::Bad(at) => {
                let line = 1 + bytes[..at].iter().filter(|&&b| b == b'\n').count();
                let token: String = text[at..]
                    .split_whitespace()
                    .next()
                    .unwrap_or_default()
                    .chars()
                    .take(20)
                    .collect();
                return Err(format!(
                    "line {line}: \"{token}\" is neither a number (at most {MAX_NUMBER} in size) nor a name"
                ));
            }
        }
    }
    if out.len() == expected {
        Ok(out)
    } else {
        Err(format!("{} numbers, the layout has {expected}", out.len()))
    }
}

/// Where one weight lives in the file's numbers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Slot {
    /// Its middlegame number (the only one if flat).
    pub mg: usize,
    /// Its endgame number (equal to `mg` if flat).
    pub eg: usize,
    /// Tapered or flat.
    pub kind: Kind,
}

/// A weight table of one variant (declared with `weight_table!`).
pub trait Table: Clone + Send + Sync + std::fmt::Debug + 'static {
    /// The variant's name (`chess`, `plunder`, `tavreli`).
    const VARIANT: &'static str;
    /// The fields in file order.
    const LAYOUT: &'static [FieldInfo];

    /// The numbers in file order.
    fn numbers(&self) -> &[i32];

    /// A table from its numbers.
    ///
    /// # Errors
    /// If the count is not the layout's.
    fn from_numbers(numbers: &[i32]) -> Result<Self, String>;

    /// Reads a table file (the format [`Table::to_text`] writes).
    ///
    /// # Errors
    /// A malformed token (with its line) or a wrong number count.
    fn from_text(text: &str) -> Result<Self, String> {
        Self::from_numbers(&read_numbers(text, number_count(Self::LAYOUT))?)
    }

    /// Every tunable weight's place in the numbers, in weight order (the
    /// indices a [`Trace`] uses).
    fn slots() -> Vec<Slot> {
        let mut out = Vec::with_capacity(weight_count(Self::LAYOUT));
        let mut base = 0;
        for f in Self::LAYOUT {
            if f.kind != Kind::Fixed {
                for r in 0..f.rows {
                    for c in 0..f.cols {
                        let mg = base + r * f.cols * f.width() + c;
                        let eg = if f.kind == Kind::Tapered {
                            mg + f.cols
                        } else {
                            mg
                        };
                        out.push(Slot {
                            mg,
                            eg,
                            kind: f.kind,
                        });
                    }
                }
            }
            base += f.numbers();
        }
        out
    }

    /// Every tunable weight's name, in weight order: `field`,
    /// `field[col]` or `field.row[col]`.
    fn names() -> Vec<String> {
        let mut out = Vec::with_capacity(weight_count(Self::LAYOUT));
        for f in Self::LAYOUT.iter().filter(|f| f.kind != Kind::Fixed) {
            for r in 0..f.rows {
                for c in 0..f.cols {
                    let mut name = f.name.to_string();
                    if let Some(label) = f.row_labels.get(r) {
                        let _ = write!(name, ".{label}");
                    }
                    if f.cols > 1 {
                        let _ = write!(name, "[{c}]");
                    }
                    out.push(name);
                }
            }
        }
        out
    }

    /// The weights as pairs (a flat weight `v` as `S(v, v)`), in weight order.
    fn weights(&self) -> Vec<S> {
        let n = self.numbers();
        Self::slots().iter().map(|s| S(n[s.mg], n[s.eg])).collect()
    }

    /// This table with its weights replaced (a flat weight takes the pair's
    /// first value); fixed fields are kept.
    ///
    /// # Panics
    /// If `weights` is not one value per weight.
    #[must_use]
    fn with_weights(&self, weights: &[S]) -> Self {
        let slots = Self::slots();
        assert_eq!(weights.len(), slots.len(), "one value per weight");
        let mut n = self.numbers().to_vec();
        for (s, w) in slots.iter().zip(weights) {
            n[s.mg] = w.0;
            if s.kind == Kind::Tapered {
                n[s.eg] = w.1;
            }
        }
        match Self::from_numbers(&n) {
            Ok(t) => t,
            Err(e) => unreachable!("the count is unchanged: {e}"),
        }
    }

    /// The table file: a header, then each field with its doc comment;
    /// tapered fields as a `.mg` and an `.eg` line, 64-entry rows as boards.
    fn to_text(&self) -> String {
        let mut out = format!(
            "# Volkhv evaluation weights: {}.\n\
             # Read at compile time (eval/src/params.rs) and written by volkhv-tune.\n\
             # Numbers are read in order; names and '#' comments are for people.\n\
             # Tapered weights have a middlegame (.mg) and an endgame (.eg) line;\n\
             # boards are drawn from White's side, rank 8 on top.\n",
            Self::VARIANT
        );
        let n = self.numbers();
        let mut at = 0;
        for f in Self::LAYOUT {
            out.push('\n');
            for line in f.doc.lines() {
                let _ = writeln!(out, "#{}", line.trim_end());
            }
            if f.kind == Kind::Fixed {
                out.push_str("# (fixed: not tuned)\n");
            }
            for r in 0..f.rows {
                let mut name = f.name.to_string();
                if let Some(label) = f.row_labels.get(r) {
                    let _ = write!(name, ".{label}");
                }
                let parts: &[&str] = if f.kind == Kind::Tapered {
                    &[".mg", ".eg"]
                } else {
                    &[""]
                };
                for part in parts {
                    write_row(&mut out, &format!("{name}{part}"), &n[at..at + f.cols]);
                    at += f.cols;
                }
            }
        }
        out
    }
}

/// One row of numbers: a board (8 lines of 8) under its name, or one line.
fn write_row(out: &mut String, name: &str, values: &[i32]) {
    if values.len() == 64 {
        let _ = writeln!(out, "{name}");
        for rank in values.chunks(8) {
            for v in rank {
                let _ = write!(out, "{v:5}");
            }
            out.push('\n');
        }
    } else {
        let _ = write!(out, "{name:<28}");
        for v in values {
            let _ = write!(out, "{v:6}");
        }
        out.push('\n');
    }
}

/// What an evaluation adds up: plain score pairs ([`S`]) for the search,
/// or pairs that remember which weights made them ([`Traced`]).
pub trait Acc:
    Clone
    + Default
    + Add<Output = Self>
    + Sub<Output = Self>
    + AddAssign
    + SubAssign
    + Neg<Output = Self>
    + Mul<i32, Output = Self>
{
    /// What [`Acc::finish`] makes of the sums.
    type Out;

    /// The weight with index `index` (in [`Table::slots`] order) and value `value`.
    fn weight(index: usize, value: S) -> Self;

    /// The score pair so far.
    fn value(&self) -> S;

    /// The evaluation from `turn`'s view: the `tapered` sum blended by
    /// `phase`, plus the middlegame value of the `flat` sum, divided by
    /// `divisor` (all from White's view, truncating like the evaluation).
    fn finish(tapered: Self, flat: Self, phase: i32, divisor: i32, turn: Color) -> Self::Out;
}

/// The White-view score [`Acc::finish`] divides: the blended tapered sum
/// plus the flat sum.
#[must_use]
pub fn white_score<A: Acc>(tapered: &A, flat: &A, phase: i32) -> i32 {
    taper(tapered.value(), phase) + flat.value().0
}

fn from_turn(white: i32, turn: Color) -> i32 {
    match turn {
        Color::White => white,
        Color::Black => -white,
    }
}

impl Acc for S {
    type Out = i32;

    #[inline]
    fn weight(_: usize, value: S) -> S {
        value
    }

    #[inline]
    fn value(&self) -> S {
        *self
    }

    #[inline]
    fn finish(tapered: S, flat: S, phase: i32, divisor: i32, turn: Color) -> i32 {
        from_turn(white_score(&tapered, &flat, phase) / divisor, turn)
    }
}

/// A score pair with the weights it is made of: `(weight index,
/// coefficient)` terms, so that the value is `Σ coefficient · weight`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Traced {
    value: S,
    terms: Vec<(u32, i32)>,
}

impl Add for Traced {
    type Output = Traced;
    fn add(mut self, o: Traced) -> Traced {
        self += o;
        self
    }
}

impl Sub for Traced {
    type Output = Traced;
    fn sub(mut self, o: Traced) -> Traced {
        self -= o;
        self
    }
}

impl AddAssign for Traced {
    fn add_assign(&mut self, o: Traced) {
        self.value += o.value;
        self.terms.extend(o.terms);
    }
}

impl SubAssign for Traced {
    fn sub_assign(&mut self, o: Traced) {
        *self += -o;
    }
}

impl Neg for Traced {
    type Output = Traced;
    fn neg(self) -> Traced {
        self * -1
    }
}

impl Mul<i32> for Traced {
    type Output = Traced;
    fn mul(mut self, k: i32) -> Traced {
        self.value = self.value * k;
        for t in &mut self.terms {
            t.1 *= k;
        }
        self
    }
}

/// Terms summed per weight, sorted by index, zeros dropped.
fn merged(mut terms: Vec<(u32, i32)>) -> Vec<(u32, i32)> {
    terms.sort_unstable_by_key(|t| t.0);
    let mut out: Vec<(u32, i32)> = Vec::with_capacity(terms.len());
    for (i, c) in terms {
        match out.last_mut() {
            Some(last) if last.0 == i => last.1 += c,
            _ => out.push((i, c)),
        }
    }
    out.retain(|t| t.1 != 0);
    out
}

impl Acc for Traced {
    type Out = Trace;

    fn weight(index: usize, value: S) -> Traced {
        Traced {
            value,
            terms: vec![(u32::try_from(index).unwrap_or(u32::MAX), 1)],
        }
    }

    fn value(&self) -> S {
        self.value
    }

    fn finish(tapered: Traced, flat: Traced, phase: i32, divisor: i32, turn: Color) -> Trace {
        let eval = S::finish(tapered.value, flat.value, phase, divisor, turn);
        Trace {
            tapered: merged(tapered.terms),
            flat: merged(flat.terms),
            phase,
            divisor,
            turn,
            eval,
        }
    }
}

/// An evaluation as a linear function of the weights: White's score is
/// `(taper(Σ c·w over tapered, phase) + Σ c·w.mg over flat) / divisor`,
/// and the evaluation is that from the side to move's view.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Trace {
    /// `(weight index, coefficient)` of the phase-blended sum, White's view.
    pub tapered: Vec<(u32, i32)>,
    /// `(weight index, coefficient)` of the sum added after blending.
    pub flat: Vec<(u32, i32)>,
    /// Game phase, `0..=PHASE_MAX`.
    pub phase: i32,
    /// 1, or more where the evaluation scales a drawish score down.
    pub divisor: i32,
    /// Side to move.
    pub turn: Color,
    /// The evaluation the trace was taken from (side to move's view).
    pub eval: i32,
}

impl Trace {
    /// The evaluation with these weights (in [`Table::slots`] order),
    /// computed in integers the way the evaluation does: equal to the
    /// evaluation itself for the table the trace was taken with.
    ///
    /// # Panics
    /// If a term's index is outside `weights`.
    #[must_use]
    pub fn replay(&self, weights: &[S]) -> i32 {
        let mut tapered = S::default();
        for &(i, c) in &self.tapered {
            tapered += weights[i as usize] * c;
        }
        let mut flat = S::default();
        for &(i, c) in &self.flat {
            flat += weights[i as usize] * c;
        }
        S::finish(tapered, flat, self.phase, self.divisor, self.turn)
    }
}

/// Reads the weights of table `T` as accumulator `A`; the evaluation
/// functions take one (built by `Reader::new`) and call the accessors the
/// table declaration generates.
pub struct Reader<'a, T, A> {
    table: &'a T,
    acc: PhantomData<fn() -> A>,
}

impl<'a, T: Table, A: Acc> Reader<'a, T, A> {
    /// A reader of `table`.
    #[must_use]
    pub const fn new(table: &'a T) -> Self {
        Reader {
            table,
            acc: PhantomData,
        }
    }

    /// The table read.
    #[must_use]
    pub fn table(&self) -> &'a T {
        self.table
    }

    #[doc(hidden)]
    #[inline]
    pub fn tapered(&self, at: At, row: usize, col: usize) -> A {
        debug_assert!(row < at.rows && col < at.cols, "index outside the field");
        let n = self.table.numbers();
        let i = at.number + row * 2 * at.cols + col;
        A::weight(at.weight + row * at.cols + col, S(n[i], n[i + at.cols]))
    }

    #[doc(hidden)]
    #[inline]
    pub fn flat(&self, at: At, row: usize, col: usize) -> A {
        let v = self.fixed(at, row, col);
        A::weight(at.weight + row * at.cols + col, S(v, v))
    }

    #[doc(hidden)]
    #[inline]
    pub fn fixed(&self, at: At, row: usize, col: usize) -> i32 {
        debug_assert!(row < at.rows && col < at.cols, "index outside the field");
        self.table.numbers()[at.number + row * at.cols + col]
    }
}

/// Declares a weight table type and its [`Reader`] accessors:
///
/// ```text
/// weight_table! {
///     /// doc
///     pub struct ChessWeights("chess");
///     /// doc of the field (also written into the table file)
///     tempo: scalar tapered [];
///     material: list tapered [6];
///     pst: grid tapered [6 x 64: "pawn", "knight", ...];
/// }
/// ```
///
/// Kinds: `tapered`, `flat`, `fixed`. An accessor returns the accumulator
/// (`fixed`: the plain number) and takes no index (scalar), one (list) or a
/// row and a column (grid).
macro_rules! weight_table {
    (
        $(#[doc = $doc:literal])*
        pub struct $name:ident($variant:literal);
        $(
            $(#[doc = $fdoc:literal])*
            $field:ident: $shape:ident $kind:ident $dims:tt;
        )*
    ) => {
        $(#[doc = $doc])*
        #[derive(Clone, Debug, PartialEq, Eq)]
        pub struct $name {
            numbers: [i32; $name::NUMBERS],
        }

        impl $name {
            /// The fields, in file order.
            pub const LAYOUT: &'static [$crate::weights::FieldInfo] = &[$(
                $crate::weights::weight_table!(
                    @info $field $shape $kind $dims concat!($($fdoc, "\n"),*)
                )
            ),*];
            /// Numbers in the table file.
            pub const NUMBERS: usize = $crate::weights::number_count(Self::LAYOUT);
            /// Tunable weights.
            pub const WEIGHTS: usize = $crate::weights::weight_count(Self::LAYOUT);

            /// Reads a table file at compile time (a malformed file is a
            /// compile error).
            #[must_use]
            pub const fn parse(text: &str) -> $name {
                $name {
                    numbers: $crate::weights::parse_numbers::<{ $name::NUMBERS }>(text),
                }
            }
        }

        impl $crate::weights::Table for $name {
            const VARIANT: &'static str = $variant;
            const LAYOUT: &'static [$crate::weights::FieldInfo] = $name::LAYOUT;

            fn numbers(&self) -> &[i32] {
                &self.numbers
            }

            fn from_numbers(numbers: &[i32]) -> Result<$name, String> {
                let numbers = numbers.try_into().map_err(|_| {
                    format!("{} numbers, the layout has {}", numbers.len(), $name::NUMBERS)
                })?;
                Ok($name { numbers })
            }
        }

        impl<A: $crate::weights::Acc> $crate::weights::Reader<'_, $name, A> {
            $(
                $crate::weights::weight_table!(@get $name $field $shape $kind $dims $($fdoc)*);
            )*
        }
    };

    (@kind tapered) => { $crate::weights::Kind::Tapered };
    (@kind flat) => { $crate::weights::Kind::Flat };
    (@kind fixed) => { $crate::weights::Kind::Fixed };
    (@ret tapered) => { A };
    (@ret flat) => { A };
    (@ret fixed) => { i32 };

    (@info $field:ident scalar $kind:ident [] $doc:expr) => {
        $crate::weights::weight_table!(@field $field $kind 1, 1, &[], $doc)
    };
    (@info $field:ident list $kind:ident [$cols:literal] $doc:expr) => {
        $crate::weights::weight_table!(@field $field $kind 1, $cols, &[], $doc)
    };
    (@info $field:ident grid $kind:ident [$rows:literal x $cols:literal: $($label:literal),*] $doc:expr) => {
        $crate::weights::weight_table!(@field $field $kind $rows, $cols, &[$($label),*], $doc)
    };
    (@field $field:ident $kind:ident $rows:expr, $cols:expr, $labels:expr, $doc:expr) => {
        $crate::weights::FieldInfo {
            name: stringify!($field),
            kind: $crate::weights::weight_table!(@kind $kind),
            rows: $rows,
            cols: $cols,
            row_labels: $labels,
            doc: $doc,
        }
    };

    (@get $name:ident $field:ident scalar $kind:ident [] $($d:literal)*) => {
        $(#[doc = $d])*
        #[inline]
        #[must_use]
        pub fn $field(&self) -> $crate::weights::weight_table!(@ret $kind) {
            const AT: $crate::weights::At = $crate::weights::locate($name::LAYOUT, stringify!($field));
            self.$kind(AT, 0, 0)
        }
    };
    (@get $name:ident $field:ident list $kind:ident $dims:tt $($d:literal)*) => {
        $(#[doc = $d])*
        #[inline]
        #[must_use]
        pub fn $field(&self, i: usize) -> $crate::weights::weight_table!(@ret $kind) {
            const AT: $crate::weights::At = $crate::weights::locate($name::LAYOUT, stringify!($field));
            self.$kind(AT, 0, i)
        }
    };
    (@get $name:ident $field:ident grid $kind:ident $dims:tt $($d:literal)*) => {
        $(#[doc = $d])*
        #[inline]
        #[must_use]
        pub fn $field(&self, row: usize, col: usize) -> $crate::weights::weight_table!(@ret $kind) {
            const AT: $crate::weights::At = $crate::weights::locate($name::LAYOUT, stringify!($field));
            self.$kind(AT, row, col)
        }
    };
}
pub(crate) use weight_table;
