// The JSON API, as the pages use it. Every failure becomes an Error whose message is the
// server's one sentence.

const TOKEN_KEY = "arbiter-token";

export function token() {
  return localStorage.getItem(TOKEN_KEY) || "";
}

export function setToken(value) {
  if (value) localStorage.setItem(TOKEN_KEY, value);
  else localStorage.removeItem(TOKEN_KEY);
}

export class ApiError extends Error {
  constructor(status, body) {
    super(body.error || `the server answered ${status}`);
    this.status = status;
    this.body = body;
  }
}

async function answer(response) {
  const text = await response.text();
  let body;
  try {
    body = JSON.parse(text);
  } catch {
    body = { error: text };
  }
  if (!response.ok) throw new ApiError(response.status, body);
  return body;
}

export async function get(path, params = {}) {
  const query = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) {
    for (const one of Array.isArray(v) ? v : [v]) if (one !== undefined && one !== null) query.append(k, one);
  }
  const q = query.toString();
  return answer(await fetch(`/api${path}${q ? "?" + q : ""}`));
}

export async function post(path, body) {
  const headers = { "content-type": "application/json" };
  if (token()) headers.authorization = `Bearer ${token()}`;
  return answer(await fetch(`/api${path}`, { method: "POST", headers, body: JSON.stringify(body) }));
}

// A session name or spec as one path segment.
export function seg(spec) {
  return encodeURIComponent(spec);
}

// Calls `onHead(records)` each time the session's length changes; returns a closer.
export function watch(session, onHead) {
  const source = new EventSource(`/api/sessions/${seg(session)}/live`);
  source.addEventListener("head", (e) => {
    try {
      onHead(JSON.parse(e.data).records);
    } catch {
      /* a malformed event is ignored; the next one says the length again */
    }
  });
  return () => source.close();
}
