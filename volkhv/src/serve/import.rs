//! `POST /api/library/import`: PGN files as players have them, read as a
//! stream — the request body flows through the JSON decoder and the PGN
//! reader one game at a time, so a 50 MB file never sits in memory whole.
//! Every readable game is kept; every unreadable one is reported by its
//! number; a game the library already holds (the same variant, start, tags
//! and moves) is skipped and counted.
//!
//! ```text
//! body chunks ──channel──▶ BodyReader ──▶ JsonPgn ({"pgn": "…"} → the text; or PGN as is)
//!     ──▶ notation::pgn::PgnReader ──game──▶ replayed ──batch of BATCH──▶ Store::import
//! reply: {"imported": [ids], "skipped": n, "existing": [ids], "errors": [{"game": n, "error": "…"}]}
//! ```

use super::http::{ApiError, Words};
use super::library::{unwritable, RESULTS};
use super::session::{saved, Settings};
use super::store::{Import, Kept, Store};
use super::wording;
use bytes::{Buf, Bytes};
use engine::AnyGame;
use movegen::Variant;
use notation::pgn::{import_game, PgnGame, PgnReader};
use serde_json::{json, Value};
use std::io::{self, BufRead, BufReader, Read};

/// The largest import body (a PGN file of about 300,000 games).
pub const MAX_IMPORT: usize = 128 * 1024 * 1024;
/// Games written to the library per transaction: the library is held for
/// one batch at a time, so moves played meanwhile wait for milliseconds.
const BATCH: usize = 200;
/// Unreadable games named one by one in the reply; the rest are counted.
const ERRORS_LISTED: usize = 1000;

/// What an import did.
#[derive(Debug, Default)]
pub struct Report {
    /// Ids of the games kept, in file order.
    pub imported: Vec<u64>,
    /// Ids of the games the library already held (not kept again).
    pub existing: Vec<u64>,
    /// `(game number, reason, its words)` of the unreadable games (the
    /// first [`ERRORS_LISTED`]).
    pub errors: Vec<(usize, String, Words)>,
    /// Unreadable games in all.
    pub error_count: usize,
    /// Why the import stopped before the end of the file, if it did.
    pub stopped: Option<ApiError>,
}

impl Report {
    fn error(&mut self, game: usize, (why, words): (String, Words)) {
        self.error_count += 1;
        if self.errors.len() < ERRORS_LISTED {
            self.errors.push((game, why, words));
        }
    }

    /// Games read in all.
    pub fn games(&self) -> usize {
        self.imported.len() + self.existing.len() + self.error_count
    }

    /// The reply: 201 when a game was kept; 200 when every game was already
    /// there or unreadable; 400 when the text held no game; the library's
    /// own failure (507) when it could not keep a batch.
    pub fn reply(&self) -> (u16, Value) {
        let mut v = json!({
            "imported": self.imported.iter().map(ToString::to_string).collect::<Vec<_>>(),
            "skipped": self.existing.len(),
            "existing": self.existing.iter().map(ToString::to_string).collect::<Vec<_>>(),
            "errors": self.errors.iter().map(|(g, e, w)| json!({
                "game": g, "error": e, "key": w.key, "values": w.values_json(),
            })).collect::<Vec<_>>(),
            "error_count": self.error_count,
        });
        let status = if let Some(e) = &self.stopped {
            v["error"] = json!(e.message);
            if let Some(w) = &e.words {
                v["key"] = json!(w.key);
                v["values"] = w.values_json();
            }
            if self.imported.is_empty() {
                e.status
            } else {
                201
            }
        } else if !self.imported.is_empty() {
            201
        } else if self.games() == 0 {
            v["error"] = json!(
                "no game found in the PGN text (a game is tags and moves, as in a .pgn file)"
            );
            v["key"] = json!("error.pgn");
            v["values"] = json!({ "fault_key": "pgn.none" });
            400
        } else {
            200
        };
        (status, v)
    }
}

/// Imports every game `pgn` yields into `store`.
pub fn run(store: &Store, pgn: impl BufRead) -> Report {
    let mut report = Report::default();
    let mut batch: Vec<Import> = Vec::with_capacity(BATCH);
    for item in PgnReader::new(pgn) {
        match item {
            Ok(game) => match replay(&game) {
                Ok(import) => batch.push(import),
                Err(why) => report.error(report.games() + batch.len() + 1, why),
            },
            Err(e) => report.error(e.game, (e.fault.text.clone(), wording::fault(&e.fault))),
        }
        if batch.len() >= BATCH && !keep(store, &mut batch, &mut report) {
            return report;
        }
    }
    keep(store, &mut batch, &mut report);
    report
}

/// Writes a batch; `false` (and the reason in the report) if the library
/// refused it.
fn keep(store: &Store, batch: &mut Vec<Import>, report: &mut Report) -> bool {
    if batch.is_empty() {
        return true;
    }
    match store.import(batch) {
        Ok(kept) => {
            for k in kept {
                match k {
                    Kept::New(id) => report.imported.push(id),
                    Kept::Same(id) => report.existing.push(id),
                }
            }
            batch.clear();
            true
        }
        Err(e) => {
            report.stopped = Some(unwritable(e));
            false
        }
    }
}

/// A game of the file replayed by the rules of its variant.
fn replay(game: &PgnGame) -> Result<Import, (String, Words)> {
    let g =
        import_game(game, Variant::DEFAULT).map_err(|f| (f.text.clone(), wording::fault(&f)))?;
    let moves: Vec<&str> = g.moves.iter().map(String::as_str).collect();
    let replayed = AnyGame::from_moves(g.variant, g.fen.as_deref(), &moves)
        .map_err(|e| (e.to_string(), wording::engine(&e)))?;
    let mut kept = saved(&replayed, &Settings::default(), &[]);
    // A game that ended without mate or draw on the board (a resignation,
    // a flag) keeps the PGN's result.
    if kept.result == "*" && RESULTS.contains(&g.result.as_str()) {
        kept.result.clone_from(&g.result);
    }
    Ok(Import {
        game: kept,
        tags: game.tags.clone(),
    })
}

/// The request body as a [`Read`], fed chunk by chunk from the connection's
/// task; an error chunk (a body over the limit, a client that stopped
/// sending) becomes a read error.
pub struct BodyReader {
    rx: tokio::sync::mpsc::Receiver<Result<Bytes, String>>,
    chunk: Bytes,
}

impl BodyReader {
    /// Reads what `rx` receives; call only off the async threads.
    pub fn new(rx: tokio::sync::mpsc::Receiver<Result<Bytes, String>>) -> BodyReader {
        BodyReader {
            rx,
            chunk: Bytes::new(),
        }
    }
}

impl Read for BodyReader {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        while self.chunk.is_empty() {
            match self.rx.blocking_recv() {
                Some(Ok(bytes)) => self.chunk = bytes,
                Some(Err(e)) => return Err(io::Error::other(e)),
                None => return Ok(0),
            }
        }
        let n = out.len().min(self.chunk.len());
        out[..n].copy_from_slice(&self.chunk[..n]);
        self.chunk.advance(n);
        Ok(n)
    }
}

/// The PGN text of a body: as is for `application/x-chess-pgn`, the `pgn`
/// string of `{"pgn": "…"}` for JSON, decoded as it streams.
pub fn pgn_text(body: BodyReader, json: bool) -> Box<dyn BufRead + Send> {
    if json {
        Box::new(BufReader::with_capacity(
            64 * 1024,
            JsonPgn::new(BufReader::with_capacity(64 * 1024, body)),
        ))
    } else {
        Box::new(BufReader::with_capacity(64 * 1024, body))
    }
}

/// Where [`JsonPgn`] is in its object.
#[derive(Clone, Copy, PartialEq, Eq)]
enum At {
    Start,
    Text,
    End,
}

/// The value of the one field of `{"pgn": "…"}`, decoded from JSON as it
/// is read: escapes (`\n`, `\"`, `\u00e9`, surrogate pairs) become UTF-8.
/// Anything else in the object is an error, as the other routes'
/// `deny_unknown_fields` makes it.
pub struct JsonPgn<R: BufRead> {
    inner: R,
    at: At,
    /// Bytes of an escape not yet given out.
    pending: Vec<u8>,
}

fn bad(why: impl Into<String>) -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidData,
        format!("bad JSON: {}", why.into()),
    )
}

impl<R: BufRead> JsonPgn<R> {
    /// Decodes the body `inner`.
    pub fn new(inner: R) -> JsonPgn<R> {
        JsonPgn {
            inner,
            at: At::Start,
            pending: Vec::new(),
        }
    }

    fn byte(&mut self) -> io::Result<Option<u8>> {
        let b = self.inner.fill_buf()?.first().copied();
        if b.is_some() {
            self.inner.consume(1);
        }
        Ok(b)
    }

    /// The next byte that is not JSON white space.
    fn token(&mut self) -> io::Result<Option<u8>> {
        loop {
            match self.byte()? {
                Some(b' ' | b'\t' | b'\n' | b'\r') => {}
                other => return Ok(other),
            }
        }
    }

    fn expect(&mut self, want: u8, what: &str) -> io::Result<()> {
        match self.token()? {
            Some(b) if b == want => Ok(()),
            Some(b) => Err(bad(format!("expected {what}, found '{}'", char::from(b)))),
            None => Err(bad(format!("expected {what}, found the end"))),
        }
    }

    /// `{ "pgn" : "` — up to the text's first byte.
    fn open(&mut self) -> io::Result<()> {
        self.expect(b'{', "an object {\"pgn\": \"…\"}")?;
        self.expect(b'"', "the field \"pgn\"")?;
        let mut key = Vec::new();
        loop {
            match self.byte()? {
                Some(b'"') => break,
                Some(b) if key.len() < 64 => key.push(b),
                _ => return Err(bad("a field name that never ends")),
            }
        }
        if key != b"pgn" {
            return Err(bad(format!(
                "unknown field \"{}\", expected `pgn`",
                String::from_utf8_lossy(&key)
            )));
        }
        self.expect(b':', "':'")?;
        self.expect(b'"', "the PGN text as a string")
    }

    /// `" }` and nothing after.
    fn close(&mut self) -> io::Result<()> {
        self.expect(b'}', "'}' (the import takes one field, `pgn`)")?;
        match self.token()? {
            None => Ok(()),
            Some(_) => Err(bad("text after the object")),
        }
    }

    fn hex4(&mut self) -> io::Result<u32> {
        let mut v = 0;
        for _ in 0..4 {
            let d = self
                .byte()?
                .and_then(|b| char::from(b).to_digit(16))
                .ok_or_else(|| bad("a \\u escape without four hex digits"))?;
            v = v * 16 + d;
        }
        Ok(v)
    }

    /// The bytes of the escape after a backslash.
    fn escape(&mut self) -> io::Result<()> {
        let simple = match self.byte()? {
            Some(b'n') => b'\n',
            Some(b't') => b'\t',
            Some(b'r') => b'\r',
            Some(b'b') => 8,
            Some(b'f') => 12,
            Some(b @ (b'"' | b'\\' | b'/')) => b,
            Some(b'u') => return self.unicode(),
            _ => return Err(bad("an unknown escape in a string")),
        };
        self.pending.push(simple);
        Ok(())
    }

    fn unicode(&mut self) -> io::Result<()> {
        let first = self.hex4()?;
        let code = if (0xD800..0xDC00).contains(&first) {
            if self.byte()? != Some(b'\\') || self.byte()? != Some(b'u') {
                return Err(bad("a lone surrogate in a \\u escape"));
            }
            let low = self.hex4()?;
            if !(0xDC00..0xE000).contains(&low) {
                return Err(bad("a lone surrogate in a \\u escape"));
            }
            0x10000 + ((first - 0xD800) << 10) + (low - 0xDC00)
        } else {
            first
        };
        let c = char::from_u32(code).ok_or_else(|| bad("a lone surrogate in a \\u escape"))?;
        let mut buf = [0u8; 4];
        // Pending is read from its end.
        self.pending.extend(c.encode_utf8(&mut buf).bytes().rev());
        Ok(())
    }
}

impl<R: BufRead> Read for JsonPgn<R> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        if self.at == At::Start {
            self.open()?;
            self.at = At::Text;
        }
        let mut n = 0;
        while n < out.len() {
            if let Some(b) = self.pending.pop() {
                out[n] = b;
                n += 1;
                continue;
            }
            if self.at == At::End {
                break;
            }
            match self.byte()? {
                Some(b'"') => {
                    self.close()?;
                    self.at = At::End;
                }
                Some(b'\\') => self.escape()?,
                Some(b) if b < 0x20 => return Err(bad("a control character inside a string")),
                Some(b) => {
                    out[n] = b;
                    n += 1;
                }
                None => return Err(bad("the body ends inside the PGN string")),
            }
        }
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decode(json: &str) -> io::Result<String> {
        let mut out = String::new();
        JsonPgn::new(BufReader::with_capacity(3, json.as_bytes())).read_to_string(&mut out)?;
        Ok(out)
    }

    #[test]
    fn the_pgn_string_is_decoded_as_it_streams() {
        let text = "[Event \"é \\\"q\\\"\"]\n\n1. e4 {😀} *\t/";
        let json = serde_json::to_string(&json!({ "pgn": text })).unwrap();
        assert_eq!(decode(&json).unwrap(), text);
        assert_eq!(
            decode(" { \"pgn\" : \"a\\u00e9\\ud83d\\ude00\\/\" } ").unwrap(),
            "aé😀/"
        );
        assert_eq!(decode(r#"{"pgn": ""}"#).unwrap(), "");
        for bad in [
            "",
            "[]",
            r#"{"png": "x"}"#,
            r#"{"pgn": 3}"#,
            r#"{"pgn": "x"#,
            r#"{"pgn": "x", "more": 1}"#,
            r#"{"pgn": "x"} 1"#,
            r#"{"pgn": "\ud800"}"#,
            r#"{"pgn": "\q"}"#,
            "{\"pgn\": \"a\nb\"}",
        ] {
            let e = decode(bad).unwrap_err();
            assert!(e.to_string().starts_with("bad JSON"), "{bad}: {e}");
        }
    }

    #[test]
    fn a_report_says_what_happened() {
        let mut r = Report::default();
        assert_eq!(r.reply().0, 400);
        r.existing.push(7);
        assert_eq!(r.reply().0, 200);
        r.imported.push(8);
        let fault = notation::fault::Fault::new(
            "pgn.illegal",
            vec![("ply", "2".into()), ("move", "Kd8".into())],
        );
        r.error(3, (fault.text.clone(), wording::fault(&fault)));
        let (status, v) = r.reply();
        assert_eq!(status, 201);
        assert_eq!(v["imported"], json!(["8"]));
        assert_eq!(v["skipped"], 1);
        assert_eq!(v["errors"][0]["game"], 3);
        assert_eq!(v["errors"][0]["error"], "ply 2: \"Kd8\" is not legal");
        assert_eq!(v["errors"][0]["key"], "pgn.illegal");
        assert_eq!(
            v["errors"][0]["values"],
            json!({ "ply": "2", "move": "Kd8" })
        );
    }
}
