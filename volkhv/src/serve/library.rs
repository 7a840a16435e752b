//! The game library's API: the list, PGN of many games out and in, delete;
//! and the read-only legal moves of any position for the rules pages.
//!
//! ```text
//! GET    /api/library[?variant=V][&result=R][&limit=50][&offset=0]
//!                         → {games: [{id, variant, result, plies, started, …}] newest first, total, offset, limit}
//! GET    /api/library/pgn[?variant=V][&result=R]  → every such game as PGN
//! POST   /api/library/import  {pgn} | PGN text    → 201 {imported: [ids], skipped, errors: [{game, error}]} (import.rs)
//! DELETE /api/library/ID                          → {"deleted": ID}
//! GET    /api/legal?variant=V[&fen=F][&moves=M,M] → the position and its legal moves, in words
//! ```

use super::api::game_json;
use super::http::{ApiError, Reply, Req, Target};
use super::pgn;
use super::seats::Seats;
use super::session::{Registry, Saved};
use super::store::{iso_time, settings_json, Entry, Store};
use engine::{with_game, AnyGame};
use hyper::Method;
use movegen::Variant;
use serde_json::{json, Value};

/// The results a list can be filtered by, as PGN writes them.
pub const RESULTS: [&str; 4] = ["1-0", "0-1", "1/2-1/2", "*"];

/// Games a page of the list holds unless `limit` says otherwise.
pub const PAGE: usize = 50;
/// The most games one page may hold.
pub const PAGE_MAX: usize = 500;

/// Answers `/api/library…` and `/api/legal` (the import is read as a
/// stream by `import.rs`).
///
/// # Errors
/// 400 for bad filters, 404 for no such game, 507 when the library cannot
/// be written.
pub fn handle(store: &Store, reg: &Registry, seats: &Seats, req: &Req) -> Result<Reply, ApiError> {
    let t = &req.head.target;
    let path = t.segments();
    let method = &req.head.method;
    match (method, path.as_slice()) {
        (&Method::GET, ["api", "library"]) => page(store, t),
        (&Method::GET, ["api", "library", "pgn"]) => {
            let (variant, result) = filters(t)?;
            let list = store.list(variant, result).map_err(unreadable)?;
            Ok(Reply::bytes(
                "application/x-chess-pgn; charset=utf-8",
                export(&list)?.into_bytes(),
            ))
        }
        (&Method::DELETE, ["api", "library", id]) => {
            let missing = || ApiError::not_found(format!("no game \"{id}\" in the library"));
            let n: u64 = id.parse().map_err(|_| missing())?;
            if !store.delete(n).map_err(unwritable)? {
                return Err(missing());
            }
            reg.forget(n);
            seats.forget(n);
            Ok(Reply::json(&json!({ "deleted": id })))
        }
        (&Method::GET, ["api", "legal"]) => legal(t),
        (_, ["api", "library", ..] | ["api", "legal"]) => Err(ApiError::new(
            405,
            format!("{method} is not allowed on {}", t.path.join("/")),
        )),
        _ => Err(ApiError::not_found(format!(
            "no such API: /{}",
            t.path.join("/")
        ))),
    }
}

/// The library cannot be written (read-only file, full disk).
pub fn unwritable(e: String) -> ApiError {
    ApiError::new(
        507,
        format!("the game library cannot store this ({e}); nothing was changed"),
    )
}

fn unreadable(e: String) -> ApiError {
    ApiError::new(500, format!("the game library cannot be read ({e})"))
}

/// `GET /api/library`: one page of the list.
fn page(store: &Store, t: &Target) -> Result<Reply, ApiError> {
    let number = |k: &str, default: usize, max: usize| -> Result<usize, ApiError> {
        match t.param(k).filter(|v| !v.is_empty()) {
            None => Ok(default),
            Some(v) => v.parse().ok().filter(|n| *n <= max).ok_or_else(|| {
                ApiError::bad(format!("{k} must be a number from 0 to {max}, got \"{v}\""))
            }),
        }
    };
    let limit = number("limit", PAGE, PAGE_MAX)?;
    let offset = number("offset", 0, usize::MAX >> 1)?;
    let (variant, result) = filters(t)?;
    let (list, total) = store
        .page(variant, result, limit, offset)
        .map_err(unreadable)?;
    Ok(Reply::json(&json!({
        "games": list.iter().map(entry_json).collect::<Vec<_>>(),
        "total": total,
        "offset": offset,
        "limit": limit,
    })))
}

/// The `variant` and `result` filters of a list.
fn filters(t: &Target) -> Result<(Option<Variant>, Option<&str>), ApiError> {
    let variant = match t.param("variant").filter(|v| !v.is_empty()) {
        None => None,
        Some(v) => Some(Variant::from_name(v).ok_or_else(|| {
            ApiError::bad(format!("unknown variant \"{v}\" ({})", Variant::list()))
        })?),
    };
    let result = t.param("result").filter(|r| !r.is_empty());
    if let Some(r) = result {
        if !RESULTS.contains(&r) {
            return Err(ApiError::bad(format!(
                "result must be one of {}, got \"{r}\"",
                RESULTS.join(", ")
            )));
        }
    }
    Ok((variant, result))
}

fn entry_json(e: &Entry) -> Value {
    json!({
        "id": e.id.to_string(),
        "variant": e.game.variant.name(),
        "result": e.game.result,
        "reason": e.game.reason,
        "reason_key": notation::words::reason_key(&e.game.reason),
        "plies": e.plies,
        "started": iso_time(e.started),
        "updated": iso_time(e.updated),
        "white": e.white,
        "black": e.black,
        "origin": e.origin,
        "start": e.game.start,
        "settings": settings_json(&e.game.settings),
        "tags": e.tags.iter().map(|(k, v)| json!([k, v])).collect::<Vec<_>>(),
    })
}

/// The game a kept row describes, replayed.
fn rebuild(g: &Saved) -> Result<AnyGame, String> {
    let moves: Vec<&str> = g.moves.iter().map(String::as_str).collect();
    AnyGame::from_moves(g.variant, Some(&g.start), &moves).map_err(|e| e.to_string())
}

/// Every game, oldest first, as one PGN text.
fn export(list: &[Entry]) -> Result<String, ApiError> {
    let mut out = String::new();
    for (round, e) in list.iter().rev().enumerate() {
        let game = rebuild(&e.game)
            .map_err(|why| unreadable(format!("game {} cannot be replayed: {why}", e.id)))?;
        let date = iso_time(e.started)[..10].replace('-', ".");
        let mut notes = notation::pgn::Annotations::default();
        let header = pgn::Header::of(&e.tags, [&e.white, &e.black], date, round + 1, &mut notes);
        out.push_str(&pgn::write(&game, &header, &e.game.hints, notes));
        out.push('\n');
    }
    Ok(out)
}

/// `GET /api/legal`: a position (after `moves`, comma-separated) with its
/// legal moves in words, as the board draws it. Nothing is kept.
fn legal(t: &Target) -> Result<Reply, ApiError> {
    let variant = match t.param("variant") {
        None => Variant::DEFAULT,
        Some(v) => Variant::from_name(v).ok_or_else(|| {
            ApiError::bad(format!("unknown variant \"{v}\" ({})", Variant::list()))
        })?,
    };
    let fen = t
        .param("fen")
        .map(str::trim)
        .filter(|f| !f.is_empty() && *f != "startpos");
    let moves: Vec<&str> = t
        .param("moves")
        .unwrap_or("")
        .split([',', ' '])
        .filter(|m| !m.is_empty())
        .collect();
    let game = AnyGame::from_moves(variant, fen, &moves)
        .map_err(|e| ApiError::bad(e.to_string()).worded(super::wording::engine(&e)))?;
    Ok(Reply::json(&with_game!(&game, g => game_json(g))))
}
