//! The variant registry: every variant Volkhv plays, listed once. Every
//! edge reads it — the `Variant` enum and its names, the UCI combo, XBoard's
//! `variants=` and `setup` lines, perft, the match runner, bench, datagen,
//! the random mover, the web board — through [`for_each_variant!`] (the list
//! itself) and [`with_variant!`] (a `match` that binds the variant's position
//! type). Adding a variant is its rules module here, its evaluation module
//! in `eval`, and one entry below (see `docs/architecture.md`).

/// The list of variants, handed to a callback macro: `for_each_variant!({
/// path::to::callback } args...)` expands to `path::to::callback! { [args...]
/// entries... }`, each entry being `Variant => Type { data }` with its doc
/// comment. Callbacks that only need the names and types ignore the data.
#[macro_export]
macro_rules! for_each_variant {
    ({ $($callback:tt)* } $($args:tt)*) => {
        $($callback)*! {
            [$($args)*]
            /// Standard FIDE chess.
            Chess => Chess {
                name: "chess",
                title: "Chess",
                aliases: ["normal", "standard"],
                xboard: "normal",
                // XBoard knows chess: no `setup` line.
                xboard_setup: "",
                xboard_pieces: [],
                // Every UCI and XBoard engine and GUI plays it without being
                // told a variant (so none is sent: Stockfish has no
                // `UCI_Variant` option).
                gui_native: true,
                // Move lists in PGN and on the board are SAN.
                san: true,
                // K v K, K+N v K, K+B v K are drawn (RULES.md §1): a side can
                // be left without the material to mate.
                material_runs_out: true,
                // The fifty-move rule and lost material end every game.
                match_move_cap: 0,
                // Depth at which one thread needs about a second per bench
                // position (the Lazy SMP time-to-depth suite).
                suite_depth: 18,
                bench: [
                    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 10",
                    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 11",
                    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
                    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
                    "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
                    "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP1QBPPP/R3KB1R w KQ - 2 9",
                    "2r3k1/pp3ppp/4p3/3pP3/3P1P2/P1r5/1P4PP/2R2RK1 w - - 0 24",
                    "6k1/5ppp/8/8/3K4/8/5PPP/8 w - - 0 40",
                    "r2q1rk1/1b1nbppp/p2ppn2/1p6/3NP3/1BN1BP2/PPPQ2PP/2KR3R w - - 0 12",
                    "8/8/4k3/3r4/8/4K3/3R4/8 b - - 0 60",
                    "3r1rk1/p4ppp/1qb1p3/2p5/2P1Q3/1P3N2/P2R1PPP/3R2K1 b - - 5 21",
                ],
            }
            /// PlunderChess: a capturing piece may take a one-use vest with the
            /// captured piece's powers.
            Plunder => Plunder {
                name: "plunder",
                title: "PlunderChess",
                aliases: ["plunderchess"],
                xboard: "plunder",
                xboard_setup: "PNBRQ................Kpnbrq................k",
                xboard_pieces: [],
                gui_native: false,
                // SAN has no way to name a vest: move strings.
                san: false,
                // As chess, where no vest is on the board.
                material_runs_out: true,
                match_move_cap: 0,
                suite_depth: 15,
                bench: [
                    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                    "r3k2r/pp1n(q)1ppp/2p(n)1b3/3B(P)4/4P(R)3/2N(B)2Q(N)2/PPP2PPP/R3K(P)2R w KQkq - 0 1",
                    "rn1q1bn1/5k2/1p1p1pp1/p2P4/P1B2P2/1P5N(R)/8/R1B1K2R w KQ - 0 17",
                    "4kbn1/p3ppp1/b7/1r(n)1p4/4P3/P4NP1/3B3R(P)/1R(N)2KB2 b - - 0 15",
                    "rnbqk2r/2pp2p1/1p1b(p)4/p3pp2/P1P1P1P(N)1/2NP4/7P/R2QKBNR b KQkq - 0 11",
                    "4k1B(P)1/4q3/1P6/4n(p)3/2p5/3b(p)P3/1P3K2/8 b - - 0 24",
                ],
            }
            /// Tavreli: captured pieces stay under the capturer, forming towers
            /// that move as their top piece and can be split.
            Tavreli => Tavreli {
                name: "tavreli",
                title: "Tavreli",
                aliases: [],
                xboard: "tavreli",
                // The helgi takes XBoard's `H` slot, which keeps its letter.
                xboard_setup: "PNBRQ.......H........Kpnbrq.......h........k",
                // Betza for queen + knight, so XBoard can highlight its moves.
                xboard_pieces: ["H& QN"],
                gui_native: false,
                // SAN has no way to name a tower split: move strings.
                san: false,
                // Nothing ever leaves the board: no insufficient material.
                material_runs_out: false,
                // And a capture, which resets the fifty-move counter, never
                // brings the end nearer: two weak levels that keep taking
                // back and forth played one game for over ten minutes. A
                // match adjudicates a draw after 300 moves (600 plies, as
                // datagen) unless told otherwise.
                match_move_cap: 300,
                suite_depth: 13,
                bench: [
                    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                    "r1b1k2r/pp(PQ~)p1ppp/2n(bn)1n2/3(pN)4/2(BP=Hq)5/5(pN)2/PP1P1PPP/R3K2R w KQkq - 0 1",
                    "rn2kbnr/ppp1pp1p/8/2p=q3p1/1P2P3/N1P2(PP=Q)P(Pb)/P7/R1BQK1N(RqB) b Qkq - 0 10",
                    "rnbqk1nr/ppp2p1p/3p4/6p1/(PbP=N)2P4/N7/2(PBQK)2(P=HP)(PB)P/R5(Np=hR)1 b kq - 1 12",
                    "rn3(bk)nr/p1p1p1p1/3(pPQq)1p1p/1(pB)3(bP=N)2/8/1P2P2P/P1P2P2/RNB1K1NR b KQ - 0 8",
                    "r3k2r/8/8/8/8/4(Pn)3/8/R3K2R w KQkq - 0 1",
                ],
            }
        }
    };
}

/// Runs `$body` with `$P` bound (as a type alias) to the position type of the
/// variant `$v`: the one `match` on the variant that generic code needs.
///
/// ```
/// use movegen::{perft, with_variant, Position, Variant};
/// let n = with_variant!(Variant::Tavreli, P => perft(&mut P::startpos(), 1));
/// assert_eq!(n, 39);
/// ```
#[macro_export]
macro_rules! with_variant {
    ($v:expr, $P:ident => $body:expr) => {
        $crate::for_each_variant!({ $crate::__variant_match } $v, $P, $body)
    };
}

#[doc(hidden)]
#[macro_export]
macro_rules! __variant_match {
    ([$v:expr, $P:ident, $body:expr]
     $($(#[$doc:meta])* $variant:ident => $ty:ident { $($data:tt)* })*) => {
        match $v {
            $($crate::Variant::$variant => {
                type $P = $crate::$ty;
                $body
            })*
        }
    };
}

/// Defines `Variant` and its data from the registry.
macro_rules! define_variants {
    ([]
     $($(#[$doc:meta])* $variant:ident => $ty:ident {
        name: $name:literal,
        title: $title:literal,
        aliases: [$($alias:literal),*],
        xboard: $xboard:literal,
        xboard_setup: $setup:literal,
        xboard_pieces: [$($piece:literal),*],
        gui_native: $native:literal,
        san: $san:literal,
        material_runs_out: $runs_out:literal,
        match_move_cap: $cap:literal,
        suite_depth: $suite:literal,
        bench: [$($fen:literal),* $(,)?],
     })*) => {
        /// The variants Volkhv plays.
        #[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
        pub enum Variant {
            $($(#[$doc])* $variant,)*
        }

        impl Variant {
            /// All variants, in registry order.
            pub const ALL: [Variant; Variant::COUNT] = [$(Variant::$variant),*];

            /// How many variants there are.
            pub const COUNT: usize = [$(stringify!($variant)),*].len();

            /// The name used on the command line, in `UCI_Variant` and in PGN.
            #[must_use]
            pub const fn name(self) -> &'static str {
                match self {
                    $(Variant::$variant => $name,)*
                }
            }

            /// The name people read (menus, the web board).
            #[must_use]
            pub const fn title(self) -> &'static str {
                match self {
                    $(Variant::$variant => $title,)*
                }
            }

            /// Other names accepted on input.
            #[must_use]
            pub const fn aliases(self) -> &'static [&'static str] {
                match self {
                    $(Variant::$variant => &[$($alias),*],)*
                }
            }

            /// The name in XBoard's `variants=` feature and `variant` command.
            #[must_use]
            pub const fn xboard_name(self) -> &'static str {
                match self {
                    $(Variant::$variant => $xboard,)*
                }
            }

            /// XBoard's PIECETOCHAR for the `setup` line of an engine-defined
            /// variant; `None` for one XBoard knows.
            #[must_use]
            pub const fn xboard_setup(self) -> Option<&'static str> {
                let s = match self {
                    $(Variant::$variant => $setup,)*
                };
                if s.is_empty() {
                    None
                } else {
                    Some(s)
                }
            }

            /// XBoard `piece ID BETZA` definitions sent after `setup`.
            #[must_use]
            pub const fn xboard_pieces(self) -> &'static [&'static str] {
                match self {
                    $(Variant::$variant => &[$($piece),*],)*
                }
            }

            /// `true` for the variant every UCI/XBoard engine and GUI plays
            /// without being told one: no `UCI_Variant` or `variant` is sent.
            #[must_use]
            pub const fn gui_native(self) -> bool {
                match self {
                    $(Variant::$variant => $native,)*
                }
            }

            /// `true` if move lists (PGN, the board) use SAN; otherwise the
            /// move strings of RULES.md.
            #[must_use]
            pub const fn uses_san(self) -> bool {
                match self {
                    $(Variant::$variant => $san,)*
                }
            }

            /// `true` if a side can be left without the material to mate
            /// (chess and plunder have insufficient-material draws; Tavreli
            /// keeps every piece on the board).
            #[must_use]
            pub const fn material_runs_out(self) -> bool {
                match self {
                    $(Variant::$variant => $runs_out,)*
                }
            }

            /// The full moves after which `volkhv match` adjudicates a draw
            /// when `--maxmoves` is not given; `None` where the rules alone
            /// end every game.
            #[must_use]
            pub const fn match_move_cap(self) -> Option<u32> {
                let cap: u32 = match self {
                    $(Variant::$variant => $cap,)*
                };
                if cap == 0 {
                    None
                } else {
                    Some(cap)
                }
            }

            /// The bench positions (FEN) of this variant.
            #[must_use]
            pub const fn bench_positions(self) -> &'static [&'static str] {
                match self {
                    $(Variant::$variant => &[$($fen),*],)*
                }
            }

            /// Depth of the Lazy SMP time-to-depth suite.
            #[must_use]
            pub const fn suite_depth(self) -> u32 {
                match self {
                    $(Variant::$variant => $suite,)*
                }
            }

            /// Index in [`Variant::ALL`].
            #[must_use]
            pub const fn index(self) -> usize {
                self as usize
            }
        }
    };
}

for_each_variant!({ define_variants });

/// The compile-time half of a new variant's checklist: every registry
/// entry's type must be a position that a board can describe.
macro_rules! assert_variant_types {
    ([] $($(#[$doc:meta])* $variant:ident => $ty:ident { $($data:tt)* })*) => {
        const _: fn() = || {
            fn is_variant<T: crate::Position + crate::Describe>() {}
            $(is_variant::<crate::$ty>();)*
        };
    };
}

for_each_variant!({ assert_variant_types });

impl Variant {
    /// The variant a new engine or game starts in: the registry's first
    /// entry, standard chess, which UCI assumes and XBoard's `new` sets.
    pub const DEFAULT: Variant = Variant::ALL[0];

    /// Parses a variant name or alias, in any case.
    #[must_use]
    pub fn from_name(s: &str) -> Option<Variant> {
        Variant::ALL.into_iter().find(|v| {
            v.name().eq_ignore_ascii_case(s)
                || v.xboard_name().eq_ignore_ascii_case(s)
                || v.aliases().iter().any(|a| a.eq_ignore_ascii_case(s))
        })
    }
}

impl Variant {
    /// The names for an error message: `chess, plunder or tavreli`.
    #[must_use]
    pub fn list() -> String {
        let names: Vec<&str> = Variant::ALL.iter().map(|v| v.name()).collect();
        match names.split_last() {
            Some((last, [])) => (*last).to_string(),
            Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
            None => String::new(),
        }
    }
}

impl std::fmt::Display for Variant {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Position;

    #[test]
    fn names_round_trip_and_every_position_type_is_its_variant() {
        for v in Variant::ALL {
            assert_eq!(Variant::from_name(v.name()), Some(v));
            assert_eq!(Variant::from_name(&v.name().to_uppercase()), Some(v));
            assert_eq!(Variant::from_name(v.xboard_name()), Some(v));
            assert_eq!(with_variant!(v, P => P::VARIANT), v);
            assert_eq!(Variant::ALL[v.index()], v);
            assert!(!v.bench_positions().is_empty());
        }
        assert_eq!(Variant::from_name("normal"), Some(Variant::Chess));
        assert_eq!(Variant::DEFAULT, Variant::Chess);
        assert!(Variant::DEFAULT.gui_native());
        assert_eq!(Variant::from_name("PlunderChess"), Some(Variant::Plunder));
        assert_eq!(Variant::from_name("shogi"), None);
        assert_eq!(Variant::list(), "chess, plunder or tavreli");
    }

    #[test]
    fn bench_positions_are_valid() {
        for v in Variant::ALL {
            for fen in v.bench_positions() {
                assert!(
                    with_variant!(v, P => P::from_fen(fen).is_ok()),
                    "{v}: {fen}"
                );
            }
        }
    }
}
