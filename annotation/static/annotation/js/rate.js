// The rating page: the clip plays in Earshot's own player (no skipping ahead), the
// answers unlock once the player reports enough of the clip heard (the campaign's
// share, data-min-fraction), and the submission carries that report ("played": the
// played intervals in clip seconds) for the server to check. Keyboard shortcuts
// (1-5 / 0-5 / y n; Space plays/pauses, r replays), idempotent submission with a
// stable token. In a researcher's preview (data-preview) nothing is sent.
import { postJSON, stableToken } from "/static/frontend/js/http.js";
import { mount } from "/static/frontend/js/player.js";

const root = document.getElementById("rate");
if (root) setup(root);

function setup(root) {
  const data = JSON.parse(document.getElementById("item-data").textContent);
  const single = root.dataset.single === "1";
  const holder = document.getElementById("player");
  const preview = root.dataset.preview === "1";
  const minFraction = Number(root.dataset.minFraction || "0");
  const player = holder ? mount(holder, {
    src: holder.dataset.src, duration: Number(holder.dataset.duration) || null, keys: true,
  }) : null;
  const form = document.getElementById("rate-form");
  const submitBtn = document.getElementById("submit");
  const errorBox = document.getElementById("form-error");
  const fieldsets = Array.from(root.querySelectorAll(".criterion"));
  const answers = {};
  let unlocked = !player;
  let busy = false;

  function buttons() { return Array.from(root.querySelectorAll(".criterion .option")); }

  function unlock() {
    unlocked = true;
    buttons().forEach((b) => { b.disabled = false; });
    if (submitBtn) submitBtn.disabled = false;
    const hint = document.getElementById("listen-hint");
    if (hint) hint.hidden = true;
    // focus the scale, not its first button: Space stays the player's (replay), and a
    // stray Space must not answer "1"; number keys answer, Tab reaches the buttons
    const group = root.querySelector(".scale");
    if (group) { group.tabIndex = -1; group.focus(); }
  }

  if (player) {
    // only what the player heard counts: a seek ahead starts a new interval, it does not
    // add to the heard share (and the server checks the report against its own clock)
    const enough = () => player.heardFraction() >= Math.max(0, minFraction - 0.02) && player.played().length > 0;
    holder.addEventListener("earshot:listen", (e) => {
      if (!unlocked && (e.detail.ended || minFraction < 1) && enough()) unlock();
    });
  }

  if (player && minFraction <= 0) unlock();

  function showError(message) {
    errorBox.textContent = message;
    errorBox.hidden = false;
  }

  function choose(fieldset, value) {
    const key = fieldset.dataset.criterion;
    answers[key] = value;
    fieldset.querySelectorAll(".option").forEach((b) => {
      const on = b.dataset.value === value;
      b.classList.toggle("selected", on);
      b.setAttribute("aria-checked", on ? "true" : "false");
    });
    if (single) submit();
  }

  fieldsets.forEach((fs) => {
    fs.querySelectorAll(".option").forEach((b) => {
      b.addEventListener("click", () => { if (unlocked) choose(fs, b.dataset.value); });
    });
  });

  async function submit() {
    if (busy || !unlocked) return;
    const missing = data.criteria.filter((k) => !(k in answers));
    if (missing.length) { showError(root.dataset.missing || "Please answer every question."); return; }
    const comments = {};
    root.querySelectorAll("textarea[name^=comment-]").forEach((t) => {
      if (t.value.trim()) comments[t.name.slice(8)] = t.value.trim();
    });
    busy = true;
    buttons().forEach((b) => { b.disabled = true; });
    if (preview) {
      showError(root.dataset.previewNote || "Preview: nothing was stored.");
      window.setTimeout(() => window.location.assign(root.dataset.workUrl), 900);
      return;
    }
    const res = await postJSON(root.dataset.rateUrl, {
      assignment: data.assignment, values: answers, comments,
      client_token: stableToken(`rate:${data.assignment}`),
      played: player ? player.played() : null,
    });
    if (res.ok) {
      window.location.assign(res.data.next_url || root.dataset.workUrl);
      return;
    }
    busy = false;
    buttons().forEach((b) => { b.disabled = false; });
    const err = (res.data && res.data.error) || {};
    if (res.status === 409) {
      if (err.message) showError(err.message);
      window.setTimeout(() => window.location.assign(root.dataset.workUrl), err.message ? 2500 : 0);
      return;
    }
    showError(err.message || "Could not save your answer; please try again.");
  }

  form.addEventListener("submit", (e) => { e.preventDefault(); submit(); });

  document.addEventListener("keydown", (e) => {
    if (e.target instanceof HTMLTextAreaElement || e.altKey || e.ctrlKey || e.metaKey) return;
    if (!unlocked) return;
    if (e.key === "Enter" && !single) { e.preventDefault(); submit(); return; }
    const key = e.key.toLowerCase();
    const target = fieldsets.find((fs) => !(fs.dataset.criterion in answers)) || fieldsets[fieldsets.length - 1];
    if (!target) return;
    const btn = Array.from(target.querySelectorAll(".option")).find((b) => b.dataset.key === key);
    if (btn) { e.preventDefault(); choose(target, btn.dataset.value); }
  });
}
