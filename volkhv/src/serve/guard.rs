//! Who may use the board, checked before any route runs:
//!
//! - **Host** (loopback only): the `Host` header must name this machine, so
//!   that a web page elsewhere that points its own name at 127.0.0.1 (DNS
//!   rebinding) cannot reach the API.
//! - **Cross-site writes** (every address): a request that changes something
//!   (POST, PUT, PATCH, DELETE) must not come from another site's page — a
//!   present `Origin` must be the board's own, `Sec-Fetch-Site` must not say
//!   another site — and must carry a JSON body (`Content-Type:
//!   application/json`). A page elsewhere can only send forms and
//!   `text/plain` without asking the browser first (a CORS preflight, which
//!   the board never grants), so neither reaches a route.
//! - **Token** (beyond loopback): the server makes a random token and answers
//!   403 to any request without it (`?token=`, `Authorization: Bearer`, or
//!   the cookie the page gets on its first visit).
//!
//! ```text
//! GET /?token=T          → 303 to / with Set-Cookie: volkhv_token_PORT=T; HttpOnly; SameSite=Strict
//! GET /api/… (cookie T)  → answered
//! POST, Origin ≠ http://Host  → 403      POST, Content-Type: text/plain → 415
//! ```

use super::http::{ApiError, Head, Reply};
use super::seats::{Seats, Who};
use hyper::Method;
use std::net::SocketAddr;
use subtle::ConstantTimeEq;

/// What to do with a request.
pub enum Verdict {
    /// Answer it, for this sender (which the routes check further: see
    /// [`super::seats::permit`]).
    Pass(Who),
    /// Refuse it with this error.
    Refuse(ApiError),
    /// The page came with the token or a seat's secret in its address: keep
    /// it in a cookie and send the browser to the same address without it.
    Remember {
        /// The address without `token=` and `seat=`.
        location: String,
        /// The cookie's `name=value`.
        cookie: String,
    },
}

/// The board's token, if it needs one, and the host names it answers to.
pub struct Guard {
    token: Option<String>,
    cookie: String,
    seat_cookie: String,
    hosts: Option<Vec<String>>,
}

/// Body types a write may carry: JSON everywhere; PGN text where a route
/// reads it (neither can be sent by another site's page without a CORS
/// preflight).
const WRITE_TYPES: [&str; 2] = ["application/json", "application/x-chess-pgn"];

impl Guard {
    /// No token: loopback.
    pub fn open(bound: SocketAddr) -> Guard {
        Guard {
            token: None,
            cookie: format!("volkhv_token_{}", bound.port()),
            seat_cookie: format!("volkhv_seat_{}", bound.port()),
            hosts: allowed_hosts(bound),
        }
    }

    /// A fresh random token (128 bits from the operating system's generator).
    ///
    /// # Errors
    /// The generator cannot be read.
    pub fn with_token(bound: SocketAddr) -> Result<Guard, String> {
        Ok(Guard {
            token: Some(secret()?),
            ..Guard::open(bound)
        })
    }

    /// The token, for the first line on stdout and nowhere else.
    pub fn token(&self) -> Option<&str> {
        self.token.as_deref()
    }

    /// Decides on a request: the host's token (or loopback) makes it the
    /// host's; a seat's secret the seat's. A secret in the address or a
    /// `Bearer` that opens nothing is refused, even on loopback.
    pub fn check(&self, head: &Head, seats: &Seats) -> Verdict {
        if let Some(e) = self.wrong_host(head).or_else(|| cross_site(head)) {
            return Verdict::Refuse(e);
        }
        let bearer = head
            .header("authorization")
            .and_then(|a| a.strip_prefix("Bearer "))
            .map(str::trim);
        let cookies = head.header("cookie").unwrap_or_default();
        let page_load =
            head.method == Method::GET && head.target.path.first().is_none_or(|p| p != "api");
        let remember = |name: &str, value: &str| Verdict::Remember {
            location: without_secrets(&head.raw),
            cookie: format!("{name}={value}"),
        };
        if let Some(token) = &self.token {
            let from_query = head.target.param("token");
            let given = [from_query, bearer, cookie(cookies, &self.cookie)];
            if given.into_iter().flatten().any(|g| same(g.trim(), token)) {
                if from_query.is_some() && page_load {
                    return remember(&self.cookie, token);
                }
                return Verdict::Pass(Who::Host);
            }
        }
        let from_query = head.target.param("seat");
        for given in [from_query, bearer, cookie(cookies, &self.seat_cookie)]
            .into_iter()
            .flatten()
        {
            if let Some((game, role)) = seats.find(given.trim()) {
                if from_query.is_some() && page_load {
                    return remember(&self.seat_cookie, given.trim());
                }
                return Verdict::Pass(Who::Seat { game, role });
            }
        }
        let refused = || {
            Verdict::Refuse(
                ApiError::new(
                    403,
                    "this board needs its token or a seat's link: open the address you were given (…/?token=… or …&seat=…)",
                )
                .keyed("error.token"),
            )
        };
        // A wrong secret is refused rather than taken for the host's
        // loopback: the person holding it expects a seat.
        if from_query.is_some() || (bearer.is_some() && self.token.is_none()) {
            return refused();
        }
        if self.token.is_none() {
            return Verdict::Pass(Who::Host);
        }
        refused()
    }

    /// Answers [`Verdict::Remember`].
    pub fn remember(location: &str, cookie: &str) -> Reply {
        Reply::empty(303)
            .with_header("Location", location.to_string())
            .with_header(
                "Set-Cookie",
                format!("{cookie}; HttpOnly; SameSite=Strict; Path=/"),
            )
    }

    fn wrong_host(&self, head: &Head) -> Option<ApiError> {
        let allowed = self.hosts.as_deref()?;
        let ok = head
            .header("host")
            .is_some_and(|h| allowed.iter().any(|a| a.eq_ignore_ascii_case(h)));
        (!ok).then(|| {
            ApiError::new(
                403,
                "this board answers only to 127.0.0.1, localhost and [::1]",
            )
        })
    }
}

/// 128 random bits from the operating system, as 32 hex digits.
///
/// # Errors
/// The generator cannot be read.
pub fn secret() -> Result<String, String> {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes).map_err(|e| format!("no random numbers: {e}"))?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

/// The `Host` headers a loopback server answers; `None` (any host) when
/// listening beyond loopback, where the token keeps strangers out.
fn allowed_hosts(bound: SocketAddr) -> Option<Vec<String>> {
    if !bound.ip().is_loopback() {
        return None;
    }
    let port = bound.port();
    let names = ["127.0.0.1", "localhost", "[::1]"];
    let mut hosts: Vec<String> = names.iter().map(|n| format!("{n}:{port}")).collect();
    if port == 80 {
        hosts.extend(names.iter().map(ToString::to_string));
    }
    Some(hosts)
}

/// Refuses a write that another site's page could have sent.
fn cross_site(head: &Head) -> Option<ApiError> {
    if !head.is_write() {
        return None;
    }
    let foreign = |why: String| {
        Some(ApiError::new(
            403,
            format!("a request from another site's page was refused ({why})"),
        ))
    };
    if let Some(origin) = head.header("origin") {
        let own = head
            .header("host")
            .is_some_and(|host| origin.eq_ignore_ascii_case(&format!("http://{host}")));
        if !own {
            return foreign(format!("Origin: {origin}"));
        }
    } else if head.headers.contains_key("origin") {
        return foreign("an Origin that is not text".into());
    }
    if let Some(site) = head.header("sec-fetch-site") {
        if !matches!(site, "same-origin" | "none") {
            return foreign(format!("Sec-Fetch-Site: {site}"));
        }
    }
    match head.media_type() {
        Some(t) if WRITE_TYPES.contains(&t.as_str()) => None,
        other => Some(ApiError::new(
            415,
            format!(
                "a request that changes something takes a JSON body (Content-Type: application/json), not {}",
                other.map_or_else(|| "a body without a type".to_string(), |t| format!("\"{t}\""))
            ),
        )),
    }
}

/// The value of cookie `name` in a `Cookie` header.
fn cookie<'c>(header: &'c str, name: &str) -> Option<&'c str> {
    header
        .split(';')
        .filter_map(|kv| kv.trim().split_once('='))
        .find(|(k, _)| *k == name)
        .map(|(_, v)| v)
}

/// Compares in constant time, so that the time taken does not tell how
/// much of a guess was right.
pub fn same(a: &str, b: &str) -> bool {
    a.as_bytes().ct_eq(b.as_bytes()).into()
}

/// The request target with its `token=` and `seat=` pairs removed.
fn without_secrets(url: &str) -> String {
    let (path, query) = url.split_once('?').unwrap_or((url, ""));
    let rest: Vec<&str> = query
        .split('&')
        .filter(|kv| !kv.is_empty() && !matches!(kv.split('=').next(), Some("token" | "seat")))
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
    use hyper::header::{HeaderMap, HeaderValue};

    fn head(method: Method, headers: &[(&'static str, &str)]) -> Head {
        let mut map = HeaderMap::new();
        for (k, v) in headers {
            map.insert(*k, HeaderValue::from_str(v).unwrap());
        }
        Head {
            method,
            target: super::super::http::target("/api/games").unwrap(),
            raw: "/api/games".into(),
            headers: map,
        }
    }

    const HOST: (&str, &str) = ("host", "127.0.0.1:8080");
    const JSON: (&str, &str) = ("content-type", "application/json; charset=utf-8");

    fn refused(h: &Head) -> Option<u16> {
        let g = Guard::open("127.0.0.1:8080".parse().unwrap());
        match g.check(h, &Seats::none()) {
            Verdict::Refuse(e) => Some(e.status),
            _ => None,
        }
    }

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
        assert_eq!(without_secrets("/?token=abc"), "/");
        assert_eq!(
            without_secrets("/library.html?variant=plunder&token=abc"),
            "/library.html?variant=plunder"
        );
        assert_eq!(without_secrets("/?game=4&seat=abc"), "/?game=4");
        let any: SocketAddr = "0.0.0.0:80".parse().unwrap();
        let g = Guard::with_token(any).unwrap();
        let t = g.token().unwrap();
        assert_eq!(t.len(), 32);
        assert_ne!(t, Guard::with_token(any).unwrap().token().unwrap());
    }

    #[test]
    fn cross_site_writes_are_refused() {
        assert_eq!(refused(&head(Method::POST, &[HOST, JSON])), None);
        let own = ("origin", "http://127.0.0.1:8080");
        assert_eq!(refused(&head(Method::POST, &[HOST, JSON, own])), None);
        let evil = ("origin", "http://evil.example");
        assert_eq!(refused(&head(Method::POST, &[HOST, JSON, evil])), Some(403));
        let null = ("origin", "null");
        assert_eq!(
            refused(&head(Method::DELETE, &[HOST, JSON, null])),
            Some(403)
        );
        let site = ("sec-fetch-site", "cross-site");
        assert_eq!(refused(&head(Method::POST, &[HOST, JSON, site])), Some(403));
        let same_site = ("sec-fetch-site", "same-site");
        assert_eq!(
            refused(&head(Method::POST, &[HOST, JSON, same_site])),
            Some(403),
            "another port of localhost is another origin"
        );
        for t in [
            "text/plain",
            "application/x-www-form-urlencoded",
            "multipart/form-data; boundary=x",
        ] {
            let h = head(Method::POST, &[HOST, ("content-type", t)]);
            assert_eq!(refused(&h), Some(415), "{t}");
        }
        assert_eq!(refused(&head(Method::PUT, &[HOST])), Some(415));
        // Reads are free; the host check still holds for them.
        assert_eq!(refused(&head(Method::GET, &[HOST, evil])), None);
        let rebound = ("host", "evil.example:8080");
        assert_eq!(refused(&head(Method::GET, &[rebound])), Some(403));
    }
}
