// Earshot's own audio player (an ES module, no build step), used wherever the server
// needs to know what a person heard: annotation rating pages, training examples, and
// (by the quiz) question clips.
//
// What it does that a bare <audio controls> does not:
//   * no forward seeking past what was heard: the position bar goes back to any point
//     already heard, never ahead of the furthest point reached by playing (unless the
//     page asks for free seeking, e.g. training examples);
//   * it records the played intervals [[start, end], ...] in clip seconds: stretches
//     the audio really advanced through at normal speed. A jump (a seek, a script
//     setting currentTime) starts a new interval, it never extends one, so seeking to
//     the end and letting the last 0.1 s play reports 0.1 s heard;
//   * keyboard: real <button>s (Play/Pause, Replay) and a range input for the position
//     (arrow keys); with `keys: true`, Space plays/pauses and "r" replays when focus is
//     not on a control.
//
// The server checks the report (frontend/listening.py: check_evidence) against the
// clip's duration and its own timeline; the player only makes honest reports easy.
//
// Interface:
//   const player = mount(container, { src, duration, freeSeek, keys, label });
//   player.played()         -> [[start, end], ...] merged, in clip seconds
//   player.heardFraction()  -> 0..1 (heard seconds / duration)
//   player.audio            -> the (control-less) <audio> element
//   container fires "earshot:listen" (detail: { played, heardFraction, ended }) whenever
//   the report changes.
//   mountAll(root) mounts every .earshot-player[data-src] (data-duration, data-free-seek,
//   data-keys) under root and returns the players.

const JUMP_SLACK_S = 0.35; // timeupdate fires every ~250 ms; more than this ahead is a jump
const SEEK_SLACK_S = 0.3;

/** Sorted union of [start, end] intervals. */
export function mergeIntervals(list) {
  const sorted = list.filter((p) => p[1] > p[0]).map((p) => [p[0], p[1]]).sort((a, b) => a[0] - b[0]);
  const out = [];
  for (const [s, e] of sorted) {
    if (out.length && s <= out[out.length - 1][1]) out[out.length - 1][1] = Math.max(out[out.length - 1][1], e);
    else out.push([s, e]);
  }
  return out;
}

function fmt(seconds) {
  if (!Number.isFinite(seconds)) return "0:00";
  const s = Math.max(0, Math.floor(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

function el(tag, attrs = {}, text = "") {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text) node.textContent = text;
  return node;
}

export class Player {
  constructor(container, { src, duration = null, freeSeek = false, keys = false, label = "" } = {}) {
    this.container = container;
    this.freeSeek = freeSeek;
    this.serverDuration = Number.isFinite(duration) && duration > 0 ? duration : null;
    this.intervals = [];
    this.current = null; // [start, end] of the stretch playing now
    this.lastTick = 0;
    // where the next stretch starts: the position when play was asked for (or a seek
    // landed), and when. A busy page may run the "playing" handler a few hundred ms
    // after the audio started; the stretch then still starts here, not at the position
    // read late (which lost the clip's first words and left the answers locked).
    this.anchor = null;
    this.ended = false;
    const t = (key, fallback) => container.dataset[key] || fallback;
    this.text = { play: t("labelPlay", "Play"), pause: t("labelPause", "Pause"), replay: t("labelReplay", "Replay"),
                  position: t("labelPosition", "Position") };

    container.classList.add("earshot-player");
    this.audio = el("audio", { preload: "auto" });
    this.audio.src = src;
    this.playBtn = el("button", { type: "button", class: "button player-play", "aria-label": this.text.play }, "▶");
    this.replayBtn = el("button", { type: "button", class: "button ghost player-replay", "aria-label": this.text.replay }, "↺");
    this.bar = el("input", { type: "range", class: "player-bar", min: "0", max: "1000", step: "1", value: "0",
                             "aria-label": label || this.text.position });
    this.time = el("span", { class: "player-time muted small", "aria-live": "off" }, "0:00 / 0:00");
    container.replaceChildren(this.audio, this.playBtn, this.replayBtn, this.bar, this.time);

    this.playBtn.addEventListener("click", () => this.toggle());
    this.replayBtn.addEventListener("click", () => this.replay());
    this.bar.addEventListener("input", () => this.seekTo((this.bar.valueAsNumber / 1000) * this.duration()));
    const a = this.audio;
    a.addEventListener("playing", () => { this.open(); this.render(); });
    a.addEventListener("timeupdate", () => { this.advance(); this.render(); });
    a.addEventListener("pause", () => { this.advance(); this.close(); this.render(); });
    a.addEventListener("ended", () => { this.advance(); this.ended = true; this.close(); this.render(); });
    a.addEventListener("seeking", () => { this.guardSeek(); this.setAnchor(); });
    a.addEventListener("loadedmetadata", () => this.render());
    if (keys) document.addEventListener("keydown", (e) => this.onKey(e));
    this.render();
  }

  duration() {
    return this.serverDuration || (Number.isFinite(this.audio.duration) ? this.audio.duration : 0);
  }

  /** The furthest point reached by playing: seeking may go up to here, not beyond. */
  frontier() {
    const ends = this.intervals.map((p) => p[1]);
    if (this.current) ends.push(this.current[1]);
    return ends.length ? Math.max(...ends) : 0;
  }

  setAnchor() {
    this.anchor = { at: this.audio.currentTime, t: performance.now() };
  }

  open() {
    const now = this.audio.currentTime;
    let start = now;
    if (this.anchor) {
      // only what real time allows: audio cannot have advanced faster than the clock
      const wall = (performance.now() - this.anchor.t) / 1000;
      const ahead = now - this.anchor.at;
      if (ahead >= 0 && ahead <= wall * (this.audio.playbackRate || 1) + JUMP_SLACK_S) start = this.anchor.at;
      this.anchor = null;
    }
    this.current = [start, now];
    this.lastTick = performance.now();
  }

  advance() {
    if (!this.current) return;
    const now = this.audio.currentTime;
    const wall = (performance.now() - this.lastTick) / 1000;
    this.lastTick = performance.now();
    const step = now - this.current[1];
    if (step >= 0 && step <= wall * (this.audio.playbackRate || 1) + JUMP_SLACK_S) {
      this.current[1] = now;
    } else {
      this.close(); // a jump: what lies between was not heard
      if (!this.audio.paused) this.open();
    }
  }

  close() {
    if (this.current && this.current[1] > this.current[0]) this.intervals.push(this.current);
    this.current = null;
    this.intervals = mergeIntervals(this.intervals);
    this.emit();
  }

  guardSeek() {
    if (this.freeSeek) return;
    const limit = this.frontier();
    if (this.audio.currentTime > limit + SEEK_SLACK_S) this.audio.currentTime = limit;
  }

  seekTo(seconds) {
    const limit = this.freeSeek ? this.duration() : this.frontier();
    this.audio.currentTime = Math.max(0, Math.min(seconds, limit));
    this.render();
  }

  toggle() {
    if (this.audio.paused) {
      if (this.audio.ended || this.audio.currentTime >= this.duration() - 0.01) this.audio.currentTime = 0;
      this.setAnchor();
      return this.audio.play();
    }
    this.audio.pause();
    return Promise.resolve();
  }

  replay() {
    this.audio.currentTime = 0;
    this.setAnchor();
    return this.audio.play();
  }

  onKey(e) {
    const target = e.target;
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    if (target instanceof HTMLElement && target.closest("button, input, textarea, select, a")) return;
    if (e.key === " ") { e.preventDefault(); this.toggle(); }
    else if (e.key.toLowerCase() === "r") { e.preventDefault(); this.replay(); }
  }

  played() {
    const list = this.intervals.slice();
    if (this.current && this.current[1] > this.current[0]) list.push(this.current.slice());
    return mergeIntervals(list).map(([s, e]) => [Math.round(s * 1000) / 1000, Math.round(e * 1000) / 1000]);
  }

  heardFraction() {
    const d = this.duration();
    if (!d) return 0;
    return Math.min(1, this.played().reduce((sum, [s, e]) => sum + (Math.min(e, d) - Math.max(s, 0)), 0) / d);
  }

  emit() {
    this.container.dispatchEvent(new CustomEvent("earshot:listen", {
      detail: { played: this.played(), heardFraction: this.heardFraction(), ended: this.ended },
    }));
  }

  render() {
    const d = this.duration();
    const playing = !this.audio.paused && !this.audio.ended;
    this.playBtn.textContent = playing ? "❚❚" : "▶";
    this.playBtn.setAttribute("aria-label", playing ? this.text.pause : this.text.play);
    this.playBtn.setAttribute("aria-pressed", playing ? "true" : "false");
    const pos = d ? Math.min(1, this.audio.currentTime / d) : 0;
    this.bar.value = String(Math.round(pos * 1000));
    const heard = d ? Math.min(1, this.frontier() / d) : 0;
    this.bar.style.setProperty("--heard", `${Math.round(heard * 100)}%`);
    this.bar.setAttribute("aria-valuetext", `${fmt(this.audio.currentTime)} / ${fmt(d)}`);
    this.time.textContent = `${fmt(this.audio.currentTime)} / ${fmt(d)}`;
    if (playing) this.emit();
  }
}

/** Mount Earshot's player in `container` (its children are replaced). */
export function mount(container, options) {
  const player = new Player(container, options);
  container.earshotPlayer = player;
  return player;
}

/** Mount a player in every `.earshot-player[data-src]` under `root`. */
export function mountAll(root = document) {
  return Array.from(root.querySelectorAll(".earshot-player[data-src]")).map((node) => mount(node, {
    src: node.dataset.src,
    duration: node.dataset.duration ? Number(node.dataset.duration) : null,
    freeSeek: node.dataset.freeSeek === "1",
    keys: node.dataset.keys === "1",
    label: node.dataset.label || "",
  }));
}
