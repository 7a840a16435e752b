// Talks to the server: JSON requests and the game's event stream.

// `key` and `values`: the catalogue's words for this refusal, where the
// server names them (see `said` in words.js).
export class ApiError extends Error {
  constructor(message, status, key, values) {
    super(message);
    this.status = status;
    this.key = key;
    this.values = values || {};
  }
}

// A request that changes something always carries a JSON body: the server
// refuses other bodies, which another site's page could send.
export async function request(method, path, body) {
  const init = { method, headers: {} };
  if (body === undefined && method !== "GET" && method !== "HEAD") body = {};
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const res = await fetch(path, init);
  const text = await res.text();
  if (!res.ok) {
    let message = text;
    let key;
    let values;
    try {
      const body = JSON.parse(text);
      message = body.error || text;
      key = body.key;
      values = body.values;
    } catch (_) { /* plain text */ }
    throw new ApiError(message, res.status, key, values);
  }
  return (res.headers.get("Content-Type") || "").includes("json") ? JSON.parse(text) : text;
}

export const get = (path) => request("GET", path);
export const post = (path, body = {}) => request("POST", path, body);

// A request that never reached the server (it is down or restarting), as
// opposed to one the server answered with an error.
export function unreachable(e) {
  return !(e instanceof ApiError);
}

// Follows the stream of a game: `on.state(state)`, `on.info(info)`,
// `on.message(text)`, `on.connection(up)` when the stream is lost and back.
// A lost stream is opened again with a growing pause (1, 2, 4, 8 s), for
// as long as the page lives: a server restart costs the page nothing.
// Only `on.gone()` (the game answers 404) ends it. Returns `{close()}`.
export function stream(id, on) {
  let es = null;
  let closed = false;
  let pause = 1000;
  let timer = null;
  const open = () => {
    if (closed) return;
    es = new EventSource(`/api/games/${id}/events`);
    es.addEventListener("open", () => {
      pause = 1000;
      on.connection(true);
    });
    es.addEventListener("state", (e) => on.state(JSON.parse(e.data)));
    es.addEventListener("info", (e) => on.info(JSON.parse(e.data)));
    es.addEventListener("message", (e) => on.message(JSON.parse(e.data).message));
    es.addEventListener("error", async () => {
      es.close();
      if (closed) return;
      on.connection(false);
      try {
        await get(`/api/games/${id}`);
      } catch (e) {
        if (!unreachable(e) && e.status === 404) {
          closed = true;
          on.gone(e);
          return;
        }
      }
      timer = setTimeout(open, pause);
      pause = Math.min(pause * 2, 8000);
    });
  };
  open();
  return {
    close() {
      closed = true;
      clearTimeout(timer);
      if (es) es.close();
    },
  };
}
