// Live room page: one websocket to the server (rooms/consumers.py), which owns the clock.
// The page only plays what the server revealed, at the wall-clock time the server set
// (corrected by a measured clock offset), and sends buzzes and answers.
const config = JSON.parse(document.getElementById("room-config").textContent);
const T = config.text;
const $ = (id) => document.getElementById(id);
const status = $("room-status"), prompt = $("room-prompt"), clue = $("room-clue"), audio = $("room-audio");
const buzzButton = $("room-buzz"), startButton = $("room-start"), nextButton = $("room-next");
const answerForm = $("room-answer-form"), answerInput = $("room-answer"), ruling = $("room-ruling");
const timer = $("room-timer");

let socket = null;
let offsetMs = 0; // server clock minus page clock
let question = null; // last "question" event
let lockedOut = false;
let answerDeadline = null;
let retry = 500;
let playTimer = null;

const fmt = (text, values) => text.replace(/%\((\w+)\)s/g, (_, key) => values[key] ?? "");
const serverNow = () => Date.now() + offsetMs;

function send(message) {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  socket = new WebSocket(`${scheme}//${location.host}${config.socket}`);
  socket.addEventListener("open", () => {
    retry = 500;
    send({ type: "ping", t: Date.now() });
  });
  socket.addEventListener("message", (e) => handle(JSON.parse(e.data)));
  socket.addEventListener("close", (e) => {
    if (e.code === 4403) { status.textContent = T.lobby; return; }
    status.textContent = T.reconnecting;
    setTimeout(connect, retry);
    retry = Math.min(retry * 2, 8000);
  });
}

function renderScores(players) {
  const body = document.querySelector("#room-scores tbody");
  body.replaceChildren(...players.map((p) => {
    const row = document.createElement("tr");
    const name = document.createElement("td");
    name.textContent = p.name + (p.id === config.you ? ` (${T.you})` : "") + (p.online ? "" : ` — ${T.offline}`);
    const pts = document.createElement("td");
    pts.className = "num";
    pts.textContent = String(p.points);
    row.append(name, pts);
    return row;
  }));
}

function schedulePlay() {
  clearTimeout(playTimer);
  if (!question || question.paused || question.phase !== "open") { audio.pause(); return; }
  const index = question.revealed - 1;
  const url = question.clips[index];
  if (!url) return;
  if (!audio.src.endsWith(url)) audio.src = url;
  const startsAt = question.starts_at[index];
  const wait = startsAt - serverNow();
  clue.hidden = false;
  clue.textContent = fmt(T.clue, { n: index + 1, total: question.clues });
  const play = () => {
    const into = Math.max(0, (serverNow() - startsAt) / 1000);
    if (Number.isFinite(audio.duration) && into >= audio.duration) return;
    try { audio.currentTime = into; } catch (_) { /* not seekable yet: start at 0 */ }
    audio.play().catch(() => { /* autoplay refused until the first tap; the buzz tap unlocks it */ });
  };
  if (wait > 0) playTimer = setTimeout(play, wait); else play();
}

function showQuestion(q) {
  if (!question || q.question !== question.question) { ruling.hidden = true; lockedOut = false; }
  question = q;
  prompt.hidden = !q.prompt;
  prompt.textContent = q.prompt || "";
  lockedOut = q.locked_out.includes(config.you);
  const open = q.phase === "open";
  buzzButton.hidden = !(open || q.phase === "buzzed");
  buzzButton.disabled = !open || lockedOut;
  if (q.phase === "buzzed" && q.buzzer_id !== config.you) status.textContent = fmt(T.waiting_answer, { name: q.buzzer });
  else if (open) status.textContent = "";
  answerForm.hidden = !(q.phase === "buzzed" && q.buzzer_id === config.you);
  nextButton.hidden = true;
  schedulePlay();
}

function tickTimer() {
  if (answerDeadline === null || answerForm.hidden) { timer.textContent = ""; return; }
  const left = Math.max(0, Math.ceil((answerDeadline - Date.now()) / 1000));
  timer.textContent = `(${left})`;
  if (left > 0) setTimeout(tickTimer, 250);
}

function handle(msg) {
  switch (msg.type) {
    case "pong":
      offsetMs = msg.server - (msg.t + Date.now()) / 2;
      break;
    case "state":
      renderScores(msg.players);
      document.getElementById("room").dataset.phase = msg.phase;
      startButton.hidden = !(config.host && msg.phase === "lobby");
      if (msg.phase === "lobby") status.textContent = T.lobby;
      if (msg.phase === "finished") {
        status.textContent = T.finished;
        buzzButton.hidden = true; answerForm.hidden = true; nextButton.hidden = true;
        audio.pause();
      } else if (msg.question && msg.question.phase !== "won" && msg.question.phase !== "dead") {
        showQuestion(msg.question);
      }
      break;
    case "question":
      // after a wrong answer the same question goes on: its ruling stays on screen
      showQuestion(msg);
      break;
    case "buzz":
      audio.pause();
      clearTimeout(playTimer);
      buzzButton.disabled = true;
      if (msg.player === config.you) {
        status.textContent = T.you_buzzed;
        answerForm.hidden = false;
        answerInput.value = "";
        answerInput.focus();
        answerDeadline = Date.now() + msg.answer_seconds * 1000;
        tickTimer();
      } else {
        status.textContent = fmt(T.locked, { name: msg.name });
      }
      document.getElementById("room").dataset.buzzer = String(msg.player);
      break;
    case "ruling":
      answerForm.hidden = true;
      answerDeadline = null;
      ruling.hidden = false;
      ruling.textContent = `${msg.name}: ${msg.sentence || ""}${msg.points ? ` (${msg.points > 0 ? "+" : ""}${msg.points} ${T.points})` : ""}`;
      ruling.className = `verdict ${msg.correct === true ? "ok" : msg.correct === false ? "bad" : ""}`;
      if (msg.player === config.you && msg.correct === false) lockedOut = true;
      break;
    case "end":
      audio.pause();
      clearTimeout(playTimer);
      buzzButton.disabled = true;
      buzzButton.hidden = true;
      answerForm.hidden = true;
      status.textContent = msg.name ? fmt(T.won, { name: msg.name }) : T.dead;
      if (msg.answer) {
        ruling.hidden = false;
        ruling.textContent = `${ruling.textContent ? `${ruling.textContent} — ` : ""}${fmt(T.answer_was, { answer: msg.answer })}`;
      }
      nextButton.hidden = !config.host;
      break;
    case "error":
      if (msg.field === "buzz") status.textContent = T.late;
      else status.textContent = msg.message;
      break;
    default:
      break;
  }
}

function buzz() {
  if (buzzButton.hidden || buzzButton.disabled || !question) return;
  buzzButton.disabled = true;
  send({ type: "buzz", question: question.question });
}

buzzButton.addEventListener("click", buzz);
startButton.addEventListener("click", () => { startButton.disabled = true; send({ type: "start" }); });
nextButton.addEventListener("click", () => { if (question) send({ type: "next", question: question.question }); });
answerForm.addEventListener("submit", (e) => {
  e.preventDefault();
  const text = answerInput.value.trim();
  if (text && question) send({ type: "answer", question: question.question, text });
});
document.addEventListener("keydown", (e) => {
  if (e.code === "Space" && document.activeElement !== answerInput) { e.preventDefault(); buzz(); }
});
setInterval(() => send({ type: "ping", t: Date.now() }), 15000);
connect();
