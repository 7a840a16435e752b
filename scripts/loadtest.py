#!/usr/bin/env python3
"""Load test for `volkhv serve`: many clients, idle and slow connections and
open event streams at once, and a check that every ordinary request is
answered within a second and nothing answers 5xx.

    python3 scripts/loadtest.py [--seconds 60] [--clients 8] [--idle 20]
        [--slow 4] [--streams 4] [--seed 1]
        [--binary target/release/volkhv | --url http://127.0.0.1:PORT/]

Without --url it starts its own server (`serve --port 0 --db TMP/games.db`,
a fresh library file so that the database is in the path) and stops it at
the end. Alongside the clients it holds --idle TCP connections that send
nothing, --slow clients that send a request header one byte every 0.5 s
(slowloris), and --streams Server-Sent Events streams on live games.

Every request is timed (time.monotonic(), socket timeout 10 s). A stall is
an ordinary request that took over 1 s; hints, review starts and the wait
for an engine's move search on purpose and are reported in their own rows
only. 429 (a full engine pool, Retry-After) is a correct answer and counted
on its own. The last line is `LOADTEST {json}` with the totals. Exit 0 only
with no 5xx, no stall, no failed connection on an ordinary request and the
server still answering `GET /` within 1 s at the end; else 1 with the
reason (2 when the server cannot be started).

Only 127.0.0.1 is ever contacted; every loop stops at the deadline.
"""

import argparse
import http.client
import json
import os
import random
import select
import socket
import subprocess
import sys
import tempfile
import threading
import time

HOST = "127.0.0.1"
TIMEOUT = 10.0  # every socket
STALL = 1.0  # an ordinary request slower than this is a stall
ALIVE_TIMEOUT = 1.0  # the final `GET /` must be answered within this
VARIANTS = ("chess", "plunder", "tavreli")
STATIC = ("/", "/main.js", "/style.css", "/library.html")

# Kinds that search or wait on purpose: timed and shown, never stalls.
SLOW_ON_PURPOSE = {"hint", "review.start", "engine.wait", "slowloris"}
# Rows that are not one HTTP request each (not in the request total).
NOT_REQUESTS = {"engine.wait", "slowloris"}

# Chess games in SAN for the library import; a text is one to three of them.
PGN_GAMES = (
    "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 1-0",
    "1. d4 d5 2. c4 e6 3. Nc3 Nf6 4. Bg5 Be7 1/2-1/2",
    "1. e4 c5 2. Nf3 d6 3. d4 cxd4 4. Nxd4 Nf6 5. Nc3 a6 0-1",
    "1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# 1-0",
    "1. c4 e5 2. Nc3 Nf6 3. g3 d5 4. cxd5 Nxd5 *",
)

# What each client does, with its weight. Hints (a 1 s search each) are
# common enough that several are asked at once: everything else must still
# be answered meanwhile, or refused with 429.
ACTIONS = (
    ("move", 24),
    ("state", 14),
    ("static", 10),
    ("create", 6),
    ("library", 6),
    ("bad", 8),
    ("undo", 5),
    ("hint", 10),
    ("engine", 5),
    ("pgn", 4),
    ("import", 3),
    ("review", 3),
)


# ---------------------------------------------------------------- recording


class Recorder:
    """Every request's kind, status and latency, from all threads."""

    def __init__(self):
        self.lock = threading.Lock()
        self.rows = []  # (kind, status, seconds, started at)
        self.bad_accepted = []  # bad input answered 2xx: (kind, status)
        self.notes = {}  # counters that are not requests (streams, idle)

    def add(self, kind, status, seconds, started):
        with self.lock:
            self.rows.append((kind, status, seconds, started))

    def accepted_bad(self, kind, status):
        with self.lock:
            self.bad_accepted.append((kind, status))

    def note(self, key, value=1, how="add"):
        """A counter by `key`: `how` is add, max or set."""
        with self.lock:
            old = self.notes.get(key, 0)
            if how == "add":
                self.notes[key] = old + value
            elif how == "max":
                self.notes[key] = max(old, value)
            else:
                self.notes[key] = value

    def snapshot(self):
        with self.lock:
            return list(self.rows), list(self.bad_accepted), dict(self.notes)


def is_5xx(status):
    return isinstance(status, int) and 500 <= status <= 599


def is_transport_error(status):
    """A request that got no HTTP answer at all (timeout, reset, garbage)."""
    return not isinstance(status, int)


def is_stall(kind, seconds):
    return kind not in SLOW_ON_PURPOSE and seconds > STALL


def status_of_exception(e):
    if isinstance(e, (socket.timeout, TimeoutError)):
        return "timeout"
    if isinstance(e, (ConnectionError, http.client.RemoteDisconnected)):
        return "reset"
    if isinstance(e, http.client.HTTPException):
        return "bad-reply"
    return "error"


# ---------------------------------------------------------------- HTTP


class Http:
    """One keep-alive connection of one client. A request on a reused
    connection that the server closed meanwhile is sent once more on a fresh
    one (an idle keep-alive connection may be closed at any time)."""

    def __init__(self, port, recorder):
        self.port = port
        self.recorder = recorder
        self.conn = None
        self.reused = False

    def close(self):
        if self.conn is not None:
            self.conn.close()
        self.conn = None

    def _once(self, method, path, body, headers):
        if self.conn is None:
            self.conn = http.client.HTTPConnection(HOST, self.port, timeout=TIMEOUT)
            self.reused = False
        reused = self.reused
        try:
            self.conn.request(method, path, body=body, headers=headers)
            resp = self.conn.getresponse()
            data = resp.read()
        except Exception as e:
            self.close()
            e.reused = reused
            raise
        self.reused = True
        if resp.will_close:
            self.close()
        return resp.status, resp.headers, data

    def call(self, kind, method, path, body=None, headers=None):
        """Sends one request and records it as `kind`. `body` is a JSON
        value (sent as JSON) or bytes (sent as is). Returns (status,
        headers, parsed JSON or None); status is a string when there was
        no HTTP answer."""
        hdrs = {}
        if method in ("POST", "DELETE"):
            hdrs["Content-Type"] = "application/json"
            if body is None:
                body = {}
        if body is not None and not isinstance(body, bytes):
            body = json.dumps(body).encode()
        hdrs.update(headers or {})
        started = time.monotonic()
        try:
            try:
                status, rh, data = self._once(method, path, body, hdrs)
            except (ConnectionError, http.client.RemoteDisconnected, http.client.BadStatusLine) as e:
                if not getattr(e, "reused", False):
                    raise
                status, rh, data = self._once(method, path, body, hdrs)
        except Exception as e:
            status, rh, data = status_of_exception(e), {}, b""
        self.recorder.add(kind, status, time.monotonic() - started, started)
        if is_transport_error(status):
            # A dead server refuses at once: no busy loop of failures.
            time.sleep(0.1)
        return status, rh, parse_json(data)


def parse_json(data):
    try:
        return json.loads(data) if data else None
    except ValueError:
        return None


def raw_exchange(port, payload):
    """Sends raw bytes on a fresh socket and reads the answer's status line.
    Returns an int status, "closed" when the server closed without a word,
    or another string for a transport failure. A write the server cut off
    (it answered early and closed) still reads its answer."""
    try:
        s = socket.create_connection((HOST, port), timeout=TIMEOUT)
    except OSError as e:
        return status_of_exception(e)
    with s:
        try:
            s.sendall(payload)
        except OSError:
            pass  # the server may answer (413, 400) before reading it all
        try:
            head = read_head(s)
        except OSError as e:
            return status_of_exception(e)
    return status_from_head(head)


def read_head(s):
    """Reads up to the end of an HTTP header (or the close)."""
    buf = b""
    while b"\r\n\r\n" not in buf and len(buf) < 65536:
        chunk = s.recv(4096)
        if not chunk:
            break
        buf += chunk
    return buf


def status_from_head(head):
    if not head:
        return "closed"
    parts = head.split(b" ", 2)
    if len(parts) >= 2 and parts[0].startswith(b"HTTP/") and parts[1].isdigit():
        return int(parts[1])
    return "bad-reply"


# ---------------------------------------------------------------- shared games


class GamePool:
    """Recently created games, for the event streams to watch."""

    def __init__(self):
        self.lock = threading.Lock()
        self.ids = []
        self.watched = set()

    def add(self, gid):
        with self.lock:
            self.ids.append(gid)
            del self.ids[:-32]

    def take_unwatched(self):
        """The newest game no stream watches; None when there is none."""
        with self.lock:
            for gid in reversed(self.ids):
                if gid not in self.watched:
                    self.watched.add(gid)
                    return gid
            return None

    def release(self, gid):
        with self.lock:
            self.watched.discard(gid)


# ---------------------------------------------------------------- clients


def pgn_text(rng):
    games = rng.sample(PGN_GAMES, rng.randint(1, 3))
    return "".join(
        f'[White "load{rng.randint(1, 999)}"]\n[Black "test"]\n\n{g}\n\n' for g in games
    )


def library_games(reply):
    """The list of a library page: the new `{games, total}` or the old bare
    array."""
    if isinstance(reply, dict):
        return reply.get("games") or [], reply.get("total")
    if isinstance(reply, list):
        return reply, len(reply)
    return [], None


class Client:
    """One simulated page: holds a game and does weighted random things to
    it until the deadline."""

    def __init__(self, name, port, recorder, pool, rng, deadline):
        self.name = name
        self.port = port
        self.rec = recorder
        self.pool = pool
        self.rng = rng
        self.deadline = deadline
        self.http = Http(port, recorder)
        self.game = None  # the last state seen of the current game
        self.reviewed = False  # a review of the current game was started
        self.library_total = 0

    # -- helpers

    def gid(self):
        return self.game["id"]

    def took(self, status, reply):
        """Keeps a state the server sent back."""
        if status in (200, 201) and isinstance(reply, dict) and "legal" in reply:
            self.game = reply

    def ensure_game(self):
        if self.game is None:
            self.create()
        return self.game is not None

    def run(self):
        names = [a for a, _ in ACTIONS]
        weights = [w for _, w in ACTIONS]
        try:
            while time.monotonic() < self.deadline:
                action = self.rng.choices(names, weights)[0]
                getattr(self, "do_" + action)()
        finally:
            self.http.close()

    # -- actions

    def create(self):
        variant = self.rng.choice(VARIANTS)
        status, _, reply = self.http.call("create", "POST", "/api/games", {"variant": variant})
        self.game = None
        self.reviewed = False
        self.took(status, reply)
        if self.game is not None:
            self.pool.add(self.gid())

    def do_create(self):
        self.create()

    def do_move(self):
        if not self.ensure_game():
            return
        if self.game.get("status"):
            self.create()
            return
        if not self.game.get("human_to_move", True):
            self.wait_for_engine()
            return
        legal = self.game.get("legal") or []
        if not legal:
            self.create()
            return
        mv = self.rng.choice(legal)["move"]
        status, _, reply = self.http.call("move", "POST", f"/api/games/{self.gid()}/move", {"move": mv})
        self.took(status, reply)
        self.reviewed = False

    def do_undo(self):
        if not self.ensure_game():
            return
        status, _, reply = self.http.call("undo", "POST", f"/api/games/{self.gid()}/undo", {})
        self.took(status, reply)
        self.reviewed = False

    def do_state(self):
        if not self.ensure_game():
            return
        status, _, reply = self.http.call("state", "GET", f"/api/games/{self.gid()}")
        self.took(status, reply)

    def do_pgn(self):
        if self.ensure_game():
            self.http.call("pgn", "GET", f"/api/games/{self.gid()}/pgn")

    def do_hint(self):
        """A hint on the person's turn only (elsewhere it is a 409 by
        design, not load)."""
        if not self.ensure_game() or self.game.get("status"):
            return
        if not self.game.get("human_to_move", True):
            self.wait_for_engine()
            return
        status, headers, _ = self.http.call("hint", "POST", f"/api/games/{self.gid()}/hint", {})
        if status == 429 and not headers.get("Retry-After"):
            self.rec.note("hint 429 without Retry-After")

    def do_engine(self):
        """The engine replies as Black at 50-100 ms; waits for its move when
        it is its turn now."""
        if not self.ensure_game():
            return
        body = {"engine": "black", "movetime": self.rng.randint(50, 100)}
        status, _, reply = self.http.call("settings", "POST", f"/api/games/{self.gid()}/settings", body)
        self.took(status, reply)
        if status == 200 and not self.game.get("human_to_move", True):
            self.wait_for_engine()

    def wait_for_engine(self):
        """Polls the state until the person is to move (or the game is
        over), up to 10 s; the whole wait is one `engine.wait` row. A game
        reloaded from the library after eviction does not think until
        something changes it, so a wait that sees no search running sends
        the settings again, once."""
        started = time.monotonic()
        limit = min(started + TIMEOUT, self.deadline + 2.0)
        kicked = False
        outcome = "timeout"
        while time.monotonic() < limit:
            status, _, reply = self.http.call("engine.poll", "GET", f"/api/games/{self.gid()}")
            self.took(status, reply)
            if status != 200:
                outcome = status
                break
            if self.game.get("human_to_move", True) or self.game.get("status"):
                outcome = 200
                break
            if self.game.get("searching") is None and not kicked:
                kicked = True
                self.rec.note("engine kicked (reloaded game)")
                self.http.call("settings", "POST", f"/api/games/{self.gid()}/settings", {"engine": "black"})
            time.sleep(0.05)
        self.rec.add("engine.wait", outcome, time.monotonic() - started, started)
        if outcome != 200:
            self.game = None  # start afresh rather than wait again

    def do_static(self):
        path = self.rng.choice(STATIC)
        self.http.call("static", "GET", path)

    def do_library(self):
        pages = max(1, (self.library_total + 49) // 50)
        offset = 50 * self.rng.randrange(pages) if self.rng.random() < 0.3 else 0
        status, _, reply = self.http.call("library", "GET", f"/api/library?limit=50&offset={offset}")
        if status == 200:
            games, total = library_games(reply)
            self.library_total = total if isinstance(total, int) else len(games)

    def do_import(self):
        self.http.call("import", "POST", "/api/library/import", {"pgn": pgn_text(self.rng)})

    def do_review(self):
        """Starts a short review, or reads the one started."""
        if not self.ensure_game():
            return
        if self.reviewed and self.rng.random() < 0.6:
            self.http.call("review.get", "GET", f"/api/games/{self.gid()}/review")
            return
        status, _, _ = self.http.call("review.start", "POST", f"/api/games/{self.gid()}/review", {"movetime": 20})
        self.reviewed = status == 202

    def do_bad(self):
        kind, status = self.rng.choice(BAD_INPUTS)(self)
        judge_bad(self.rec, "bad." + kind, status)


# Bad input: each returns (kind, status); 4xx (or a closed connection for
# what is not HTTP at all) is the right answer.


def bad_illegal_move(c):
    if not c.ensure_game():
        return "illegal_move", None
    status, _, _ = c.http.call("bad.illegal_move", "POST", f"/api/games/{c.gid()}/move", {"move": "a1a1"})
    return "illegal_move", status


def bad_malformed_json(c):
    status, _, _ = c.http.call("bad.malformed_json", "POST", "/api/games", b'{"variant": "chess"')
    return "malformed_json", status


def bad_unknown_field(c):
    status, _, _ = c.http.call("bad.unknown_field", "POST", "/api/games", {"variant": "chess", "colour": "red"})
    return "unknown_field", status


def bad_unknown_game(c):
    gid = c.rng.choice(("99999999", "abc", "-1"))
    status, _, _ = c.http.call("bad.unknown_game", "GET", f"/api/games/{gid}")
    return "unknown_game", status


def bad_foreign_origin(c):
    """A write another site's page could send: its Origin, or a browser's
    Sec-Fetch-Site saying so."""
    header = c.rng.choice(({"Origin": "http://evil.example"}, {"Sec-Fetch-Site": "cross-site"}))
    status, _, _ = c.http.call("bad.foreign_origin", "POST", "/api/games", {"variant": "chess"}, header)
    return "foreign_origin", status


def bad_text_plain(c):
    status, _, _ = c.http.call(
        "bad.text_plain", "POST", "/api/games", {"variant": "chess"}, {"Content-Type": "text/plain"}
    )
    return "text_plain", status


def bad_foreign_host(c):
    status, _, _ = c.http.call("bad.foreign_host", "GET", "/", headers={"Host": f"evil.example:{c.port}"})
    return "foreign_host", status


def bad_oversized(c):
    """A 300 KiB body where 256 KiB is the limit (a new game: the import
    takes far larger files), on a socket of its own: the server may answer
    413 and close before reading it all."""
    body = b'{"variant": "chess", "fen": "' + b"x" * (300 * 1024) + b'"}'
    head = (
        f"POST /api/games HTTP/1.1\r\nHost: {HOST}:{c.port}\r\n"
        f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n"
        "Connection: close\r\n\r\n"
    ).encode()
    return "oversized", timed_raw(c, "bad.oversized", head + body)


def bad_garbage_line(c):
    payload = c.rng.choice((b"\x16\x03\x01\x02\x00GARBAGE\r\n\r\n", b"HELLO THERE\r\n\r\n", b"GET\r\n\r\n"))
    return "garbage_line", timed_raw(c, "bad.garbage_line", payload)


def timed_raw(c, kind, payload):
    started = time.monotonic()
    status = raw_exchange(c.port, payload)
    c.rec.add(kind, status, time.monotonic() - started, started)
    return status


BAD_INPUTS = (
    bad_illegal_move,
    bad_malformed_json,
    bad_unknown_field,
    bad_unknown_game,
    bad_foreign_origin,
    bad_text_plain,
    bad_foreign_host,
    bad_oversized,
    bad_garbage_line,
)


def judge_bad(rec, kind, status):
    """Bad input answered 2xx was accepted: noted, not a failure (the current
    server takes a foreign Origin and text/plain on loopback)."""
    if isinstance(status, int) and 200 <= status <= 299:
        rec.accepted_bad(kind, status)


# ---------------------------------------------------------------- background load


def hold_idle(port, n, rec):
    """Opens n connections that never send a byte; returns the sockets."""
    socks = []
    for _ in range(n):
        try:
            socks.append(socket.create_connection((HOST, port), timeout=TIMEOUT))
        except OSError as e:
            rec.note(f"idle connect failed ({status_of_exception(e)})")
    rec.note("idle connections opened", len(socks))
    return socks


def count_closed(socks):
    """How many of the held sockets the server has closed."""
    closed = 0
    for s in socks:
        try:
            readable, _, _ = select.select([s], [], [], 0)
            if readable and not s.recv(1, socket.MSG_PEEK):
                closed += 1
        except OSError:
            closed += 1
    return closed


def slowloris(port, rec, deadline):
    """Sends a never-ending request header one byte every 0.5 s; when the
    server closes the connection (or answers it), records how long it was
    held and opens another."""
    prefix = f"GET / HTTP/1.1\r\nHost: {HOST}:{port}\r\nX-Slow: ".encode()
    while time.monotonic() < deadline:
        started = time.monotonic()
        try:
            s = socket.create_connection((HOST, port), timeout=TIMEOUT)
        except OSError as e:
            rec.add("slowloris", status_of_exception(e), time.monotonic() - started, started)
            time.sleep(0.5)
            continue
        rec.note("slowloris connections opened")
        with s:
            status = drip(s, prefix, deadline)
        if status is not None:
            rec.add("slowloris", status, time.monotonic() - started, started)


def drip(s, prefix, deadline):
    """One slow connection until the deadline (None) or until the server
    ends it (its status, or "closed")."""
    sent = 0
    while time.monotonic() < deadline:
        readable, _, _ = select.select([s], [], [], 0)
        if readable:
            try:
                return status_from_head(read_head(s))
            except OSError:
                return "closed"
        byte = prefix[sent : sent + 1] or b"a"
        try:
            s.sendall(byte)
        except OSError:
            return "closed"
        sent += 1
        time.sleep(0.5)
    return None


def watch_streams(port, rec, pool, rng, deadline):
    """Keeps one event stream open on a live game, reading it continuously;
    moves to another game every few seconds or when the stream ends."""
    while time.monotonic() < deadline:
        gid = pool.take_unwatched()
        if gid is None:
            time.sleep(0.2)
            continue
        try:
            read_stream(port, rec, gid, min(deadline, time.monotonic() + rng.uniform(4, 8)))
        finally:
            pool.release(gid)


def read_stream(port, rec, gid, until):
    """One stream: the open is timed as `sse.open`; every line read counts,
    and the longest silence is noted (heartbeats come every 0.5 s)."""
    conn = http.client.HTTPConnection(HOST, port, timeout=TIMEOUT)
    started = time.monotonic()
    try:
        conn.request("GET", f"/api/games/{gid}/events", headers={"Accept": "text/event-stream"})
        resp = conn.getresponse()
    except Exception as e:
        rec.add("sse.open", status_of_exception(e), time.monotonic() - started, started)
        conn.close()
        time.sleep(0.2)  # a dead server refuses at once: no busy loop
        return
    rec.add("sse.open", resp.status, time.monotonic() - started, started)
    try:
        if resp.status != 200:
            resp.read()
            time.sleep(0.2)
            return
        last = time.monotonic()
        while time.monotonic() < until:
            line = resp.readline()
            now = time.monotonic()
            rec.note("sse longest silence (ms)", round((now - last) * 1000), "max")
            last = now
            if not line:
                rec.note("sse streams ended by the server")
                return
            if line.startswith(b"event:"):
                rec.note("sse events")
    except Exception as e:
        rec.note(f"sse stream failed ({status_of_exception(e)})")
    finally:
        conn.close()


# ---------------------------------------------------------------- the server


class OwnServer:
    """`volkhv serve --port 0 --db TMP/games.db`, stopped at the end."""

    def __init__(self, binary):
        self.tmp = tempfile.TemporaryDirectory(prefix="volkhv-load-")
        self.db = os.path.join(self.tmp.name, "games.db")
        self.stderr_tail = []
        self.proc = subprocess.Popen(
            [binary, "serve", "--port", "0", "--db", self.db],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        self.port = self._read_port()
        # Pipes are drained for good: a server blocked on a full pipe would
        # look like a stall.
        threading.Thread(target=self._drain, args=(self.proc.stdout, None), daemon=True).start()
        threading.Thread(target=self._drain, args=(self.proc.stderr, self.stderr_tail), daemon=True).start()

    def _read_port(self):
        first = []
        reader = threading.Thread(target=lambda: first.append(self.proc.stdout.readline()), daemon=True)
        reader.start()
        reader.join(30)
        line = first[0].decode(errors="replace").strip() if first else ""
        prefix = f"listening on http://{HOST}:"
        if not line.startswith(prefix):
            self.stop()
            err = self.proc.stderr.read().decode(errors="replace") if self.proc.stderr else ""
            raise RuntimeError(f"the server did not start: first line {line!r}; stderr: {err.strip()}")
        return int(line[len(prefix) :].split("/")[0])

    def _drain(self, pipe, keep):
        for line in pipe:
            if keep is not None:
                keep.append(line.decode(errors="replace").rstrip())
                del keep[:-50]

    def running(self):
        return self.proc.poll() is None

    def stop(self):
        """SIGTERM (the server saves its games and drains its requests,
        up to 5 s), SIGKILL after 10 s. Returns the exit code, or None when
        it had already exited."""
        code = None
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                code = self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                code = f"killed after 10 s ({self.proc.wait(5)})"
        self.tmp.cleanup()
        return code


def port_of_url(url):
    """The port of an http://127.0.0.1:PORT/ address; any other host is
    refused (this script only ever talks to this machine)."""
    prefix = f"http://{HOST}:"
    if not url.startswith(prefix):
        raise SystemExit(f"--url must be http://{HOST}:PORT/, got {url}")
    return int(url[len(prefix) :].split("/")[0])


def answers_root(port):
    """`GET /` on a fresh connection within ALIVE_TIMEOUT: (ok, ms, status)."""
    started = time.monotonic()
    try:
        conn = http.client.HTTPConnection(HOST, port, timeout=ALIVE_TIMEOUT)
        conn.request("GET", "/")
        resp = conn.getresponse()
        resp.read()
        conn.close()
        status = resp.status
    except Exception as e:
        status = status_of_exception(e)
    ms = (time.monotonic() - started) * 1000
    return status == 200 and ms <= ALIVE_TIMEOUT * 1000, ms, status


# ---------------------------------------------------------------- the report


def percentile(sorted_values, q):
    """Nearest-rank percentile of an ascending list."""
    if not sorted_values:
        return 0.0
    rank = max(1, -(-len(sorted_values) * q // 100))
    return sorted_values[int(rank) - 1]


def status_counts(statuses):
    counts = {}
    for s in statuses:
        counts[str(s)] = counts.get(str(s), 0) + 1
    return " ".join(f"{k}:{v}" for k, v in sorted(counts.items()))


def print_table(rows):
    by_kind = {}
    for kind, status, seconds, _ in rows:
        by_kind.setdefault(kind, []).append((status, seconds))
    print(f"{'kind':<22}{'count':>7}  {'p50':>7}{'p95':>8}{'p99':>8}{'max':>8}  statuses (latency in ms)")
    for kind in sorted(by_kind):
        items = by_kind[kind]
        ms = sorted(s * 1000 for _, s in items)
        flag = "" if kind not in SLOW_ON_PURPOSE else "  (no stall rule)"
        print(
            f"{kind:<22}{len(items):>7}  {percentile(ms, 50):>7.1f}{percentile(ms, 95):>8.1f}"
            f"{percentile(ms, 99):>8.1f}{ms[-1]:>8.1f}  {status_counts(s for s, _ in items)}{flag}"
        )


def totals_of(rows, bad_accepted, alive, t0):
    requests = [r for r in rows if r[0] not in NOT_REQUESTS]
    stalls = sorted((r for r in requests if is_stall(r[0], r[2])), key=lambda r: -r[2])
    errors = [r for r in requests if is_transport_error(r[1]) and not r[0].startswith("bad.")]
    return {
        "requests": len(requests),
        "5xx": sum(1 for r in rows if is_5xx(r[1])),
        "stalls": len(stalls),
        "429": sum(1 for r in rows if r[1] == 429),
        "errors": len(errors),
        "bad_accepted": len(bad_accepted),
        "alive": alive,
        "worst_stalls": [
            {"kind": k, "status": s, "ms": round(sec * 1000), "at_s": round(at - t0, 1)}
            for k, s, sec, at in stalls[:5]
        ],
    }


def verdict(totals):
    reasons = []
    if totals["5xx"]:
        reasons.append(f"{totals['5xx']} answers were 5xx")
    if totals["stalls"]:
        reasons.append(f"{totals['stalls']} requests took over {STALL:g} s")
    if totals["errors"]:
        reasons.append(f"{totals['errors']} ordinary requests got no HTTP answer")
    if not totals["alive"]:
        reasons.append(f"the server did not answer GET / within {ALIVE_TIMEOUT:g} s at the end")
    return reasons


# ---------------------------------------------------------------- main


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--seconds", type=float, default=60)
    p.add_argument("--clients", type=int, default=8)
    p.add_argument("--idle", type=int, default=20, help="idle TCP connections held open")
    p.add_argument("--slow", type=int, default=4, help="slowloris clients")
    p.add_argument("--streams", type=int, default=4, help="open event streams")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--binary", default="target/release/volkhv")
    p.add_argument("--url", help="a running server, http://127.0.0.1:PORT/ (else one is started)")
    return p.parse_args(argv)


def start_threads(args, port, rec, pool, deadline):
    threads = []

    def spawn(name, target, *a):
        t = threading.Thread(target=target, args=a, name=name, daemon=True)
        t.start()
        threads.append(t)

    for i in range(args.clients):
        client = Client(f"client-{i}", port, rec, pool, random.Random(f"{args.seed}-client-{i}"), deadline)
        spawn(client.name, client.run)
    for i in range(args.slow):
        spawn(f"slow-{i}", slowloris, port, rec, deadline)
    for i in range(args.streams):
        spawn(f"sse-{i}", watch_streams, port, rec, pool, random.Random(f"{args.seed}-sse-{i}"), deadline)
    return threads


def progress(rec, t0, deadline):
    """A line every 10 s, so that a long run shows it is alive."""
    while time.monotonic() < deadline:
        time.sleep(min(10, max(0, deadline - time.monotonic())))
        rows, _, _ = rec.snapshot()
        requests = [r for r in rows if r[0] not in NOT_REQUESTS]
        stalls = sum(1 for r in requests if is_stall(r[0], r[2]))
        print(
            f"[{time.monotonic() - t0:5.1f}s] requests {len(requests)}, "
            f"5xx {sum(is_5xx(r[1]) for r in rows)}, stalls {stalls}, 429 {sum(r[1] == 429 for r in rows)}",
            flush=True,
        )


def run_load(args, port, rec):
    """Runs the clients and the background load until the deadline, then
    asks `GET /` once more. Returns (alive, its note, hung threads, t0)."""
    pool = GamePool()
    idle = hold_idle(port, args.idle, rec)
    t0 = time.monotonic()
    deadline = t0 + args.seconds
    threads = start_threads(args, port, rec, pool, deadline)
    progress(rec, t0, deadline)
    # A request begun before the deadline ends within its timeout.
    for t in threads:
        t.join(max(0.0, deadline + TIMEOUT + 5 - time.monotonic()))
    hung = [t.name for t in threads if t.is_alive()]
    # Checked while the idle connections are still held.
    alive, alive_ms, alive_status = answers_root(port)
    rec.note("idle connections closed by the server", count_closed(idle))
    for s in idle:
        s.close()
    return alive, f"GET / -> {alive_status} in {alive_ms:.0f} ms", hung, t0


def print_report(rec, alive, alive_note, hung, t0, stderr_tail):
    """The table, the totals and the notes; returns the totals and the
    reasons to fail."""
    rows, bad_accepted, notes = rec.snapshot()
    print()
    print_table(rows)
    totals = totals_of(rows, bad_accepted, alive, t0)
    print()
    for key in ("requests", "5xx", "stalls", "429", "errors", "bad_accepted"):
        print(f"{key:<14}{totals[key]}")
    print(f"{'alive':<14}{alive} ({alive_note})")
    for key in sorted(notes):
        print(f"  {key}: {notes[key]}")
    if bad_accepted:
        print("  bad input answered 2xx:", status_counts(k for k, _ in bad_accepted))
    for s in totals["worst_stalls"]:
        print(f"  stall: {s['kind']} {s['status']} {s['ms']} ms at {s['at_s']} s")
    if hung:
        print("  threads still running at the end:", ", ".join(hung))
    if stderr_tail:
        print("  server stderr (last lines):")
        for line in stderr_tail[-10:]:
            print("    " + line)
    reasons = verdict(totals)
    if hung:
        reasons.append(f"{len(hung)} threads did not finish")
    return totals, reasons


def main(argv):
    args = parse_args(argv)
    server = None
    if args.url:
        port = port_of_url(args.url)
    else:
        try:
            server = OwnServer(args.binary)
        except (OSError, RuntimeError) as e:
            print(f"loadtest: {e}", flush=True)
            return 2
        port = server.port
    print(
        f"loadtest: {HOST}:{port}, {args.seconds:g} s, {args.clients} clients, {args.idle} idle, "
        f"{args.slow} slow, {args.streams} streams, seed {args.seed}",
        flush=True,
    )
    rec = Recorder()
    try:
        alive, alive_note, hung, t0 = run_load(args, port, rec)
        alive = alive and (server is None or server.running())
    finally:
        if server is not None:
            rec.note("server exit code after SIGTERM", server.stop(), "set")
    totals, reasons = print_report(rec, alive, alive_note, hung, t0, server.stderr_tail if server else [])
    print("FAIL: " + "; ".join(reasons) if reasons else "PASS", flush=True)
    # The last line, for scripts and the Rust test.
    summary = {**totals, "seconds": args.seconds, "clients": args.clients, "failures": reasons}
    print("LOADTEST " + json.dumps(summary), flush=True)
    return 1 if reasons else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
