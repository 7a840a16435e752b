//! A game of one variant: start position, moves played, key history; and
//! `AnyGame`, the one place that matches on the variant.

use crate::error::Error;
use eval::Evaluate;
use movegen::{
    status, with_variant, Color, FenError, Move, MoveError, MoveList, Outcome, Position, Variant,
};

/// A game: where it started and the moves played since.
#[derive(Clone, Debug)]
pub struct Game<P: Position> {
    start: P,
    pos: P,
    moves: Vec<Move>,
    /// Keys of the positions before each move (for repetition).
    keys: Vec<u64>,
}

impl<P: Position + Evaluate> Game<P> {
    /// A game from the start position or a FEN.
    ///
    /// # Errors
    /// Why the FEN was rejected.
    pub fn new(fen: Option<&str>) -> Result<Game<P>, FenError> {
        let start = match fen {
            None => P::startpos(),
            Some(f) => P::from_fen(f)?,
        };
        Ok(Game::from_start(start))
    }

    /// A game starting at `start`.
    pub fn from_start(start: P) -> Game<P> {
        Game {
            pos: start.clone(),
            start,
            moves: Vec::new(),
            keys: Vec::new(),
        }
    }

    /// The variant of this game.
    pub fn variant(&self) -> Variant {
        P::VARIANT
    }

    /// The current position.
    pub fn position(&self) -> &P {
        &self.pos
    }

    /// The start position.
    pub fn start(&self) -> &P {
        &self.start
    }

    /// Moves played so far.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// Keys of the earlier positions, oldest first (current excluded).
    pub fn history(&self) -> &[u64] {
        &self.keys
    }

    /// Plays a move given as a move string.
    ///
    /// # Errors
    /// The string is malformed or the move illegal; the game is unchanged
    /// then.
    pub fn play(&mut self, s: &str) -> Result<Move, MoveError> {
        let m = self.pos.parse_move(s)?;
        self.play_move(m);
        Ok(m)
    }

    /// Plays a move known to be legal.
    pub fn play_move(&mut self, m: Move) {
        self.keys.push(self.pos.key());
        self.pos.make(m);
        self.moves.push(m);
    }

    /// Takes back the last move; `false` if there is none.
    pub fn undo(&mut self) -> bool {
        if self.moves.pop().is_none() {
            return false;
        }
        self.keys.pop();
        let mut pos = self.start.clone();
        for &m in &self.moves {
            pos.make(m);
        }
        self.pos = pos;
        true
    }

    /// How the game ended, if it did.
    pub fn status(&self) -> Option<Outcome> {
        status(&self.pos, &self.keys)
    }

    /// The legal moves as strings.
    pub fn legal_strings(&self) -> Vec<String> {
        let mut list = MoveList::new();
        self.pos.legal_moves(&mut list);
        list.iter().map(ToString::to_string).collect()
    }
}

/// Defines [`AnyGame`] from movegen's variant registry.
macro_rules! define_any_game {
    ([] $($(#[$doc:meta])* $variant:ident => $ty:ident { $($data:tt)* })*) => {
        /// A game of whichever variant is selected: one arm per entry of
        /// movegen's variant registry. Every `match` on it goes through
        /// [`with_game!`](crate::with_game). The games are boxed: a Tavreli
        /// board is about twenty times a chess board.
        #[derive(Clone, Debug)]
        pub enum AnyGame {
            $($(#[$doc])* $variant(Box<Game<movegen::$ty>>),)*
        }

        $(impl From<Game<movegen::$ty>> for AnyGame {
            fn from(g: Game<movegen::$ty>) -> AnyGame {
                AnyGame::$variant(Box::new(g))
            }
        })*
    };
}

movegen::for_each_variant!({ define_any_game });

/// Runs `$body` with `$g` bound to the concrete `Game<P>` inside an
/// `AnyGame` (as `&Box<Game<P>>`, or `&mut` for a `&mut AnyGame`).
#[macro_export]
macro_rules! with_game {
    ($any:expr, $g:ident => $body:expr) => {
        movegen::for_each_variant!({ $crate::__game_match } $any, $g, $body)
    };
}

#[doc(hidden)]
#[macro_export]
macro_rules! __game_match {
    ([$any:expr, $g:ident, $body:expr]
     $($(#[$doc:meta])* $variant:ident => $ty:ident { $($data:tt)* })*) => {
        match $any {
            $($crate::game::AnyGame::$variant($g) => $body,)*
        }
    };
}

impl AnyGame {
    /// A new game of `variant` from the start or a FEN.
    ///
    /// # Errors
    /// Why the FEN was rejected.
    pub fn new(variant: Variant, fen: Option<&str>) -> Result<AnyGame, FenError> {
        with_variant!(variant, P => Ok(AnyGame::from(Game::<P>::new(fen)?)))
    }

    /// A new game of `variant` from its start position.
    #[must_use]
    pub fn start(variant: Variant) -> AnyGame {
        with_variant!(variant, P => AnyGame::from(Game::from_start(P::startpos())))
    }

    /// The variant.
    pub fn variant(&self) -> Variant {
        with_game!(self, g => g.variant())
    }

    /// FEN of the current position.
    pub fn fen(&self) -> String {
        with_game!(self, g => g.position().fen())
    }

    /// Side to move.
    pub fn turn(&self) -> Color {
        with_game!(self, g => g.position().turn())
    }

    /// A game of `variant` from a FEN (`None` = start) and a list of moves,
    /// all or nothing.
    ///
    /// # Errors
    /// The FEN's error, or the first move refused and its place in the list.
    pub fn from_moves(
        variant: Variant,
        fen: Option<&str>,
        moves: &[&str],
    ) -> Result<AnyGame, Error> {
        let mut game = AnyGame::new(variant, fen)?;
        for (index, m) in moves.iter().enumerate() {
            game.play(m)
                .map_err(|error| Error::MoveInList { index, error })?;
        }
        Ok(game)
    }

    /// Plays a move string.
    ///
    /// # Errors
    /// Malformed or illegal; the game is unchanged then.
    pub fn play(&mut self, s: &str) -> Result<(), MoveError> {
        with_game!(self, g => g.play(s).map(|_| ()))
    }

    /// The canonical string of the legal move `s` names here (movegen
    /// accepts some spellings it never writes, e.g. Tavreli's
    /// `:<height>`), without playing it.
    ///
    /// # Errors
    /// Malformed or illegal.
    pub fn canonical_move(&self, s: &str) -> Result<String, MoveError> {
        with_game!(self, g => g.position().parse_move(s).map(|m| m.to_string()))
    }

    /// Takes back one move.
    pub fn undo(&mut self) -> bool {
        with_game!(self, g => g.undo())
    }

    /// The game result, if over.
    pub fn status(&self) -> Option<Outcome> {
        with_game!(self, g => g.status())
    }

    /// Legal move strings.
    pub fn legal_strings(&self) -> Vec<String> {
        with_game!(self, g => g.legal_strings())
    }

    /// Number of moves played.
    pub fn ply_count(&self) -> usize {
        with_game!(self, g => g.moves().len())
    }

    /// The board diagram with the variant's extras, the FEN and the key.
    pub fn display(&self) -> String {
        with_game!(self, g => {
            let p = g.position();
            format!("{}\nFen: {}\nKey: {:016X}\nChecked: {}\n", p.pretty(), p.fen(), p.key(), p.is_check())
        })
    }
}
