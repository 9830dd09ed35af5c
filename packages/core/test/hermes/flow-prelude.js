// Runs in Hermes before the Metro bundle of ./app, in place of the parts of the React Native
// runtime that the `hermes` CLI lacks: fetch, timers, AbortController and console. It installs
// no crypto and no TextEncoder/TextDecoder: the app's own imports must bring what it needs.
//
// The CLI has no I/O, so each run replays: `__SIGNET_HERMES_INPUT__.io` holds the answers to
// every I/O call the app made in earlier runs, in order. The first call past them is printed as
// `SIGNET_HERMES_IO <json>` and the run stops there; the Node driver performs it and runs again.
// Time is virtual (it moves to the recorded time of each answer, and to each timer's due time),
// and Math.random is seeded, so every replay makes the same calls with the same bytes.
// Only syntax the Hermes of hermes-engine-cli 0.12 parses (this file skips Babel).
((global) => {
  const input = global.__SIGNET_HERMES_INPUT__;
  const realSetTimeout = global.setTimeout;
  let halted = false;
  let now = input.startedAt;
  let ioIndex = 0;

  // Globals a React Native app has no business using: each read is counted.
  const touched = {};
  for (const name of ["Buffer", "atob", "btoa", "TextEncoder", "TextDecoder"]) {
    if (Object.getOwnPropertyDescriptor(global, name) !== undefined) {
      throw new Error(`this Hermes already defines ${name}: the prelude cannot watch it`);
    }
    touched[name] = 0;
    Object.defineProperty(global, name, {
      configurable: true,
      get() {
        touched[name]++;
        return undefined;
      },
    });
  }
  global.__SIGNET_TOUCHED__ = touched;

  Date.now = () => now;

  // A seeded generator (mulberry32) for jitter: the same sequence in every replay.
  let seed = input.seed >>> 0;
  Math.random = () => {
    seed = (seed + 0x6d2b79f5) >>> 0;
    let t = seed;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };

  // Timers on the virtual clock: when the microtask queue has drained (a CLI macrotask runs),
  // the earliest timer fires and the clock jumps to its due time.
  const timers = [];
  let nextTimer = 1;
  let pumping = false;
  const pump = () => {
    pumping = false;
    if (halted || timers.length === 0) return;
    timers.sort((a, b) => a.due - b.due || a.id - b.id);
    const timer = timers.shift();
    if (timer.due > now) now = timer.due;
    timer.fn();
    schedule();
  };
  const schedule = () => {
    if (!pumping && timers.length > 0 && !halted) {
      pumping = true;
      realSetTimeout(pump, 0);
    }
  };
  global.setTimeout = (fn, ms) => {
    const id = nextTimer++;
    timers.push({ id, due: now + Math.max(0, Number(ms) || 0), fn });
    schedule();
    return id;
  };
  global.clearTimeout = (id) => {
    const i = timers.findIndex((t) => t.id === id);
    if (i >= 0) timers.splice(i, 1);
  };
  global.setInterval = undefined;

  function AbortSignal() {
    this.aborted = false;
    this.reason = undefined;
    this.listeners = [];
  }
  AbortSignal.prototype.addEventListener = function (type, fn) {
    if (type === "abort") this.listeners.push(fn);
  };
  AbortSignal.prototype.removeEventListener = function (_type, fn) {
    this.listeners = this.listeners.filter((l) => l !== fn);
  };
  function AbortController() {
    this.signal = new AbortSignal();
  }
  AbortController.prototype.abort = function (reason) {
    const signal = this.signal;
    if (signal.aborted) return;
    signal.aborted = true;
    signal.reason = reason === undefined ? new Error("AbortError") : reason;
    for (const fn of signal.listeners.slice()) fn({ type: "abort" });
  };
  global.AbortController = AbortController;
  global.AbortSignal = AbortSignal;

  /** The answer to the next I/O call, or the call printed and the run halted. */
  global.__signetIo = (kind, request) => {
    if (halted) return new Promise(() => {});
    const answer = input.io[ioIndex];
    if (answer === undefined) {
      halted = true;
      print(`SIGNET_HERMES_IO ${JSON.stringify({ index: ioIndex, kind, request })}`);
      return new Promise(() => {});
    }
    if (answer.kind !== kind) {
      throw new Error(`replay diverged at I/O ${ioIndex}: expected ${answer.kind}, got ${kind}`);
    }
    ioIndex++;
    return Promise.resolve().then(() => {
      if (answer.at > now) now = answer.at;
      return answer.response;
    });
  };
  global.__signetHalted = () => halted;

  const lowerHeaders = (headers) => {
    const out = {};
    for (const name of Object.keys(headers || {})) out[name.toLowerCase()] = String(headers[name]);
    return out;
  };
  // fetch over the replay: the request as the driver sends it, the answer as Node received it.
  global.fetch = (url, init) => {
    const options = init || {};
    const signal = options.signal;
    if (signal?.aborted) return Promise.reject(signal.reason);
    return global
      .__signetIo("fetch", {
        url: String(url),
        method: options.method || "GET",
        headers: lowerHeaders(options.headers),
        body: options.body === undefined ? null : String(options.body),
      })
      .then((answer) => {
        const headers = lowerHeaders(answer.headers);
        return {
          status: answer.status,
          ok: answer.status >= 200 && answer.status < 300,
          headers: { get: (name) => headers[String(name).toLowerCase()] ?? null },
          text: () => Promise.resolve(answer.body),
          // A body that is not JSON rejects, as fetch's does (never a synchronous throw).
          json: () => Promise.resolve().then(() => JSON.parse(answer.body)),
        };
      });
  };

  const logged = [];
  global.__SIGNET_CONSOLE__ = logged;
  const logger =
    (level) =>
    (...parts) => {
      logged.push({ level, message: parts.map(String).join(" ") });
    };
  global.console = {
    log: logger("log"),
    info: logger("info"),
    warn: logger("warn"),
    error: logger("error"),
    debug: logger("debug"),
  };
})(globalThis);
