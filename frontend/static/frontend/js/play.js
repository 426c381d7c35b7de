// The question page: audio clues in Earshot's player, clues revealed by the server,
// keyboard-friendly answering, feedback as far as the project's policy allows.
import { postJSON, stableToken } from "./http.js";
import { mount } from "./player.js";

const root = document.getElementById("question");
if (root) setup(root);

function setup(root) {
  const presentation = root.dataset.presentation;
  const mode = root.dataset.mode;
  const form = document.getElementById("answer-form");
  const errorBox = document.getElementById("form-error");
  const feedback = document.getElementById("feedback");
  const options = Array.from(root.querySelectorAll(".option"));
  const cluesBox = document.getElementById("clues");
  const reveal = document.getElementById("reveal");
  const players = new Map(); // clue index -> Player
  let selected = null;
  let busy = false;
  let done = false;

  function mountClue(clue, autoplay) {
    const box = clue.querySelector(".earshot-player");
    const player = mount(box, { src: box.dataset.src, duration: Number(box.dataset.duration) || null });
    players.set(Number(clue.dataset.index), player);
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

  if (reveal) {
    reveal.addEventListener("click", async () => {
      if (busy || done) return;
      busy = true;
      const { ok, data } = await postJSON(root.dataset.revealUrl, { presentation });
      busy = false;
      if (!ok) return showError((data.error && data.error.message) || "Could not reveal the next clue.");
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
        clue.append(label, box);
        cluesBox.insertBefore(clue, reveal);
        mountClue(clue, true);
      }
      if (!data.more) reveal.hidden = true;
    });
  }

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

  function showError(message) {
    errorBox.textContent = message;
    errorBox.hidden = false;
  }

  async function submit() {
    if (busy || done) return;
    errorBox.hidden = true;
    const payload = {
      presentation,
      client_token: stableToken(`${presentation}:answer`),
      listening: listening(),
    };
    if (mode === "mcq") {
      if (selected === null) return showError("Choose an option first (keys 1–4).");
      payload.choice_position = selected;
    } else {
      const input = document.getElementById("answer");
      const value = input.value.trim();
      if (!value) return showError("Type an answer first.");
      payload.answer = value;
    }
    busy = true;
    const { ok, data } = await postJSON(root.dataset.answerUrl, payload);
    busy = false;
    if (!ok) return showError((data.error && data.error.message) || "Could not send your answer. Try again.");
    if (data.status === "prompt") {
      showError(data.message);
      const input = document.getElementById("answer");
      if (input) { input.select(); input.focus(); }
      return;
    }
    done = true;
    render(data);
  }

  function render(data) {
    form.querySelectorAll("input, button").forEach((el) => { el.disabled = true; });
    const verdict = document.getElementById("verdict");
    if (data.feedback === "none") {
      verdict.textContent = data.message || "Thanks: your answer is recorded.";
      verdict.className = "verdict";
    } else {
      verdict.textContent = data.correct ? "Correct!" : "Not quite.";
      verdict.className = `verdict ${data.correct ? "ok" : "bad"}`;
    }
    document.getElementById("your-answer").textContent = data.your_answer;
    if (data.feedback === "full") {
      document.getElementById("correct-answer").innerHTML = data.answerline_html;
      document.getElementById("correct-answer-row").hidden = false;
      const explanation = document.getElementById("explanation");
      explanation.textContent = data.explanation;
      explanation.hidden = false;
      if (data.correct_position !== null && data.correct_position !== undefined) {
        options.forEach((btn) => {
          const pos = Number(btn.dataset.position);
          if (pos === data.correct_position) btn.classList.add("right");
          else if (pos === selected) btn.classList.add("wrong");
        });
      }
    }
    if (reveal) reveal.hidden = true;
    pauseAll();
    // A challenge needs a wrong verdict to challenge: only a free answer with a ruling shown.
    feedback.dataset.responseId = mode === "free" && data.feedback !== "none" ? (data.response_id ?? "") : "";
    feedback.hidden = false;
    document.getElementById("next").focus();
  }

  form.addEventListener("submit", (event) => {
    event.preventDefault();
    submit();
  });

  document.addEventListener("keydown", (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const typing = event.target instanceof HTMLInputElement;
    if (mode === "mcq" && !done && !typing && /^[1-4]$/.test(event.key)) {
      const position = Number(event.key) - 1;
      if (position < options.length) { event.preventDefault(); select(position); }
    } else if (event.key === "Enter" && mode === "mcq" && !done && !typing) {
      event.preventDefault();
      submit();
    } else if (event.key === "Enter" && done && !typing) {
      event.preventDefault();
      window.location.href = document.getElementById("next").href;
    }
  });

  // Ready: the controls were disabled in the page so that nothing is sent before
  // these handlers exist (a native submit would reload the page and drop the answer).
  form.querySelectorAll("input, button").forEach((el) => { el.disabled = false; });
  const input = document.getElementById("answer");
  if (input) input.focus();
  root.dataset.ready = "true";
}
