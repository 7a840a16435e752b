//! `volkhv serve [--port N] [--host ADDR] [--open]`: the web board.
//!
//! A small synchronous HTTP server (`tiny_http`) with a few worker threads;
//! each page gets its own game and engine ([`session`]), talks JSON to
//! [`api`] and listens to a Server-Sent Events stream. The page's files are
//! embedded in the binary ([`assets`]), so it works offline.
//!
//! ```text
//! $ volkhv serve --port 0
//! listening on http://127.0.0.1:40123/
//! ```

mod api;
mod assets;
mod http;
mod pgn;
mod session;

use http::{ApiError, Reply};
use session::Registry;
use std::io::Write;
use std::net::{IpAddr, SocketAddr, ToSocketAddrs};
use std::process::ExitCode;
use std::sync::Arc;
use tiny_http::{Method, Request, Server};

/// Threads answering requests (streams get threads of their own).
const WORKERS: usize = 4;

const USAGE: &str = "usage: volkhv serve [--port N] [--host ADDR] [--open]
  --port N     port to listen on (default 8080; 0 picks a free one)
  --host ADDR  address to listen on (default 127.0.0.1, this machine only)
  --open       open the board in the default browser";

/// Command-line options.
#[derive(Debug, PartialEq, Eq)]
struct Args {
    host: String,
    port: u16,
    open: bool,
}

fn parse_args(args: &[String]) -> Result<Args, String> {
    let mut a = Args {
        host: "127.0.0.1".into(),
        port: 8080,
        open: false,
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
            "--open" => a.open = true,
            other => return Err(format!("unknown argument \"{other}\"")),
        }
    }
    Ok(a)
}

/// `volkhv serve ARGS…`: runs until killed. Exit code 2 for bad arguments,
/// 1 if the address cannot be bound.
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
    let server = match Server::http(addr) {
        Ok(s) => Arc::new(s),
        Err(e) => {
            eprintln!("volkhv serve: cannot listen on {addr}: {e}");
            return ExitCode::FAILURE;
        }
    };
    let bound = server.server_addr().to_ip().unwrap_or(addr);
    let url = format!("http://{}/", display_addr(bound));
    println!("listening on {url}");
    let _ = std::io::stdout().flush();
    if !bound.ip().is_loopback() {
        eprintln!(
            "volkhv serve: warning: listening on {} — anyone who can reach this address can use the board and the engine",
            bound.ip()
        );
    }
    let registry = match Registry::start(Arc::new(api::JsonView)) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("volkhv serve: cannot start: {e}");
            return ExitCode::FAILURE;
        }
    };
    if args.open {
        open_browser(&url);
    }
    let hosts = Arc::new(allowed_hosts(bound));
    let workers: Vec<_> = (0..WORKERS)
        .filter_map(|i| {
            let (server, registry, hosts) = (
                Arc::clone(&server),
                Arc::clone(&registry),
                Arc::clone(&hosts),
            );
            std::thread::Builder::new()
                .name(format!("http-{i}"))
                .spawn(move || worker(&server, &registry, hosts.as_deref()))
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
        eprintln!("volkhv serve: cannot run {opener} ({e}); open {url} yourself");
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

fn worker(server: &Server, registry: &Arc<Registry>, hosts: Option<&[String]>) {
    loop {
        let Ok(request) = server.recv() else { return };
        // A bug must cost one reply, not the server: the request is lost
        // with the panic, the worker goes on.
        if !host_allowed(&request, hosts) {
            Reply::error(&ApiError {
                status: 403,
                message: "this board answers only to 127.0.0.1, localhost and [::1]".into(),
            })
            .send(request);
            continue;
        }
        let reg = Arc::clone(registry);
        if std::panic::catch_unwind(std::panic::AssertUnwindSafe(move || route(&reg, request)))
            .is_err()
        {
            eprintln!("volkhv serve: internal error while answering a request");
        }
    }
}

fn route(registry: &Arc<Registry>, mut request: Request) {
    let target = match http::target(request.url()) {
        Ok(t) => t,
        Err(e) => return Reply::error(&e).send(request),
    };
    let path: Vec<&str> = target.path.iter().map(String::as_str).collect();
    match (request.method(), path.as_slice()) {
        (Method::Get, ["api", "games", id, "events"]) => {
            let id = (*id).to_string();
            stream(registry, request, &id);
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
                open: false
            }
        );
        let a = args(&["--port", "0", "--host", "::1", "--open"]).unwrap();
        assert_eq!((a.port, a.host.as_str(), a.open), (0, "::1", true));
        assert!(args(&["--port", "65536"]).unwrap_err().contains("65536"));
        assert!(args(&["--port"]).is_err());
        assert!(args(&["--host"]).is_err());
        assert!(args(&["--verbose"]).unwrap_err().contains("--verbose"));
    }
}
