//! The JSON API the page talks to: games, moves, takeback, settings,
//! search control, PGN, and the JSON shapes of a game's state and of one
//! search report. Every input is checked here; a rejected request leaves the
//! game as it was.
//!
//! ```text
//! POST /api/games                 {variant, fen?, moves?, settings…}  → 201 state
//! GET  /api/games/ID              → state
//! GET  /api/games/ID/position?ply=N → the board after N moves
//! POST /api/games/ID/move         {move}              → state | 400/409 {error}
//! POST /api/games/ID/undo | stop  → state
//! POST /api/games/ID/new          {variant, fen?, moves?} → state
//! POST /api/games/ID/settings     {engine?, movetime?|depth?|nodes?|clock?+inc?, threads?, hash?, multipv?, analyse?, elo?}
//! GET  /api/games/ID/pgn          → PGN text;  POST /api/games/ID/pgn {pgn} → state
//! POST /api/games/ID/hint         → {move, text, ply, hints}  (the person to move only)
//! GET  /api/reply?variant=V[&fen=F][&moves=M,M] → {move, text}: the engine's move, nothing kept
//! POST /api/games/ID/review       {movetime?} → the review;  GET /api/games/ID/review → the review
//! GET  /api/games/ID/events       → Server-Sent Events: state, info, message
//! ```

use super::http::{Answer, ApiError, Reply, Req};
use super::pgn;
use super::pool::{Busy, Pool, RETRY_AFTER_S};
use super::review::{self, Review};
use super::seats::{Seats, Who};
use super::session::{
    color_word, lock, saved, white_view, Ending, EngineLimit, Kind, OfferStep, Refusal, Registry,
    Run, Settings, Sides, Slot, View,
};
use super::store;
use super::wording;
use engine::levels::{ELO_MAX, ELO_MIN, NAMED};
use engine::{with_game, Game, Info, Options, Score};
use eval::Evaluate;
use hyper::Method;
use movegen::{Color, Describe, PieceParts, Position, Role, Square, Token, Variant};
use notation::words::{
    checked_king, legal_words, outcome_key, outcome_words, plies, pv_notation, MoveParts,
};
use serde::{Deserialize, Deserializer};
use serde_json::{json, Value};
use std::sync::{Arc, Mutex};

/// Every field any request body may carry; each handler checks that only
/// its own are given.
#[derive(Deserialize, Default, Debug)]
#[serde(deny_unknown_fields)]
struct Body {
    variant: Option<String>,
    fen: Option<String>,
    moves: Option<Vec<String>>,
    #[serde(rename = "move")]
    mv: Option<String>,
    pgn: Option<String>,
    engine: Option<String>,
    movetime: Option<u64>,
    depth: Option<u32>,
    nodes: Option<u64>,
    clock: Option<u64>,
    inc: Option<u64>,
    threads: Option<usize>,
    hash: Option<usize>,
    multipv: Option<usize>,
    analyse: Option<bool>,
    /// Absent: unchanged; `null`: full strength; a number: that level.
    #[serde(default, deserialize_with = "present")]
    elo: Option<Option<u32>>,
    /// The side a host resigns, offers or answers for (a seat's is its own).
    side: Option<String>,
    /// `offer`/`ask`, `accept` or `decline` (draw, takeback).
    action: Option<String>,
    /// The seats' names.
    white: Option<String>,
    /// See `white`.
    black: Option<String>,
}

/// A field that is there, `null` or not, as `Some`.
fn present<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Option<u32>>, D::Error> {
    Option::<u32>::deserialize(d).map(Some)
}

impl Body {
    fn has_position(&self) -> bool {
        self.variant.is_some() || self.fen.is_some() || self.moves.is_some()
    }

    fn has_settings(&self) -> bool {
        self.engine.is_some()
            || self.movetime.is_some()
            || self.depth.is_some()
            || self.nodes.is_some()
            || self.clock.is_some()
            || self.inc.is_some()
            || self.threads.is_some()
            || self.hash.is_some()
            || self.multipv.is_some()
            || self.analyse.is_some()
            || self.elo.is_some()
    }

    fn is_empty(&self) -> bool {
        !self.has_position()
            && !self.has_settings()
            && self.mv.is_none()
            && self.pgn.is_none()
            && self.side.is_none()
            && self.action.is_none()
            && self.white.is_none()
            && self.black.is_none()
    }

    /// `true` if no field but `allowed` is given.
    fn has_only(&self, allowed: &[&str]) -> bool {
        let given = [
            ("position", self.has_position()),
            ("settings", self.has_settings()),
            ("move", self.mv.is_some()),
            ("pgn", self.pgn.is_some()),
            ("side", self.side.is_some()),
            ("action", self.action.is_some()),
            ("white", self.white.is_some()),
            ("black", self.black.is_some()),
        ];
        given
            .iter()
            .all(|(name, there)| !there || allowed.contains(name))
    }

    fn only(&self, what: &str, ok: bool) -> Result<(), ApiError> {
        if ok {
            Ok(())
        } else {
            Err(ApiError::bad(format!("unexpected fields for {what}")))
        }
    }
}

fn in_range<T: PartialOrd + std::fmt::Display + Copy>(
    name: &str,
    v: Option<T>,
    lo: T,
    hi: T,
) -> Result<Option<T>, ApiError> {
    match v {
        Some(x) if x < lo || x > hi => Err(ApiError::bad(format!(
            "{name} must be between {lo} and {hi}, got {x}"
        ))),
        other => Ok(other),
    }
}

/// The most search threads a page may ask for: the machine's cores.
fn max_threads() -> usize {
    std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
}

/// `old` with the body's settings applied, all checked first.
fn settings_from(old: &Settings, b: &Body) -> Result<Settings, ApiError> {
    let mut s = old.clone();
    if let Some(e) = &b.engine {
        s.sides = Sides::parse(e).ok_or_else(|| {
            ApiError::bad(format!(
                "engine must be none, white, black or both, got \"{e}\""
            ))
        })?;
    }
    let limits = [
        b.movetime.is_some(),
        b.depth.is_some(),
        b.nodes.is_some(),
        b.clock.is_some(),
    ];
    if limits.iter().filter(|&&x| x).count() > 1 {
        return Err(ApiError::bad("give one of movetime, depth, nodes or clock"));
    }
    if b.inc.is_some() && b.clock.is_none() {
        return Err(ApiError::bad("inc goes with clock"));
    }
    if let Some(ms) = in_range("movetime", b.movetime, 10, 3_600_000)? {
        s.limit = EngineLimit::Movetime(ms);
    }
    if let Some(d) = in_range("depth", b.depth, 1, 64)? {
        s.limit = EngineLimit::Depth(d);
    }
    if let Some(n) = in_range("nodes", b.nodes, 1, 10_000_000_000)? {
        s.limit = EngineLimit::Nodes(n);
    }
    if let Some(base) = in_range("clock", b.clock, 1000, 86_400_000)? {
        let inc = in_range("inc", b.inc, 0, 600_000)?.unwrap_or(0);
        s.limit = EngineLimit::Clock {
            base_ms: base,
            inc_ms: inc,
        };
    }
    let o = &mut s.options;
    *o = Options {
        threads: in_range("threads", b.threads, 1, max_threads())?.unwrap_or(o.threads),
        hash_mb: in_range("hash", b.hash, 1, 1024)?.unwrap_or(o.hash_mb),
        multipv: in_range("multipv", b.multipv, 1, 5)?.unwrap_or(o.multipv),
        ..o.clone()
    };
    if let Some(a) = b.analyse {
        s.analyse = a;
    }
    if let Some(elo) = b.elo {
        s.elo = in_range("elo", elo, ELO_MIN, ELO_MAX)?;
    }
    Ok(s)
}

fn variant_from(name: Option<&str>, default: Variant) -> Result<Variant, ApiError> {
    match name {
        None => Ok(default),
        Some(n) => Variant::from_name(n)
            .ok_or_else(|| ApiError::bad(format!("unknown variant \"{n}\" ({})", Variant::list()))),
    }
}

/// `None` for the start position (`startpos` or nothing).
fn fen_from(fen: Option<&str>) -> Option<&str> {
    fen.map(str::trim)
        .filter(|f| !f.is_empty() && *f != "startpos")
}

/// Answers one API request (the path starts with `api`). Streams are
/// opened by the caller, which owns the connection.
pub fn handle(reg: &Registry, pool: &Pool, req: &Req) -> Result<Answer, ApiError> {
    let t = &req.head.target;
    let path = t.segments();
    let method = &req.head.method;
    let now = |r: Reply| Ok(Answer::Now(r));
    match (method, path.as_slice()) {
        (&Method::POST, ["api", "games"]) => now(create(reg, &req.json()?)?),
        (&Method::GET, ["api", "games", id]) => {
            let slot = reg.get(id)?;
            let mut s = lock(&slot);
            s.flag_fall();
            let mut v = state(&s);
            // Whose page this is: the host's, a player's or a watcher's.
            v["you"] = json!(match req.who {
                Who::Host => "host",
                Who::Seat { role, .. } => role.name(),
            });
            now(Reply::json(&v))
        }
        (&Method::GET, ["api", "games", id, "position"]) => {
            let slot = reg.get(id)?;
            let s = lock(&slot);
            let ply = match t.param("ply") {
                None => s.engine.game().ply_count(),
                Some(p) => p
                    .parse()
                    .map_err(|_| ApiError::bad(format!("ply must be a number, got \"{p}\"")))?,
            };
            now(Reply::json(&position_at(s.engine.game(), ply)?))
        }
        (&Method::GET, ["api", "reply"]) => reply(pool, t),
        (&Method::GET, ["api", "languages"]) => now(Reply::json(&Value::Array(
            super::assets::languages()
                .into_iter()
                .map(|(code, name)| json!({ "code": code, "name": name }))
                .collect(),
        ))),
        (&Method::POST, ["api", "games", id, "hint"]) => {
            let body: Body = req.json()?;
            body.only("hint", body.is_empty())?;
            hint(reg, pool, id)
        }
        (&Method::POST, ["api", "games", id, "review"]) => {
            if req.who != Who::Host && !lock(&*reg.get(id)?).over() {
                return Err(ApiError::new(
                    403,
                    "the review opens to the players once the game is over",
                ));
            }
            let mut body: Body = req.json()?;
            let movetime = body.movetime.take();
            body.only("review", body.is_empty())?;
            now(start_review(reg, pool, id, movetime)?)
        }
        (&Method::GET, ["api", "games", id, "review"]) => {
            let slot = reg.get(id)?;
            let s = lock(&slot);
            let r = s.review.as_ref().ok_or_else(|| {
                ApiError::new(
                    409,
                    format!(
                        "no review of game {id} was started (POST /api/games/{id}/review starts one)"
                    ),
                )
            })?;
            now(Reply::json(&review_json(&r.snapshot(), r.movetime_ms)))
        }
        (&Method::GET, ["api", "games", id, "pgn"]) => {
            let slot = reg.get(id)?;
            let text = pgn::export(&lock(&slot));
            now(Reply::bytes(
                "application/x-chess-pgn; charset=utf-8",
                text.into_bytes(),
            ))
        }
        (&Method::POST, ["api", "games", id, action]) => {
            let body: Body = req.json()?;
            let slot = reg.get(id)?;
            let mut s = lock(&slot);
            act(&mut s, action, &body, req.who)?;
            now(Reply::json(&state(&s)))
        }
        (_, ["api", "games"] | ["api", "games", _] | ["api", "games", _, _]) => Err(ApiError::new(
            405,
            format!("{method} is not allowed on {}", t.path.join("/")),
        )),
        _ => Err(ApiError::not_found(format!(
            "no such API: /{}",
            t.path.join("/")
        ))),
    }
}

/// The pool's refusal as the page reads it.
pub fn busy_error(b: &Busy) -> ApiError {
    ApiError::busy(
        format!(
            "the engine is busy ({} jobs waiting); try again in {RETRY_AFTER_S} s",
            b.waiting
        ),
        RETRY_AFTER_S,
    )
}

/// How long a hint's search runs (ms).
const HINT_MS: u64 = 1000;

/// The best move for the person to move, from a full-strength search on
/// the engine pool; the game is not held meanwhile, so the page stays live.
fn hint(reg: &Registry, pool: &Pool, id: &str) -> Result<Answer, ApiError> {
    let slot = reg.get(id)?;
    let (variant, kept) = {
        let s = lock(&slot);
        if !s.human_to_move() {
            let (why, key) = if s.over() {
                ("the game is over", "error.over")
            } else {
                ("it is the engine's turn", "error.engine_turn")
            };
            return Err(ApiError::new(409, format!("no hint: {why}")).keyed(key));
        }
        (s.engine.variant(), saved(s.engine.game(), &s.settings, &[]))
    };
    let (tx, rx) = tokio::sync::oneshot::channel();
    pool.submit(Box::new(move |_| {
        let found = review::best_move(variant, &kept.start, &kept.moves, HINT_MS);
        let reply = found
            .map_err(|e| ApiError::bad(format!("no hint: {e}")))
            .and_then(|mv| record_hint(&slot, &kept.moves, &mv))
            .unwrap_or_else(|e| Reply::error(&e));
        let _ = tx.send(reply);
    }))
    .map_err(|b| busy_error(&b))?;
    Ok(Answer::Later(rx))
}

/// `GET /api/reply?variant=V[&fen=F][&moves=M,M…]`: the engine's move in a
/// position of no game (the rules pages' opponent): `{move, text}`, or
/// `{move: null}` where the game is over. Nothing is kept.
fn reply(pool: &Pool, t: &super::http::Target) -> Result<Answer, ApiError> {
    let variant = variant_from(t.param("variant"), Variant::DEFAULT)?;
    let start = fen_from(t.param("fen")).map(String::from);
    let moves: Vec<String> = t
        .param("moves")
        .unwrap_or("")
        .split([',', ' '])
        .filter(|m| !m.is_empty())
        .map(String::from)
        .collect();
    let refs: Vec<&str> = moves.iter().map(String::as_str).collect();
    let game = engine::AnyGame::from_moves(variant, start.as_deref(), &refs)
        .map_err(|e| ApiError::bad(e.to_string()).worded(wording::engine(&e)))?;
    if game.status().is_some() {
        return Ok(Answer::Now(Reply::json(&json!({ "move": null }))));
    }
    let start = with_game!(&game, g => g.start().fen());
    let (tx, rx) = tokio::sync::oneshot::channel();
    pool.submit(Box::new(move |_| {
        let answer = review::best_move(variant, &start, &moves, HINT_MS)
            .map(|mv| {
                let text =
                    with_game!(&game, g => pv_notation(g.position(), std::slice::from_ref(&mv)))
                        .pop()
                        .unwrap_or_else(|| mv.clone());
                Reply::json(&json!({ "move": mv, "text": text }))
            })
            .unwrap_or_else(|e| Reply::error(&ApiError::bad(format!("no reply: {e}"))));
        let _ = tx.send(answer);
    }))
    .map_err(|b| busy_error(&b))?;
    Ok(Answer::Later(rx))
}

/// Keeps hint `mv`, found for the game after `moves`, if the game is still
/// there; the reply names it.
fn record_hint(slot: &Arc<Mutex<Slot>>, moves: &[String], mv: &str) -> Result<Reply, ApiError> {
    let mut s = lock(slot);
    let ply = moves.len();
    if saved(s.engine.game(), &s.settings, &[]).moves != moves {
        return Err(ApiError::new(
            409,
            "the game changed while the hint was searched; ask again",
        ));
    }
    s.add_hint(ply, mv)?;
    let text = with_game!(s.engine.game(), g => pv_notation(g.position(), &[mv.to_string()]))
        .pop()
        .unwrap_or_else(|| mv.to_string());
    let [white, black] = s.hint_counts();
    Ok(Reply::json(&json!({
        "move": mv,
        "text": text,
        "ply": ply,
        "hints": { "white": white, "black": black },
    })))
}

/// Starts (or restarts) the review of game `id`'s moves as they are now.
fn start_review(
    reg: &Registry,
    pool: &Pool,
    id: &str,
    movetime: Option<u64>,
) -> Result<Reply, ApiError> {
    let ms = in_range(
        "movetime",
        movetime,
        review::MIN_MOVETIME_MS,
        review::MAX_MOVETIME_MS,
    )?
    .unwrap_or(review::DEFAULT_MOVETIME_MS);
    let slot = reg.get(id)?;
    let mut s = lock(&slot);
    let kept = saved(s.engine.game(), &s.settings, &[]);
    // The old review's thread is told to stop before the new one starts.
    s.review = None;
    let handle = review::Handle::start(
        review::Job {
            variant: kept.variant,
            start: kept.start,
            moves: kept.moves,
            movetime_ms: ms,
        },
        pool,
    )?;
    let body = review_json(&handle.snapshot(), ms);
    s.review = Some(handle);
    Ok(Reply::json_status(202, &body))
}

/// A review as the API gives it.
fn review_json(r: &Review, movetime_ms: u64) -> Value {
    let moves: Vec<Value> = r
        .moves
        .iter()
        .map(|m| {
            json!({
                "ply": m.ply,
                "move": m.mv,
                "text": m.text,
                "mark": m.mark.word(),
                "best": m.best,
                "best_text": m.best_text,
                "white_win_before": m.white_win_before,
                "white_win_after": m.white_win_after,
            })
        })
        .collect();
    json!({
        "progress": r.progress,
        "done": r.progress >= 1.0,
        "movetime": movetime_ms,
        "moves": moves,
        "accuracy": { "white": r.accuracy[0], "black": r.accuracy[1] },
        "error": r.error,
    })
}

fn create(reg: &Registry, b: &Body) -> Result<Reply, ApiError> {
    let settings = settings_from(&Settings::default(), b)?;
    let variant = variant_from(b.variant.as_deref(), Variant::DEFAULT)?;
    let moves = b.moves.clone().unwrap_or_default();
    let slot = reg.create(variant, fen_from(b.fen.as_deref()), &moves, settings)?;
    let mut s = lock(&slot);
    s.changed();
    Ok(Reply::json_status(201, &state(&s)))
}

fn act(s: &mut Slot, action: &str, b: &Body, who: Who) -> Result<(), ApiError> {
    match action {
        "move" => {
            b.only(
                "move",
                !b.has_position()
                    && !b.has_settings()
                    && b.pgn.is_none()
                    && b.side.is_none()
                    && b.action.is_none(),
            )?;
            let mv =
                b.mv.as_deref()
                    .ok_or_else(|| ApiError::bad("missing \"move\""))?;
            if let Some(side) = who.side() {
                s.flag_fall();
                if !s.over() && s.engine.game().turn() != side {
                    return Err(
                        ApiError::new(409, "it is not your turn").keyed("error.not_your_turn")
                    );
                }
            }
            Ok(s.human_move(mv.trim())?)
        }
        "resign" => {
            b.only("resign", b.has_only(&["side"]))?;
            let side = side_of(who, b, s)?;
            s.flag_fall();
            Ok(s.end(Ending::resigns(side))?)
        }
        "draw" | "takeback" => {
            b.only(action, b.has_only(&["side", "action"]))?;
            let side = side_of(who, b, s)?;
            let answer = b
                .action
                .as_deref()
                .and_then(OfferStep::parse)
                .ok_or_else(|| {
                    ApiError::bad("\"action\" must be one of offer (ask), accept, decline")
                })?;
            if action == "draw" {
                Ok(s.draw(side, answer)?)
            } else {
                Ok(s.takeback(side, answer)?)
            }
        }
        "undo" => {
            b.only("undo", b.is_empty())?;
            Ok(s.undo()?)
        }
        "stop" => {
            b.only("stop", b.is_empty())?;
            s.stop();
            Ok(())
        }
        "new" => {
            b.only(
                "new",
                !b.has_settings() && b.mv.is_none() && b.pgn.is_none(),
            )?;
            let variant = variant_from(b.variant.as_deref(), s.engine.variant())?;
            let moves = b.moves.clone().unwrap_or_default();
            Ok(s.new_game(variant, fen_from(b.fen.as_deref()), &moves)?)
        }
        "settings" => {
            b.only(
                "settings",
                !b.has_position() && b.mv.is_none() && b.pgn.is_none(),
            )?;
            let new = settings_from(&s.settings, b)?;
            // Between two seats, neither the engine nor its analysis plays
            // a part while the game goes on.
            let engine_in = new.analyse || new.sides != Sides::None;
            if s.settings.players.is_some() && !s.over() && engine_in {
                return Err(ApiError::new(
                    409,
                    "a game between two seats has no engine or analysis while it goes on",
                )
                .keyed("error.seats_no_engine"));
            }
            Ok(s.set_settings(new)?)
        }
        "pgn" => {
            b.only(
                "pgn",
                !b.has_position() && !b.has_settings() && b.mv.is_none(),
            )?;
            let text = b
                .pgn
                .as_deref()
                .ok_or_else(|| ApiError::bad("missing \"pgn\""))?;
            let (variant, fen, moves) = pgn::import(text, s.engine.variant())?;
            Ok(s.new_game(variant, fen.as_deref(), &moves)?)
        }
        other => Err(ApiError::not_found(format!("no such action \"{other}\""))),
    }
}

/// The side a resignation, offer or answer is for: a seat's own; the
/// host names one (`side`), or it is the side to move.
fn side_of(who: Who, b: &Body, s: &Slot) -> Result<Color, ApiError> {
    if let Some(side) = who.side() {
        return Ok(side);
    }
    match b.side.as_deref() {
        None => Ok(s.engine.game().turn()),
        Some("white") => Ok(Color::White),
        Some("black") => Ok(Color::Black),
        Some(other) => Err(ApiError::bad(format!(
            "\"side\" must be white or black, got \"{other}\""
        ))),
    }
}

/// `POST /api/games/ID/seats {white, black}` (the host): seats for two
/// people and a link for watchers, `201 {white: {url, name}, black: {url,
/// name}, watch: {url}}`; the game's engine and analysis stop for good.
/// `GET` gives the links again.
///
/// # Errors
/// 400 for a bad name, 404 for no such game, 409 if it has seats already
/// (POST) or none (GET), 507 if the library cannot keep them.
pub fn seats(
    reg: &Registry,
    store: &super::store::Store,
    seats: &Seats,
    req: &Req,
) -> Result<Reply, ApiError> {
    let path = req.head.target.segments();
    let ["api", "games", id, "seats"] = path.as_slice() else {
        return Err(ApiError::not_found("no such API"));
    };
    let slot = reg.get(id)?;
    let n = lock(&slot).id;
    let host = req.head.header("host").unwrap_or("127.0.0.1");
    // The page builds its links from its own origin and `path` (behind a
    // TLS proxy the server's Host is not the players' address).
    let link = |secret: &str| {
        let path = format!("/?game={n}&seat={secret}");
        json!({ "url": format!("http://{host}{path}"), "path": path })
    };
    let reply = |links: &super::seats::Links, names: &[String; 2], status: u16| {
        let mut white = link(&links.white);
        white["name"] = json!(names[0]);
        let mut black = link(&links.black);
        black["name"] = json!(names[1]);
        Reply::json_status(
            status,
            &json!({ "white": white, "black": black, "watch": link(&links.watch) }),
        )
    };
    match req.head.method {
        Method::GET => {
            let names = lock(&slot).settings.players.clone();
            match (seats.links(n), names) {
                (Some(links), Some(names)) => Ok(reply(&links, &names, 200)),
                _ => {
                    Err(ApiError::new(409, format!("game {n} has no seats"))
                        .keyed("error.no_seats"))
                }
            }
        }
        Method::POST => {
            let b: Body = req.json()?;
            b.only("seats", b.has_only(&["white", "black"]))?;
            let names = [
                super::seats::name("white", b.white.as_deref())?,
                super::seats::name("black", b.black.as_deref())?,
            ];
            let mut s = lock(&slot);
            let mut settings = s.settings.clone();
            settings.players = Some(names.clone());
            settings.sides = Sides::None;
            settings.analyse = false;
            let links = seats.create(store, n, &names)?;
            s.set_settings(settings)?;
            Ok(reply(&links, &names, 201))
        }
        _ => Err(ApiError::new(405, "seats: GET or POST")),
    }
}

fn score_json(s: Score) -> Value {
    match s {
        Score::Cp(cp) => json!({ "cp": cp }),
        Score::Mate(m) => json!({ "mate": m }),
    }
}

const fn color_key(c: Color) -> &'static str {
    match c {
        Color::White => "white",
        Color::Black => "black",
    }
}

/// A piece as parts: the page words it in the reader's language.
fn piece_parts_json(p: &PieceParts) -> Value {
    json!({
        "color": color_key(p.color),
        "role": p.role.name(),
        "promotes_to": p.promotes_to.map(Role::name),
        "promoted": p.promoted,
        "vest": p.vest.map(Role::name),
    })
}

/// A legal move's sentence as parts (see `notation::words::MoveParts`).
fn move_parts_json(m: &MoveParts) -> Value {
    json!({
        "shape": m.shape.key(),
        "mover": {
            "k": m.mover.k,
            "height": m.mover.height,
            "pieces": m.mover.pieces.iter().map(piece_parts_json).collect::<Vec<_>>(),
            "by_vest": m.mover.by_vest.map(Role::name),
        },
        "promotion": m.promotion.map(Role::name),
        "vest": m.vest.map(Role::name),
        "declines_vest": m.declines_vest,
    })
}

fn token_json(t: &Token) -> Value {
    let mut v = json!({ "piece": t.piece, "name": t.name, "parts": piece_parts_json(&t.parts) });
    if let Some(vest) = t.vest {
        v["vest"] = json!(vest.to_string());
    }
    v
}

/// The board as 64 lists (a1, b1, …, h8) of pieces bottom to top.
fn board_json<P: Position + Describe>(pos: &P) -> Value {
    Value::Array(
        Square::all()
            .map(|sq| Value::Array(pos.tokens(sq).iter().map(token_json).collect()))
            .collect(),
    )
}

/// How a game ended, as the page reads it: the PGN result, the reason in
/// English and as a catalogue key, and both as one line.
fn status_json(result: &str, reason: &str, key: &str) -> Value {
    json!({
        "result": result,
        "reason": reason,
        "reason_key": key,
        "text": format!("{result} \u{2014} {reason}"),
    })
}

/// A position of a game as the board draws it: FEN, squares, legal moves in
/// words, history, status.
pub fn game_json<P: Position + Describe + Evaluate>(g: &Game<P>) -> Value {
    let pos = g.position();
    let legal: Vec<Value> = legal_words(pos)
        .into_iter()
        .map(|w| {
            json!({
                "move": w.mv,
                "from": w.from.to_string(),
                "to": w.to.to_string(),
                "text": w.text,
                "parts": move_parts_json(&w.parts),
            })
        })
        .collect();
    let history: Vec<Value> = plies(g.start(), g.moves())
        .into_iter()
        .map(|p| json!({ "move": p.mv, "text": p.text, "fen": p.fen }))
        .collect();
    let status = g.status().map(|o| {
        let (result, reason) = outcome_words(o);
        status_json(result, reason, outcome_key(o))
    });
    json!({
        "variant": P::VARIANT.name(),
        "fen": pos.fen(),
        "start": g.start().fen(),
        "turn": color_key(pos.turn()),
        "board": board_json(pos),
        "check": checked_king(pos).map(|s| s.to_string()),
        "last": g.moves().last().map(|m| json!({ "from": m.from().to_string(), "to": m.to().to_string() })),
        "legal": legal,
        "history": history,
        "status": status,
    })
}

fn position_json<P: Position + Describe + Evaluate>(
    g: &Game<P>,
    ply: usize,
) -> Result<Value, ApiError> {
    let moves = g.moves();
    if ply > moves.len() {
        return Err(ApiError::bad(format!(
            "ply {ply} is past the last move ({})",
            moves.len()
        )));
    }
    let mut pos = g.start().clone();
    for &m in &moves[..ply] {
        pos.make(m);
    }
    Ok(json!({
        "ply": ply,
        "fen": pos.fen(),
        "board": board_json(&pos),
        "check": checked_king(&pos).map(|s| s.to_string()),
        "last": ply.checked_sub(1).map(|i| json!({ "from": moves[i].from().to_string(), "to": moves[i].to().to_string() })),
    }))
}

fn position_at(game: &engine::AnyGame, ply: usize) -> Result<Value, ApiError> {
    with_game!(game, g => position_json(g, ply))
}

/// The settings as the library keeps them, plus what only the page needs.
fn settings_json(s: &Settings) -> Value {
    let mut v = store::settings_json(s);
    // As text: a 64-bit seed does not fit a JavaScript number.
    v["seed"] = json!(s.options.seed.to_string());
    v["analyse"] = json!(s.analyse);
    v["max_threads"] = json!(max_threads());
    v
}

/// A game's whole state, as the page draws it.
pub fn state(s: &Slot) -> Value {
    let game = s.engine.game();
    let mut v = with_game!(game, g => game_json(g));
    v["id"] = json!(s.id.to_string());
    v["version"] = json!(s.version);
    // The variant menu, from the registry.
    v["variants"] = Variant::ALL
        .iter()
        .map(|v| json!({ "name": v.name(), "title": v.title() }))
        .collect();
    v["settings"] = settings_json(&s.settings);
    v["searching"] = s.run.as_ref().map_or(Value::Null, |r| {
        json!({
            "kind": match r.kind { Kind::Play => "play", Kind::Analyse => "analyse" },
            "gen": r.gen,
            "ply": r.ply,
        })
    });
    v["clock"] = s.clock.as_ref().map_or(Value::Null, |c| {
        let turn = game.turn();
        json!({
            "white": c.now_ms(Color::White, turn),
            "black": c.now_ms(Color::Black, turn),
            "running": if s.over() { None } else { Some(color_key(turn)) },
        })
    });
    v["to_move"] = json!(format!(
        "{} to move{}",
        color_word(game.turn()),
        if s.engine_to_move() { " (engine)" } else { "" }
    ));
    v["scores"] = Value::Array(
        s.scores
            .iter()
            .map(|sc| sc.map_or(Value::Null, score_json))
            .collect(),
    );
    v["human_to_move"] = json!(s.human_to_move());
    if let Some(e) = &s.ending {
        v["status"] = status_json(e.result, e.reason, e.key);
    }
    // A game between two seats: the names, who is online, what is offered.
    v["players"] = s.settings.players.as_ref().map_or(Value::Null, |[w, b]| {
        json!({
            "white": { "name": w, "online": s.online(Color::White) },
            "black": { "name": b, "online": s.online(Color::Black) },
        })
    });
    v["offers"] = json!({
        "draw": s.offers.draw.map(color_key),
        "takeback": s.offers.takeback.map(color_key),
    });
    v["engine_to_move"] = json!(s.engine_to_move());
    // The level chooser: the named levels and the range.
    v["levels"] = json!({
        "named": NAMED.iter().map(|(name, elo)| json!({ "name": name, "elo": elo })).collect::<Vec<_>>(),
        "min": ELO_MIN,
        "max": ELO_MAX,
    });
    let [hw, hb] = s.hint_counts();
    v["hints"] = json!({ "white": hw, "black": hb });
    v["note"] = json!(s.note);
    // Whether a review of these moves exists, so that the page asks for it
    // only then (and a plain page load asks nothing that answers 409).
    let now = saved(game, &s.settings, &[]);
    v["review"] = s
        .review
        .as_ref()
        .filter(|r| r.is_of(&now.start, &now.moves))
        .map_or(Value::Null, |r| {
            let p = r.snapshot().progress;
            json!({ "progress": p, "done": p >= 1.0 })
        });
    v
}

/// The streams' events as the page reads them.
pub struct JsonView;

impl View for JsonView {
    fn state(&self, slot: &Slot) -> String {
        state(slot).to_string()
    }

    fn info(&self, run: &Run, info: &Info) -> String {
        self::info(run, info).to_string()
    }

    fn message(&self, text: &str) -> String {
        json!({ "message": text }).to_string()
    }
}

impl From<Refusal> for ApiError {
    fn from(r: Refusal) -> ApiError {
        let (status, message) = match r {
            Refusal::Bad(m) => (400, m),
            Refusal::NotFound(m) => (404, m),
            Refusal::Conflict(m) => (409, m),
            Refusal::TooMany(m) => (429, m),
            Refusal::Storage(m) => (507, m),
            Refusal::Worded(r, words) => return ApiError::from(*r).worded(words),
        };
        ApiError::new(status, message)
    }
}

/// One search report for the streams: the score also from white's view
/// (for the eval bar and graph) and the PV in the move list's notation.
pub fn info(run: &Run, i: &Info) -> Value {
    let white = white_view(run, i.score);
    let (pv_text, stage) = with_game!(&run.root, g => (pv_notation(g.position(), &i.pv), engine::wdl::stage_of(g.position())));
    // The model's view is the side to move's; the page's is white's.
    let w = engine::wdl(run.root.variant(), i.score, stage);
    let (win, loss) = match run.root.turn() {
        Color::White => (w.win, w.loss),
        Color::Black => (w.loss, w.win),
    };
    json!({
        "gen": run.gen,
        "ply": run.ply,
        "kind": match run.kind { Kind::Play => "play", Kind::Analyse => "analyse" },
        "multipv": i.multipv,
        "depth": i.depth,
        "seldepth": i.seldepth,
        "score": score_json(i.score),
        "white": score_json(white),
        "nodes": i.nodes,
        "nps": i.nps,
        "time": i.time_ms,
        "hashfull": i.hashfull,
        "pv": i.pv,
        "pv_text": pv_text,
        "wdl": { "win": win, "draw": w.draw, "loss": loss },
    })
}
