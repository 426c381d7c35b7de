// The question page: audio clues, keyboard-friendly answering, feedback after the verdict.
import { postJSON, stableToken } from "./http.js";

const root = document.getElementById("question");
if (root) setup(root);

function setup(root) {
  const presentation = root.dataset.presentation;
  const mode = root.dataset.mode;
  const form = document.getElementById("answer-form");
  const errorBox = document.getElementById("form-error");
  const feedback = document.getElementById("feedback");
  const options = Array.from(root.querySelectorAll(".option"));
  const clues = Array.from(root.querySelectorAll(".clue"));
  const reveal = document.getElementById("reveal");
  let clueIndex = 0;
  let selected = null;
  let prompted = false;
  let busy = false;
  let done = false;

  function currentAudio() {
    return clues[clueIndex] ? clues[clueIndex].querySelector("audio") : null;
  }

  if (reveal) {
    reveal.addEventListener("click", () => {
      if (clueIndex + 1 >= clues.length) return;
      const playing = currentAudio();
      if (playing) playing.pause();
      clueIndex += 1;
      clues[clueIndex].hidden = false;
      const audio = currentAudio();
      if (audio) audio.play().catch(() => {});
      if (clueIndex + 1 >= clues.length) reveal.hidden = true;
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
      client_token: stableToken(`${presentation}:${prompted ? "p" : "a"}`),
      clue_index: clueIndex,
      prompted,
    };
    const audio = currentAudio();
    if (audio && !Number.isNaN(audio.currentTime)) payload.clip_time_s = audio.currentTime;
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
      prompted = true;
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
    verdict.textContent = data.correct ? "Correct!" : "Not quite.";
    verdict.className = `verdict ${data.correct ? "ok" : "bad"}`;
    document.getElementById("your-answer").textContent = data.your_answer;
    document.getElementById("correct-answer").innerHTML = data.answerline_html;
    document.getElementById("explanation").textContent = data.explanation;
    if (data.correct_position !== null && data.correct_position !== undefined) {
      options.forEach((btn) => {
        const pos = Number(btn.dataset.position);
        if (pos === data.correct_position) btn.classList.add("right");
        else if (pos === selected) btn.classList.add("wrong");
      });
    }
    if (reveal) reveal.hidden = true;
    clues.forEach((clue) => { clue.hidden = false; });
    feedback.dataset.responseId = data.response_id ?? "";
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
    } else if (event.key === "Enter" && mode === "mcq" && !done && selected !== null) {
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
