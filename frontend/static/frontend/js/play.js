// The question page: audio clues in Earshot's player, clues revealed by the server,
// buzzing into pyramids, timers, "I don't know", keyboard-friendly answering, and
// feedback (with the machines' results) as far as the project's policy allows.
// Every time that counts is the server's: the page only asks (reveal, buzz, answer).
import { postJSON, stableToken } from "./http.js";
import { mount } from "./player.js";

const root = document.getElementById("question");
if (root) setup(root);

function fmt(template, values) {
  return String(template || "").replace(/%\((\w+)\)s/g, (_, key) => String(values[key] ?? ""));
}

function setup(root) {
  const T = JSON.parse(document.getElementById("play-text").textContent || "{}");
  const presentation = root.dataset.presentation;
  const mode = root.dataset.mode;
  const buzzing = root.dataset.buzzing === "1";
  let buzzed = root.dataset.buzzed === "1";
  const form = document.getElementById("answer-form");
  const errorBox = document.getElementById("form-error");
  const feedback = document.getElementById("feedback");
  const options = Array.from(root.querySelectorAll(".option"));
  const cluesBox = document.getElementById("clues");
  const reveal = document.getElementById("reveal");
  const buzzBtn = document.getElementById("buzz");
  const buzzRow = document.getElementById("buzz-row");
  const skipBtn = document.getElementById("skip");
  const timerBox = document.getElementById("timer");
  const players = new Map(); // clue index -> Player
  let selected = null;
  let busy = false;
  let done = false;
  let timer = null;

  function mountClue(clue, autoplay) {
    const box = clue.querySelector(".earshot-player");
    const player = mount(box, { src: box.dataset.src, duration: Number(box.dataset.duration) || null });
    const index = Number(clue.dataset.index);
    players.set(index, player);
    // Clues play in order: when one ends, ask the server for the next one.
    player.audio.addEventListener("ended", () => {
      if (buzzing && !buzzed && !done && reveal && !reveal.hidden && index === players.size - 1) revealNext();
    });
    if (autoplay) player.toggle().catch(() => {});
    return player;
  }
  root.querySelectorAll(".clue").forEach((clue) => mountClue(clue, false));

  function pauseAll() {
    players.forEach((p) => { if (!p.audio.paused) p.audio.pause(); });
  }

  /** What was heard of each clue, for the server to check (listening evidence). */
  function listening() {
    const report = {};
    players.forEach((player, index) => { report[String(index)] = player.played(); });
    return report;
  }

  function showError(message) {
    errorBox.textContent = message;
    errorBox.hidden = false;
  }

  async function revealNext() {
    if (busy || done || buzzed) return;
    busy = true;
    const { ok, data } = await postJSON(root.dataset.revealUrl, { presentation });
    busy = false;
    if (!ok) return showError((data.error && data.error.message) || T.revealFailed);
    pauseAll();
    if (!players.has(data.clue_index)) {
      const clue = document.createElement("div");
      clue.className = "clue";
      clue.dataset.index = String(data.clue_index);
      const label = document.createElement("span");
      label.className = "clue-label";
      label.textContent = (reveal.dataset.clueLabel || "Clue %(n)s of %(total)s")
        .replace("%(n)s", String(data.clue_index + 1)).replace("%(total)s", String(data.total));
      const box = document.createElement("div");
      box.className = "earshot-player";
      box.dataset.src = data.url;
      box.dataset.duration = String(data.duration);
      const first = cluesBox.querySelector(".earshot-player");
      if (first) Object.assign(box.dataset, {
        labelPlay: first.dataset.labelPlay, labelPause: first.dataset.labelPause,
        labelReplay: first.dataset.labelReplay, labelPosition: first.dataset.labelPosition,
      });
      clue.append(label, box);
      cluesBox.insertBefore(clue, reveal);
      mountClue(clue, true);
    }
    if (!data.more) reveal.hidden = true;
  }
  if (reveal) reveal.addEventListener("click", revealNext);

  // --- timers (the server enforces them, with a short grace) ---------------------
  function countdown(seconds, onZero) {
    if (timer) clearInterval(timer);
    let left = Math.max(0, Number(seconds));
    const endAt = Date.now() + left * 1000;
    const paint = () => {
      left = Math.max(0, (endAt - Date.now()) / 1000);
      timerBox.textContent = fmt(T.seconds, { n: Math.ceil(left) });
      timerBox.classList.toggle("low", left <= 3);
    };
    timerBox.hidden = false;
    paint();
    timer = setInterval(() => {
      paint();
      if (left <= 0) { clearInterval(timer); timer = null; onZero(); }
    }, 200);
  }

  function openAnswer(seconds) {
    buzzed = true;
    pauseAll();
    if (buzzRow) buzzRow.hidden = true;
    if (reveal) reveal.hidden = true;
    form.hidden = false;
    form.querySelectorAll("input, button").forEach((el) => { el.disabled = false; });
    const input = document.getElementById("answer");
    if (input) input.focus(); else if (options[0]) options[0].focus();
    if (seconds !== null && seconds !== undefined && seconds !== "") countdown(seconds, () => submit(true));
  }

  async function buzz() {
    if (busy || done || buzzed) return;
    busy = true;
    const { ok, data } = await postJSON(root.dataset.buzzUrl, { presentation });
    busy = false;
    if (!ok) {
      if (data.error && /time/.test(data.error.message || "")) return skip("time");
      return showError((data.error && data.error.message) || T.buzzFailed);
    }
    openAnswer(data.seconds_left ?? data.answer_seconds);
  }
  if (buzzBtn) buzzBtn.addEventListener("click", buzz);

  async function skip(reason = "skip") {
    if (busy || done) return;
    busy = true;
    const { ok, data } = await postJSON(root.dataset.skipUrl, {
      presentation, reason, client_token: stableToken(`${presentation}:answer`), listening: listening(),
    });
    busy = false;
    if (!ok) return showError((data.error && data.error.message) || T.sendFailed);
    done = true;
    render(data);
  }
  skipBtn.addEventListener("click", () => skip("skip"));

  function select(position) {
    selected = position;
    options.forEach((btn) => {
      const on = Number(btn.dataset.position) === position;
      btn.classList.toggle("selected", on);
      btn.setAttribute("aria-checked", on ? "true" : "false");
      if (on) btn.focus();
    });
  }

  options.forEach((btn) => {
    btn.addEventListener("click", () => {
      select(Number(btn.dataset.position));
      submit();
    });
  });

  /** Send the answer; ``timeUp``: the answer timer ran out, send what there is. */
  async function submit(timeUp = false) {
    if (busy || done) return;
    errorBox.hidden = true;
    const payload = {
      presentation,
      client_token: stableToken(`${presentation}:answer`),
      listening: listening(),
    };
    if (mode === "mcq") {
      if (selected === null && !timeUp) return showError(T.chooseFirst);
      if (selected !== null) payload.choice_position = selected;
    } else {
      const input = document.getElementById("answer");
      const value = input.value.trim();
      if (!value && !timeUp) return showError(T.typeFirst);
      payload.answer = value;
    }
    busy = true;
    const { ok, data } = await postJSON(root.dataset.answerUrl, payload);
    busy = false;
    if (!ok) return showError((data.error && data.error.message) || T.sendFailed);
    if (data.status === "prompt") {
      showError(data.message);
      const input = document.getElementById("answer");
      if (input) { input.select(); input.focus(); }
      return;
    }
    done = true;
    render(data);
  }

  function renderMachines(data) {
    const box = document.getElementById("machines");
    if (!data.machines && !data.players) return;
    const list = document.getElementById("machine-list");
    list.replaceChildren();
    (data.machines || []).forEach((m) => {
      const li = document.createElement("li");
      const name = document.createElement("span");
      name.textContent = m.condition ? `${m.system} (${m.condition})` : m.system;
      const badge = document.createElement("span");
      badge.className = `badge ${m.correct ? "ok" : "bad"}`;
      badge.textContent = m.correct ? T.right : T.wrongShort;
      li.append(name, " ", badge);
      list.append(li);
    });
    if (!(data.machines || []).length) {
      const li = document.createElement("li");
      li.className = "muted";
      li.textContent = T.noMachines;
      list.append(li);
    }
    const share = document.getElementById("players-share");
    const p = data.players;
    share.textContent = p && p.n > 0
      ? fmt(T.share, { share: `${Math.round((p.share || 0) * 100)}%`, n: p.n }) : T.firstPlayer;
    box.hidden = false;
  }

  function render(data) {
    if (timer) { clearInterval(timer); timer = null; }
    timerBox.hidden = true;
    form.querySelectorAll("input, button").forEach((el) => { el.disabled = true; });
    skipBtn.disabled = true;
    if (buzzRow) buzzRow.hidden = true;
    const verdict = document.getElementById("verdict");
    if (data.feedback === "none") {
      verdict.textContent = data.message || T.recorded;
      verdict.className = "verdict";
    } else {
      verdict.textContent = data.ruling || (data.correct ? T.correct : T.wrong);
      verdict.className = `verdict ${data.correct ? "ok" : data.outcome === "answer" ? "bad" : ""}`;
    }
    document.getElementById("your-answer").textContent = data.your_answer;
    document.getElementById("your-answer-row").hidden = !data.your_answer;
    if (data.points !== undefined) {
      document.getElementById("points").textContent = fmt(T.points, { n: data.points > 0 ? `+${data.points}` : data.points });
      document.getElementById("streak").textContent = data.streak && data.streak.current > 1
        ? fmt(T.streak, { n: data.streak.current, best: data.streak.best }) : "";
      document.getElementById("points-row").hidden = false;
    }
    if (data.feedback === "full") {
      document.getElementById("correct-answer").innerHTML = data.answerline_html;
      document.getElementById("correct-answer-row").hidden = false;
      if (data.correct_position !== null && data.correct_position !== undefined) {
        options.forEach((btn) => {
          const pos = Number(btn.dataset.position);
          if (pos === data.correct_position) btn.classList.add("right");
          else if (pos === selected) btn.classList.add("wrong");
        });
      }
    }
    if (data.technical) {
      document.getElementById("explanation").textContent =
        `${data.technical.explanation} [${data.technical.rule} · ${data.technical.rule_version}]`;
      document.getElementById("technical").hidden = false;
    }
    renderMachines(data);
    const next = document.getElementById("next");
    if (data.round && data.round.done) {
      next.href = data.round.summary_url;
      next.textContent = `${data.round.kind === "daily" ? T.dailyDone : T.summary} →`;
    }
    if (reveal) reveal.hidden = true;
    pauseAll();
    // A challenge needs a wrong verdict to challenge: only a judged free answer.
    feedback.dataset.responseId = data.challengeable ? (data.response_id ?? "") : "";
    feedback.hidden = false;
    next.focus();
  }

  form.addEventListener("submit", (event) => {
    event.preventDefault();
    submit();
  });

  document.addEventListener("keydown", (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const typing = event.target instanceof HTMLInputElement || event.target instanceof HTMLTextAreaElement;
    if (buzzing && !buzzed && !done && !typing && (event.key === " " || event.key === "b")) {
      event.preventDefault();
      buzz();
    } else if (mode === "mcq" && !done && !typing && (!buzzing || buzzed) && /^[0-9]$/.test(event.key)) {
      // 1-9 pick options 1-9 and 0 the tenth (multiple choice has 2 to 10 options)
      const position = event.key === "0" ? 9 : Number(event.key) - 1;
      if (position < options.length) { event.preventDefault(); select(position); }
    } else if (event.key === "Enter" && mode === "mcq" && !done && !typing && (!buzzing || buzzed)) {
      event.preventDefault();
      submit();
    } else if (event.key === "Enter" && done && !typing) {
      event.preventDefault();
      window.location.href = document.getElementById("next").href;
    }
  });

  // Ready: the controls were disabled in the page so that nothing is sent before
  // these handlers exist (a native submit would reload the page and drop the answer).
  skipBtn.disabled = false;
  const left = root.dataset.secondsLeft;
  if (buzzing && !buzzed) {
    buzzBtn.disabled = false;
    if (left !== "") countdown(left, () => skip("time"));
  } else if (buzzing && buzzed) {
    openAnswer(left);
  } else {
    form.querySelectorAll("input, button").forEach((el) => { el.disabled = false; });
    const input = document.getElementById("answer");
    if (input) input.focus();
    if (left !== "") countdown(left, () => skip("time"));
  }
  root.dataset.ready = "true";
}
