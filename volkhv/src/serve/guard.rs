//! Who may use a board shared beyond this machine. With a non-loopback
//! `--host` the server makes a random token and answers 403 to any request
//! without it (`?token=`, `Authorization: Bearer`, or the cookie the page
//! gets on its first visit); requests that change something must also come
//! from the board's own origin. On loopback nothing is asked: the `Host`
//! check of `mod.rs` keeps other sites out there.
//!
//! ```text
//! GET /?token=T          → 303 to / with Set-Cookie: volkhv_token_PORT=T; HttpOnly; SameSite=Strict
//! GET /api/… (cookie T)  → answered        POST with Origin ≠ http://Host → 403
//! ```

use super::http::{self, ApiError, Target};
use std::io::Read;
use tiny_http::{Method, Request, Response, StatusCode};

/// What to do with a request.
pub enum Verdict {
    /// Answer it.
    Pass,
    /// Refuse it with this error.
    Refuse(ApiError),
    /// The page came with the token in its address: keep it in a cookie and
    /// send the browser to the same address without it.
    Remember {
        /// The address without `token=`.
        location: String,
    },
}

/// The board's token, if it needs one.
pub struct Guard {
    token: Option<String>,
    cookie: String,
}

impl Guard {
    /// No token: loopback.
    pub fn open(port: u16) -> Guard {
        Guard {
            token: None,
            cookie: format!("volkhv_token_{port}"),
        }
    }

    /// A fresh random token (128 bits from the system's generator).
    ///
    /// # Errors
    /// `/dev/urandom` cannot be read.
    pub fn with_token(port: u16) -> std::io::Result<Guard> {
        let mut bytes = [0u8; 16];
        std::fs::File::open("/dev/urandom")?.read_exact(&mut bytes)?;
        let token = bytes.iter().map(|b| format!("{b:02x}")).collect();
        Ok(Guard {
            token: Some(token),
            ..Guard::open(port)
        })
    }

    /// The token, for the first line on stdout and nowhere else.
    pub fn token(&self) -> Option<&str> {
        self.token.as_deref()
    }

    /// Decides on `req` (its target already split).
    pub fn check(&self, req: &Request, target: &Target) -> Verdict {
        let Some(token) = &self.token else {
            return Verdict::Pass;
        };
        let from_query = target.param("token");
        let given = [
            from_query,
            header(req, "Authorization").and_then(|a| a.strip_prefix("Bearer ")),
            header(req, "Cookie").and_then(|c| cookie(c, &self.cookie)),
        ];
        if !given.into_iter().flatten().any(|g| same(g.trim(), token)) {
            return Verdict::Refuse(ApiError {
                status: 403,
                message: "this board needs its token: open the address `volkhv serve` printed (…/?token=…)".into(),
            });
        }
        if !matches!(req.method(), Method::Get | Method::Head) && !same_origin(req) {
            return Verdict::Refuse(ApiError {
                status: 403,
                message: "a request from another site's page was refused".into(),
            });
        }
        let page = target.path.first().is_none_or(|p| p != "api");
        if from_query.is_some() && page && matches!(req.method(), Method::Get) {
            return Verdict::Remember {
                location: without_token(req.url()),
            };
        }
        Verdict::Pass
    }

    /// Answers [`Verdict::Remember`].
    pub fn remember(&self, req: Request, location: &str) {
        let token = self.token.as_deref().unwrap_or_default();
        let mut response = Response::empty(StatusCode(303));
        let cookie = format!("{}={token}; HttpOnly; SameSite=Strict; Path=/", self.cookie);
        for h in [
            http::header("Location", location),
            http::header("Set-Cookie", &cookie),
            http::header("Cache-Control", "no-store"),
        ]
        .into_iter()
        .flatten()
        {
            response.add_header(h);
        }
        let _ = req.respond(response);
    }
}

fn header<'r>(req: &'r Request, name: &str) -> Option<&'r str> {
    req.headers()
        .iter()
        .find(|h| h.field.as_str().as_str().eq_ignore_ascii_case(name))
        .map(|h| h.value.as_str())
}

/// The value of cookie `name` in a `Cookie` header.
fn cookie<'c>(header: &'c str, name: &str) -> Option<&'c str> {
    header
        .split(';')
        .filter_map(|kv| kv.trim().split_once('='))
        .find(|(k, _)| *k == name)
        .map(|(_, v)| v)
}

/// Compares without stopping at the first difference, so that the time
/// taken does not tell how much of a guess was right.
fn same(a: &str, b: &str) -> bool {
    a.len() == b.len()
        && a.bytes()
            .zip(b.bytes())
            .fold(0u8, |acc, (x, y)| acc | (x ^ y))
            == 0
}

/// A browser names the page that sent a request in `Origin`; it must be
/// this board. Scripts send none (the token is their proof).
fn same_origin(req: &Request) -> bool {
    match (header(req, "Origin"), header(req, "Host")) {
        (None, _) => true,
        (Some(origin), Some(host)) => origin.eq_ignore_ascii_case(&format!("http://{host}")),
        (Some(_), None) => false,
    }
}

/// The request target with its `token=` pairs removed.
fn without_token(url: &str) -> String {
    let (path, query) = url.split_once('?').unwrap_or((url, ""));
    let rest: Vec<&str> = query
        .split('&')
        .filter(|kv| !kv.is_empty() && kv.split('=').next() != Some("token"))
        .collect();
    if rest.is_empty() {
        path.to_string()
    } else {
        format!("{path}?{}", rest.join("&"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_cookies_and_addresses() {
        assert!(same("abc", "abc"));
        assert!(!same("abc", "abd"));
        assert!(!same("abc", "abcd"));
        assert_eq!(
            cookie("a=1; volkhv_token_80=xy; b=2", "volkhv_token_80"),
            Some("xy")
        );
        assert_eq!(cookie("volkhv_token_81=xy", "volkhv_token_80"), None);
        assert_eq!(without_token("/?token=abc"), "/");
        assert_eq!(
            without_token("/library.html?variant=plunder&token=abc"),
            "/library.html?variant=plunder"
        );
        let g = Guard::with_token(80).unwrap();
        let t = g.token().unwrap();
        assert_eq!(t.len(), 32);
        assert_ne!(t, Guard::with_token(80).unwrap().token().unwrap());
    }
}
