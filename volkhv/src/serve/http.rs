//! The HTTP edge: request heads split into path and query, percent
//! decoding, size-limited bodies, and replies (JSON, text, embedded files,
//! errors). Nothing here knows about games.
//!
//! ```text
//! "/api/games/3/move?x=%41"  ──target()──▶  path ["api","games","3","move"], query [("x","A")]
//! ```

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::header::{HeaderMap, HeaderValue};
use hyper::{Method, Response, StatusCode};
use serde::de::DeserializeOwned;

/// The largest request body accepted, except the library's PGN import
/// (which is read as a stream): a long Tavreli game fits many times over.
pub const MAX_BODY: usize = 256 * 1024;

/// Every reply's body: a whole buffer, or a stream (Server-Sent Events).
pub type Body = http_body_util::combinators::UnsyncBoxBody<Bytes, std::convert::Infallible>;

/// What a handler answers when it cannot do what was asked: an HTTP status
/// and a sentence for the person (the page shows it as is).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ApiError {
    /// 4xx for the client's mistakes, 5xx for ours.
    pub status: u16,
    /// What went wrong, in words.
    pub message: String,
    /// Seconds after which the same request may succeed (429, 503).
    pub retry_after: Option<u32>,
    /// The words a page shows instead of `message`, in the reader's
    /// language.
    pub words: Option<Words>,
}

/// Words for a page: a catalogue key (`web/lang-XX.json`) and the values
/// its text names. A value whose name ends in `_key` is itself a key: the
/// page words it first (with the same values) and passes the text on under
/// the name without `_key`, so a refused FEN reads "… {reason} ({field})"
/// in the reader's language throughout.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Words {
    /// The catalogue key.
    pub key: &'static str,
    /// The values, by the names the text uses.
    pub values: Vec<(&'static str, String)>,
}

impl Words {
    /// `key` with `values`.
    pub fn new(key: &'static str, values: Vec<(&'static str, String)>) -> Words {
        Words { key, values }
    }

    /// The values as a JSON object.
    pub fn values_json(&self) -> serde_json::Value {
        self.values
            .iter()
            .map(|(k, v)| ((*k).to_string(), serde_json::Value::from(v.as_str())))
            .collect::<serde_json::Map<_, _>>()
            .into()
    }
}

impl ApiError {
    /// An error with `status`.
    pub fn new(status: u16, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            message: message.into(),
            retry_after: None,
            words: None,
        }
    }

    /// The same error, worded in the catalogues under `key`.
    #[must_use]
    pub fn keyed(self, key: &'static str) -> ApiError {
        self.worded(Words::new(key, Vec::new()))
    }

    /// The same error, with the words a page shows for it.
    #[must_use]
    pub fn worded(self, words: Words) -> ApiError {
        ApiError {
            words: Some(words),
            ..self
        }
    }

    /// 400: the request itself is wrong (bad JSON, FEN, move, option).
    pub fn bad(message: impl Into<String>) -> ApiError {
        ApiError::new(400, message)
    }

    /// 404: no such page, file or game.
    pub fn not_found(message: impl Into<String>) -> ApiError {
        ApiError::new(404, message)
    }

    /// 429: more work was asked than the server takes now; try again in
    /// `secs` seconds.
    pub fn busy(message: impl Into<String>, secs: u32) -> ApiError {
        ApiError {
            retry_after: Some(secs),
            ..ApiError::new(429, message)
        }
    }
}

/// A reply body with its content type, status and extra headers.
pub struct Reply {
    status: u16,
    content_type: &'static str,
    body: Vec<u8>,
    headers: Vec<(&'static str, String)>,
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
            headers: Vec::new(),
        }
    }

    /// 200 with bytes of a given type (embedded assets, PGN text).
    pub fn bytes(content_type: &'static str, body: Vec<u8>) -> Reply {
        Reply {
            status: 200,
            content_type,
            body,
            headers: Vec::new(),
        }
    }

    /// The error as `{"error": message}` with its status (and
    /// `Retry-After` when it says when to try again).
    pub fn error(e: &ApiError) -> Reply {
        let mut body = serde_json::json!({ "error": e.message });
        if let Some(w) = &e.words {
            body["key"] = w.key.into();
            if !w.values.is_empty() {
                body["values"] = w.values_json();
            }
        }
        let mut reply = Reply::json_status(e.status, &body);
        if let Some(secs) = e.retry_after {
            reply.headers.push(("Retry-After", secs.to_string()));
        }
        reply
    }

    /// An HTML page with `status` (what a person's browser shows).
    pub fn html(status: u16, page: String) -> Reply {
        Reply {
            status,
            content_type: "text/html; charset=utf-8",
            body: page.into_bytes(),
            headers: Vec::new(),
        }
    }

    /// An empty reply with `status` (a redirect's 303).
    pub fn empty(status: u16) -> Reply {
        Reply {
            status,
            content_type: "text/plain; charset=utf-8",
            body: Vec::new(),
            headers: Vec::new(),
        }
    }

    /// Adds a header (`Location`, `Set-Cookie`, …).
    #[must_use]
    pub fn with_header(mut self, name: &'static str, value: String) -> Reply {
        self.headers.push((name, value));
        self
    }

    /// The reply as hyper sends it.
    pub fn into_response(self) -> Response<Body> {
        let body = Full::new(Bytes::from(self.body)).boxed_unsync();
        response(self.status, self.content_type, &self.headers, body)
    }
}

/// A handler's answer: ready now, or later from the engine pool (a hint),
/// awaited without holding a thread.
pub enum Answer {
    /// The reply.
    Now(Reply),
    /// The reply, once the work is done (a dropped sender: the server is
    /// stopping).
    Later(tokio::sync::oneshot::Receiver<Reply>),
}

impl From<Reply> for Answer {
    fn from(r: Reply) -> Answer {
        Answer::Now(r)
    }
}

impl From<ApiError> for Reply {
    fn from(e: ApiError) -> Reply {
        Reply::error(&e)
    }
}

/// A response with the headers every reply carries.
pub fn response(
    status: u16,
    content_type: &str,
    extra: &[(&'static str, String)],
    body: Body,
) -> Response<Body> {
    let mut r = Response::new(body);
    *r.status_mut() = StatusCode::from_u16(status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    let h = r.headers_mut();
    let fixed = [
        ("content-type", content_type),
        ("cache-control", "no-store"),
        ("x-content-type-options", "nosniff"),
        ("referrer-policy", "no-referrer"),
    ];
    for (name, value) in fixed {
        if let Ok(v) = HeaderValue::from_str(value) {
            h.insert(name, v);
        }
    }
    for (name, value) in extra {
        if let Ok(v) = HeaderValue::from_str(value) {
            h.append(*name, v);
        }
    }
    r
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

    /// The path as `&str` segments, for matching.
    pub fn segments(&self) -> Vec<&str> {
        self.path.iter().map(String::as_str).collect()
    }
}

/// What a handler sees of a request: method, decoded target, headers and
/// the raw target (for redirects).
pub struct Head {
    /// GET, POST, …
    pub method: Method,
    /// The decoded path and query.
    pub target: Target,
    /// The request target as sent (`/a?b=c`).
    pub raw: String,
    /// The headers.
    pub headers: HeaderMap,
}

impl Head {
    /// The value of header `name` as text (`None` if absent or not ASCII).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name).and_then(|v| v.to_str().ok())
    }

    /// `true` for the methods that change something.
    pub fn is_write(&self) -> bool {
        !matches!(self.method, Method::GET | Method::HEAD | Method::OPTIONS)
    }

    /// The media type of the body, lower case, without parameters.
    pub fn media_type(&self) -> Option<String> {
        self.header("content-type").map(|c| {
            c.split(';')
                .next()
                .unwrap_or_default()
                .trim()
                .to_ascii_lowercase()
        })
    }
}

/// A request with its whole body (every route but the PGN import).
pub struct Req {
    /// Method, target, headers.
    pub head: Head,
    /// The body as text.
    pub body: String,
    /// Who sent it (the host, or a seat).
    pub who: super::seats::Who,
}

impl Req {
    /// The body parsed as JSON (an empty body reads as `{}`).
    ///
    /// # Errors
    /// 400 naming what serde found wrong.
    pub fn json<T: DeserializeOwned>(&self) -> Result<T, ApiError> {
        json(&self.body)
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

/// 413 for a body over `limit` bytes.
pub fn too_large(limit: usize) -> ApiError {
    ApiError::new(413, format!("request body over {limit} bytes"))
}

/// A whole body as text.
///
/// # Errors
/// 400 for bytes that are not UTF-8.
pub fn body_text(bytes: Bytes) -> Result<String, ApiError> {
    String::from_utf8(bytes.to_vec()).map_err(|_| ApiError::bad("the request body is not UTF-8"))
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

    #[test]
    fn busy_replies_say_when_to_come_back() {
        let r = Reply::error(&ApiError::busy("the engine is busy", 3)).into_response();
        assert_eq!(r.status(), 429);
        assert_eq!(r.headers()["retry-after"], "3");
        assert_eq!(r.headers()["cache-control"], "no-store");
    }
}
