//! `volkhv serve [--port N] [--host ADDR] [--db PATH] [--open]`: the web board.
//!
//! An HTTP server ([`net`]: hyper on tokio) in front of the games: each page
//! gets its own game and engine ([`session`]), talks JSON to [`api`] and
//! listens to a Server-Sent Events stream. Hints and reviews run on the
//! engine pool ([`pool`]). The page's files are embedded in the binary
//! ([`assets`]), so it works offline. Every game is kept in a SQLite file
//! ([`store`]) as it is played; [`library`] lists, exports and deletes them
//! and [`import`] reads PGN files in. [`guard`] keeps other sites' pages
//! out, and beyond loopback asks for a token; [`seats`] gives two people a
//! game of their own, each with a link, and watchers one more.
//!
//! ```text
//! $ volkhv serve --port 0
//! listening on http://127.0.0.1:40123/
//! ```

mod api;
mod assets;
mod guard;
mod http;
mod import;
mod library;
mod net;
mod pgn;
mod pool;
mod review;
mod seats;
mod session;
mod store;
mod wording;

use guard::Guard;
use pool::Pool;
use session::Registry;
use std::io::Write;
use std::net::{IpAddr, SocketAddr, ToSocketAddrs};
use std::process::ExitCode;
use std::sync::Arc;
use store::Store;

/// Threads of the async runtime that answer requests (blocking work goes
/// to tokio's blocking threads, engine work to the engine pool).
const RUNTIME_THREADS: usize = 2;

const USAGE: &str = "usage: volkhv serve [--port N] [--host ADDR] [--token] [--db PATH] [--open]
  --port N     port to listen on (default 8080; 0 picks a free one)
  --host ADDR  address to listen on (default 127.0.0.1, this machine only;
               any other address asks for the token printed on the first line)
  --token      ask for the token on loopback too (behind a reverse proxy)
  --db PATH    the game library (default $XDG_DATA_HOME/volkhv/games.db or
               ~/.local/share/volkhv/games.db; :memory: keeps nothing)
  --open       open the board in the default browser
Stop it with Ctrl-C or SIGTERM: searches end, every game is saved, exit 0.";

/// Command-line options.
#[derive(Debug, PartialEq, Eq)]
struct Args {
    host: String,
    port: u16,
    open: bool,
    token: bool,
    db: Option<String>,
}

fn parse_args(args: &[String]) -> Result<Args, String> {
    let mut a = Args {
        host: "127.0.0.1".into(),
        port: 8080,
        open: false,
        token: false,
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
            "--token" => a.token = true,
            other => return Err(format!("unknown argument \"{other}\"")),
        }
    }
    Ok(a)
}

/// What every request shares.
pub struct Board {
    registry: Arc<Registry>,
    store: Arc<Store>,
    guard: Guard,
    seats: seats::Seats,
    pool: Pool,
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

/// `volkhv serve ARGS…`: runs until Ctrl-C or SIGTERM (exit 0). Exit code
/// 2 for bad arguments or a game library that cannot be used (or is in use
/// by another `volkhv serve`), 1 if the address cannot be bound.
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
    let Some(addr) = (args.host.as_str(), args.port)
        .to_socket_addrs()
        .ok()
        .and_then(|mut a| a.next())
    else {
        eprintln!("volkhv serve: cannot resolve host \"{}\"", args.host);
        return ExitCode::from(2);
    };
    let store = match open_store(args.db.as_deref()) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("volkhv serve: {e}");
            return ExitCode::from(2);
        }
    };
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .worker_threads(RUNTIME_THREADS)
        .thread_name("http")
        .enable_all()
        .build()
    {
        Ok(r) => r,
        Err(e) => {
            eprintln!("volkhv serve: cannot start: {e}");
            return ExitCode::FAILURE;
        }
    };
    let code = runtime.block_on(run(addr, store, args.open, args.token));
    // Searches and streams are over; a request stuck past the drain is not
    // waited for.
    runtime.shutdown_timeout(std::time::Duration::from_secs(1));
    code
}

/// Binds, prints the first line and serves until told to stop.
async fn run(addr: SocketAddr, store: Arc<Store>, open: bool, token: bool) -> ExitCode {
    let listener = match tokio::net::TcpListener::bind(addr).await {
        Ok(l) => l,
        Err(e) => {
            eprintln!("volkhv serve: cannot listen on {addr}: {e}");
            return ExitCode::FAILURE;
        }
    };
    let bound = listener.local_addr().unwrap_or(addr);
    let guard = if bound.ip().is_loopback() && !token {
        Guard::open(bound)
    } else {
        match Guard::with_token(bound) {
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
    let seats = match seats::Seats::load(&store) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("volkhv serve: cannot read the seats of the game library: {e}");
            return ExitCode::from(2);
        }
    };
    let started = Registry::start(Arc::new(api::JsonView), Arc::clone(&store) as _)
        .and_then(|r| Ok((r, Pool::for_this_machine()?)));
    let (registry, pool) = match started {
        Ok(x) => x,
        Err(e) => {
            eprintln!("volkhv serve: cannot start: {e}");
            return ExitCode::FAILURE;
        }
    };
    println!("listening on {url}");
    let _ = std::io::stdout().flush();
    if !bound.ip().is_loopback() {
        eprintln!(
            "volkhv serve: listening on {}: the board answers only requests with the token of the first line",
            bound.ip()
        );
    }
    if open {
        open_browser(&url);
    }
    let board = Arc::new(Board {
        registry,
        store,
        guard,
        seats,
        pool,
    });
    net::serve(listener, board, stop_signal()).await;
    eprintln!("volkhv serve: stopped; every game is saved");
    ExitCode::SUCCESS
}

/// Completes on Ctrl-C (SIGINT) or, on Unix, SIGTERM.
async fn stop_signal() {
    let interrupt = async {
        if tokio::signal::ctrl_c().await.is_err() {
            std::future::pending::<()>().await;
        }
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        () = interrupt => {}
        () = terminate => {}
    }
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
                token: false,
                db: None
            }
        );
        assert!(args(&["--token"]).unwrap().token);
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
