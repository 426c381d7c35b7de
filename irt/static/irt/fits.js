// Follow running IRT fits: poll the status JSON and update each row in place.
const table = document.getElementById("irt-fits");
const POLL_MS = 2000;

function busy(status) {
  return status === "queued" || status === "running";
}

function update(row, fit) {
  const was = row.dataset.status;
  row.dataset.status = fit.status;
  const pct = Math.round(fit.progress * 100);
  const bar = row.querySelector("[data-field=bar]");
  if (bar) {
    bar.style.width = `${pct}%`;
    bar.parentElement.setAttribute("aria-valuenow", String(pct));
  }
  const badge = row.querySelector("[data-field=status]");
  if (badge) {
    badge.textContent = fit.status;
    badge.className = `badge ${fit.status === "succeeded" ? "ok" : fit.status === "failed" ? "bad" : "warn"}`;
  }
  const msg = row.querySelector("[data-field=message]");
  if (msg) msg.textContent = fit.error ? `${fit.progress_message}: ${fit.error}` : fit.progress_message;
  const n = row.querySelector("[data-field=n_responses]");
  if (n) n.textContent = String(fit.n_responses);
  const method = row.querySelector("[data-field=method]");
  if (method && fit.method) method.textContent = fit.method;
  const dur = row.querySelector("[data-field=duration]");
  if (dur && fit.duration_s != null) dur.textContent = fit.duration_s.toFixed(1);
  return busy(was) && !busy(fit.status);
}

async function poll() {
  const rows = [...table.querySelectorAll("tr[data-fit]")].filter((r) => busy(r.dataset.status));
  if (!rows.length) return;
  const ids = rows.map((r) => r.dataset.fit).join(",");
  try {
    const res = await fetch(`${table.dataset.statusUrl}?ids=${ids}`, { credentials: "same-origin" });
    if (res.ok) {
      const data = await res.json();
      for (const fit of data.fits) {
        const row = table.querySelector(`tr[data-fit="${fit.id}"]`);
        if (row) update(row, fit);
      }
    }
  } catch (err) {
    // network hiccup: try again on the next tick
  }
  setTimeout(poll, POLL_MS);
}

if (table) setTimeout(poll, POLL_MS);
