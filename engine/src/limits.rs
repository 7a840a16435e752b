//! The search's interface, shared by the engine facade and the search
//! itself (so neither imports the other): what a search is asked to do
//! (`Limits`, `Options`) and what it reports (`SearchEvent`, through an
//! `EventSink`).

pub use eval::wdl::Wdl;
use std::sync::Arc;

/// Callback receiving the events of a search or another engine job (called
/// from the job's thread).
pub type EventSink = Arc<dyn Fn(SearchEvent) + Send + Sync>;

/// Engine options (UCI `setoption`, XBoard `memory`/`cores`/`option`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// Transposition table size in MiB.
    pub hash_mb: usize,
    /// Search threads.
    pub threads: usize,
    /// Number of principal variations reported.
    pub multipv: usize,
    /// Milliseconds kept in reserve per move for GUI/transport lag.
    pub move_overhead_ms: u64,
    /// Whether the GUI may ask us to ponder.
    pub ponder: bool,
    /// Play at this level (`UCI_Elo`, see [`crate::levels`]); `None` (or
    /// an Elo at or above [`crate::levels::ELO_MAX`]) for full strength.
    pub elo: Option<u32>,
    /// Seed of a level's move choice: the same seed in the same position
    /// plays the same move. 0 (the default): a fresh seed for every engine
    /// and every new game ([`crate::Engine::level_seed`]).
    pub seed: u64,
    /// Add win/draw/loss estimates to the search's `Info` (`UCI_ShowWDL`).
    pub show_wdl: bool,
    /// Replaces a level's node budget (the calibration's knob, UCI `Level
    /// Nodes`); `None`: the budget of [`crate::levels::weakening`].
    pub level_nodes: Option<u64>,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            hash_mb: 16,
            threads: 1,
            multipv: 1,
            move_overhead_ms: 30,
            ponder: false,
            elo: None,
            seed: 0,
            show_wdl: false,
            level_nodes: None,
        }
    }
}

/// Search limits from `go` (UCI) or `level`/`st`/`sd`/`time` (XBoard).
/// Times are milliseconds.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// White's remaining time.
    pub wtime: Option<u64>,
    /// Black's remaining time.
    pub btime: Option<u64>,
    /// White's increment.
    pub winc: Option<u64>,
    /// Black's increment.
    pub binc: Option<u64>,
    /// Moves until the next time control.
    pub movestogo: Option<u32>,
    /// Exact time for this move.
    pub movetime: Option<u64>,
    /// Maximum depth.
    pub depth: Option<u32>,
    /// Maximum nodes.
    pub nodes: Option<u64>,
    /// Search for a mate in this many moves.
    pub mate: Option<u32>,
    /// Search until `stop`.
    pub infinite: bool,
    /// Pondering: search until `ponderhit` (then the clock applies) or `stop`.
    pub ponder: bool,
    /// Restrict the root to these move strings (empty = all).
    pub searchmoves: Vec<String>,
}

/// A score as reported to GUIs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// Centipawns from the side to move's view.
    Cp(i32),
    /// Mate in this many moves (negative: being mated).
    Mate(i32),
}

/// One iteration's report.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Info {
    /// Completed depth.
    pub depth: u32,
    /// Deepest ply reached.
    pub seldepth: u32,
    /// 1-based index of this line with MultiPV.
    pub multipv: u32,
    /// The score.
    pub score: Score,
    /// Nodes searched by all threads.
    pub nodes: u64,
    /// Nodes per second.
    pub nps: u64,
    /// Transposition table fill, per mille.
    pub hashfull: u32,
    /// Elapsed milliseconds.
    pub time_ms: u64,
    /// Principal variation as move strings.
    pub pv: Vec<String>,
    /// Win/draw/loss per mille for the side to move, with `show_wdl`.
    pub wdl: Option<Wdl>,
}

/// What a running search (or `perft`/`bench` job) reports.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SearchEvent {
    /// A line of a `perft` or `bench` report, to print as it is.
    Report(String),
    /// A `perft` or `bench` job ended (it has no best move); `stopped` if it
    /// was cut short by `stop`.
    Done {
        /// Whether `stop` cut it short.
        stopped: bool,
    },
    /// An iteration (or MultiPV line) finished.
    Info(Info),
    /// A free-form note (`info string ...`).
    Message(String),
    /// The search ended; `best` is `None` only when there is no legal move.
    BestMove {
        /// The move to play.
        best: Option<String>,
        /// The expected reply.
        ponder: Option<String>,
    },
}
