//! Seats: a game between two people, each with a link of their own, and a
//! link for watchers. A link carries a secret (`seat=`, 128 random bits),
//! which the browser trades for a cookie as with the host's token; scripts
//! send `Authorization: Bearer SECRET`. A seat reads its own game and its
//! stream, moves its own side on its turn, resigns, offers and answers a
//! draw or a takeback, and reviews the game once it is over; the watch
//! secret reads and streams only. Neither opens anything else.
//!
//! ```text
//! POST /api/games/ID/seats {"white": "Ann", "black": "Ivan"}   (host)
//!   → 201 {white: {url, name}, black: {url, name}, watch: {url}}
//! GET /?game=ID&seat=S  → 303 to /?game=ID, Set-Cookie: volkhv_seat_PORT=S
//! ```

use super::guard::{same, secret};
use super::http::{ApiError, Words};
use super::session::lock;
use super::store::{SeatRow, Store};
use hyper::Method;
use movegen::Color;
use std::sync::Mutex;

/// What a seat secret lets its holder be.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// A player of this side.
    Player(Color),
    /// A watcher: reads only.
    Watch,
}

impl Role {
    /// `white`, `black`, `watch`.
    pub const fn name(self) -> &'static str {
        match self {
            Role::Player(Color::White) => "white",
            Role::Player(Color::Black) => "black",
            Role::Watch => "watch",
        }
    }

    fn parse(s: &str) -> Option<Role> {
        match s {
            "white" => Some(Role::Player(Color::White)),
            "black" => Some(Role::Player(Color::Black)),
            "watch" => Some(Role::Watch),
            _ => None,
        }
    }
}

/// Who sent a request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Who {
    /// The board's host: everything (the token, or loopback).
    Host,
    /// A seat or a watcher of one game.
    Seat {
        /// The game it opens.
        game: u64,
        /// What it may do there.
        role: Role,
    },
}

impl Who {
    /// The side this request plays, if it is a player's.
    pub const fn side(self) -> Option<Color> {
        match self {
            Who::Seat {
                role: Role::Player(c),
                ..
            } => Some(c),
            _ => None,
        }
    }
}

/// The longest name a seat may have.
pub const MAX_NAME: usize = 40;

/// Every seat the board knows, loaded from the library at start.
pub struct Seats {
    list: Mutex<Vec<SeatRow>>,
}

/// The links of a game's seats.
pub struct Links {
    /// White's, Black's and the watchers' secrets.
    pub white: String,
    /// See `white`.
    pub black: String,
    /// See `white`.
    pub watch: String,
}

impl Seats {
    /// The seats kept in `store`.
    ///
    /// # Errors
    /// The library's reason.
    pub fn load(store: &Store) -> Result<Seats, String> {
        Ok(Seats {
            list: Mutex::new(store.seats()?),
        })
    }

    /// No seats (a guard's tests).
    #[cfg(test)]
    pub fn none() -> Seats {
        Seats {
            list: Mutex::new(Vec::new()),
        }
    }

    /// The game and role of `given`, compared with every secret in
    /// constant time (the time taken tells nothing of a guess).
    pub fn find(&self, given: &str) -> Option<(u64, Role)> {
        let list = lock(&self.list);
        let mut found = None;
        for seat in list.iter() {
            if same(given, &seat.secret) && found.is_none() {
                found = Role::parse(&seat.role).map(|r| (seat.game, r));
            }
        }
        found
    }

    /// The secrets of game `game`'s seats, for its host.
    pub fn links(&self, game: u64) -> Option<Links> {
        let list = lock(&self.list);
        let of = |role: &str| {
            list.iter()
                .find(|s| s.game == game && s.role == role)
                .map(|s| s.secret.clone())
        };
        Some(Links {
            white: of("white")?,
            black: of("black")?,
            watch: of("watch")?,
        })
    }

    /// New seats for game `game`, kept in the library first.
    ///
    /// # Errors
    /// 409 if the game has seats already; 500 without random numbers; 507
    /// if the library cannot keep them.
    pub fn create(&self, store: &Store, game: u64, names: &[String; 2]) -> Result<Links, ApiError> {
        let mut list = lock(&self.list);
        if list.iter().any(|s| s.game == game) {
            return Err(ApiError::new(
                409,
                format!("game {game} has its seats already"),
            ));
        }
        let fresh = || secret().map_err(|e| ApiError::new(500, e));
        let links = Links {
            white: fresh()?,
            black: fresh()?,
            watch: fresh()?,
        };
        let rows = [
            (&links.white, "white", names[0].as_str()),
            (&links.black, "black", names[1].as_str()),
            (&links.watch, "watch", ""),
        ]
        .map(|(secret, role, name)| SeatRow {
            secret: secret.clone(),
            game,
            role: role.into(),
            name: name.into(),
        });
        store
            .add_seats(&rows)
            .map_err(|e| ApiError::new(507, format!("the seats cannot be kept: {e}")))?;
        list.extend(rows);
        Ok(links)
    }

    /// Forgets the seats of a deleted game.
    pub fn forget(&self, game: u64) {
        lock(&self.list).retain(|s| s.game != game);
    }
}

/// A player's name: trimmed, 1 to [`MAX_NAME`] characters, no control
/// characters.
///
/// # Errors
/// 400 naming the fault.
pub fn name(side: &str, given: Option<&str>) -> Result<String, ApiError> {
    let n = given.unwrap_or_default().trim();
    if n.is_empty() || n.chars().count() > MAX_NAME || n.chars().any(char::is_control) {
        return Err(ApiError::bad(format!(
            "\"{side}\" must be a name of 1 to {MAX_NAME} characters"
        ))
        .worded(Words::new(
            "error.seat_name",
            vec![("most", MAX_NAME.to_string())],
        )));
    }
    Ok(n.to_string())
}

/// What a seat or watcher may ask for: its own game's state, position,
/// stream, PGN and review; a player also its moves, resignation, draw and
/// takeback (and a review once the game is over, checked by the route);
/// the page's files and languages. Everything else is the host's.
///
/// # Errors
/// 403 with the reason.
pub fn permit(who: Who, method: &Method, path: &[&str]) -> Result<(), ApiError> {
    let Who::Seat { game, role } = who else {
        return Ok(());
    };
    let own = |id: &str| id.parse::<u64>().ok() == Some(game);
    let reading = *method == Method::GET || *method == Method::HEAD;
    let allowed = match path {
        ["api", ..] if !reading && role == Role::Watch => false,
        ["api", "languages"] => reading,
        ["api", "games", id] => reading && own(id),
        ["api", "games", id, "position" | "events" | "pgn"] => reading && own(id),
        ["api", "games", id, "review"] => own(id),
        ["api", "games", id, "move" | "resign" | "draw" | "takeback"] => !reading && own(id),
        ["api", ..] => false,
        _ => reading,
    };
    if allowed {
        Ok(())
    } else if role == Role::Watch && !reading {
        Err(ApiError::new(
            403,
            "a watcher's link only watches: it cannot play or change anything",
        )
        .keyed("error.watcher"))
    } else {
        Err(ApiError::new(
            403,
            format!("this link opens game {game} only, and not this part of it"),
        )
        .worded(Words::new(
            "error.seat_only",
            vec![("game", game.to_string())],
        )))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const WHITE: Who = Who::Seat {
        game: 7,
        role: Role::Player(Color::White),
    };
    const WATCH: Who = Who::Seat {
        game: 7,
        role: Role::Watch,
    };

    #[test]
    fn a_seat_opens_its_own_game_only() {
        let get = Method::GET;
        let post = Method::POST;
        assert!(permit(WHITE, &get, &["api", "games", "7"]).is_ok());
        assert!(permit(WHITE, &get, &["api", "games", "7", "events"]).is_ok());
        assert!(permit(WHITE, &post, &["api", "games", "7", "move"]).is_ok());
        assert!(permit(WHITE, &post, &["api", "games", "7", "resign"]).is_ok());
        assert!(permit(WHITE, &get, &["main.js"]).is_ok());
        for (m, path) in [
            (&get, &["api", "games", "8"][..]),
            (&post, &["api", "games", "8", "move"][..]),
            (&get, &["api", "library"][..]),
            (&post, &["api", "games"][..]),
            (&post, &["api", "games", "7", "settings"][..]),
            (&post, &["api", "games", "7", "hint"][..]),
            (&post, &["api", "games", "7", "undo"][..]),
            (&post, &["api", "games", "7", "seats"][..]),
            (&get, &["api", "legal"][..]),
            (&post, &["index.html"][..]),
        ] {
            assert_eq!(permit(WHITE, m, path).unwrap_err().status, 403, "{path:?}");
        }
    }

    #[test]
    fn a_watcher_reads_only() {
        assert!(permit(WATCH, &Method::GET, &["api", "games", "7"]).is_ok());
        assert!(permit(WATCH, &Method::GET, &["api", "games", "7", "events"]).is_ok());
        for action in ["move", "resign", "draw", "takeback", "review"] {
            let e = permit(WATCH, &Method::POST, &["api", "games", "7", action]).unwrap_err();
            assert_eq!(e.status, 403);
        }
        assert!(permit(Who::Host, &Method::POST, &["api", "library", "import"]).is_ok());
    }

    #[test]
    fn names_are_checked() {
        assert_eq!(name("white", Some("  Ann ")).unwrap(), "Ann");
        assert!(name("white", Some("")).is_err());
        assert!(name("white", None).is_err());
        assert!(name("black", Some(&"x".repeat(41))).is_err());
        assert!(name("black", Some("a\u{7}b")).is_err());
        assert_eq!(name("black", Some("Иван")).unwrap(), "Иван");
    }
}
