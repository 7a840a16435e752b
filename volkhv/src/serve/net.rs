//! The board's HTTP server: hyper's HTTP/1.1 on tokio. A connection costs a
//! small task, not a thread, so idle, slow and streaming connections hold
//! nothing that other requests need; every handler that may block (the
//! library's file, a game's engine) runs on tokio's blocking threads, and
//! engine work asked for by a request (hints, reviews) on the engine pool.
//!
//! ```text
//! accept (≤ MAX_CONNECTIONS open) ──▶ connection task: headers within HEADER_TIMEOUT, ≤ MAX_HEAD_BYTES
//!   ──▶ respond(): guard ─▶ static file | SSE body | import (streamed) | route() on a blocking thread
//! SIGTERM / Ctrl-C ──▶ stop accepting, end searches and streams, save every game, finish
//!                      the requests in flight (≤ DRAIN), exit 0
//! ```

use super::guard::{Guard, Verdict};
use super::http::{self, Answer, ApiError, Body, Head, Reply, Req, MAX_BODY};
use super::seats::{self, Who};
use super::session::{Registry, Slot, StreamEvents};
use super::{assets, import, Board};
use bytes::Bytes;
use http_body_util::BodyExt;
use hyper::body::{Frame, Incoming};
use hyper::server::conn::http1;
use hyper::{Method, Request, Response};
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use std::convert::Infallible;
use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::Duration;
use tokio::net::TcpListener;
use tokio::sync::Semaphore;

/// Connections open at once; more wait in the listen queue until one
/// closes (idle ones close after [`HEADER_TIMEOUT`]).
pub const MAX_CONNECTIONS: usize = 256;
/// A request's head must arrive within this, and a kept-alive connection
/// that sends no next request is closed after it.
pub const HEADER_TIMEOUT: Duration = Duration::from_secs(10);
/// The most bytes a request head (request line and headers) may take.
pub const MAX_HEAD_BYTES: usize = 16 * 1024;
/// The longest wait for the next piece of a request body.
pub const BODY_TIMEOUT: Duration = Duration::from_secs(20);
/// How often an idle event stream writes a comment line, so that a closed
/// page is noticed (the write fails) and its searches stop.
pub const HEARTBEAT: Duration = Duration::from_millis(500);
/// How long a shutdown waits for the requests in flight.
pub const DRAIN: Duration = Duration::from_secs(5);

/// Serves `listener` until `stop` completes, then shuts down as the module
/// says.
pub async fn serve(listener: TcpListener, board: Arc<Board>, stop: impl Future<Output = ()>) {
    let graceful = GracefulShutdown::new();
    let open = Arc::new(Semaphore::new(MAX_CONNECTIONS));
    tokio::pin!(stop);
    loop {
        let permit = tokio::select! {
            p = Arc::clone(&open).acquire_owned() => match p { Ok(p) => p, Err(_) => break },
            () = &mut stop => break,
        };
        let stream = tokio::select! {
            r = listener.accept() => match r {
                Ok((s, _)) => s,
                Err(e) => {
                    // Out of file descriptors, a connection reset before it
                    // was taken: the loop goes on; a pause lets the first pass.
                    eprintln!("volkhv serve: accept: {e}");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            () = &mut stop => break,
        };
        let _ = stream.set_nodelay(true);
        let board = Arc::clone(&board);
        let service = hyper::service::service_fn(move |req| {
            let board = Arc::clone(&board);
            async move { Ok::<_, Infallible>(respond(board, req).await) }
        });
        let conn = http1::Builder::new()
            .timer(TokioTimer::new())
            .header_read_timeout(HEADER_TIMEOUT)
            .max_buf_size(MAX_HEAD_BYTES)
            .serve_connection(TokioIo::new(stream), service);
        let conn = graceful.watch(conn);
        tokio::spawn(async move {
            let _ = conn.await;
            drop(permit);
        });
    }
    drop(listener);
    // The streams end first: a graceful shutdown waits for every response,
    // and a stream's never ends by itself.
    let failed = {
        let board = Arc::clone(&board);
        tokio::task::spawn_blocking(move || {
            board.pool.close();
            board.registry.close_all()
        })
        .await
        .unwrap_or_default()
    };
    for f in failed {
        eprintln!("volkhv serve: not saved at shutdown: {f}");
    }
    if tokio::time::timeout(DRAIN, graceful.shutdown())
        .await
        .is_err()
    {
        eprintln!("volkhv serve: requests still open after {DRAIN:?} were cut off");
    }
}

/// Answers one request.
async fn respond(board: Arc<Board>, req: Request<Incoming>) -> Response<Body> {
    let (parts, body) = req.into_parts();
    let raw = parts
        .uri
        .path_and_query()
        .map_or_else(|| "/".to_string(), |p| p.as_str().to_string());
    let target = match http::target(&raw) {
        Ok(t) => t,
        Err(e) => return Reply::error(&e).into_response(),
    };
    let head = Head {
        method: parts.method,
        target,
        raw,
        headers: parts.headers,
    };
    let who = match board.guard.check(&head, &board.seats) {
        Verdict::Pass(who) => who,
        Verdict::Refuse(e) if is_page(&head) => {
            let lang = assets::language_for(head.header("accept-language"));
            return refusal_page(&e, lang).into_response();
        }
        Verdict::Refuse(e) => return Reply::error(&e).into_response(),
        Verdict::Remember { location, cookie } => {
            return Guard::remember(&location, &cookie).into_response()
        }
    };
    let path = head.target.segments();
    if let Err(e) = seats::permit(who, &head.method, &path) {
        return Reply::error(&e).into_response();
    }
    match (&head.method, path.as_slice()) {
        (&Method::GET, ["api", "games", id, "events"]) => {
            let id = (*id).to_string();
            events(board, id, who.side()).await
        }
        (&Method::POST, ["api", "library", "import"]) => import(board, head, body).await,
        (_, ["api", ..]) => api(board, head, body, who).await,
        (&Method::GET | &Method::HEAD, _) => match assets::find(&path) {
            Some((ctype, bytes)) => Reply::bytes(ctype, bytes.to_vec()).into_response(),
            None => Reply::error(&ApiError::not_found(format!(
                "no page /{}",
                head.target.path.join("/")
            )))
            .into_response(),
        },
        _ => Reply::error(&ApiError::new(405, "only GET here")).into_response(),
    }
}

/// A browser's page load (not the API, not a script's request).
fn is_page(head: &Head) -> bool {
    head.method == Method::GET
        && head.target.path.first().is_none_or(|p| p != "api")
        && head
            .header("accept")
            .is_some_and(|a| a.contains("text/html"))
}

/// A refusal a person reads in the browser: what happened and how to get
/// in, as a page rather than JSON, in the browser's language.
fn refusal_page(e: &ApiError, lang: &str) -> Reply {
    let escape = |s: &str| {
        s.replace('&', "&amp;")
            .replace('<', "&lt;")
            .replace('>', "&gt;")
    };
    let words = |key: &str| escape(&assets::words(lang, key));
    let text = e
        .words
        .as_ref()
        .map_or_else(|| escape(&e.message), |w| words(w.key));
    let page = format!(
        "<!doctype html>\n<html lang=\"{lang}\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <title>{title}</title><link rel=\"icon\" href=\"data:,\"></head>\
         <body style=\"font:16px/1.5 system-ui,sans-serif;max-width:36em;margin:2em auto;padding:0 1em\">\
         <h1>{brand}</h1><p id=\"refusal\">{text}</p><p>{how}</p></body></html>\n",
        title = words("refusal.title"),
        brand = words("brand"),
        how = words("refusal.how"),
    );
    Reply::html(e.status, page)
}

/// An API request: its body read whole (bounded), then answered on a
/// blocking thread; an answer from the engine pool is awaited here.
async fn api(board: Arc<Board>, head: Head, body: Incoming, who: Who) -> Response<Body> {
    let body = match read_body(&head, body, MAX_BODY).await {
        Ok(b) => b,
        Err(e) => return Reply::error(&e).into_response(),
    };
    let req = Req { head, body, who };
    let answer = tokio::task::spawn_blocking(move || {
        let path = req.head.target.segments();
        if matches!(path.as_slice(), ["api", "library", ..] | ["api", "legal"]) {
            super::library::handle(&board.store, &board.registry, &board.seats, &req)
                .map(Answer::from)
        } else if matches!(path.as_slice(), ["api", "games", _, "seats"]) {
            super::api::seats(&board.registry, &board.store, &board.seats, &req).map(Answer::Now)
        } else {
            super::api::handle(&board.registry, &board.pool, &req)
        }
    })
    .await;
    let reply = match answer {
        Ok(Ok(Answer::Now(r))) => r,
        Ok(Ok(Answer::Later(rx))) => rx
            .await
            .unwrap_or_else(|_| Reply::error(&ApiError::new(503, "the server is stopping"))),
        Ok(Err(e)) => Reply::error(&e),
        // A bug costs one reply, not the server.
        Err(_) => {
            eprintln!("volkhv serve: internal error while answering a request");
            Reply::error(&ApiError::new(500, "internal error"))
        }
    };
    reply.into_response()
}

/// The declared body length, if any.
fn declared_length(head: &Head) -> Option<u64> {
    head.header("content-length").and_then(|l| l.parse().ok())
}

/// A whole body as text, at most `limit` bytes, each piece arriving
/// within [`BODY_TIMEOUT`].
async fn read_body(head: &Head, mut body: Incoming, limit: usize) -> Result<String, ApiError> {
    if declared_length(head).is_some_and(|n| n > limit as u64) {
        return Err(http::too_large(limit));
    }
    let mut bytes = Vec::new();
    while let Some(frame) = next_frame(&mut body).await? {
        if let Ok(data) = frame.into_data() {
            if bytes.len() + data.len() > limit {
                return Err(http::too_large(limit));
            }
            bytes.extend_from_slice(&data);
        }
    }
    http::body_text(Bytes::from(bytes))
}

async fn next_frame(body: &mut Incoming) -> Result<Option<Frame<Bytes>>, ApiError> {
    match tokio::time::timeout(BODY_TIMEOUT, body.frame()).await {
        Err(_) => Err(ApiError::new(
            408,
            format!("the request body stopped arriving for {BODY_TIMEOUT:?}"),
        )),
        Ok(None) => Ok(None),
        Ok(Some(Ok(f))) => Ok(Some(f)),
        Ok(Some(Err(e))) => Err(ApiError::bad(format!("cannot read the request body: {e}"))),
    }
}

/// `POST /api/library/import`: the body flows into the importer on a
/// blocking thread as it arrives.
async fn import(board: Arc<Board>, head: Head, mut body: Incoming) -> Response<Body> {
    if declared_length(&head).is_some_and(|n| n > import::MAX_IMPORT as u64) {
        return Reply::error(&http::too_large(import::MAX_IMPORT)).into_response();
    }
    let json = head.media_type().as_deref() == Some("application/json");
    let (tx, rx) = tokio::sync::mpsc::channel(16);
    let feeder = tokio::spawn(async move {
        let mut total = 0usize;
        loop {
            let chunk = match next_frame(&mut body).await {
                Ok(None) => return,
                Ok(Some(f)) => match f.into_data() {
                    Ok(d) => {
                        total += d.len();
                        if total > import::MAX_IMPORT {
                            Err(http::too_large(import::MAX_IMPORT).message)
                        } else {
                            Ok(d)
                        }
                    }
                    Err(_) => continue,
                },
                Err(e) => Err(e.message),
            };
            let last = chunk.is_err();
            if tx.send(chunk).await.is_err() || last {
                return;
            }
        }
    });
    let report = tokio::task::spawn_blocking(move || {
        let text = import::pgn_text(import::BodyReader::new(rx), json);
        import::run(&board.store, text)
    })
    .await;
    feeder.abort();
    match report {
        Ok(r) => {
            let (status, v) = r.reply();
            Reply::json_status(status, &v).into_response()
        }
        Err(_) => Reply::error(&ApiError::new(500, "internal error")).into_response(),
    }
}

/// `GET /api/games/ID/events`: the game's Server-Sent Events.
async fn events(board: Arc<Board>, id: String, seat: Option<movegen::Color>) -> Response<Body> {
    let registry = Arc::clone(&board.registry);
    let opened = tokio::task::spawn_blocking(move || {
        let slot = registry.get(&id)?;
        let (stream, rx) = registry.subscribe(&slot, seat)?;
        Ok::<_, super::session::Refusal>((slot, stream, rx))
    })
    .await;
    let (slot, stream, rx) = match opened {
        Ok(Ok(x)) => x,
        Ok(Err(e)) => return Reply::error(&e.into()).into_response(),
        Err(_) => return Reply::error(&ApiError::new(500, "internal error")).into_response(),
    };
    let body = EventBody {
        rx,
        heartbeat: tokio::time::interval_at(tokio::time::Instant::now() + HEARTBEAT, HEARTBEAT),
        opened: Some(Bytes::from_static(b"retry: 1000\n\n")),
        _closer: Closer {
            registry: Arc::clone(&board.registry),
            slot,
            stream,
        },
    };
    http::response(200, "text/event-stream", &[], BodyExt::boxed_unsync(body))
}

/// An event stream's body: the game's events as they come, a comment line
/// when there are none for a while; dropped (the page gone, the server
/// stopping) it unsubscribes.
struct EventBody {
    rx: StreamEvents,
    heartbeat: tokio::time::Interval,
    opened: Option<Bytes>,
    _closer: Closer,
}

impl hyper::body::Body for EventBody {
    type Data = Bytes;
    type Error = Infallible;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Infallible>>> {
        let this = &mut *self;
        if let Some(first) = this.opened.take() {
            return Poll::Ready(Some(Ok(Frame::data(first))));
        }
        match this.rx.poll_recv(cx) {
            Poll::Ready(Some(text)) => {
                this.heartbeat.reset();
                return Poll::Ready(Some(Ok(Frame::data(Bytes::from(text)))));
            }
            // Closed: the game was forgotten, or the server is stopping.
            Poll::Ready(None) => return Poll::Ready(None),
            Poll::Pending => {}
        }
        match this.heartbeat.poll_tick(cx) {
            Poll::Ready(_) => Poll::Ready(Some(Ok(Frame::data(Bytes::from_static(
                b": heartbeat\n\n",
            ))))),
            Poll::Pending => Poll::Pending,
        }
    }
}

/// Unsubscribes a stream when its body is dropped.
struct Closer {
    registry: Arc<Registry>,
    slot: Arc<Mutex<Slot>>,
    stream: u64,
}

impl Drop for Closer {
    fn drop(&mut self) {
        let (registry, slot, stream) = (
            Arc::clone(&self.registry),
            Arc::clone(&self.slot),
            self.stream,
        );
        // Stopping a search waits for its thread: not on an async thread.
        let close = move || registry.unsubscribe(&slot, stream);
        match tokio::runtime::Handle::try_current() {
            Ok(rt) => drop(rt.spawn_blocking(close)),
            Err(_) => close(),
        }
    }
}
