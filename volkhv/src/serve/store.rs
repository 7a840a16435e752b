//! The game library: every game of the board in one SQLite file (WAL), a row
//! per game, written before the reply that shows a change. The session
//! reaches it only through [`Library`]; the library page's queries (list,
//! delete, import) are methods of [`Store`].
//!
//! ```text
//! games(id, variant, start, moves "e2e4 e7e5 …", plies, result, reason,
//!       settings JSON, white, black, origin, started, updated,
//!       hints "4:g1f3 9:e7e5" (ply:move, version 2),
//!       tags JSON [[k, v], …] of an imported game, digest of its tags and moves (version 3))
//! PRAGMA user_version = the schema's version (MIGRATIONS.len() when current)
//! FILE.lock: held (an OS file lock) by the one `volkhv serve` that uses FILE, with its pid
//! ```
//! One server owns a file at a time: a second one on the same file refuses
//! to start (exit 2, naming the first one's pid), so no server ever shows a
//! game that another has deleted or changed.
//! Settings are JSON text so that a new setting (an engine level) needs no
//! migration: unknown keys are kept out of the way, missing ones default.

use super::session::{level_words, EngineLimit, Hint, Library, Saved, Settings, Sides};
use movegen::{Color, Variant};
use rusqlite::{params, Connection, OpenFlags, OptionalExtension, Row, TransactionBehavior};
use serde_json::{json, Value};
use std::fs::File;
use std::io::{Read, Seek, Write};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard, PoisonError};
use std::time::Duration;

/// Schema steps: step `i` takes `user_version` from `i` to `i + 1`. Only
/// ever append; a released step never changes.
const MIGRATIONS: &[&str] = &[
    "CREATE TABLE games (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        variant TEXT NOT NULL,
        start TEXT NOT NULL,
        moves TEXT NOT NULL DEFAULT '',
        plies INTEGER NOT NULL DEFAULT 0,
        result TEXT NOT NULL DEFAULT '*',
        reason TEXT NOT NULL DEFAULT '',
        settings TEXT NOT NULL DEFAULT '{}',
        white TEXT NOT NULL DEFAULT '',
        black TEXT NOT NULL DEFAULT '',
        origin TEXT NOT NULL DEFAULT 'played',
        started INTEGER NOT NULL,
        updated INTEGER NOT NULL
    );
    CREATE INDEX games_started ON games(started DESC, id DESC);",
    // 2: the hints a person asked for (the board's hint button).
    "ALTER TABLE games ADD COLUMN hints TEXT NOT NULL DEFAULT ''",
    // 3: an imported game's own tags, and what tells a second copy of it.
    "ALTER TABLE games ADD COLUMN tags TEXT NOT NULL DEFAULT '';
    ALTER TABLE games ADD COLUMN digest TEXT;
    CREATE INDEX games_digest ON games(digest)",
    // 4: the clocks after each move ([%clk]), and the secrets of the seats
    // of games between two people (and of their watchers).
    "ALTER TABLE games ADD COLUMN clocks TEXT NOT NULL DEFAULT '';
    CREATE TABLE seats (
        secret TEXT PRIMARY KEY,
        game INTEGER NOT NULL,
        role TEXT NOT NULL,
        name TEXT NOT NULL DEFAULT ''
    )",
];

/// How long a write waits for another server on the same file.
const BUSY: Duration = Duration::from_secs(10);

/// The schema version this build writes.
pub const VERSION: usize = MIGRATIONS.len();

/// The default library: `$XDG_DATA_HOME/volkhv/games.db`, else
/// `~/.local/share/volkhv/games.db`; `None` when neither is known.
pub fn default_path() -> Option<PathBuf> {
    let absolute = |v: std::ffi::OsString| {
        let p = PathBuf::from(v);
        p.is_absolute().then_some(p)
    };
    std::env::var_os("XDG_DATA_HOME")
        .and_then(absolute)
        .or_else(|| {
            std::env::var_os("HOME")
                .and_then(absolute)
                .map(|h| h.join(".local/share"))
        })
        .map(|d| d.join("volkhv").join("games.db"))
}

/// One game of the library as the list shows it.
#[derive(Clone, Debug)]
pub struct Entry {
    /// Its id (the same as in `/api/games/ID`).
    pub id: u64,
    /// The game itself.
    pub game: Saved,
    /// White's and Black's names (`Human`, `volkhv 1000 ms/move`, a PGN's tags).
    pub white: String,
    /// See `white`.
    pub black: String,
    /// `played` or `imported`.
    pub origin: String,
    /// When it began and when it last changed, in seconds since 1970 (UTC).
    pub started: i64,
    /// See `started`.
    pub updated: i64,
    /// Its length in plies (also where `game.moves` was not read).
    pub plies: usize,
    /// An imported game's own PGN tags, in file order (none for a game played here).
    pub tags: Vec<(String, String)>,
}

/// A game of a PGN file, ready to be kept.
pub struct Import {
    /// The game as replayed.
    pub game: Saved,
    /// Its tags, in file order.
    pub tags: Vec<(String, String)>,
}

impl Import {
    fn tag(&self, k: &str) -> &str {
        self.tags
            .iter()
            .find(|(t, _)| t == k)
            .map_or("?", |(_, v)| v.as_str())
    }

    /// What tells two copies of one game apart from two games: the
    /// variant, start, every tag and every move (FNV-1a, 64 bits).
    fn digest(&self) -> String {
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        let mut eat = |text: &str| {
            for b in text.bytes().chain(std::iter::once(0)) {
                h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
            }
        };
        eat(self.game.variant.name());
        eat(&self.game.start);
        for (k, v) in &self.tags {
            eat(k);
            eat(v);
        }
        for m in &self.game.moves {
            eat(m);
        }
        format!("{h:016x}")
    }
}

/// What became of an imported game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kept {
    /// Kept under this new id.
    New(u64),
    /// The library already holds it under this id.
    Same(u64),
}

/// The library's file, open, and the lock that keeps it this process's.
pub struct Store {
    conn: Mutex<Connection>,
    _lock: Option<File>,
}

fn now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_secs()).unwrap_or(0))
}

impl Store {
    /// Opens (or creates) the library at `path` (`:memory:` for one that
    /// lives as long as the process; `file:` URIs such as
    /// `file:games.db?mode=ro` are understood). A file that is not a
    /// library, is damaged or was written by a newer volkhv is refused
    /// before anything is written to it.
    ///
    /// # Errors
    /// Why it cannot be used, naming the file.
    pub fn open(path: &str) -> Result<Store, String> {
        let lock = if path == ":memory:" {
            None
        } else {
            make_parent(path)?;
            Some(take_lock(path)?)
        };
        let conn = if path == ":memory:" {
            Connection::open_in_memory()
        } else {
            Connection::open_with_flags(
                path,
                OpenFlags::SQLITE_OPEN_READ_WRITE
                    | OpenFlags::SQLITE_OPEN_CREATE
                    | OpenFlags::SQLITE_OPEN_URI
                    | OpenFlags::SQLITE_OPEN_NO_MUTEX,
            )
        }
        .map_err(|e| format!("cannot open the game library {path}: {e}"))?;
        conn.busy_timeout(BUSY)
            .map_err(|e| format!("{path}: {e}"))?;
        check(&conn, path)?;
        // A read-only library stays readable: its writes fail later, each
        // with its reason on the page.
        let _ = conn.query_row("PRAGMA journal_mode = WAL", [], |r| r.get::<_, String>(0));
        conn.pragma_update(None, "synchronous", "FULL")
            .map_err(|e| format!("{path}: {e}"))?;
        migrate(&conn).map_err(|e| format!("cannot set up the game library {path}: {e}"))?;
        // A read-only library keeps its empty rows; nothing else is lost.
        let _ = conn.execute(
            "DELETE FROM games WHERE plies = 0 AND origin = 'played' AND result = '*' AND updated < ?1",
            [now() - EMPTY_KEPT_S],
        );
        Ok(Store {
            conn: Mutex::new(conn),
            _lock: lock,
        })
    }

    fn conn(&self) -> MutexGuard<'_, Connection> {
        self.conn.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The games, newest first, of `variant` and with `result` if given,
    /// with their moves (for PGN export).
    ///
    /// # Errors
    /// The database's reason.
    pub fn list(
        &self,
        variant: Option<Variant>,
        result: Option<&str>,
    ) -> Result<Vec<Entry>, String> {
        let conn = self.conn();
        let mut stmt = conn
            .prepare(&format!(
                "SELECT {COLUMNS} FROM games WHERE (?1 IS NULL OR variant = ?1) AND (?2 IS NULL OR result = ?2) AND {KEPT}
                 ORDER BY started DESC, id DESC"
            ))
            .map_err(text)?;
        let rows = stmt
            .query_map(params![variant.map(Variant::name), result], entry)
            .map_err(text)?;
        rows.map(|r| r.map_err(text).and_then(std::convert::identity))
            .collect()
    }

    /// One page of [`Store::list`] without the moves (`limit` games from
    /// the `offset`-th), and how many games the filters match in all.
    ///
    /// # Errors
    /// The database's reason.
    pub fn page(
        &self,
        variant: Option<Variant>,
        result: Option<&str>,
        limit: usize,
        offset: usize,
    ) -> Result<(Vec<Entry>, usize), String> {
        let conn = self.conn();
        let filter =
            format!("(?1 IS NULL OR variant = ?1) AND (?2 IS NULL OR result = ?2) AND {KEPT}");
        let v = variant.map(Variant::name);
        let total: i64 = conn
            .query_row(
                &format!("SELECT count(*) FROM games WHERE {filter}"),
                params![v, result],
                |r| r.get(0),
            )
            .map_err(text)?;
        let light = COLUMNS.replace("moves,", "'' AS moves,");
        let mut stmt = conn
            .prepare(&format!(
                "SELECT {light} FROM games WHERE {filter} ORDER BY started DESC, id DESC LIMIT ?3 OFFSET ?4"
            ))
            .map_err(text)?;
        let as_i64 = |n: usize| i64::try_from(n).unwrap_or(i64::MAX);
        let rows = stmt
            .query_map(params![v, result, as_i64(limit), as_i64(offset)], entry)
            .map_err(text)?;
        let list = rows
            .map(|r| r.map_err(text).and_then(std::convert::identity))
            .collect::<Result<Vec<_>, _>>()?;
        Ok((list, usize::try_from(total).unwrap_or(0)))
    }

    /// Deletes game `id`; `false` if there was none.
    ///
    /// # Errors
    /// The database's reason (a read-only file).
    pub fn delete(&self, id: u64) -> Result<bool, String> {
        let conn = self.conn();
        let n = conn
            .execute("DELETE FROM games WHERE id = ?1", [key(id)?])
            .map_err(text)?;
        // Its seats open nothing any more.
        conn.execute("DELETE FROM seats WHERE game = ?1", [key(id)?])
            .map_err(text)?;
        Ok(n > 0)
    }

    /// Keeps imported games in one transaction; per game, its new id, or
    /// the id of the same game (the same variant, start, tags and moves)
    /// where the library already holds it, which is then not kept again.
    ///
    /// # Errors
    /// The database's reason; nothing of this batch was kept then.
    pub fn import(&self, games: &[Import]) -> Result<Vec<Kept>, String> {
        let mut conn = self.conn();
        let tx = conn.transaction().map_err(text)?;
        let mut ids = Vec::with_capacity(games.len());
        for g in games {
            let digest = g.digest();
            let seen: Option<i64> = tx
                .query_row(
                    "SELECT id FROM games WHERE digest = ?1 LIMIT 1",
                    [&digest],
                    |r| r.get(0),
                )
                .optional()
                .map_err(text)?;
            if let Some(id) = seen {
                ids.push(Kept::Same(u64::try_from(id).unwrap_or(0)));
                continue;
            }
            let id = insert(&tx, &g.game, g.tag("White"), g.tag("Black"), "imported")?;
            tx.execute(
                "UPDATE games SET tags = ?2, digest = ?3 WHERE id = ?1",
                params![key(id)?, tags_json(&g.tags), digest],
            )
            .map_err(text)?;
            ids.push(Kept::New(id));
        }
        tx.commit().map_err(text)?;
        Ok(ids)
    }
}

impl Library for Store {
    fn create(&self, game: &Saved) -> Result<u64, String> {
        let (white, black) = players(&game.settings);
        insert(&self.conn(), game, &white, &black, "played")
    }

    fn save(&self, id: u64, game: &Saved) -> Result<(), String> {
        upsert(&self.conn(), id, game)
    }

    fn start_over(&self, id: u64, game: &Saved) -> Result<(), String> {
        let mut conn = self.conn();
        let tx = conn.transaction().map_err(text)?;
        tx.execute(
            "INSERT INTO games (variant, start, moves, plies, result, reason, settings, white, black, origin, started, updated, hints, tags, digest, clocks)
             SELECT variant, start, moves, plies, result, reason, settings, white, black, origin, started, updated, hints, tags, digest, clocks
             FROM games WHERE id = ?1 AND plies > 0",
            [key(id)?],
        )
        .map_err(text)?;
        tx.execute(
            "UPDATE games SET started = ?2, origin = 'played', tags = '', digest = NULL WHERE id = ?1",
            params![key(id)?, now()],
        )
        .map_err(text)?;
        upsert(&tx, id, game)?;
        tx.commit().map_err(text)
    }

    fn load(&self, id: u64) -> Result<Option<Saved>, String> {
        self.entry(id).map(|e| e.map(|e| e.game))
    }

    fn tags(&self, id: u64) -> Vec<(String, String)> {
        self.entry(id)
            .ok()
            .flatten()
            .map(|e| e.tags)
            .unwrap_or_default()
    }
}

/// One secret of a game between two people: a seat (`white`, `black`)
/// or the watchers' (`watch`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatRow {
    /// The secret (32 hex digits).
    pub secret: String,
    /// The game it opens.
    pub game: u64,
    /// `white`, `black` or `watch`.
    pub role: String,
    /// The player's name (empty for watchers).
    pub name: String,
}

impl Store {
    /// Every seat of every game.
    ///
    /// # Errors
    /// The database's reason.
    pub fn seats(&self) -> Result<Vec<SeatRow>, String> {
        let conn = self.conn();
        let mut stmt = conn
            .prepare("SELECT secret, game, role, name FROM seats")
            .map_err(text)?;
        let rows = stmt
            .query_map([], |r| {
                Ok(SeatRow {
                    secret: r.get(0)?,
                    game: u64::try_from(r.get::<_, i64>(1)?).unwrap_or(0),
                    role: r.get(2)?,
                    name: r.get(3)?,
                })
            })
            .map_err(text)?;
        rows.map(|r| r.map_err(text)).collect()
    }

    /// Keeps the seats of one game, all or none.
    ///
    /// # Errors
    /// The database's reason.
    pub fn add_seats(&self, seats: &[SeatRow]) -> Result<(), String> {
        let mut conn = self.conn();
        let tx = conn.transaction().map_err(text)?;
        for seat in seats {
            tx.execute(
                "INSERT INTO seats (secret, game, role, name) VALUES (?1, ?2, ?3, ?4)",
                params![seat.secret, key(seat.game)?, seat.role, seat.name],
            )
            .map_err(text)?;
        }
        tx.commit().map_err(text)
    }

    /// Game `id` with everything the library knows of it.
    ///
    /// # Errors
    /// The database's reason, or a row this build cannot read.
    pub fn entry(&self, id: u64) -> Result<Option<Entry>, String> {
        let conn = self.conn();
        conn.query_row(
            &format!("SELECT {COLUMNS} FROM games WHERE id = ?1"),
            [key(id)?],
            entry,
        )
        .optional()
        .map_err(text)?
        .transpose()
    }
}

/// The games the library shows: a game played here enters it with its
/// first move or its end (a visit that played nothing is no game, a
/// resignation before any move is); an imported one always.
const KEPT: &str = "(plies > 0 OR origin = 'imported' OR result <> '*')";

/// A game played here that never got a move is forgotten after this long
/// (its page may still be open for a while; after that a reload starts anew).
const EMPTY_KEPT_S: i64 = 7 * 86_400;

/// The columns [`entry`] reads, in its order.
const COLUMNS: &str = "id, variant, start, moves, result, reason, settings, white, black, origin, started, updated, hints, plies, tags, clocks";

/// A count as SQLite stores integers.
fn count(n: usize) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

/// Ids are SQLite's positive 64-bit rowids.
fn key(id: u64) -> Result<i64, String> {
    i64::try_from(id).map_err(|_| format!("no game {id}"))
}

fn text(e: rusqlite::Error) -> String {
    e.to_string()
}

fn insert(
    conn: &Connection,
    game: &Saved,
    white: &str,
    black: &str,
    origin: &str,
) -> Result<u64, String> {
    let t = now();
    conn.execute(
        "INSERT INTO games (variant, start, moves, plies, result, reason, settings, white, black, origin, started, updated, hints, clocks)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?11, ?12, ?13)",
        params![
            game.variant.name(),
            game.start,
            game.moves.join(" "),
            count(game.moves.len()),
            game.result,
            game.reason,
            settings_json(&game.settings).to_string(),
            white,
            black,
            origin,
            t,
            hints_text(&game.hints),
            clocks_text(&game.clocks)
        ],
    )
    .map_err(text)?;
    u64::try_from(conn.last_insert_rowid()).map_err(|e| e.to_string())
}

/// Writes game `id`; a game deleted meanwhile comes back (its page still
/// plays it, and a move is never dropped without a word).
fn upsert(conn: &Connection, id: u64, game: &Saved) -> Result<(), String> {
    let (white, black) = players(&game.settings);
    let t = now();
    conn.execute(
        "INSERT INTO games (id, variant, start, moves, plies, result, reason, settings, white, black, started, updated, hints, clocks)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?11, ?12, ?13)
         ON CONFLICT(id) DO UPDATE SET variant = excluded.variant, start = excluded.start,
           moves = excluded.moves, plies = excluded.plies, result = excluded.result,
           reason = excluded.reason, settings = excluded.settings,
           white = CASE WHEN origin = 'imported' THEN white ELSE excluded.white END,
           black = CASE WHEN origin = 'imported' THEN black ELSE excluded.black END,
           digest = CASE WHEN moves = excluded.moves THEN digest ELSE NULL END,
           updated = excluded.updated, hints = excluded.hints, clocks = excluded.clocks",
        params![
            key(id)?,
            game.variant.name(),
            game.start,
            game.moves.join(" "),
            count(game.moves.len()),
            game.result,
            game.reason,
            settings_json(&game.settings).to_string(),
            white,
            black,
            t,
            hints_text(&game.hints),
            clocks_text(&game.clocks)
        ],
    )
    .map_err(text)?;
    Ok(())
}

/// A row as an [`Entry`]; the outer error is SQLite's, the inner one a row
/// this build cannot read (an unknown variant).
fn entry(r: &Row<'_>) -> rusqlite::Result<Result<Entry, String>> {
    let id: i64 = r.get(0)?;
    let variant: String = r.get(1)?;
    let moves: String = r.get(3)?;
    let settings: String = r.get(6)?;
    let hints: String = r.get(12)?;
    let plies: i64 = r.get(13)?;
    let tags: String = r.get(14)?;
    let clocks: String = r.get(15)?;
    let Some(variant) = Variant::from_name(&variant) else {
        return Ok(Err(format!(
            "game {id} has an unknown variant \"{variant}\""
        )));
    };
    Ok(Ok(Entry {
        id: u64::try_from(id).unwrap_or(0),
        game: Saved {
            variant,
            start: r.get(2)?,
            moves: moves.split_whitespace().map(String::from).collect(),
            result: r.get(4)?,
            reason: r.get(5)?,
            settings: settings_from_json(&settings),
            hints: hints_from_text(&hints),
            clocks: clocks
                .split_whitespace()
                .filter_map(|c| c.parse().ok())
                .collect(),
        },
        white: r.get(7)?,
        black: r.get(8)?,
        origin: r.get(9)?,
        started: r.get(10)?,
        updated: r.get(11)?,
        plies: usize::try_from(plies).unwrap_or(0),
        tags: tags_from_json(&tags),
    }))
}

fn clocks_text(clocks: &[u64]) -> String {
    clocks
        .iter()
        .map(u64::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

fn tags_json(tags: &[(String, String)]) -> String {
    Value::Array(tags.iter().map(|(k, v)| json!([k, v])).collect()).to_string()
}

/// Kept tags back; anything malformed reads as no tags.
fn tags_from_json(text: &str) -> Vec<(String, String)> {
    let v: Value = serde_json::from_str(text).unwrap_or(Value::Null);
    v.as_array()
        .map(|pairs| {
            pairs
                .iter()
                .filter_map(|p| Some((p[0].as_str()?.to_string(), p[1].as_str()?.to_string())))
                .collect()
        })
        .unwrap_or_default()
}

/// The file a path or `file:` URI names (`file:games.db?mode=ro` → `games.db`).
fn file_of(path: &str) -> &str {
    path.strip_prefix("file:")
        .map_or(path, |p| p.split(['?', '#']).next().unwrap_or(p))
}

/// Takes `FILE.lock` for this process, writing its pid into it; the
/// operating system lets go of it when the process ends, however it ends.
fn take_lock(path: &str) -> Result<File, String> {
    let name = format!("{}.lock", file_of(path));
    let mut file = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(&name)
        .map_err(|e| format!("cannot open {name}: {e}"))?;
    match file.try_lock() {
        Ok(()) => {
            let pid = std::process::id().to_string();
            let written = file
                .set_len(0)
                .and_then(|()| file.rewind())
                .and_then(|()| file.write_all(pid.as_bytes()))
                .and_then(|()| file.sync_all());
            written.map_err(|e| format!("cannot write {name}: {e}"))?;
            Ok(file)
        }
        Err(std::fs::TryLockError::WouldBlock) => Err(format!(
            "the game library {} is in use by volkhv serve (pid {})",
            file_of(path),
            holder(&name)
        )),
        Err(std::fs::TryLockError::Error(e)) => Err(format!("cannot lock {name}: {e}")),
    }
}

/// The pid written in a lock file by its holder; a holder that took it a
/// moment ago may not have written it yet, so this waits a little.
fn holder(lock: &str) -> String {
    for _ in 0..20 {
        let mut text = String::new();
        let read = File::open(Path::new(lock)).and_then(|mut f| f.read_to_string(&mut text));
        if read.is_ok() && text.trim().parse::<u32>().is_ok() {
            return text.trim().to_string();
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    "unknown".into()
}

/// Creates the file's folder, so that the first start works on a fresh
/// account (`~/.local/share/volkhv/` does not exist yet).
fn make_parent(path: &str) -> Result<(), String> {
    if path.starts_with("file:") {
        return Ok(());
    }
    match std::path::Path::new(path).parent() {
        Some(dir) if !dir.as_os_str().is_empty() && !dir.exists() => std::fs::create_dir_all(dir)
            .map_err(|e| format!("cannot create {}: {e}", dir.display())),
        _ => Ok(()),
    }
}

/// Reads the file's version and checks its integrity, writing nothing.
fn check(conn: &Connection, path: &str) -> Result<(), String> {
    let refuse = |why: String| format!("{path}: {why}; the file was left as it is");
    let version: i64 = conn
        .query_row("PRAGMA user_version", [], |r| r.get(0))
        .map_err(|e| refuse(format!("not a readable game library ({e})")))?;
    let version = usize::try_from(version).unwrap_or(usize::MAX);
    if version > VERSION {
        return Err(refuse(format!(
            "written by a newer volkhv (library version {version}; this one knows up to {VERSION})"
        )));
    }
    let verdict: String = conn
        .query_row("PRAGMA quick_check", [], |r| r.get(0))
        .map_err(|e| refuse(format!("damaged ({e})")))?;
    if verdict != "ok" {
        return Err(refuse(format!("damaged ({verdict})")));
    }
    if version == 0 {
        let tables: i64 = conn
            .query_row("SELECT count(*) FROM sqlite_master", [], |r| r.get(0))
            .map_err(|e| refuse(e.to_string()))?;
        if tables > 0 {
            return Err(refuse(
                "a SQLite database, but not a volkhv game library".into(),
            ));
        }
    }
    Ok(())
}

/// Brings the schema to [`VERSION`], one transaction a step.
fn migrate(conn: &Connection) -> rusqlite::Result<()> {
    migrate_to(conn, VERSION)
}

/// Brings the schema to version `to` (an older one only in tests). Each
/// step reads the version inside its own write transaction, so two
/// processes that open a fresh file at the same instant take turns and the
/// second finds the step done, instead of failing on it.
fn migrate_to(conn: &Connection, to: usize) -> rusqlite::Result<()> {
    loop {
        let tx = rusqlite::Transaction::new_unchecked(conn, TransactionBehavior::Immediate)?;
        let at: i64 = tx.query_row("PRAGMA user_version", [], |r| r.get(0))?;
        let at = usize::try_from(at).unwrap_or(usize::MAX);
        if at >= to {
            return tx.commit();
        }
        tx.execute_batch(MIGRATIONS[at])?;
        tx.pragma_update(None, "user_version", count(at + 1))?;
        tx.commit()?;
    }
}

/// The engine as a PGN names it: `volkhv`, or with its level,
/// `volkhv (Club 1700)`.
pub fn engine_name(elo: Option<u32>) -> String {
    match elo {
        None => "volkhv".into(),
        Some(e) => match engine::levels::NAMED.iter().find(|(_, n)| *n == e) {
            Some((name, _)) => format!("volkhv ({name} {e})"),
            None => format!("volkhv (Elo {e})"),
        },
    }
}

/// The names the list shows for White and Black.
fn players(s: &Settings) -> (String, String) {
    if let Some([white, black]) = &s.players {
        return (white.clone(), black.clone());
    }
    let name = |c: Color| {
        if s.sides.plays(c) {
            match s.elo {
                Some(elo) => format!("volkhv {}, {}", level_words(elo), limit_words(s.limit)),
                None => format!("volkhv {}", limit_words(s.limit)),
            }
        } else {
            "Human".to_string()
        }
    };
    (name(Color::White), name(Color::Black))
}

fn limit_words(limit: EngineLimit) -> String {
    match limit {
        EngineLimit::Movetime(ms) => format!("{ms} ms/move"),
        EngineLimit::Depth(d) => format!("depth {d}"),
        EngineLimit::Nodes(n) => format!("{n} nodes"),
        EngineLimit::Clock { base_ms, inc_ms } => format!("{}+{} s", base_ms / 1000, inc_ms / 1000),
    }
}

/// Settings as kept: the API's names.
pub fn settings_json(s: &Settings) -> Value {
    let limit = match s.limit {
        EngineLimit::Movetime(ms) => json!({ "movetime": ms }),
        EngineLimit::Depth(d) => json!({ "depth": d }),
        EngineLimit::Nodes(n) => json!({ "nodes": n }),
        EngineLimit::Clock { base_ms, inc_ms } => json!({ "clock": base_ms, "inc": inc_ms }),
    };
    json!({
        "engine": s.sides.name(),
        "limit": limit,
        "threads": s.options.threads,
        "hash": s.options.hash_mb,
        "multipv": s.options.multipv,
        "elo": s.elo,
        "seed": s.options.seed,
        "players": s.players,
    })
}

/// Hints as kept: `ply:move` separated by spaces.
fn hints_text(hints: &[Hint]) -> String {
    hints
        .iter()
        .map(|h| format!("{}:{}", h.ply, h.mv))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Kept hints back; a malformed one is left out.
fn hints_from_text(text: &str) -> Vec<Hint> {
    text.split_whitespace()
        .filter_map(|h| {
            let (ply, mv) = h.split_once(':')?;
            Some(Hint {
                ply: ply.parse().ok()?,
                mv: mv.to_string(),
            })
        })
        .collect()
}

/// Kept settings back; what is missing or out of range (another machine's
/// thread count) takes the default.
pub fn settings_from_json(text: &str) -> Settings {
    let v: Value = serde_json::from_str(text).unwrap_or(Value::Null);
    let mut s = Settings::default();
    if let Some(sides) = v["engine"].as_str().and_then(Sides::parse) {
        s.sides = sides;
    }
    let l = &v["limit"];
    let num = |k: &str| l[k].as_u64();
    s.limit = if let Some(ms) = num("movetime") {
        EngineLimit::Movetime(ms.clamp(10, 3_600_000))
    } else if let Some(d) = num("depth") {
        EngineLimit::Depth(u32::try_from(d.clamp(1, 64)).unwrap_or(1))
    } else if let Some(n) = num("nodes") {
        EngineLimit::Nodes(n.clamp(1, 10_000_000_000))
    } else if let Some(base) = num("clock") {
        EngineLimit::Clock {
            base_ms: base.clamp(1000, 86_400_000),
            inc_ms: num("inc").unwrap_or(0).min(600_000),
        }
    } else {
        s.limit
    };
    let cores = std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get);
    let field = |k: &str, hi: usize| {
        v[k].as_u64()
            .and_then(|x| usize::try_from(x).ok())
            .map(|x| x.clamp(1, hi))
    };
    let o = &mut s.options;
    o.threads = field("threads", cores).unwrap_or(o.threads);
    o.hash_mb = field("hash", 1024).unwrap_or(o.hash_mb);
    o.multipv = field("multipv", 5).unwrap_or(o.multipv);
    o.seed = v["seed"].as_u64().unwrap_or(0);
    s.elo = v["elo"]
        .as_u64()
        .and_then(|e| u32::try_from(e).ok())
        .map(|e| e.clamp(engine::levels::ELO_MIN, engine::levels::ELO_MAX));
    s.players = match (v["players"][0].as_str(), v["players"][1].as_str()) {
        (Some(w), Some(b)) => Some([w.to_string(), b.to_string()]),
        _ => None,
    };
    s
}

/// `2026-12-06T07:30:00Z` for seconds since 1970.
pub fn iso_time(secs: i64) -> String {
    let (y, m, d) = notation::pgn::civil_from_days(secs.div_euclid(86_400));
    let t = secs.rem_euclid(86_400);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z",
        t / 3600,
        t / 60 % 60,
        t % 60
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(moves: &[&str]) -> Saved {
        Saved {
            variant: Variant::Chess,
            start: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1".into(),
            moves: moves.iter().map(ToString::to_string).collect(),
            result: "*".into(),
            reason: String::new(),
            settings: Settings::default(),
            hints: Vec::new(),
            clocks: Vec::new(),
        }
    }

    #[test]
    fn games_are_kept_listed_started_over_and_deleted() {
        let store = Store::open(":memory:").unwrap();
        let a = store.create(&game(&[])).unwrap();
        store.save(a, &game(&["e2e4", "e7e5"])).unwrap();
        assert_eq!(store.load(a).unwrap().unwrap().moves, ["e2e4", "e7e5"]);
        store.start_over(a, &game(&[])).unwrap();
        let list = store.list(None, None).unwrap();
        // The old game is kept under a new id; the one started over enters
        // the list with its first move.
        assert_eq!(list.len(), 1, "{list:?}");
        assert!(list[0].id != a && list[0].game.moves.len() == 2);
        assert!(store.load(a).unwrap().unwrap().moves.is_empty());
        assert!(store.delete(a).unwrap());
        assert!(!store.delete(a).unwrap());
        assert!(store.load(a).unwrap().is_none());
        assert_eq!(store.list(Some(Variant::Tavreli), None).unwrap().len(), 0);
        assert_eq!(
            store.list(Some(Variant::Chess), Some("*")).unwrap().len(),
            1
        );
        assert_eq!(store.list(None, Some("1-0")).unwrap().len(), 0);
    }

    #[test]
    fn settings_survive_and_bad_ones_default() {
        let mut s = Settings {
            sides: Sides::Black,
            limit: EngineLimit::Clock {
                base_ms: 60_000,
                inc_ms: 1000,
            },
            ..Settings::default()
        };
        s.options.multipv = 3;
        s.elo = Some(1350);
        assert_eq!(settings_from_json(&settings_json(&s).to_string()), s);
        s.elo = None;
        assert_eq!(settings_from_json(&settings_json(&s).to_string()), s);
        let low = settings_from_json(r#"{"elo":12}"#);
        assert_eq!(low.elo, Some(engine::levels::ELO_MIN));
        assert_eq!(settings_from_json("not json"), Settings::default());
        let future = r#"{"engine":"white","limit":{"depth":99},"level":1500}"#;
        let got = settings_from_json(future);
        assert_eq!(
            (got.sides, got.limit),
            (Sides::White, EngineLimit::Depth(64))
        );
        assert_eq!(players(&s), ("Human".into(), "volkhv 60+1 s".into()));
        s.elo = Some(1350);
        assert_eq!(
            players(&s).1,
            "volkhv Casual (Elo 1350), 60+1 s",
            "the level is named"
        );
    }

    #[test]
    fn hints_are_kept() {
        let store = Store::open(":memory:").unwrap();
        let mut g = game(&["e2e4"]);
        g.hints = vec![
            Hint {
                ply: 0,
                mv: "e2e4".into(),
            },
            Hint {
                ply: 1,
                mv: "e7e5".into(),
            },
        ];
        let id = store.create(&g).unwrap();
        assert_eq!(store.load(id).unwrap().unwrap().hints, g.hints);
        assert_eq!(hints_from_text("3:e2e4 bad x:y 4:d7d5").len(), 2);
    }

    #[test]
    fn a_version_1_library_is_migrated() {
        let dir = std::env::temp_dir().join(format!("volkhv-v1-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("games.db");
        let _ = std::fs::remove_file(&path);
        {
            // A file as the first released version wrote it, with a game.
            let conn = Connection::open(&path).unwrap();
            migrate_to(&conn, 1).unwrap();
            conn.execute(
                "INSERT INTO games (variant, start, moves, plies, settings, white, black, started, updated)
                 VALUES ('chess', ?1, 'e2e4 e7e5', 2, '{\"engine\":\"black\"}', 'Human', 'volkhv', 1, 1)",
                [game(&[]).start],
            )
            .unwrap();
            let v: i64 = conn
                .query_row("PRAGMA user_version", [], |r| r.get(0))
                .unwrap();
            assert_eq!(v, 1);
        }
        let store = Store::open(path.to_str().unwrap()).unwrap();
        let v: i64 = store
            .conn()
            .query_row("PRAGMA user_version", [], |r| r.get(0))
            .unwrap();
        assert_eq!(usize::try_from(v).unwrap(), VERSION);
        assert_eq!(VERSION, 4);
        let old = store.list(None, None).unwrap();
        assert_eq!(old.len(), 1);
        assert_eq!(old[0].game.moves, ["e2e4", "e7e5"]);
        assert!(old[0].game.hints.is_empty());
        let mut g = old[0].game.clone();
        g.hints.push(Hint {
            ply: 2,
            mv: "g1f3".into(),
        });
        store.save(old[0].id, &g).unwrap();
        drop(store);
        let again = Store::open(path.to_str().unwrap()).unwrap();
        assert_eq!(again.load(old[0].id).unwrap().unwrap().hints, g.hints);
        drop(again);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn iso_times() {
        assert_eq!(iso_time(0), "1970-01-01T00:00:00Z");
        assert_eq!(iso_time(1_796_542_200), "2026-12-06T07:30:00Z");
    }
}
