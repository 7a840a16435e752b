//! Playing a friend through the HTTP API, in token mode (`--host 0.0.0.0`):
//! seats for two people and a watch link, what each secret may do, clocks
//! that flag, resignation, draws by agreement, takebacks, and the game as
//! the library and its PGN keep it.

mod server;

use serde_json::{json, Value};
use server::{id, Server};
use std::time::Duration;

/// The token mode's server, its token as a Bearer header.
fn shared() -> (Server, String) {
    let s = Server::start_with(&["--host", "0.0.0.0", "--db", ":memory:"]);
    let bearer = format!(
        "Authorization: Bearer {}",
        s.token.clone().expect("a token")
    );
    (s, bearer)
}

/// A JSON request with one `Authorization` header: status and reply.
fn call(s: &Server, auth: &str, method: &str, path: &str, body: &Value) -> (u16, Value) {
    let text = if body.is_null() {
        String::new()
    } else {
        body.to_string()
    };
    let (status, _, reply) = s.request_with(method, path, &[auth], &text);
    let v = serde_json::from_str(&reply).unwrap_or(Value::String(reply));
    (status, v)
}

/// The secret in a seat's URL.
fn secret(url: &Value) -> String {
    url.as_str()
        .and_then(|u| u.split("seat=").nth(1))
        .expect("a seat URL")
        .to_string()
}

struct Seated {
    game: String,
    white: String,
    black: String,
    watch: String,
}

/// A game with `body`'s settings and seats for Ann and Ivan.
fn seated(s: &Server, host: &str, body: &Value) -> Seated {
    let (status, g) = call(s, host, "POST", "/api/games", body);
    assert_eq!(status, 201, "{g}");
    let game = id(&g);
    let (status, links) = call(
        s,
        host,
        "POST",
        &format!("/api/games/{game}/seats"),
        &json!({"white": "Ann", "black": "Ivan"}),
    );
    assert_eq!(status, 201, "{links}");
    assert_eq!(links["white"]["name"], "Ann");
    assert_eq!(links["black"]["name"], "Ivan");
    let seat = |k: &str| format!("Authorization: Bearer {}", secret(&links[k]["url"]));
    Seated {
        game,
        white: seat("white"),
        black: seat("black"),
        watch: seat("watch"),
    }
}

fn mv(s: &Server, who: &str, game: &str, m: &str) -> (u16, Value) {
    call(
        s,
        who,
        "POST",
        &format!("/api/games/{game}/move"),
        &json!({ "move": m }),
    )
}

#[test]
fn seats_play_their_own_side_and_the_library_keeps_the_resignation() {
    let (s, host) = shared();
    let other = id(&call(&s, &host, "POST", "/api/games", &json!({})).1);
    let g = seated(
        &s,
        &host,
        &json!({"variant": "tavreli", "clock": 300_000, "inc": 2000}),
    );
    // Each link opens as a browser would: the secret becomes a cookie,
    // and the page loads.
    let (status, links) = call(
        &s,
        &host,
        "GET",
        &format!("/api/games/{}/seats", g.game),
        &Value::Null,
    );
    assert_eq!(status, 200, "{links}");
    for k in ["white", "black", "watch"] {
        let url = links[k]["url"].as_str().unwrap();
        let path = &url[url.find("/?").unwrap()..];
        let (status, head, _) = s.request_with("GET", path, &["Accept: text/html"], "");
        assert_eq!(status, 303, "{head}");
        let cookie = head
            .lines()
            .find_map(|l| {
                l.strip_prefix("set-cookie: ")
                    .or_else(|| l.strip_prefix("Set-Cookie: "))
            })
            .and_then(|c| c.split(';').next())
            .expect("a cookie")
            .to_string();
        assert!(
            !head.contains("seat="),
            "the secret leaves the address: {head}"
        );
        let (status, _, page) = s.request_with(
            "GET",
            &format!("/?game={}", g.game),
            &["Accept: text/html", &format!("Cookie: {cookie}")],
            "",
        );
        assert_eq!(status, 200);
        assert!(page.contains("id=\"board\""));
        let (status, _, st) = s.request_with(
            "GET",
            &format!("/api/games/{}", g.game),
            &[&format!("Cookie: {cookie}")],
            "",
        );
        assert_eq!(status, 200);
        assert!(st.contains(&format!("\"you\":\"{k}\"")), "{k}");
    }
    // Each seat moves only its own side, on its turn.
    let (status, v) = mv(&s, &g.black, &g.game, "e7e5");
    assert_eq!(status, 409, "{v}");
    let (status, v) = mv(&s, &g.white, &g.game, "e2e4");
    assert_eq!(status, 200, "{v}");
    let (status, v) = mv(&s, &g.white, &g.game, "d2d4");
    assert_eq!(status, 409, "{v}");
    // The watcher reads and cannot write.
    let (status, v) = call(
        &s,
        &g.watch,
        "GET",
        &format!("/api/games/{}", g.game),
        &Value::Null,
    );
    assert_eq!(status, 200);
    assert_eq!(v["you"], "watch");
    assert_eq!(v["players"]["white"]["name"], "Ann");
    for action in ["move", "resign", "draw", "takeback"] {
        let (status, v) = call(
            &s,
            &g.watch,
            "POST",
            &format!("/api/games/{}/{action}", g.game),
            &json!({"move": "e7e5"}),
        );
        assert_eq!(status, 403, "{action}: {v}");
    }
    // Neither secret opens the library, another game, the settings, hints
    // or a new game.
    for who in [&g.white, &g.black, &g.watch] {
        for (method, path) in [
            ("GET", "/api/library".to_string()),
            ("GET", "/api/library/pgn".to_string()),
            ("GET", format!("/api/games/{other}")),
            ("POST", format!("/api/games/{other}/move")),
            ("POST", format!("/api/games/{}/settings", g.game)),
            ("POST", format!("/api/games/{}/hint", g.game)),
            ("POST", format!("/api/games/{}/undo", g.game)),
            ("POST", format!("/api/games/{}/seats", g.game)),
            ("POST", "/api/games".to_string()),
        ] {
            let (status, v) = call(&s, who, method, &path, &json!({}));
            assert_eq!(status, 403, "{method} {path}: {v}");
        }
    }
    // A wrong secret gets the page that says how to get in.
    let wrong = "0".repeat(32);
    let (status, _, page) = s.request_with(
        "GET",
        &format!("/?game={}&seat={wrong}", g.game),
        &["Accept: text/html"],
        "",
    );
    assert_eq!(status, 403);
    assert!(page.contains("id=\"refusal\""), "{page}");
    // The host cannot bring the engine into the seats' game while it runs.
    let (status, v) = call(
        &s,
        &host,
        "POST",
        &format!("/api/games/{}/settings", g.game),
        &json!({"analyse": true}),
    );
    assert_eq!(status, 409, "{v}");
    // A review opens to the players only after the end.
    let (status, _) = call(
        &s,
        &g.white,
        "POST",
        &format!("/api/games/{}/review", g.game),
        &json!({}),
    );
    assert_eq!(status, 403);
    let (status, _) = mv(&s, &g.black, &g.game, "e7e5");
    assert_eq!(status, 200);
    // White resigns: 0-1, and the library lists it so, with both names.
    let (status, v) = call(
        &s,
        &g.white,
        "POST",
        &format!("/api/games/{}/resign", g.game),
        &json!({}),
    );
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["status"]["result"], "0-1");
    assert_eq!(v["status"]["reason_key"], "white_resigned");
    let (status, v) = mv(&s, &g.black, &g.game, "d7d5");
    assert_eq!(status, 409, "no move after the end: {v}");
    let (status, lib) = call(&s, &host, "GET", "/api/library", &Value::Null);
    assert_eq!(status, 200);
    let kept = lib["games"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["id"] == json!(g.game))
        .expect("the game in the library")
        .clone();
    assert_eq!(kept["result"], "0-1", "{kept}");
    assert_eq!(kept["white"], "Ann");
    assert_eq!(kept["black"], "Ivan");
    assert_eq!(kept["reason"], "White resigns");
    // The PGN: names, the time control, the clocks, the reason.
    let (status, _, pgn) =
        s.request_with("GET", &format!("/api/games/{}/pgn", g.game), &[&host], "");
    assert_eq!(status, 200);
    for want in [
        "[White \"Ann\"]",
        "[Black \"Ivan\"]",
        "[Result \"0-1\"]",
        "[TimeControl \"300+2\"]",
        "[%clk 0:05:0",
        "{White resigns} 0-1",
    ] {
        assert!(pgn.contains(want), "{want} in {pgn}");
    }
    // The review is open to both now.
    let (status, v) = call(
        &s,
        &g.black,
        "POST",
        &format!("/api/games/{}/review", g.game),
        &json!({}),
    );
    assert_eq!(status, 202, "{v}");
}

#[test]
fn draws_by_agreement_and_takebacks_need_the_other_side() {
    let (s, host) = shared();
    let g = seated(&s, &host, &json!({"variant": "chess"}));
    // One seat's offer or answer: `what` is draw or takeback.
    let step = |who: &str, what: &str, action: &str| {
        call(
            &s,
            who,
            "POST",
            &format!("/api/games/{}/{what}", g.game),
            &json!({ "action": action }),
        )
    };
    assert_eq!(mv(&s, &g.white, &g.game, "e2e4").0, 200);
    // A takeback: asked by White, accepted by Black, White's move is gone.
    let (status, v) = step(&g.white, "takeback", "ask");
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["offers"]["takeback"], "white");
    let (status, _) = step(&g.white, "takeback", "accept");
    assert_eq!(status, 409, "one's own request is not answered by oneself");
    let (status, v) = step(&g.black, "takeback", "accept");
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["history"].as_array().unwrap().len(), 0);
    assert_eq!(v["offers"]["takeback"], Value::Null);
    // A move clears an offer that was not answered.
    assert_eq!(mv(&s, &g.white, &g.game, "d2d4").0, 200);
    let (_, v) = step(&g.black, "draw", "offer");
    assert_eq!(v["offers"]["draw"], "black");
    let (_, v) = step(&g.white, "draw", "decline");
    assert_eq!(v["offers"]["draw"], Value::Null);
    let (status, _) = step(&g.white, "draw", "accept");
    assert_eq!(status, 409, "nothing to accept");
    let (status, v) = step(&g.white, "draw", "maybe");
    assert_eq!(status, 400, "{v}");
    // Offered and accepted: a draw by agreement.
    let (_, v) = step(&g.black, "draw", "offer");
    assert_eq!(v["offers"]["draw"], "black");
    let (status, v) = step(&g.white, "draw", "accept");
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["status"]["result"], "1/2-1/2");
    assert_eq!(v["status"]["reason_key"], "agreed");
}

/// A seated game of `body` (one second each) left alone until White's
/// time is out: the game and its state as the watcher reads it.
fn after_whites_flag(s: &Server, host: &str, body: &Value) -> (Seated, Value) {
    let g = seated(s, host, body);
    // The clock's second, and the server's 0.1 s look at it, are past.
    std::thread::sleep(Duration::from_millis(1600));
    let (status, v) = call(
        s,
        &g.watch,
        "GET",
        &format!("/api/games/{}", g.game),
        &Value::Null,
    );
    assert_eq!(status, 200, "{v}");
    (g, v)
}

#[test]
fn a_flag_loses_on_time_unless_the_other_side_cannot_mate() {
    let (s, host) = shared();
    let lone_king = "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1";
    let (g, v) = after_whites_flag(
        &s,
        &host,
        &json!({"variant": "plunder", "clock": 1000, "inc": 0}),
    );
    assert_eq!(v["status"]["result"], "0-1", "{}", v["status"]);
    assert_eq!(v["status"]["reason_key"], "white_flagged");
    let (status, _) = mv(&s, &g.white, &g.game, "e2e4");
    assert_eq!(status, 409, "no move after the flag");
    // Black has a lone king: White's flag draws.
    let (_, v) = after_whites_flag(
        &s,
        &host,
        &json!({"variant": "chess", "fen": lone_king, "clock": 1000, "inc": 0}),
    );
    assert_eq!(v["status"]["result"], "1/2-1/2", "{}", v["status"]);
    assert_eq!(v["status"]["reason_key"], "flag_draw");
    // The same in Tavreli is a loss: nothing leaves its board.
    let (g, v) = after_whites_flag(
        &s,
        &host,
        &json!({"variant": "tavreli", "fen": lone_king, "clock": 1000, "inc": 0}),
    );
    assert_eq!(v["status"]["result"], "0-1", "{}", v["status"]);
    let (_, _, pgn) = s.request_with("GET", &format!("/api/games/{}/pgn", g.game), &[&host], "");
    assert!(pgn.contains("[Termination \"time forfeit\"]"), "{pgn}");
}

#[test]
fn on_loopback_seats_work_beside_the_host() {
    let s = Server::start_with(&["--db", ":memory:"]);
    let g = s.create(&json!({"variant": "chess"}));
    let game = id(&g);
    let (status, links) = s.json(
        "POST",
        &format!("/api/games/{game}/seats"),
        &json!({"white": "A", "black": "B"}),
    );
    assert_eq!(status, 201, "{links}");
    let white = format!("Authorization: Bearer {}", secret(&links["white"]["url"]));
    let (status, v) = call(&s, &white, "GET", "/api/library", &Value::Null);
    assert_eq!(status, 403, "a seat is a seat on loopback too: {v}");
    assert_eq!(mv(&s, &white, &game, "e2e4").0, 200);
    // A wrong secret is refused, not taken for the host.
    let wrong = format!("Authorization: Bearer {}", "1".repeat(32));
    let (status, _) = call(&s, &wrong, "GET", "/api/library", &Value::Null);
    assert_eq!(status, 403);
    let (status, _) = s.json("GET", "/api/library", &Value::Null);
    assert_eq!(status, 200, "the host needs nothing on loopback");
    // Names are checked; a second set of seats is refused.
    let (status, _) = s.json(
        "POST",
        &format!("/api/games/{game}/seats"),
        &json!({"white": "A", "black": "B"}),
    );
    assert_eq!(status, 409);
    let g2 = id(&s.create(&json!({})));
    let (status, _) = s.json(
        "POST",
        &format!("/api/games/{g2}/seats"),
        &json!({"white": "", "black": "B"}),
    );
    assert_eq!(status, 400);
}
