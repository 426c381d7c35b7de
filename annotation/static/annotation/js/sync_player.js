// A synchronised multi-stimulus player on the Web Audio API (an ES module, no build step).
//
// Every stimulus of a listening-test item is fetched and decoded up front; they share
// ONE timeline position, so switching from one stimulus to another continues at the
// same point of the clip, instantly (a new AudioBufferSourceNode starts at the current
// position, with a 10 ms cross-fade so the switch does not click). A loop region
// [loopStart, loopEnd) repeats when the loop is on.
//
// Listening evidence, per stimulus: the stretches of that stimulus' clip that really
// played, [[start, end], ...] in clip seconds, computed from the audio clock
// (AudioContext.currentTime) when a source stops, never from a UI timer, and merged.
// The server checks them (annotation.services_listening) against each clip's duration
// and its own clock; this module only makes honest reports easy.
//
// Interface:
//   const p = new SyncPlayer(stimuli)      stimuli: [{id, audio_url, duration_s}]
//   await p.load()                         fetch + decode all (rejects on any failure)
//   p.select(id) / p.play() / p.pause() / p.toggle() / p.seek(seconds)
//   p.setLoopStart() / p.setLoopEnd() / p.setLoop(on) / p.clearLoop()
//   p.position() / p.duration / p.current / p.playing / p.loop -> {on, start, end}
//   p.played(id) -> merged intervals; p.heardFraction(id) -> 0..1; p.report() -> {id: intervals}
//   p.onchange = () => {...}               called on every state change

const FADE_S = 0.01;

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

/** Where a source started at `start` is after `elapsed` seconds (loop: {on, start, end}). */
export function positionAfter(start, elapsed, loop, duration) {
  if (!loop.on || start >= loop.end) return Math.min(duration, start + elapsed);
  if (start + elapsed <= loop.end) return start + elapsed;
  const length = loop.end - loop.start;
  return length > 0 ? loop.start + ((elapsed - (loop.end - start)) % length) : loop.end;
}

/** The stretches of the clip a source started at `start` played in `elapsed` seconds. */
export function coveredIntervals(start, elapsed, loop, duration) {
  if (elapsed <= 0) return [];
  if (!loop.on || start >= loop.end) return [[start, Math.min(duration, start + elapsed)]];
  const out = [[start, Math.min(loop.end, start + elapsed)]];
  const rest = elapsed - (loop.end - start);
  const length = loop.end - loop.start;
  if (rest > 0 && length > 0) out.push([loop.start, loop.start + Math.min(rest, length)]);
  return out;
}

export class SyncPlayer {
  constructor(stimuli) {
    this.stimuli = stimuli;
    this.buffers = new Map();
    this.evidence = new Map(stimuli.map((s) => [s.id, []]));
    this.duration = Math.max(0, ...stimuli.map((s) => Number(s.duration_s) || 0));
    this.current = stimuli.length ? stimuli[0].id : null;
    this.playing = false;
    this.loop = { on: false, start: 0, end: this.duration };
    this.pos = 0; // the position while paused
    this.live = null; // {id, source, gain, ctxStart, startPos}
    this.onchange = null;
    const Ctx = window.AudioContext || window.webkitAudioContext;
    this.ctx = Ctx ? new Ctx() : null;
  }

  async load() {
    if (!this.ctx) throw new Error("Web Audio is not available in this browser");
    await Promise.all(this.stimuli.map(async (s) => {
      const res = await fetch(s.audio_url, { credentials: "same-origin" });
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
      const data = await res.arrayBuffer();
      const buffer = await new Promise((resolve, reject) => {
        const p = this.ctx.decodeAudioData(data, resolve, reject);
        if (p && p.then) p.then(resolve, reject);
      });
      this.buffers.set(s.id, buffer);
    }));
    this.duration = Math.max(...this.stimuli.map((s) => this.buffers.get(s.id).duration));
    this.loop.end = this.duration;
  }

  _durationOf(id) {
    const buffer = this.buffers.get(id);
    return buffer ? buffer.duration : this.duration;
  }

  _changed() { if (this.onchange) this.onchange(); }

  /** Where the shared timeline is now. */
  position() {
    if (!this.live) return this.pos;
    const elapsed = this.ctx.currentTime - this.live.ctxStart;
    return positionAfter(this.live.startPos, elapsed, this.loop, this._durationOf(this.live.id));
  }

  _liveIntervals(now) {
    if (!this.live) return [];
    return coveredIntervals(this.live.startPos, now - this.live.ctxStart, this.loop, this._durationOf(this.live.id));
  }

  /** Stop the live source and book what it played. */
  _stopLive() {
    if (!this.live) return;
    const now = this.ctx.currentTime;
    const live = this.live;
    this.pos = this.position();
    const own = this.evidence.get(live.id);
    own.push(...this._liveIntervals(now));
    this.evidence.set(live.id, mergeIntervals(own));
    this.live = null;
    live.source.onended = null;
    try {
      live.gain.gain.setValueAtTime(live.gain.gain.value, now);
      live.gain.gain.linearRampToValueAtTime(0, now + FADE_S);
      live.source.stop(now + FADE_S);
    } catch (err) { /* already stopped */ }
  }

  _startLive(id) {
    const buffer = this.buffers.get(id);
    if (!buffer) return;
    let start = this.pos;
    if (this.loop.on && (start < this.loop.start || start >= this.loop.end)) start = this.loop.start;
    if (!this.loop.on && start >= buffer.duration - 0.005) start = 0; // at the end: from the top
    this.pos = start;
    const source = this.ctx.createBufferSource();
    source.buffer = buffer;
    source.loop = this.loop.on;
    if (this.loop.on) { source.loopStart = this.loop.start; source.loopEnd = this.loop.end; }
    const gain = this.ctx.createGain();
    const now = this.ctx.currentTime;
    gain.gain.setValueAtTime(0, now);
    gain.gain.linearRampToValueAtTime(1, now + FADE_S);
    source.connect(gain).connect(this.ctx.destination);
    source.start(now, start);
    this.live = { id, source, gain, ctxStart: now, startPos: start };
    source.onended = () => {
      if (this.live && this.live.source === source) {
        this._stopLive();
        this.pos = this._durationOf(id);
        this.playing = false;
        this._changed();
      }
    };
  }

  select(id) {
    if (!this.buffers.has(id)) return;
    if (this.playing) { this._stopLive(); this.current = id; this._startLive(id); }
    else this.current = id;
    this._changed();
  }

  async play() {
    if (this.playing || !this.buffers.has(this.current)) return;
    if (this.ctx.state === "suspended") await this.ctx.resume();
    this.playing = true;
    this._startLive(this.current);
    this._changed();
  }

  pause() {
    if (!this.playing) return;
    this._stopLive();
    this.playing = false;
    this._changed();
  }

  toggle() { return this.playing ? this.pause() : this.play(); }

  seek(seconds) {
    const target = Math.max(0, Math.min(this.duration, seconds));
    if (this.playing) { this._stopLive(); this.pos = target; this._startLive(this.current); }
    else this.pos = target;
    this._changed();
  }

  setLoopStart() {
    const here = this.position();
    this._stopLiveKeep(() => {
      this.loop.start = here;
      if (this.loop.end <= here + 0.05) this.loop.end = this.duration;
      this.loop.on = true;
      this.pos = here;
    });
  }

  setLoopEnd() {
    const here = this.position();
    this._stopLiveKeep(() => {
      if (here <= this.loop.start + 0.05) this.loop.start = 0;
      this.loop.end = Math.max(here, this.loop.start + 0.05);
      this.loop.on = true;
      this.pos = this.loop.start;
    });
  }

  setLoop(on) { this._stopLiveKeep(() => { this.loop.on = Boolean(on); }); }

  clearLoop() { this._stopLiveKeep(() => { this.loop = { on: false, start: 0, end: this.duration }; }); }

  /** Change the loop with the live source stopped (its evidence booked under the old loop). */
  _stopLiveKeep(change) {
    const wasPlaying = this.playing;
    if (wasPlaying) this._stopLive();
    change();
    if (wasPlaying) this._startLive(this.current);
    this._changed();
  }

  played(id) {
    const own = this.evidence.get(id) || [];
    if (this.live && this.live.id === id) return mergeIntervals([...own, ...this._liveIntervals(this.ctx.currentTime)]);
    return mergeIntervals(own);
  }

  heardFraction(id) {
    const d = this._durationOf(id);
    if (!d) return 0;
    return Math.min(1, this.played(id).reduce((sum, [s, e]) => sum + (e - s), 0) / d);
  }

  /** The evidence to send: {stimulus id: [[start, end], ...]} for every stimulus. */
  report() {
    const out = {};
    for (const s of this.stimuli) out[s.id] = this.played(s.id).map(([a, b]) => [Number(a.toFixed(3)), Number(b.toFixed(3))]);
    return out;
  }
}
