//! The HTTP edge: request targets split into path and query, percent
//! decoding, size-limited bodies, and replies (JSON, text, embedded files,
//! errors). Nothing here knows about games.
//!
//! ```text
//! "/api/games/3/move?x=%41"  ──target()──▶  path ["api","games","3","move"], query [("x","A")]
//! ```

use serde::de::DeserializeOwned;
use std::io::{Cursor, Read};
use tiny_http::{Header, Request, Response, StatusCode};

/// The largest request body accepted (a long PGN fits many times over).
pub const MAX_BODY: usize = 256 * 1024;

/// What a handler answers when it cannot do what was asked: an HTTP status
/// and a sentence for the person (the page shows it as is).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ApiError {
    /// 4xx for the client's mistakes, 5xx for ours.
    pub status: u16,
    /// What went wrong, in words.
    pub message: String,
}

impl ApiError {
    /// 400: the request itself is wrong (bad JSON, FEN, move, option).
    pub fn bad(message: impl Into<String>) -> ApiError {
        ApiError {
            status: 400,
            message: message.into(),
        }
    }

    /// 404: no such page, file or game.
    pub fn not_found(message: impl Into<String>) -> ApiError {
        ApiError {
            status: 404,
            message: message.into(),
        }
    }
}

/// A reply body with its content type and status.
pub struct Reply {
    status: u16,
    content_type: &'static str,
    body: Vec<u8>,
}

impl Reply {
    /// 200 with a JSON value.
    pub fn json(value: &serde_json::Value) -> Reply {
        Reply::json_status(200, value)
    }

    /// A JSON value with another status.
    pub fn json_status(status: u16, value: &serde_json::Value) -> Reply {
        Reply {
            status,
            content_type: "application/json; charset=utf-8",
            body: value.to_string().into_bytes(),
        }
    }

    /// 200 with bytes of a given type (embedded assets, PGN text).
    pub fn bytes(content_type: &'static str, body: Vec<u8>) -> Reply {
        Reply {
            status: 200,
            content_type,
            body,
        }
    }

    /// The error as `{"error": message}` with its status.
    pub fn error(e: &ApiError) -> Reply {
        Reply::json_status(e.status, &serde_json::json!({ "error": e.message }))
    }

    /// Sends the reply; a client gone meanwhile is not our problem.
    pub fn send(self, request: Request) {
        let len = self.body.len();
        let mut response = Response::new(
            StatusCode(self.status),
            Vec::new(),
            Cursor::new(self.body),
            Some(len),
            None,
        );
        for h in [
            header("Content-Type", self.content_type),
            header("Cache-Control", "no-store"),
            header("X-Content-Type-Options", "nosniff"),
        ]
        .into_iter()
        .flatten()
        {
            response.add_header(h);
        }
        let _ = request.respond(response);
    }
}

/// A header from two ASCII strings (`None` only for non-ASCII input, which
/// this module never builds).
pub fn header(name: &str, value: &str) -> Option<Header> {
    Header::from_bytes(name.as_bytes(), value.as_bytes()).ok()
}

/// A request target split into decoded path segments and query pairs.
#[derive(Debug, PartialEq, Eq)]
pub struct Target {
    /// Path segments without the empty ones (`/` = no segments).
    pub path: Vec<String>,
    /// `key=value` pairs of the query, decoded, in order.
    pub query: Vec<(String, String)>,
}

impl Target {
    /// The first value of query key `k`.
    pub fn param(&self, k: &str) -> Option<&str> {
        self.query
            .iter()
            .find(|(key, _)| key == k)
            .map(|(_, v)| v.as_str())
    }
}

/// Splits and decodes a request target (`/a/b?x=1&y=%20`).
///
/// # Errors
/// Bad percent-encoding or a decoded value that is not UTF-8.
pub fn target(raw: &str) -> Result<Target, ApiError> {
    let (path, query) = raw.split_once('?').unwrap_or((raw, ""));
    let path = path
        .split('/')
        .filter(|s| !s.is_empty())
        .map(|s| percent_decode(s, false))
        .collect::<Result<Vec<_>, _>>()?;
    let query = query
        .split('&')
        .filter(|s| !s.is_empty())
        .map(|pair| {
            let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
            Ok((percent_decode(k, true)?, percent_decode(v, true)?))
        })
        .collect::<Result<Vec<_>, ApiError>>()?;
    Ok(Target { path, query })
}

/// Decodes `%XX` escapes (and `+` as a space in query strings).
///
/// # Errors
/// A `%` not followed by two hex digits, or bytes that are not UTF-8.
pub fn percent_decode(s: &str, plus_is_space: bool) -> Result<String, ApiError> {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'%' => {
                let hex = bytes
                    .get(i + 1..i + 3)
                    .and_then(|h| std::str::from_utf8(h).ok())
                    .and_then(|h| u8::from_str_radix(h, 16).ok())
                    .ok_or_else(|| ApiError::bad(format!("bad percent-encoding in \"{s}\"")))?;
                out.push(hex);
                i += 3;
            }
            b'+' if plus_is_space => {
                out.push(b' ');
                i += 1;
            }
            b => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8(out).map_err(|_| ApiError::bad(format!("\"{s}\" does not decode to UTF-8")))
}

/// Reads the body, refusing more than [`MAX_BODY`] bytes.
///
/// # Errors
/// 413 for a body too large, 400 for one that cannot be read or is not UTF-8.
pub fn body(request: &mut Request) -> Result<String, ApiError> {
    let too_large = || ApiError {
        status: 413,
        message: format!("request body over {MAX_BODY} bytes"),
    };
    if request.body_length().is_some_and(|n| n > MAX_BODY) {
        return Err(too_large());
    }
    let mut buf = Vec::new();
    request
        .as_reader()
        .take(MAX_BODY as u64 + 1)
        .read_to_end(&mut buf)
        .map_err(|e| ApiError::bad(format!("cannot read the request body: {e}")))?;
    if buf.len() > MAX_BODY {
        return Err(too_large());
    }
    String::from_utf8(buf).map_err(|_| ApiError::bad("the request body is not UTF-8"))
}

/// Parses a JSON body (an empty body reads as `{}`).
///
/// # Errors
/// 400 naming what serde found wrong.
pub fn json<T: DeserializeOwned>(text: &str) -> Result<T, ApiError> {
    let text = if text.trim().is_empty() { "{}" } else { text };
    serde_json::from_str(text).map_err(|e| ApiError::bad(format!("bad JSON: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn targets_decode() {
        let t = target("/api/games/3/move?fen=rnbq%2Fk+b&x&y=%E2%80%94").unwrap();
        assert_eq!(t.path, ["api", "games", "3", "move"]);
        assert_eq!(t.param("fen"), Some("rnbq/k b"));
        assert_eq!(t.param("x"), Some(""));
        assert_eq!(t.param("y"), Some("—"));
        assert_eq!(target("/").unwrap().path, Vec::<String>::new());
    }

    #[test]
    fn bad_escapes_are_errors() {
        for bad in ["/%", "/%4", "/%zz", "/?a=%G1", "/%FF", "/?%C3"] {
            let e = target(bad).unwrap_err();
            assert_eq!(e.status, 400, "{bad}");
        }
    }
}
