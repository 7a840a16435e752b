//! The XBoard / CECP v2 shim. Unlike UCI the protocol is stateful, so this
//! shim owns force mode, the engine's colour, the clocks (mapped into the
//! same [`Limits`] as UCI), pondering and analysis, and announces results.
//!
//! Engine-defined variants: on `variant plunder|tavreli` it answers at once
//! with `setup (PIECETOCHAR) 8x8+0_fairy FEN` so XBoard ≥ 4.8 shows the board
//! (see `shared/XBOARD.md`); the engine stays the rules authority and any
//! move it rejects is answered `Illegal move: X`, leaving the game unchanged.

use crate::shell::{self, Flow, Out, Searches, Shim};
use engine::levels::{self, StrengthSettings, MAX_SEED};
use engine::{AnyGame, Engine, Info, Limits, Score, SearchEvent};
use movegen::{Color, MoveError, Outcome, Square, Variant};
use std::collections::VecDeque;

/// What a running search is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Purpose {
    /// Our move: play the result.
    Think,
    /// On the opponent's time, after the expected reply was played.
    Ponder,
    /// `analyze`: report lines, never move.
    Analyze,
}

/// The clock settings XBoard sends. Times in milliseconds.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Clock {
    /// Moves per session (0 = whole game).
    mps: u32,
    base_ms: u64,
    inc_ms: u64,
    /// `st`: exact seconds per move, as milliseconds.
    per_move_ms: Option<u64>,
    /// `sd`: depth limit.
    depth: Option<u32>,
    /// `nps`: think in nodes, this many per second of clock.
    nps: Option<u64>,
    /// Remaining time from `time` / `otim`.
    ours_ms: Option<u64>,
    theirs_ms: Option<u64>,
}

impl Default for Clock {
    /// XBoard's own default: 40 moves in 5 minutes.
    fn default() -> Clock {
        Clock {
            mps: 40,
            base_ms: 300_000,
            inc_ms: 0,
            per_move_ms: None,
            depth: None,
            nps: None,
            ours_ms: None,
            theirs_ms: None,
        }
    }
}

impl Clock {
    /// Search limits for `us` to move after `ply` plies of this game.
    fn limits(&self, us: Color, ply: usize) -> Limits {
        let mut l = Limits {
            depth: self.depth,
            ..Limits::default()
        };
        let movestogo = (self.mps > 0).then(|| {
            let done = u32::try_from(ply / 2).unwrap_or(0) % self.mps;
            self.mps - done
        });
        if let Some(nps) = self.nps {
            // A virtual clock: the budget this move would get, as nodes.
            let budget_ms = self.per_move_ms.unwrap_or_else(|| {
                let ours = self.ours_ms.unwrap_or(self.base_ms);
                ours / u64::from(movestogo.unwrap_or(30)) + self.inc_ms
            });
            l.nodes = Some((nps.saturating_mul(budget_ms) / 1000).max(1));
            return l;
        }
        if let Some(ms) = self.per_move_ms {
            l.movetime = Some(ms);
            return l;
        }
        let ours = self.ours_ms.unwrap_or(self.base_ms);
        let theirs = self.theirs_ms.unwrap_or(self.base_ms);
        let (w, b) = match us {
            Color::White => (ours, theirs),
            Color::Black => (theirs, ours),
        };
        l.wtime = Some(w);
        l.btime = Some(b);
        l.winc = Some(self.inc_ms);
        l.binc = Some(self.inc_ms);
        l.movestogo = movestogo;
        l
    }
}

/// The XBoard front end.
pub struct XBoard {
    engine: Engine,
    out: Out,
    searches: Searches,
    /// The running search, if any, and what it is for.
    current: Option<(u64, Purpose)>,
    force: bool,
    /// The side the engine plays when not in force mode.
    engine_color: Color,
    analyzing: bool,
    post: bool,
    /// `hard`: ponder after our move.
    ponder_on: bool,
    /// While pondering: the reply we guessed (already played on the
    /// engine's game) and, if the ponder search ended by itself, its result.
    guess: Option<String>,
    ponder_result: Option<Option<String>>,
    /// After `result` or a finished game: no thinking until the game changes.
    game_over: bool,
    clock: Clock,
    /// `feature done=0` already went out (main sends it before the engine
    /// is built); the next feature list starts without it.
    done0_sent: bool,
    /// We owe the GUI a move and input must wait for it (after `?`, or a
    /// `ping` on our move).
    hold_input: bool,
    /// Input that arrived while `hold_input`, in order.
    pending: VecDeque<Queued>,
    /// The options that set the level (as UCI's).
    strength: StrengthSettings,
}

impl XBoard {
    /// A shim over a fresh engine.
    pub fn new(out: Out, searches: Searches) -> XBoard {
        XBoard {
            engine: Engine::new(),
            out,
            searches,
            current: None,
            force: false,
            engine_color: Color::Black,
            analyzing: false,
            post: false,
            ponder_on: false,
            guess: None,
            ponder_result: None,
            game_over: false,
            clock: Clock::default(),
            done0_sent: false,
            hold_input: false,
            pending: VecDeque::new(),
            strength: StrengthSettings::default(),
        }
    }

    /// Notes that `feature done=0` was already sent for the coming
    /// `protover`.
    pub fn done0_sent(&mut self) {
        self.done0_sent = true;
    }

    fn error(&self, kind: &str, cmd: &str) {
        self.out
            .line(&format!("Error ({kind}): {}", shell::echo(cmd.trim())));
    }

    fn features(&mut self) {
        let variants: Vec<&str> = Variant::ALL.iter().map(|v| v.xboard_name()).collect();
        let o = engine::Options::default();
        if !std::mem::take(&mut self.done0_sent) {
            self.out.line("feature done=0");
        }
        let lines = [
            format!(
                "feature ping=1 setboard=1 usermove=1 playother=1 san=0 time=1 draw=0 \
                 sigint=0 sigterm=0 reuse=1 analyze=1 colors=0 memory=1 smp=1 name=1 highlight=1 \
                 myname=\"{}\" variants=\"{}\"",
                shell::NAME,
                variants.join(",")
            ),
            format!(
                "feature option=\"MultiPV -spin {} 1 {}\"",
                o.multipv,
                shell::MAX_MULTIPV
            ),
            format!(
                "feature option=\"Move Overhead -spin {} 0 {}\"",
                o.move_overhead_ms,
                shell::MAX_OVERHEAD_MS
            ),
            "feature option=\"Clear Hash -button\"".to_string(),
            format!(
                "feature option=\"Skill Level -spin {0} 0 {0}\"",
                levels::MAX_SKILL
            ),
            "feature option=\"UCI_LimitStrength -check 0\"".to_string(),
            format!(
                "feature option=\"UCI_Elo -spin {} {} {}\"",
                levels::DEFAULT_UCI_ELO,
                levels::ELO_MIN,
                levels::ELO_MAX
            ),
            format!("feature option=\"Seed -spin {} 0 {}\"", o.seed, MAX_SEED),
            "feature done=1".to_string(),
        ];
        for l in &lines {
            self.out.line(l);
        }
    }

    /// Ends any search and takes back a guessed ponder move, so the game is
    /// exactly what the GUI believes it is. Nothing is reported.
    fn halt(&mut self) {
        if self.current.take().is_some() {
            self.engine.abort();
        }
        if self.guess.take().is_some() {
            // The guess was played by us a moment ago.
            let _ = self.engine.undo();
        }
        self.ponder_result = None;
        self.hold_input = false;
    }

    /// What the interrupted search was for, so a valid command that had to
    /// halt it can resume it.
    fn halt_for_change(&mut self) -> Option<Purpose> {
        let was = self.current.map(|(_, p)| p);
        self.halt();
        was
    }

    /// After a state change: analysis restarts on the new state, our own
    /// think starts again if it is still our move.
    fn resume(&mut self, was: Option<Purpose>) {
        if self.analyzing {
            self.start_analysis();
        } else if was == Some(Purpose::Think) {
            self.maybe_think();
        }
    }

    fn announce(&mut self, o: Outcome) {
        self.game_over = true;
        self.out.line(&format!("{} {{{}}}", o.result(), o.reason()));
    }

    /// Starts thinking if it is our turn in a game we play.
    fn maybe_think(&mut self) {
        if self.force || self.analyzing || self.game_over || self.current.is_some() {
            return;
        }
        if self.engine.game().turn() != self.engine_color {
            return;
        }
        if let Some(o) = self.engine.status() {
            self.announce(o);
            return;
        }
        let limits = self
            .clock
            .limits(self.engine_color, self.engine.game().ply_count());
        self.start(Purpose::Think, limits);
    }

    fn start(&mut self, purpose: Purpose, limits: Limits) {
        let (id, sink) = self.searches.sink();
        self.current = Some((id, purpose));
        self.engine.go(limits, sink);
    }

    fn start_analysis(&mut self) {
        self.halt();
        if self.analyzing {
            let limits = Limits {
                infinite: true,
                ..Limits::default()
            };
            self.start(Purpose::Analyze, limits);
        }
    }

    /// Plays our search's move, announces a finished game, starts pondering.
    fn play_best(&mut self, best: Option<String>, ponder: Option<String>) {
        let Some(best) = best else {
            if let Some(o) = self.engine.status() {
                self.announce(o);
            }
            return;
        };
        if let Err(e) = self.engine.play(&best) {
            // A search must return a legal move; say so rather than move.
            self.out
                .line(&format!("tellusererror engine error: {best}: {e}"));
            return;
        }
        self.out.line(&format!("move {best}"));
        if let Some(o) = self.engine.status() {
            self.announce(o);
            return;
        }
        if self.ponder_on {
            if let Some(p) = ponder {
                self.start_pondering(p);
            }
        }
    }

    /// Plays the expected reply on our board and searches on the opponent's
    /// time (the clock applies once the reply really comes).
    fn start_pondering(&mut self, guess: String) {
        if self.engine.play(&guess).is_err() {
            return;
        }
        if self.engine.status().is_some() {
            let _ = self.engine.undo();
            return;
        }
        self.guess = Some(guess);
        let mut limits = self
            .clock
            .limits(self.engine_color, self.engine.game().ply_count());
        limits.ponder = true;
        self.start(Purpose::Ponder, limits);
    }

    /// Whether `mv` is legal in the position the GUI sees (before our
    /// ponder guess, if one is on the board).
    fn check_move(&self, mv: &str) -> Result<(), MoveError> {
        if self.guess.is_some() {
            let mut before = self.engine.game().clone();
            before.undo();
            before.canonical_move(mv).map(|_| ())
        } else {
            self.engine.game().canonical_move(mv).map(|_| ())
        }
    }

    fn usermove(&mut self, mv: &str) {
        if self.guess.as_deref() == Some(mv) {
            self.ponder_hit();
            return;
        }
        // An illegal move changes nothing: a running analysis or ponder
        // search goes on.
        if let Err(e) = self.check_move(mv) {
            let what = match e {
                MoveError::Syntax(_) => "Illegal move (malformed)",
                MoveError::Illegal(_) => "Illegal move",
            };
            self.out.line(&format!("{what}: {}", shell::echo(mv)));
            return;
        }
        self.halt();
        if self.engine.play(mv).is_err() {
            // Checked above; the game is as the GUI sees it.
            self.out.line(&format!("Illegal move: {}", shell::echo(mv)));
            return;
        }
        if self.analyzing {
            self.start_analysis();
            return;
        }
        if !self.force {
            if let Some(o) = self.engine.status() {
                self.announce(o);
                return;
            }
        }
        self.maybe_think();
    }

    /// The opponent played the move we pondered on: it is already on the
    /// board; the ponder search becomes our think.
    fn ponder_hit(&mut self) {
        self.guess = None;
        match self.ponder_result.take() {
            Some(best) => {
                self.current = None;
                self.play_best(best, None);
            }
            None => {
                if let Some((id, _)) = self.current {
                    self.current = Some((id, Purpose::Think));
                    self.engine.ponderhit();
                } else {
                    self.maybe_think();
                }
            }
        }
    }

    fn variant(&mut self, cmd: &str, name: Option<&str>) {
        let Some(v) = name.and_then(Variant::from_name) else {
            self.error("unsupported variant", cmd);
            return;
        };
        self.halt();
        self.engine.set_variant(v);
        self.game_over = false;
        // XBoard's piece order is `P N B R Q`, sixteen fairy slots, then
        // the king; the registry gives each variant's string.
        if let Some(pieces) = v.xboard_setup() {
            let fen = self.engine.game().fen();
            self.out
                .line(&format!("setup ({pieces}) 8x8+0_fairy {fen}"));
            for piece in v.xboard_pieces() {
                self.out.line(&format!("piece {piece}"));
            }
        }
        if self.analyzing {
            self.start_analysis();
        }
    }

    fn level(&mut self, cmd: &str, args: &[&str]) {
        let parsed = match args {
            [mps, base, inc] => mps
                .parse::<u32>()
                .ok()
                .zip(parse_base(base))
                .zip(parse_seconds(inc)),
            _ => None,
        };
        match parsed {
            Some(((mps, base_ms), inc_ms)) => {
                self.clock.mps = mps;
                self.clock.base_ms = base_ms;
                self.clock.inc_ms = inc_ms;
                self.clock.per_move_ms = None;
                self.clock.ours_ms = None;
                self.clock.theirs_ms = None;
            }
            None => self.error("bad level", cmd),
        }
    }

    fn option(&mut self, cmd: &str, rest: &str) {
        let (name, value) = match rest.split_once('=') {
            Some((n, v)) => (n.trim(), Some(v.trim())),
            None => (rest.trim(), None),
        };
        let mut o = self.engine.options().clone();
        let result = match (name.to_ascii_lowercase().as_str(), value) {
            ("clear hash", _) => {
                let was = self.halt_for_change();
                self.engine.new_game();
                self.resume(was);
                return;
            }
            ("multipv", Some(v)) => shell::parse_in_range("MultiPV", v, 1, shell::MAX_MULTIPV)
                .map(|n| o.multipv = usize::try_from(n).unwrap_or(1)),
            ("move overhead", Some(v)) => {
                shell::parse_in_range("Move Overhead", v, 0, shell::MAX_OVERHEAD_MS)
                    .map(|n| o.move_overhead_ms = n)
            }
            ("seed", Some(v)) => shell::parse_in_range("Seed", v, 0, MAX_SEED).map(|n| o.seed = n),
            (name, Some(v)) => self
                .strength_option(name, v)
                .map(|()| o.elo = self.strength.elo()),
            _ => Err(String::new()),
        };
        match result {
            Ok(()) => self.set_options(cmd, o),
            Err(_) => self.error("bad option", cmd),
        }
    }

    /// `Skill Level`, `UCI_LimitStrength` (`-check`: 0 or 1) and `UCI_Elo`.
    fn strength_option(&mut self, name: &str, v: &str) -> Result<(), String> {
        let s = &mut self.strength;
        match name {
            "skill level" => {
                let max = u64::from(levels::MAX_SKILL);
                s.skill_level = u32::try_from(shell::parse_in_range("Skill Level", v, 0, max)?)
                    .unwrap_or(levels::MAX_SKILL);
            }
            "uci_limitstrength" => {
                s.limit_strength = match v {
                    "1" | "true" => true,
                    "0" | "false" => false,
                    _ => return Err(format!("UCI_LimitStrength: {v} is not 0 or 1")),
                }
            }
            "uci_elo" => {
                let (min, max) = (u64::from(levels::ELO_MIN), u64::from(levels::ELO_MAX));
                s.uci_elo = u32::try_from(shell::parse_in_range("UCI_Elo", v, min, max)?)
                    .unwrap_or(levels::ELO_MAX);
            }
            _ => return Err(format!("unknown option {name}")),
        }
        Ok(())
    }

    /// Applies valid options. Only a new hash table needs the search to end
    /// (analysis then restarts, our think begins again); the others apply
    /// from the next search.
    fn set_options(&mut self, cmd: &str, o: engine::Options) {
        if o == *self.engine.options() {
            return;
        }
        let hash = o.hash_mb;
        let new_table = hash != self.engine.options().hash_mb;
        let was = if new_table {
            self.halt_for_change()
        } else {
            None
        };
        match self.engine.set_options(o) {
            Ok(()) => {
                let got = self.engine.hash_allocated_mb();
                if got != hash {
                    self.out.line(&format!(
                        "# Hash {got} MiB in use: {hash} MiB could not be allocated"
                    ));
                }
            }
            Err(e) => self.error(&e.to_string(), cmd),
        }
        self.resume(was);
    }

    fn display(&self) {
        for l in self.engine.game().display().lines() {
            self.out.line(&format!("# {l}"));
        }
    }

    fn thinking(&self, i: &Info) {
        let score = match i.score {
            Score::Cp(cp) => i64::from(cp),
            Score::Mate(n) if n >= 0 => 100_000 + i64::from(n),
            Score::Mate(n) => -100_000 + i64::from(n),
        };
        self.out.line(&format!(
            "{} {score} {} {} {}",
            i.depth,
            i.time_ms / 10,
            i.nodes,
            i.pv.join(" ")
        ));
    }

    fn new_game(&mut self) {
        self.halt();
        self.analyzing = false;
        // `new` always means standard chess; `variant` may follow.
        self.engine.set_variant(Variant::DEFAULT);
        self.engine.new_game();
        self.force = false;
        self.engine_color = Color::Black;
        self.game_over = false;
        self.clock.depth = None;
    }

    fn go(&mut self) {
        self.halt();
        self.force = false;
        self.engine_color = self.engine.game().turn();
        if let Some(o) = self.engine.status() {
            self.announce(o);
        } else {
            self.maybe_think();
        }
    }

    /// `?`: move now. Input after it waits for the move, so a `ping` that
    /// follows is answered after the `move` line (CECP's rule).
    fn move_now(&mut self) {
        if let Some((_, Purpose::Think)) = self.current {
            self.hold_input = true;
            self.engine.stop();
        }
    }

    fn setboard(&mut self, cmd: &str, fen: &str) {
        if fen.is_empty() {
            self.error("bad FEN", cmd);
            return;
        }
        // Checked before anything stops: a bad FEN leaves analysis running.
        if let Err(e) = AnyGame::new(self.engine.variant(), Some(fen)) {
            self.out
                .line(&format!("Error (bad FEN): {}", shell::echo(&e.to_string())));
            return;
        }
        // A think is not resumed: after a new board XBoard sends `go`.
        self.halt();
        if self.engine.set_position(Some(fen), &[]).is_ok() {
            self.game_over = false;
        }
        if self.analyzing {
            self.start_analysis();
        }
    }

    fn take_back(&mut self, cmd: &str, plies: usize) {
        let played = self.engine.game().ply_count() - usize::from(self.guess.is_some());
        if played < plies {
            self.error("no move to undo", cmd);
            return;
        }
        self.halt();
        for _ in 0..plies {
            let _ = self.engine.undo();
        }
        self.game_over = false;
        if self.analyzing {
            self.start_analysis();
        }
    }

    fn time(&mut self, cmd: &str, args: &[&str], ours: bool) {
        let Some(cs) = (match args {
            [t] => t.parse::<i64>().ok(),
            _ => None,
        }) else {
            self.error("bad time", cmd);
            return;
        };
        let ms = u64::try_from(cs).unwrap_or(0).saturating_mul(10);
        if ours {
            self.clock.ours_ms = Some(ms);
        } else {
            self.clock.theirs_ms = Some(ms);
        }
    }

    fn st(&mut self, cmd: &str, args: &[&str]) {
        match args {
            [s] if parse_seconds(s).is_some_and(|ms| ms > 0) => {
                self.clock.per_move_ms = parse_seconds(s);
            }
            _ => self.error("bad st", cmd),
        }
    }

    fn sd(&mut self, cmd: &str, args: &[&str]) {
        match args {
            [d] if d.parse::<u32>().is_ok_and(|d| d > 0) => {
                self.clock.depth = d.parse().ok();
            }
            _ => self.error("bad sd", cmd),
        }
    }

    fn nps(&mut self, cmd: &str, args: &[&str]) {
        match args {
            // `nps 0` switches node-based timing off.
            [n] if n.parse::<u64>().is_ok() => self.clock.nps = n.parse().ok().filter(|&n| n > 0),
            _ => self.error("bad nps", cmd),
        }
    }

    fn memory(&mut self, cmd: &str, args: &[&str]) {
        match args {
            [m] => match shell::parse_in_range("memory", m, 1, shell::MAX_HASH_MB) {
                Ok(mb) => {
                    let mut o = self.engine.options().clone();
                    o.hash_mb = usize::try_from(mb).unwrap_or(1);
                    self.set_options(cmd, o);
                }
                Err(_) => self.error("bad memory", cmd),
            },
            _ => self.error("bad memory", cmd),
        }
    }

    fn cores(&mut self, cmd: &str, args: &[&str]) {
        match args {
            [c] => match shell::parse_in_range("cores", c, 1, shell::MAX_THREADS) {
                Ok(n) => {
                    let mut o = self.engine.options().clone();
                    o.threads = usize::try_from(n).unwrap_or(1);
                    self.set_options(cmd, o);
                }
                Err(_) => self.error("bad cores", cmd),
            },
            _ => self.error("bad cores", cmd),
        }
    }

    /// `lift SQ` (with `feature highlight=1`): mark where the piece on SQ
    /// can go, so XBoard lets a Tavreli player drop onto own towers.
    fn lift(&mut self, cmd: &str, args: &[&str]) {
        let Some(from) = args.first().and_then(|s| Square::parse(s)) else {
            self.error("bad square", cmd);
            return;
        };
        let game = if self.guess.is_some() {
            let mut before = self.engine.game().clone();
            before.undo();
            before
        } else {
            self.engine.game().clone()
        };
        let targets: Vec<Square> = game
            .legal_strings()
            .iter()
            .filter(|m| Square::parse(&m[..2]) == Some(from))
            .filter_map(|m| Square::parse(&m[2..4]))
            .collect();
        self.out.line(&format!("highlight {}", color_fen(&targets)));
    }

    /// One command (the callers keep the arrival order).
    fn exec(&mut self, line: &str) -> Flow {
        let trimmed = line.trim();
        let mut split = trimmed.splitn(2, char::is_whitespace);
        let Some(cmd) = split.next().filter(|c| !c.is_empty()) else {
            return Flow::Continue;
        };
        let rest = split.next().unwrap_or("").trim();
        let args: Vec<&str> = rest.split_whitespace().collect();
        match cmd {
            "xboard" | "accepted" | "rejected" | "name" | "rating" | "computer" | "random"
            | "ics" | "bk" | "hint" | "draw" | "." | "put" | "hover" => {}
            "protover" => self.features(),
            "ping" => self.out.line(&format!("pong {rest}")),
            "new" => self.new_game(),
            "variant" => self.variant(trimmed, args.first().copied()),
            "force" => {
                self.halt();
                self.force = true;
            }
            "go" => self.go(),
            "playother" => {
                self.halt();
                self.force = false;
                self.engine_color = self.engine.game().turn().flip();
            }
            "usermove" => match args.as_slice() {
                [mv] => self.usermove(mv),
                _ => self.error("usermove needs one move", trimmed),
            },
            "?" => self.move_now(),
            "level" => self.level(trimmed, &args),
            "st" => self.st(trimmed, &args),
            "sd" => self.sd(trimmed, &args),
            "nps" => self.nps(trimmed, &args),
            "time" => self.time(trimmed, &args, true),
            "otim" => self.time(trimmed, &args, false),
            "setboard" => self.setboard(trimmed, rest),
            "undo" => self.take_back(trimmed, 1),
            "remove" => self.take_back(trimmed, 2),
            "result" => {
                self.halt();
                self.game_over = true;
            }
            "hard" => self.ponder_on = true,
            "easy" => {
                self.ponder_on = false;
                if self.guess.is_some() {
                    self.halt();
                }
            }
            "post" => self.post = true,
            "nopost" => self.post = false,
            "analyze" => {
                self.analyzing = true;
                self.start_analysis();
            }
            "exit" => {
                if self.analyzing {
                    self.analyzing = false;
                    self.halt();
                }
            }
            "memory" => self.memory(trimmed, &args),
            "cores" => self.cores(trimmed, &args),
            "option" => self.option(trimmed, rest),
            "lift" => self.lift(trimmed, &args),
            "d" => self.display(),
            "quit" => {
                self.halt();
                return Flow::Quit;
            }
            _ if args.is_empty() && looks_like_move(cmd) => self.usermove(cmd),
            _ => self.error("unknown command", trimmed),
        }
        Flow::Continue
    }

    /// Runs a line that is next in order: now, or (a `ping` on our move)
    /// once the move is out.
    fn dispatch(&mut self, line: &str) -> Flow {
        let cmd = line.split_whitespace().next().unwrap_or("");
        if cmd == "ping" && matches!(self.current, Some((_, Purpose::Think))) {
            // CECP: a ping on our move is answered after the move.
            self.hold_input = true;
            self.pending.push_front(Queued::Line(line.to_string()));
            return Flow::Continue;
        }
        self.exec(line)
    }

    /// Runs the input that waited for our move.
    fn run_pending(&mut self) -> Flow {
        while !self.hold_input {
            match self.pending.pop_front() {
                Some(Queued::Line(l)) => {
                    if self.dispatch(&l) == Flow::Quit {
                        return Flow::Quit;
                    }
                }
                Some(Queued::TooLong(bytes)) => self.report_too_long(bytes),
                None => break,
            }
        }
        Flow::Continue
    }
}

impl XBoard {
    fn report_too_long(&self, bytes: usize) {
        self.out.line(&format!(
            "Error (line too long): {}",
            shell::too_long_message(bytes)
        ));
    }
}

/// Every command word the shim reads (for the tests' generators).
#[cfg(test)]
pub(crate) const COMMANDS: &[&str] = &[
    "xboard",
    "protover",
    "accepted",
    "rejected",
    "new",
    "variant",
    "force",
    "go",
    "playother",
    "usermove",
    "?",
    "ping",
    "level",
    "st",
    "sd",
    "nps",
    "time",
    "otim",
    "setboard",
    "undo",
    "remove",
    "result",
    "hard",
    "easy",
    "post",
    "nopost",
    "analyze",
    "exit",
    "memory",
    "cores",
    "option",
    "d",
    "quit",
    "lift",
    "put",
    "hover",
    "name",
    "rating",
    "computer",
    "random",
];

/// Input kept in arrival order while we owe the GUI a move.
#[derive(Debug)]
enum Queued {
    Line(String),
    TooLong(usize),
}

impl Shim for XBoard {
    fn line(&mut self, line: &str) -> Flow {
        let cmd = line.split_whitespace().next().unwrap_or("");
        if cmd == "quit" {
            return self.exec(line);
        }
        if self.hold_input || !self.pending.is_empty() {
            self.pending.push_back(Queued::Line(line.to_string()));
            return Flow::Continue;
        }
        self.dispatch(line)
    }

    fn too_long(&mut self, bytes: usize) {
        if self.hold_input {
            self.pending.push_back(Queued::TooLong(bytes));
        } else {
            self.out.line(&format!(
                "Error (line too long): {}",
                shell::too_long_message(bytes)
            ));
        }
    }

    fn event(&mut self, id: u64, ev: SearchEvent) {
        let Some((cur, purpose)) = self.current else {
            return;
        };
        if cur != id {
            return;
        }
        match ev {
            SearchEvent::Info(i) => {
                if self.post || purpose == Purpose::Analyze {
                    self.thinking(&i);
                }
            }
            SearchEvent::Message(m) => self.out.line(&format!("# {m}")),
            // XBoard starts no perft or bench.
            SearchEvent::Report(_) | SearchEvent::Done { .. } => {}
            SearchEvent::BestMove { best, ponder } => {
                self.current = None;
                match purpose {
                    Purpose::Think => {
                        self.hold_input = false;
                        self.play_best(best, ponder);
                    }
                    Purpose::Ponder => self.ponder_result = Some(best),
                    Purpose::Analyze => {}
                }
            }
        }
    }

    fn flow(&mut self) -> Flow {
        self.run_pending()
    }

    fn eof(&mut self) -> bool {
        // A move already asked for is still played and the input that
        // waited for it still runs; anything else ends with the input.
        if self.hold_input {
            return false;
        }
        self.halt();
        self.pending.clear();
        true
    }
}

/// XBoard's `highlight` board: yellow on each target square.
fn color_fen(targets: &[Square]) -> String {
    let mut ranks = Vec::with_capacity(8);
    for rank in (0..8usize).rev() {
        let mut row = String::new();
        let mut empty = 0u8;
        for file in 0..8usize {
            let marked = targets.iter().any(|s| s.index() == rank * 8 + file);
            if marked {
                if empty > 0 {
                    row.push(char::from(b'0' + empty));
                    empty = 0;
                }
                row.push('Y');
            } else {
                empty += 1;
            }
        }
        if empty > 0 {
            row.push(char::from(b'0' + empty));
        }
        ranks.push(row);
    }
    ranks.join("/")
}

/// A bare token that XBoard may send as a move without `usermove`.
fn looks_like_move(s: &str) -> bool {
    s.len() >= 4
        && s.is_char_boundary(2)
        && s.is_char_boundary(4)
        && Square::parse(&s[..2]).is_some()
        && Square::parse(&s[2..4]).is_some()
}

/// Seconds, possibly fractional, as milliseconds.
fn parse_seconds(s: &str) -> Option<u64> {
    let v: f64 = s.parse().ok()?;
    if !v.is_finite() || !(0.0..=1e9).contains(&v) {
        return None;
    }
    // In range by the check above; rounding to whole milliseconds.
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    Some((v * 1000.0).round() as u64)
}

/// `level`'s base time: minutes, or `minutes:seconds`.
fn parse_base(s: &str) -> Option<u64> {
    match s.split_once(':') {
        Some((m, sec)) => {
            let m = parse_seconds(m)?;
            let sec = parse_seconds(sec)?;
            Some(m.checked_mul(60)?.checked_add(sec)?)
        }
        None => parse_seconds(s)?.checked_mul(60),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn level_times() {
        assert_eq!(parse_base("5"), Some(300_000));
        assert_eq!(parse_base("0:30"), Some(30_000));
        assert_eq!(parse_base("2:05"), Some(125_000));
        assert_eq!(parse_base("1.5"), Some(90_000));
        assert_eq!(parse_base("x"), None);
        assert_eq!(parse_base("-1"), None);
        assert_eq!(parse_seconds("0.1"), Some(100));
        assert_eq!(parse_seconds("NaN"), None);
    }

    #[test]
    fn clock_to_limits() {
        let mut c = Clock {
            ours_ms: Some(12_000),
            theirs_ms: Some(9_000),
            inc_ms: 500,
            ..Clock::default()
        };
        let l = c.limits(Color::Black, 5);
        assert_eq!((l.wtime, l.btime), (Some(9_000), Some(12_000)));
        assert_eq!((l.winc, l.binc), (Some(500), Some(500)));
        assert_eq!(l.movestogo, Some(38));
        c.mps = 0;
        c.per_move_ms = Some(2_000);
        let l = c.limits(Color::White, 0);
        assert_eq!(
            (l.movetime, l.wtime, l.movestogo),
            (Some(2_000), None, None)
        );
        c.nps = Some(1000);
        let l = c.limits(Color::White, 0);
        assert_eq!((l.nodes, l.movetime), (Some(2_000), None));
    }

    #[test]
    fn piece_strings_have_xboards_length() {
        for v in Variant::ALL {
            let Some(s) = v.xboard_setup() else { continue };
            let (w, b) = s.split_at(s.len() / 2);
            assert_eq!((w.len(), b.len()), (22, 22));
            assert!(w.ends_with('K') && b.ends_with('k'));
            assert_eq!(w.to_ascii_lowercase(), b);
        }
        assert_eq!(Variant::Tavreli.xboard_setup().unwrap().find('H'), Some(12));
    }

    fn best(b: &str, p: Option<&str>) -> SearchEvent {
        SearchEvent::BestMove {
            best: Some(b.to_string()),
            ponder: p.map(String::from),
        }
    }

    /// Pondering with scripted search results (the placeholder search never
    /// names a ponder move); events of the real searches are ignored.
    #[test]
    fn pondering_hit_miss_and_early_result() {
        let buf = shell::Capture::default();
        let (tx, _rx) = std::sync::mpsc::channel();
        let mut x = XBoard::new(buf.out(), Searches::new(tx));
        for l in ["new", "hard", "force", "usermove e2e4", "go"] {
            x.line(l);
        }
        let (id, purpose) = x.current.unwrap();
        assert_eq!(purpose, Purpose::Think);
        x.event(id, best("e7e5", Some("g1f3")));
        assert_eq!(buf.take(), ["move e7e5"]);
        // Pondering on g1f3, which is already on the engine's board.
        assert_eq!(x.guess.as_deref(), Some("g1f3"));
        let (pid, purpose) = x.current.unwrap();
        assert_eq!(purpose, Purpose::Ponder);
        assert_eq!(x.engine.game().ply_count(), 3);
        // Hit: the same search now counts as thinking; its move is played.
        x.line("usermove g1f3");
        assert_eq!(x.current, Some((pid, Purpose::Think)));
        assert_eq!(x.guess, None);
        x.event(pid, best("b8c6", Some("f1b5")));
        assert_eq!(buf.take(), ["move b8c6"]);
        // e2e4 e7e5 g1f3 b8c6 and the new guess f1b5.
        assert_eq!(x.engine.game().ply_count(), 5);
        // Miss: the guess is taken back and the real move played.
        x.line("usermove d2d4");
        assert_eq!(buf.take(), Vec::<String>::new());
        assert_eq!(x.engine.game().ply_count(), 5);
        let fen = "r1bqkbnr/pppp1ppp/2n5/4p3/3PP3/5N2/PPP2PPP/RNBQKB1R b KQkq - 0 3";
        assert_eq!(x.engine.game().fen(), fen);
        let (id, purpose) = x.current.unwrap();
        assert_eq!(purpose, Purpose::Think);
        // A ponder search that ends before the opponent moves: its move is
        // played at once on a hit.
        x.event(id, best("e5d4", Some("f3d4")));
        assert_eq!(buf.take(), ["move e5d4"]);
        let (pid, _) = x.current.unwrap();
        x.event(pid, best("g8f6", None));
        assert_eq!(x.current, None);
        x.line("usermove f3d4");
        assert_eq!(buf.take(), ["move g8f6"]);
        assert_eq!(x.engine.game().ply_count(), 8);
        // `force` while pondering takes the guess back.
        x.line("usermove c2c4");
        let (id, _) = x.current.unwrap();
        x.event(id, best("f8b4", Some("c1d2")));
        assert_eq!(buf.take(), ["move f8b4"]);
        assert_eq!(x.engine.game().ply_count(), 11);
        x.line("force");
        assert_eq!((x.current, x.guess.clone()), (None, None));
        assert_eq!(x.engine.game().ply_count(), 10);
    }

    /// Arbitrary lines never panic; the game stays a legal one.
    #[test]
    fn fuzzed_lines_do_not_panic() {
        let mut words = COMMANDS.to_vec();
        words.extend(["normal", "plunder", "tavreli", "MultiPV=2"]);
        let (tx, _rx) = std::sync::mpsc::channel();
        let out = Out::new(Box::new(std::io::sink()));
        let mut x = XBoard::new(out, Searches::new(tx));
        for line in shell::fuzz_lines(0xfeed, 3000, &words) {
            let _ = x.line(&line);
        }
        for l in ["new", "force", "usermove e2e4"] {
            let _ = x.line(l);
        }
        assert_eq!(
            x.engine.game().fen(),
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
        );
    }

    #[test]
    fn bare_moves() {
        assert!(looks_like_move("e2e4"));
        assert!(looks_like_move("d4f6:1"));
        assert!(!looks_like_move("hello"));
        assert!(!looks_like_move("e2é4"));
    }
}
