// Talks to the server: JSON requests and the game's event stream.

export class ApiError extends Error {}

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
    try { message = JSON.parse(text).error || text; } catch (_) { /* plain text */ }
    throw new ApiError(message);
  }
  return (res.headers.get("Content-Type") || "").includes("json") ? JSON.parse(text) : text;
}

export const get = (path) => request("GET", path);
export const post = (path, body = {}) => request("POST", path, body);

// Opens the stream of a game: `on.state(state)`, `on.info(info)`,
// `on.message(text)`. EventSource reconnects by itself.
export function stream(id, on) {
  const es = new EventSource(`/api/games/${id}/events`);
  es.addEventListener("state", (e) => on.state(JSON.parse(e.data)));
  es.addEventListener("info", (e) => on.info(JSON.parse(e.data)));
  es.addEventListener("message", (e) => on.message(JSON.parse(e.data).message));
  es.addEventListener("error", () => on.error(es));
  return es;
}
