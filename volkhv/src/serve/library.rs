//! The game library's API: the list, PGN of many games out and in, delete;
//! and the read-only legal moves of any position for the rules pages.
//!
//! ```text
//! GET    /api/library[?variant=V][&result=R]      → [{id, variant, result, plies, started, …}] newest first
//! GET    /api/library/pgn[?variant=V][&result=R]  → every such game as PGN
//! POST   /api/library/import  {pgn}               → 201 {"imported": [ids]}
//! DELETE /api/library/ID                          → {"deleted": ID}
//! GET    /api/legal?variant=V[&fen=F][&moves=M,M] → the position and its legal moves, in words
//! ```

use super::api::game_json;
use super::http::{self, ApiError, Reply, Target};
use super::pgn;
use super::session::{saved, Registry, Saved, Settings};
use super::store::{iso_time, settings_json, Entry, Store};
use engine::{with_game, AnyGame};
use movegen::Variant;
use serde::Deserialize;
use serde_json::{json, Value};
use tiny_http::{Method, Request};

/// The results a list can be filtered by, as PGN writes them.
const RESULTS: [&str; 4] = ["1-0", "0-1", "1/2-1/2", "*"];

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ImportBody {
    pgn: String,
}

/// Answers `/api/library…` and `/api/legal`.
///
/// # Errors
/// 400 for bad filters or PGN, 404 for no such game, 507 when the library
/// cannot be written.
pub fn handle(
    store: &Store,
    reg: &Registry,
    req: &mut Request,
    t: &Target,
) -> Result<Reply, ApiError> {
    let path: Vec<&str> = t.path.iter().map(String::as_str).collect();
    let method = req.method().clone();
    match (&method, path.as_slice()) {
        (Method::Get, ["api", "library"]) => {
            let list = filtered(store, t)?;
            Ok(Reply::json(&Value::Array(
                list.iter().map(entry_json).collect(),
            )))
        }
        (Method::Get, ["api", "library", "pgn"]) => {
            let text = export(&filtered(store, t)?)?;
            Ok(Reply::bytes(
                "application/x-chess-pgn; charset=utf-8",
                text.into_bytes(),
            ))
        }
        (Method::Post, ["api", "library", "import"]) => {
            let body: ImportBody = http::json(&http::body(req)?)?;
            let games = import(&body.pgn)?;
            let ids = store.import(&games).map_err(unwritable)?;
            let ids: Vec<String> = ids.iter().map(ToString::to_string).collect();
            Ok(Reply::json_status(201, &json!({ "imported": ids })))
        }
        (Method::Delete, ["api", "library", id]) => {
            let missing = || ApiError::not_found(format!("no game \"{id}\" in the library"));
            let n: u64 = id.parse().map_err(|_| missing())?;
            if !store.delete(n).map_err(unwritable)? {
                return Err(missing());
            }
            reg.forget(n);
            Ok(Reply::json(&json!({ "deleted": id })))
        }
        (Method::Get, ["api", "legal"]) => legal(t),
        (_, ["api", "library", ..] | ["api", "legal"]) => Err(ApiError {
            status: 405,
            message: format!("{method} is not allowed on {}", t.path.join("/")),
        }),
        _ => Err(ApiError::not_found(format!(
            "no such API: /{}",
            t.path.join("/")
        ))),
    }
}

/// The library cannot be written (read-only file, full disk).
fn unwritable(e: String) -> ApiError {
    ApiError {
        status: 507,
        message: format!("the game library cannot store this ({e}); nothing was changed"),
    }
}

fn unreadable(e: String) -> ApiError {
    ApiError {
        status: 500,
        message: format!("the game library cannot be read ({e})"),
    }
}

fn filtered(store: &Store, t: &Target) -> Result<Vec<Entry>, ApiError> {
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
    store.list(variant, result).map_err(unreadable)
}

fn entry_json(e: &Entry) -> Value {
    json!({
        "id": e.id.to_string(),
        "variant": e.game.variant.name(),
        "result": e.game.result,
        "reason": e.game.reason,
        "plies": e.game.moves.len(),
        "started": iso_time(e.started),
        "updated": iso_time(e.updated),
        "white": e.white,
        "black": e.black,
        "origin": e.origin,
        "start": e.game.start,
        "settings": settings_json(&e.game.settings),
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
        out.push_str(&pgn::write(
            &game,
            [&e.white, &e.black],
            date,
            round + 1,
            &e.game.hints,
        ));
        out.push('\n');
    }
    Ok(out)
}

/// Every game of a PGN text, replayed, with its players' names.
fn import(text: &str) -> Result<Vec<(Saved, String, String)>, ApiError> {
    let bad = |e: String| ApiError::bad(format!("PGN: {e}"));
    let games = notation::pgn::import(text, Variant::DEFAULT).map_err(bad)?;
    let tags = notation::pgn::read_pgn(text).map_err(bad)?;
    games
        .into_iter()
        .zip(tags)
        .map(|(g, read)| {
            let moves: Vec<&str> = g.moves.iter().map(String::as_str).collect();
            let game = AnyGame::from_moves(g.variant, g.fen.as_deref(), &moves)
                .map_err(|e| bad(e.to_string()))?;
            let mut kept = saved(&game, &Settings::default(), &[]);
            // A game that ended without mate or draw on the board (a
            // resignation, a flag) keeps the PGN's result.
            if kept.result == "*" && RESULTS.contains(&g.result.as_str()) {
                kept.result.clone_from(&g.result);
            }
            let name = |k: &str| read.tag(k).unwrap_or("?").to_string();
            Ok((kept, name("White"), name("Black")))
        })
        .collect()
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
    let game =
        AnyGame::from_moves(variant, fen, &moves).map_err(|e| ApiError::bad(e.to_string()))?;
    Ok(Reply::json(&with_game!(&game, g => game_json(g))))
}
