//! `volkhv serve [--port N] [--host ADDR] [--db PATH] [--open]`: the web board.
//!
//! A small synchronous HTTP server (`tiny_http`) with a few worker threads;
//! each page gets its own game and engine ([`session`]), talks JSON to
//! [`api`] and listens to a Server-Sent Events stream. The page's files are
//! embedded in the binary ([`assets`]), so it works offline. Every game is
//! kept in a SQLite file ([`store`]) as it is played; [`library`] lists,
//! exports, imports and deletes them. Beyond loopback, [`guard`] asks for
//! a token.
//!
//! ```text
//! $ volkhv serve --port 0
//! listening on http://127.0.0.1:40123/
//! ```

mod api;
mod assets;
mod guard;
mod http;
mod library;
mod pgn;
mod review;
mod session;
mod store;

use guard::{Guard, Verdict};
use http::{ApiError, Reply};
use session::Registry;
use std::io::Write;
use std::net::{IpAddr, SocketAddr, ToSocketAddrs};
use std::process::ExitCode;
use std::sync::Arc;
use store::Store;
use tiny_http::{Method, Request, Server};

/// Threads answering requests (streams get threads of their own).
const WORKERS: usize = 4;

const USAGE: &str = "usage: volkhv serve [--port N] [--host ADDR] [--db PATH] [--open]
  --port N     port to listen on (default 8080; 0 picks a free one)
  --host ADDR  address to listen on (default 127.0.0.1, this machine only;
               any other address asks for the token printed on the first line)
  --db PATH    the game library (default $XDG_DATA_HOME/volkhv/games.db or
               ~/.local/share/volkhv/games.db; :memory: keeps nothing)
  --open       open the board in the default browser";

/// Command-line options.
#[derive(Debug, PartialEq, Eq)]
struct Args {
    host: String,
    port: u16,
    open: bool,
    db: Option<String>,
}

fn parse_args(args: &[String]) -> Result<Args, String> {
    let mut a = Args {
        host: "127.0.0.1".into(),
        port: 8080,
        open: false,
        db: None,
    };
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        match arg.as_str() {
            "--port" => {
                let v = it.next().ok_or("--port needs a number")?;
                a.port = v
                    .parse()
                    .map_err(|_| format!("--port: \"{v}\" is not a port number (0-65535)"))?;
            }
            "--host" => a.host = it.next().ok_or("--host needs an address")?.clone(),
            "--db" => a.db = Some(it.next().ok_or("--db needs a file")?.clone()),
            "--open" => a.open = true,
            other => return Err(format!("unknown argument \"{other}\"")),
        }
    }
    Ok(a)
}

/// What every request worker shares.
struct Board {
    registry: Arc<Registry>,
    store: Arc<Store>,
    guard: Guard,
    hosts: Option<Vec<String>>,
}

/// The library named by `--db`, or the default one.
fn open_store(db: Option<&str>) -> Result<Arc<Store>, String> {
    let path = match db {
        Some(p) => p.to_string(),
        None => store::default_path()
            .ok_or("no data folder (HOME and XDG_DATA_HOME are unset): give --db PATH")?
            .to_string_lossy()
            .into_owned(),
    };
    Ok(Arc::new(Store::open(&path)?))
}

/// `volkhv serve ARGS…`: runs until killed. Exit code 2 for bad arguments
/// or a game library that cannot be used, 1 if the address cannot be bound.
pub fn run_cli(args: &[String]) -> ExitCode {
    if args.iter().any(|a| a == "--help" || a == "-h") {
        println!("{USAGE}");
        return ExitCode::SUCCESS;
    }
    let args = match parse_args(args) {
        Ok(a) => a,
        Err(e) => {
            eprintln!("volkhv serve: {e}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    let addr = match (args.host.as_str(), args.port)
        .to_socket_addrs()
        .ok()
        .and_then(|mut a| a.next())
    {
        Some(a) => a,
        None => {
            eprintln!("volkhv serve: cannot resolve host \"{}\"", args.host);
            return ExitCode::from(2);
        }
    };
    let store = match open_store(args.db.as_deref()) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("volkhv serve: {e}");
            return ExitCode::from(2);
        }
    };
    let server = match Server::http(addr) {
        Ok(s) => Arc::new(s),
        Err(e) => {
            eprintln!("volkhv serve: cannot listen on {addr}: {e}");
            return ExitCode::FAILURE;
        }
    };
    let bound = server.server_addr().to_ip().unwrap_or(addr);
    let guard = if bound.ip().is_loopback() {
        Guard::open(bound.port())
    } else {
        match Guard::with_token(bound.port()) {
            Ok(g) => g,
            Err(e) => {
                eprintln!("volkhv serve: cannot make a secret token: {e}");
                return ExitCode::FAILURE;
            }
        }
    };
    let url = match guard.token() {
        Some(t) => format!("http://{}/?token={t}", display_addr(bound)),
        None => format!("http://{}/", display_addr(bound)),
    };
    println!("listening on {url}");
    let _ = std::io::stdout().flush();
    if !bound.ip().is_loopback() {
        eprintln!(
            "volkhv serve: listening on {}: the board answers only requests with the token of the first line",
            bound.ip()
        );
    }
    let registry = match Registry::start(Arc::new(api::JsonView), Arc::clone(&store) as _) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("volkhv serve: cannot start: {e}");
            return ExitCode::FAILURE;
        }
    };
    if args.open {
        open_browser(&url);
    }
    let board = Arc::new(Board {
        registry,
        store,
        guard,
        hosts: allowed_hosts(bound),
    });
    let workers: Vec<_> = (0..WORKERS)
        .filter_map(|i| {
            let (server, board) = (Arc::clone(&server), Arc::clone(&board));
            std::thread::Builder::new()
                .name(format!("http-{i}"))
                .spawn(move || worker(&server, &board))
                .ok()
        })
        .collect();
    if workers.is_empty() {
        eprintln!("volkhv serve: cannot start a worker thread");
        return ExitCode::FAILURE;
    }
    for w in workers {
        let _ = w.join();
    }
    ExitCode::SUCCESS
}

fn display_addr(a: SocketAddr) -> String {
    match a.ip() {
        IpAddr::V6(ip) => format!("[{ip}]:{}", a.port()),
        IpAddr::V4(ip) => format!("{ip}:{}", a.port()),
    }
}

fn open_browser(url: &str) {
    let opener = if cfg!(target_os = "macos") {
        "open"
    } else if cfg!(windows) {
        "explorer"
    } else {
        "xdg-open"
    };
    if let Err(e) = std::process::Command::new(opener).arg(url).spawn() {
        // Not the address itself: it may hold the token, which goes to stdout only.
        eprintln!(
            "volkhv serve: cannot run {opener} ({e}); open the address of the first line yourself"
        );
    }
}

/// The `Host` headers a loopback server answers: a web page elsewhere that
/// points its own name at 127.0.0.1 (DNS rebinding) must not reach the
/// API. `None` (any host) when listening beyond loopback.
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

fn host_allowed(request: &Request, allowed: Option<&[String]>) -> bool {
    let Some(allowed) = allowed else { return true };
    request
        .headers()
        .iter()
        .find(|h| h.field.equiv("Host"))
        .is_some_and(|h| {
            allowed
                .iter()
                .any(|a| a.eq_ignore_ascii_case(h.value.as_str()))
        })
}

fn worker(server: &Server, board: &Arc<Board>) {
    loop {
        let Ok(request) = server.recv() else { return };
        // A bug must cost one reply, not the server: the request is lost
        // with the panic, the worker goes on.
        if !host_allowed(&request, board.hosts.as_deref()) {
            Reply::error(&ApiError {
                status: 403,
                message: "this board answers only to 127.0.0.1, localhost and [::1]".into(),
            })
            .send(request);
            continue;
        }
        let board = Arc::clone(board);
        if std::panic::catch_unwind(std::panic::AssertUnwindSafe(move || route(&board, request)))
            .is_err()
        {
            eprintln!("volkhv serve: internal error while answering a request");
        }
    }
}

fn route(board: &Board, mut request: Request) {
    let target = match http::target(request.url()) {
        Ok(t) => t,
        Err(e) => return Reply::error(&e).send(request),
    };
    match board.guard.check(&request, &target) {
        Verdict::Pass => {}
        Verdict::Refuse(e) => return Reply::error(&e).send(request),
        Verdict::Remember { location } => return board.guard.remember(request, &location),
    }
    let registry = &board.registry;
    let path: Vec<&str> = target.path.iter().map(String::as_str).collect();
    match (request.method(), path.as_slice()) {
        (Method::Get, ["api", "games", id, "events"]) => {
            let id = (*id).to_string();
            stream(registry, request, &id);
        }
        (_, ["api", "library", ..] | ["api", "legal"]) => {
            match library::handle(&board.store, registry, &mut request, &target) {
                Ok(reply) => reply.send(request),
                Err(e) => Reply::error(&e).send(request),
            }
        }
        (_, ["api", ..]) => match api::handle(registry, &mut request, &target) {
            Ok(reply) => reply.send(request),
            Err(e) => Reply::error(&e).send(request),
        },
        (Method::Get | Method::Head, _) => match assets::find(&path) {
            Some((ctype, bytes)) => Reply::bytes(ctype, bytes.to_vec()).send(request),
            None => Reply::error(&ApiError::not_found(format!(
                "no page /{}",
                target.path.join("/")
            )))
            .send(request),
        },
        _ => Reply::error(&ApiError {
            status: 405,
            message: "only GET here".into(),
        })
        .send(request),
    }
}

/// Opens a Server-Sent Events stream and hands it to a thread of its own.
fn stream(registry: &Arc<Registry>, request: Request, id: &str) {
    let opened = registry
        .get(id)
        .and_then(|slot| registry.subscribe(&slot).map(|(s, rx)| (slot, s, rx)));
    let (slot, stream_id, rx) = match opened {
        Ok(x) => x,
        Err(e) => return Reply::error(&e.into()).send(request),
    };
    let reg = Arc::clone(registry);
    let spawned = std::thread::Builder::new()
        .name("sse".into())
        .spawn(move || {
            let mut out = request.into_writer();
            let head = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-store\r\nConnection: close\r\n\r\nretry: 1000\n\n";
            if out.write_all(head.as_bytes()).and_then(|()| out.flush()).is_ok() {
                reg.pump(&slot, stream_id, &rx, &mut out);
            } else {
                reg.unsubscribe(&slot, stream_id);
            }
        });
    if spawned.is_err() {
        // The stream's receiver went with the closure: the next broadcast
        // drops it; the page sees the stream fail and retries.
        eprintln!("volkhv serve: cannot start a stream thread");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(list: &[&str]) -> Result<Args, String> {
        parse_args(&list.iter().map(ToString::to_string).collect::<Vec<_>>())
    }

    #[test]
    fn arguments() {
        assert_eq!(
            args(&[]).unwrap(),
            Args {
                host: "127.0.0.1".into(),
                port: 8080,
                open: false,
                db: None
            }
        );
        let a = args(&["--port", "0", "--host", "::1", "--open", "--db", ":memory:"]).unwrap();
        assert_eq!((a.port, a.host.as_str(), a.open), (0, "::1", true));
        assert_eq!(a.db.as_deref(), Some(":memory:"));
        assert!(args(&["--db"]).is_err());
        assert!(args(&["--port", "65536"]).unwrap_err().contains("65536"));
        assert!(args(&["--port"]).is_err());
        assert!(args(&["--host"]).is_err());
        assert!(args(&["--verbose"]).unwrap_err().contains("--verbose"));
    }
}
