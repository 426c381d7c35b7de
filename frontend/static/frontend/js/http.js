// Small helpers shared by Earshot's page modules.

/** The CSRF token Django put in the page (hidden input) or cookie. */
export function csrfToken() {
  const input = document.querySelector("input[name=csrfmiddlewaretoken]");
  if (input) return input.value;
  const match = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
  return match ? decodeURIComponent(match[1]) : "";
}

/** A random hex token; works on plain-http origins too (no crypto.randomUUID). */
export function randomToken(bytes = 16) {
  const buf = new Uint8Array(bytes);
  crypto.getRandomValues(buf);
  return Array.from(buf, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** An idempotency token that survives reloads of the same item (sessionStorage). */
export function stableToken(key) {
  const storageKey = `earshot:token:${key}`;
  let token = sessionStorage.getItem(storageKey);
  if (!token) {
    token = randomToken();
    sessionStorage.setItem(storageKey, token);
  }
  return token;
}

/** POST JSON and return {ok, status, data}; network errors become {ok:false}. */
export async function postJSON(url, payload) {
  try {
    const res = await fetch(url, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrfToken() },
      credentials: "same-origin",
      body: JSON.stringify(payload),
    });
    const data = await res.json().catch(() => ({}));
    return { ok: res.ok, status: res.status, data };
  } catch (err) {
    return { ok: false, status: 0, data: { error: { message: String(err) } } };
  }
}
