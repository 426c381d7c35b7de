// The rating page: answers unlock only when the clip has played to the end ("ended"),
// keyboard shortcuts (1-5 / 0-5 / y n), idempotent submission with a stable token.
import { postJSON, stableToken } from "/static/frontend/js/http.js";

const root = document.getElementById("rate");
if (root) setup(root);

function setup(root) {
  const data = JSON.parse(document.getElementById("item-data").textContent);
  const single = root.dataset.single === "1";
  const audio = document.getElementById("clip");
  const form = document.getElementById("rate-form");
  const submitBtn = document.getElementById("submit");
  const errorBox = document.getElementById("form-error");
  const fieldsets = Array.from(root.querySelectorAll(".criterion"));
  const answers = {};
  let unlocked = !audio;
  let busy = false;

  function buttons() { return Array.from(root.querySelectorAll(".criterion .option")); }

  function unlock() {
    unlocked = true;
    buttons().forEach((b) => { b.disabled = false; });
    if (submitBtn) submitBtn.disabled = false;
    const hint = document.getElementById("listen-hint");
    if (hint) hint.hidden = true;
    const first = buttons()[0];
    if (first) first.focus();
  }

  if (audio) {
    audio.addEventListener("ended", unlock);
    // seeking ahead must not unlock: only a real "ended" counts, and the server checks time too
  }

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
    const res = await postJSON(root.dataset.rateUrl, {
      assignment: data.assignment, values: answers, comments,
      client_token: stableToken(`rate:${data.assignment}`),
    });
    if (res.ok) {
      window.location.assign(res.data.next_url || root.dataset.workUrl);
      return;
    }
    busy = false;
    buttons().forEach((b) => { b.disabled = false; });
    const err = (res.data && res.data.error) || {};
    if (res.status === 409) { window.location.assign(root.dataset.workUrl); return; }
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
