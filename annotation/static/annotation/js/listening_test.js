// The page of a listening test with several stimuli (AB, ABX, CCR, DCR, SMOS, MUSHRA,
// ranking). All stimuli are decoded with the Web Audio API (sync_player.js) and share
// one timeline: a sample button switches to that sample at the same position. The
// answers unlock once every sample (the reference and X too) has been heard for the
// campaign's share (data-min-fraction); the submission carries each sample's played
// intervals for the server to check. Every control has a key, listed on the page.
// Stimuli are known here only by opaque ids and on-screen labels. In a researcher's
// preview (data-preview) nothing is sent.
import { postJSON, stableToken } from "/static/frontend/js/http.js";
import { SyncPlayer } from "/static/annotation/js/sync_player.js";

const root = document.getElementById("rate");
if (root) setup(root);

function fmt(seconds) {
  const s = Math.max(0, seconds || 0);
  return `${Math.floor(s / 60)}:${(s % 60).toFixed(1).padStart(4, "0")}`;
}

function setup(root) {
  const data = JSON.parse(document.getElementById("item-data").textContent);
  const mode = root.dataset.mode;
  const preview = root.dataset.preview === "1";
  const minFraction = Number(root.dataset.minFraction || "0");
  const player = new SyncPlayer(data.test.stimuli);
  const $ = (id) => document.getElementById(id);
  const errorBox = $("form-error");
  const status = $("load-status");
  const playBtn = $("play");
  const bar = $("position");
  const sampleButtons = Array.from(root.querySelectorAll(".stimulus"));
  const transport = [playBtn, bar, $("to-start"), $("loop-start"), $("loop-end"), $("loop-toggle"), $("loop-clear")];
  const fieldsets = Array.from(root.querySelectorAll(".criterion"));
  const answers = {};
  const touched = new Set();
  let loaded = false;
  let unlocked = false;
  let busy = false;
  let dragging = false;

  function showError(message) { errorBox.textContent = message; errorBox.hidden = false; }

  function answerControls() {
    return Array.from(root.querySelectorAll(".criterion .option, .criterion input[type=range], .rank-up, .rank-down, #submit"));
  }

  function heardEnough(id) {
    return minFraction <= 0 || player.heardFraction(id) >= Math.max(0, minFraction - 0.02);
  }

  function unlock() {
    unlocked = true;
    answerControls().forEach((c) => { c.disabled = false; });
    const hint = $("listen-hint");
    if (hint) hint.hidden = true;
  }

  function render() {
    const pos = dragging ? Number(bar.value) / 1000 * player.duration : player.position();
    if (!dragging && player.duration > 0) bar.value = String(Math.round(1000 * pos / player.duration));
    $("time").textContent = `${fmt(pos)} / ${fmt(player.duration)}`;
    playBtn.querySelector("span").textContent = player.playing ? playBtn.dataset.labelPause : playBtn.dataset.labelPlay;
    sampleButtons.forEach((b) => {
      const id = b.dataset.stimulus;
      const on = id === player.current;
      b.classList.toggle("selected", on);
      b.setAttribute("aria-pressed", on ? "true" : "false");
      const mark = b.querySelector(".heard");
      const f = player.heardFraction(id);
      mark.textContent = heardEnough(id) && f > 0 ? "✓" : `${Math.round(100 * f)}%`;
    });
    root.querySelectorAll(".slider-row, .rank-row").forEach((row) => {
      row.classList.toggle("playing", row.dataset.stimulus === player.current);
    });
    const loop = player.loop;
    $("loop-toggle").setAttribute("aria-pressed", loop.on ? "true" : "false");
    const loopText = $("loop-text");
    loopText.textContent = loop.on
      ? loopText.dataset.template.replace("%(start)s", fmt(loop.start)).replace("%(end)s", fmt(loop.end)) : "";
    bar.style.setProperty("--loop-start", `${100 * loop.start / (player.duration || 1)}%`);
    bar.style.setProperty("--loop-end", `${100 * (loop.on ? loop.end : loop.start) / (player.duration || 1)}%`);
    if (loaded && !unlocked && data.test.stimuli.every((s) => heardEnough(s.id))) unlock();
  }

  player.onchange = render;
  window.setInterval(() => { if (player.playing) render(); }, 50);

  function selectAndPlay(id) {
    player.select(id);
    if (!player.playing) player.play();
  }

  sampleButtons.forEach((b) => b.addEventListener("click", () => selectAndPlay(b.dataset.stimulus)));
  playBtn.addEventListener("click", () => player.toggle());
  bar.addEventListener("input", () => { dragging = true; render(); });
  bar.addEventListener("change", () => { dragging = false; player.seek(Number(bar.value) / 1000 * player.duration); });
  $("to-start").addEventListener("click", () => player.seek(player.loop.on ? player.loop.start : 0));
  $("loop-start").addEventListener("click", () => player.setLoopStart());
  $("loop-end").addEventListener("click", () => player.setLoopEnd());
  $("loop-toggle").addEventListener("click", () => player.setLoop(!player.loop.on));
  $("loop-clear").addEventListener("click", () => player.clearLoop());

  // --- answers
  function choose(fieldset, value) {
    answers[fieldset.dataset.criterion] = value;
    fieldset.querySelectorAll(".option").forEach((b) => {
      const on = b.dataset.value === value;
      b.classList.toggle("selected", on);
      b.setAttribute("aria-checked", on ? "true" : "false");
    });
  }
  fieldsets.forEach((fs) => {
    fs.querySelectorAll(".option").forEach((b) => b.addEventListener("click", () => { if (unlocked) choose(fs, b.dataset.value); }));
    fs.querySelectorAll("input[type=range]").forEach((slider) => {
      const out = slider.parentElement.querySelector("output");
      const set = () => { touched.add(`${fs.dataset.criterion}:${slider.dataset.stimulus}`); out.textContent = slider.value; };
      slider.addEventListener("input", set);
      slider.addEventListener("change", set);
      // rating a sample switches to it, in sync, so you hear what you rate
      slider.addEventListener("pointerdown", () => player.select(slider.dataset.stimulus));
      slider.addEventListener("focus", () => player.select(slider.dataset.stimulus));
    });
    const list = fs.querySelector(".ranking");
    if (list) {
      const move = (row, up) => {
        const other = up ? row.previousElementSibling : row.nextElementSibling;
        if (!other) return;
        if (up) list.insertBefore(row, other); else list.insertBefore(other, row);
        touched.add(fs.dataset.criterion);
      };
      list.querySelectorAll(".rank-label").forEach((b) => b.addEventListener("click", () => selectAndPlay(b.dataset.stimulus)));
      list.querySelectorAll(".rank-row").forEach((row) => {
        row.querySelector(".rank-up").addEventListener("click", () => { if (unlocked) move(row, true); });
        row.querySelector(".rank-down").addEventListener("click", () => { if (unlocked) move(row, false); });
      });
      fs.moveCurrent = (up) => {
        const row = list.querySelector(`.rank-row[data-stimulus="${CSS.escape(player.current || "")}"]`);
        if (row) move(row, up);
      };
    }
  });

  function values() {
    const out = {};
    for (const fs of fieldsets) {
      const key = fs.dataset.criterion;
      const sliders = Array.from(fs.querySelectorAll("input[type=range]"));
      const list = fs.querySelector(".ranking");
      if (sliders.length) {
        const missing = sliders.filter((s) => !touched.has(`${key}:${s.dataset.stimulus}`));
        if (missing.length) return { error: root.dataset.missingSlider, focus: missing[0] };
        out[key] = Object.fromEntries(sliders.map((s) => [s.dataset.stimulus, Number(s.value)]));
      } else if (list) {
        out[key] = Object.fromEntries(Array.from(list.querySelectorAll(".rank-row")).map((r, i) => [r.dataset.stimulus, i + 1]));
      } else if (key in answers) {
        out[key] = answers[key];
      } else {
        return { error: root.dataset.missing };
      }
    }
    return { values: out };
  }

  async function submit() {
    if (busy) return;
    if (!unlocked) { showError(root.dataset.notHeard); return; }
    const v = values();
    if (v.error) { showError(v.error); if (v.focus) v.focus.focus(); return; }
    const comments = {};
    root.querySelectorAll("textarea[name^=comment-]").forEach((t) => { if (t.value.trim()) comments[t.name.slice(8)] = t.value.trim(); });
    busy = true;
    player.pause();
    answerControls().forEach((c) => { c.disabled = true; });
    if (preview) {
      showError(root.dataset.previewNote || "Preview: nothing was stored.");
      window.setTimeout(() => window.location.assign(root.dataset.workUrl), 900);
      return;
    }
    const res = await postJSON(root.dataset.rateUrl, {
      assignment: data.assignment, values: v.values, comments,
      client_token: stableToken(`rate:${data.assignment}`), played: player.report(),
    });
    if (res.ok) { window.location.assign(res.data.next_url || root.dataset.workUrl); return; }
    busy = false;
    answerControls().forEach((c) => { c.disabled = false; });
    const err = (res.data && res.data.error) || {};
    if (res.status === 409) {
      if (err.message) showError(err.message);
      window.setTimeout(() => window.location.assign(root.dataset.workUrl), err.message ? 2500 : 0);
      return;
    }
    showError(err.message || root.dataset.saveFailed);
  }
  $("rate-form").addEventListener("submit", (e) => { e.preventDefault(); submit(); });

  // --- keyboard: every control has a key (listed on the page)
  const sampleKeys = new Map(sampleButtons.map((b) => [b.dataset.key, b.dataset.stimulus]));
  document.addEventListener("keydown", (e) => {
    if (!loaded || e.altKey || e.ctrlKey || e.metaKey) return;
    const t = e.target;
    if (t instanceof HTMLTextAreaElement) return;
    const onSlider = t instanceof HTMLInputElement && t.type === "range";
    const key = e.key.length === 1 ? e.key.toLowerCase() : e.key;
    if (key === " ") { e.preventDefault(); player.toggle(); return; }
    if (key === "Enter") { e.preventDefault(); submit(); return; }
    if (sampleKeys.has(key)) { e.preventDefault(); selectAndPlay(sampleKeys.get(key)); return; }
    if (onSlider && ["ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight", "PageUp", "PageDown", "Home", "End"].includes(key)) return;
    const actions = {
      ArrowLeft: () => player.seek(player.position() - 1), ArrowRight: () => player.seek(player.position() + 1),
      0: () => player.seek(player.loop.on ? player.loop.start : 0), "[": () => player.setLoopStart(),
      "]": () => player.setLoopEnd(), l: () => player.setLoop(!player.loop.on), c: () => player.clearLoop(),
    };
    if (actions[key]) { e.preventDefault(); actions[key](); return; }
    if (!unlocked) return;
    if (mode === "per_stimulus" && ["ArrowUp", "ArrowDown", "PageUp", "PageDown"].includes(key)) {
      const fs = fieldsets[0];
      e.preventDefault();
      if (fs.moveCurrent) { fs.moveCurrent(key === "ArrowUp" || key === "PageUp"); return; }
      const slider = fs.querySelector(`input[type=range][data-stimulus="${CSS.escape(player.current || "")}"]`);
      if (!slider) return;
      const step = key.startsWith("Page") ? 10 : 1;
      slider.value = String(Number(slider.value) + (key.endsWith("Up") ? step : -step));
      slider.dispatchEvent(new Event("input"));
      return;
    }
    const target = fieldsets.find((fs) => fs.querySelector(".option") && !(fs.dataset.criterion in answers))
      || fieldsets.filter((fs) => fs.querySelector(".option")).pop();
    if (!target) return;
    const btn = Array.from(target.querySelectorAll(".option")).find((b) => b.dataset.key === key);
    if (btn) { e.preventDefault(); choose(target, btn.dataset.value); }
  });

  player.load().then(() => {
    loaded = true;
    status.hidden = true;
    sampleButtons.forEach((b) => { b.disabled = false; });
    transport.forEach((c) => { c.disabled = false; });
    if (minFraction <= 0) unlock();
    render();
  }, () => { status.textContent = root.dataset.loadFailed; });
}
