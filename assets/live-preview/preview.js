// The live preview page: plays, scrubs and steps the frames `smokescreen serve` draws, follows its reload
// stream (GET /events) and keeps the scrubber's time across reloads. Uses only the JSON API of
// docs/live-preview.md. No framework, no build step.
"use strict";

const $ = (id) => document.getElementById(id);
const state = {
  listing: null,        // GET /api/transitions
  name: null,           // the transition shown
  scale: 2,
  index: 0,             // the frame on the scrubber
  playing: false,
  playTime: 0,          // seconds into the transition while playing
  lastTick: 0,
  frames: new Map(),    // key → {bitmap, digest} | "loading", at most `window` frames each side of the scrubber
  inFlight: 0,
  requests: new Map(),  // key → AbortController of each frame on its way
  lintRequest: null,    // the AbortController of the lint report on its way
  reloading: false,     // a reload event arrived and its listing has not: nothing is fetched meanwhile
  firstAfterReload: false, // the new version's frame on the scrubber is not on screen yet
  lint: null,
  lintVersion: 0,       // the version whose lint report was asked for
  goldenMode: "off",
  shown: { version: 0, index: -1, digest: "", at: 0 },
  reloadedAt: 0,        // when the last reload event arrived (ms since the epoch)
  // Steps from the last reload event to its first frame on screen (performance.now() ms), for the
  // save-to-screen measurement (docs/live-preview.md, "Measured").
  reloadSteps: null,
};
// What the page shows, for scripts and tests (read-only).
window.preview = state;

const current = () => state.listing && state.listing.transitions.find((t) => t.name === state.name);
const frameURL = (kind, k) => `/api/transitions/${encodeURIComponent(state.name)}/${kind}/${k}.png?scale=${state.scale}&v=${state.listing.version}`
  + (kind === "frames" && k === state.index ? "&shown=1" : "");
const key = (k) => `${state.listing.version}|${state.name}|${state.scale}|${k}`;

async function loadListing() {
  const response = await fetch("/api/transitions", { cache: "no-store" });
  if (!response.ok) throw new Error(`GET /api/transitions: ${response.status}`);
  const listing = await response.json();
  state.reloading = false;
  if (state.reloadSteps && !state.reloadSteps.listing) state.reloadSteps.listing = performance.now();
  const previous = current();
  const first = !state.listing;
  const keptTime = previous ? previous.times[Math.min(state.index, previous.times.length - 1)] : 0;
  state.listing = listing;
  if (!state.name || !listing.transitions.some((t) => t.name === state.name)) {
    state.name = listing.transitions.length ? listing.transitions[0].name : null;
  }
  if (first && !wanted.get("scale")) state.scale = listing.scale;
  // Frames of other versions are dropped.
  for (const k of state.frames.keys()) if (!k.startsWith(`${listing.version}|`)) state.frames.delete(k);
  renderErrors();
  renderPicker();
  const t = current();
  if (!t) { renderTimeline(); return; }
  // The same time on the scrubber: the last frame at or before it.
  let index = frameAt(t, keptTime);
  if (first) index = Math.min(state.index, t.frameCount - 1);
  state.index = index;
  $("scrubber").max = String(t.frameCount - 1);
  $("scrubber").value = String(index);
  $("summary").textContent = `${t.summary} — ${t.pointSize[0]}×${t.pointSize[1]} pt, ${t.frameCount} frames at ${t.fps} fps`;
  document.body.dataset.version = String(listing.version);
  document.body.dataset.frameCount = String(t.frameCount);
  $("golden-mode-label").hidden = !t.goldenFrames;
  renderScales();
  state.lint = null;
  state.lintVersion = 0;
  renderTimeline();
  show(index);
}

function renderErrors() {
  const errors = state.listing.errors;
  $("errors").hidden = errors.length === 0;
  $("errors").textContent = errors.length ? "The last good frames stay until this is fixed:\n" + errors.join("\n") : "";
  document.body.dataset.errors = String(errors.length);
}

function renderPicker() {
  const select = $("transition");
  const names = state.listing.transitions.map((t) => t.name);
  if ([...select.options].map((o) => o.value).join("\n") !== names.join("\n")) {
    select.replaceChildren(...names.map((n) => new Option(n, n)));
  }
  select.value = state.name || "";
}

function renderScales() {
  const box = $("scales");
  box.replaceChildren(...state.listing.scales.map((s) => {
    const b = document.createElement("button");
    b.textContent = `@${s}x`;
    b.className = s === state.scale ? "on" : "";
    b.addEventListener("click", () => { state.scale = s; renderScales(); show(state.index); });
    return b;
  }));
}

// MARK: frames

// How many frames each side of the scrubber the page fetches and keeps: a long transition (tens of
// thousands of frames) costs the page what a short one does.
const window_ = 120;

// The last frame whose time is at or before `time` (binary search: the frame loop stays linear).
function frameAt(t, time) {
  let lo = 0, hi = t.times.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (t.times[mid] <= time + 1e-9) lo = mid; else hi = mid - 1;
  }
  return lo;
}

// A frame whose request failed is asked for again after this many milliseconds, not at once.
const retryAfter = 1000;

// The next frame to fetch: the nearest to the scrubber, within the window, that is neither here nor
// on its way (nor failed within the last second); -1 when there is none. At most 2 × window steps.
function nextWanted(t) {
  const now = Date.now();
  for (let d = 0; d <= window_; d++) {
    for (const k of d === 0 ? [state.index] : [state.index + d, state.index - d]) {
      if (k < 0 || k >= t.frameCount) continue;
      const entry = state.frames.get(key(k));
      if (!entry || (entry.failedAt && now - entry.failedAt >= retryAfter)) return k;
    }
  }
  return -1;
}

// Frames kept beyond the window are dropped (their bitmaps closed), so memory stays bounded.
function forgetFar() {
  const prefix = `${state.listing.version}|${state.name}|${state.scale}|`;
  for (const [id, entry] of state.frames) {
    const far = !id.startsWith(prefix) || Math.abs(Number(id.slice(prefix.length)) - state.index) > 2 * window_;
    if (far && entry !== "loading") {
      if (entry.bitmap && entry.bitmap.close) entry.bitmap.close();
      state.frames.delete(id);
    }
  }
}

// Fetches frames nearest the scrubber first, four at a time; after a reload, the frame on the scrubber
// alone until it is on screen (so it shares neither the server's threads nor the decoder with its
// neighbours: what a save shows first).
function pump() {
  const t = current();
  if (!t || state.reloading) return;
  while (state.inFlight < 4) {
    if (state.firstAfterReload && state.inFlight > 0) break;
    const k = nextWanted(t);
    if (k < 0) break;
    const id = key(k);
    const controller = new AbortController();
    state.frames.set(id, "loading");
    state.requests.set(id, controller);
    state.inFlight++;
    fetch(frameURL("frames", k), { signal: controller.signal })
      .then(async (response) => {
        if (!response.ok) throw new Error(`frame ${k}: ${response.status}`);
        const steps = k === state.index && state.reloadSteps && !state.reloadSteps.response ? state.reloadSteps : null;
        if (steps) { steps.response = performance.now(); steps.server = response.headers.get("Server-Timing") || ""; }
        const digest = response.headers.get("ETag") || "";
        const blob = await response.blob();
        if (steps) steps.body = performance.now();
        const bitmap = await createImageBitmap(blob);
        if (steps) steps.decoded = performance.now();
        state.frames.set(id, { bitmap, digest });
        if (k === state.index && id === key(k)) draw();
      })
      .catch(() => {
        if (state.frames.get(id) !== "loading") return;
        if (controller.signal.aborted) { state.frames.delete(id); return; }
        // Failed (over budget, busy, gone): tried again in a second; the neighbours go on meanwhile.
        state.frames.set(id, { failedAt: Date.now() });
        if (k === state.index) state.firstAfterReload = false;
        setTimeout(pump, retryAfter);
      })
      .finally(() => { state.inFlight--; state.requests.delete(id); pump(); });
  }
}

// Shows frame k: draws it when it is here, asks for it (and the frames around it) when not.
function show(k) {
  const t = current();
  if (!t) return;
  state.index = Math.max(0, Math.min(k, t.frameCount - 1));
  $("scrubber").value = String(state.index);
  $("time").textContent = `frame ${state.index} of ${t.frameCount - 1} · ${t.times[state.index].toFixed(3)} s of ${t.duration.toFixed(3)} s`;
  if (state.frames.size > 4 * window_) forgetFar();
  pump();
  draw();
  movePlayhead();
}

function sizeCanvas(canvas, width, height) {
  const t = current();
  if (canvas.width !== width || canvas.height !== height) { canvas.width = width; canvas.height = height; }
  canvas.style.width = `${t.pointSize[0]}px`;
  canvas.style.height = `${t.pointSize[1]}px`;
}

function draw() {
  const entry = state.frames.get(key(state.index));
  if (!entry || entry === "loading" || !entry.bitmap) return;
  const canvas = $("frame");
  sizeCanvas(canvas, entry.bitmap.width, entry.bitmap.height);
  const context = canvas.getContext("2d");
  context.clearRect(0, 0, canvas.width, canvas.height);
  context.drawImage(entry.bitmap, 0, 0);
  const version = state.listing.version;
  if (state.shown.version !== version && state.reloadedAt) {
    document.body.dataset.saveToScreenMs = String(Date.now() - state.reloadedAt);
    const steps = state.reloadSteps;
    if (steps) {
      const at = (name) => (steps[name] ? Math.round(steps[name] - steps.event) : "-");
      document.body.dataset.reloadSteps = `listing ${at("listing")}, response ${at("response")}, body ${at("body")}, `
        + `decoded ${at("decoded")}, drawn ${Math.round(performance.now() - steps.event)} ms; server ${steps.server}`;
      state.reloadSteps = null;
    }
  }
  state.shown = { version, index: state.index, digest: entry.digest, at: Date.now() };
  if (state.firstAfterReload) { state.firstAfterReload = false; pump(); }
  document.body.dataset.shownVersion = String(version);
  document.body.dataset.shownFrame = String(state.index);
  document.body.dataset.shownDigest = entry.digest;
  drawGolden(entry);
  // Lint renders the whole transition again: asked for once the frame is on screen, not before.
  if (state.lintVersion !== version) { state.lintVersion = version; loadLint(); }
}

// MARK: golden frames

const goldenImages = new Map();

function drawGolden(entry) {
  const t = current();
  const mode = t.goldenFrames ? state.goldenMode : "off";
  $("golden-figure").hidden = mode !== "side";
  $("diff-figure").hidden = mode !== "side";
  $("onion-label").hidden = mode !== "onion";
  if (mode === "off" || state.index >= t.goldenFrames) return;
  const [width, height] = t.goldenPixelSize || [0, 0];
  if (width !== entry.bitmap.width || height !== entry.bitmap.height) {
    // Golden frames of another scale: nothing to compare (the server would refuse the difference).
    $("diff-caption").textContent = `golden frames are ${width}×${height} px; this is ${entry.bitmap.width}×${entry.bitmap.height} px`;
    $("diff-figure").hidden = false;
    return;
  }
  const index = state.index;
  const load = (kind) => {
    const url = frameURL(kind, index);
    if (!goldenImages.has(url)) {
      goldenImages.set(url, fetch(url).then((r) => {
        if (!r.ok) return r.json().then((e) => { throw new Error(e.error); });
        return r.blob().then(createImageBitmap);
      }));
    }
    return goldenImages.get(url);
  };
  const paint = (canvas, bitmap, alpha, clear) => {
    sizeCanvas(canvas, bitmap.width, bitmap.height);
    const context = canvas.getContext("2d");
    if (clear) context.clearRect(0, 0, canvas.width, canvas.height);
    context.globalAlpha = alpha;
    context.drawImage(bitmap, 0, 0);
    context.globalAlpha = 1;
  };
  const stale = () => state.index !== index || state.frames.get(key(index)) !== entry;
  const failed = (error) => { $("diff-caption").textContent = error.message; };
  if (mode === "side") {
    load("golden").then((g) => { if (!stale()) paint($("golden"), g, 1, true); }, failed);
    load("diff").then((d) => { if (!stale()) { paint($("diff"), d, 1, true); $("diff-caption").textContent = "difference"; } }, failed);
  } else if (mode === "onion") {
    load("golden").then((g) => { if (!stale()) paint($("frame"), g, Number($("onion").value) / 100, false); }, failed);
  } else if (mode === "diff") {
    load("diff").then((d) => { if (!stale()) paint($("frame"), d, 0.85, false); }, failed);
  }
}

// MARK: timeline and lint

function renderTimeline() {
  const box = $("timeline");
  const t = current();
  box.replaceChildren();
  if (!t) return;
  const total = Math.max(t.duration, ...t.blocks.map((b) => b.delay + b.duration), 1e-6);
  const percent = (s) => `${(100 * s / total).toFixed(3)}%`;
  for (const b of t.blocks) {
    const row = document.createElement("div");
    row.className = "block";
    const bar = document.createElement("div");
    bar.className = "bar";
    bar.style.left = percent(b.delay);
    bar.style.width = `max(2px, ${percent(b.duration)})`;
    bar.title = `${b.label}: delay ${b.delay.toFixed(3)} s, duration ${b.duration.toFixed(3)} s, ${b.timing}\n${b.properties.join("\n")}`;
    bar.innerHTML = curveSVG(b.timing);
    const label = document.createElement("span");
    label.textContent = `${b.label} · ${b.delay.toFixed(2)} s + ${b.duration.toFixed(2)} s · ${b.timing}`;
    bar.appendChild(label);
    row.appendChild(bar);
    box.appendChild(row);
  }
  const head = document.createElement("div");
  head.className = "playhead";
  head.id = "playhead";
  box.appendChild(head);
  box.dataset.blocks = String(t.blocks.length);
  renderMarks();
  movePlayhead();
}

// The timing curve, drawn faintly in its bar: a cubic Bézier for the named curves, a line otherwise.
function curveSVG(timing) {
  const named = { linear: [0, 0, 1, 1], easeIn: [0.42, 0, 1, 1], easeOut: [0, 0, 0.58, 1], easeInEaseOut: [0.42, 0, 0.58, 1] };
  const c = Object.entries(named).find(([n]) => timing.startsWith(n));
  const [x1, y1, x2, y2] = c ? c[1] : [0, 0, 1, 1];
  return `<svg viewBox="0 0 100 20" preserveAspectRatio="none"><path d="M0 20 C ${x1 * 100} ${20 - y1 * 20}, ${x2 * 100} ${20 - y2 * 20}, 100 0" fill="none" stroke="#7fb2ff" stroke-width="1.5" vector-effect="non-scaling-stroke"/></svg>`;
}

function movePlayhead() {
  const t = current();
  const head = $("playhead");
  if (!t || !head) return;
  const total = Math.max(t.duration, ...t.blocks.map((b) => b.delay + b.duration), 1e-6);
  head.style.left = `${(100 * t.times[state.index] / total).toFixed(3)}%`;
}

async function loadLint() {
  const t = current();
  const version = state.listing.version;
  state.lint = null;
  renderMarks();
  if (state.lintRequest) state.lintRequest.abort();
  const controller = new AbortController();
  state.lintRequest = controller;
  try {
    const response = await fetch(`/api/transitions/${encodeURIComponent(t.name)}/lint?v=${version}`, { signal: controller.signal });
    const report = await response.json();
    if (!response.ok) throw new Error(report.error);
    if (state.listing.version !== version || state.name !== t.name) return;
    state.lint = report;
  } catch (error) {
    if (controller.signal.aborted) return;
    state.lint = { findings: [], failed: error.message };
  } finally {
    if (state.lintRequest === controller) state.lintRequest = null;
  }
  renderMarks();
}

// A new version: what is on its way for the old one is cancelled (the server stops drawing a frame or
// linting a render whose asker has gone), and nothing is fetched until the new listing is here.
function cancelRequests() {
  state.reloading = true;
  state.firstAfterReload = true;
  for (const controller of state.requests.values()) controller.abort();
  if (state.lintRequest) { state.lintRequest.abort(); state.lintRequest = null; }
}

function renderMarks() {
  const t = current();
  const box = $("timeline");
  box.querySelectorAll(".mark").forEach((m) => m.remove());
  const list = $("findings");
  list.replaceChildren();
  if (!t || !state.lint) return;
  if (state.lint.failed) { list.appendChild(Object.assign(document.createElement("li"), { textContent: `lint: ${state.lint.failed}` })); return; }
  const total = Math.max(t.duration, ...t.blocks.map((b) => b.delay + b.duration), 1e-6);
  for (const f of state.lint.findings) {
    const text = `${f.kind} · ${f.subject} · frames ${f.frames.join(", ")}: ${f.detail}` + (f.exception ? ` (documented: ${f.exception})` : "");
    // Lint renders at the transition's own frame rate, as the page does: the same frame numbers.
    f.times.forEach((time, i) => {
      const mark = document.createElement("div");
      mark.className = "mark" + (f.exception ? " excepted" : "");
      mark.style.left = `${(100 * time / total).toFixed(3)}%`;
      mark.title = text;
      mark.addEventListener("click", () => { stop(); show(f.frames[i]); });
      box.appendChild(mark);
    });
    const item = document.createElement("li");
    item.textContent = text;
    if (f.exception) item.className = "excepted";
    list.appendChild(item);
  }
  box.dataset.marks = String(box.querySelectorAll(".mark").length);
  if (state.lint.clean && !state.lint.findings.length) list.appendChild(Object.assign(document.createElement("li"), { textContent: "lint: clean" }));
}

// MARK: playing

function play() {
  const t = current();
  if (!t) return;
  if (state.index >= t.frameCount - 1) state.index = 0;
  state.playing = true;
  state.playTime = t.times[state.index];
  state.lastTick = performance.now();
  $("play").textContent = "❚❚ Pause";
  requestAnimationFrame(tick);
}

function stop() {
  state.playing = false;
  $("play").textContent = "▶ Play";
}

function tick(now) {
  if (!state.playing) return;
  const t = current();
  if (!t) { stop(); return; }
  state.playTime += (now - state.lastTick) / 1000 * Number($("speed").value);
  state.lastTick = now;
  const end = t.duration;
  if (state.playTime > end) {
    if ($("loop").checked) state.playTime = 0; else { show(t.frameCount - 1); stop(); return; }
  }
  const k = frameAt(t, state.playTime);
  if (k !== state.index) show(k);
  requestAnimationFrame(tick);
}

// MARK: wiring

$("play").addEventListener("click", () => (state.playing ? stop() : play()));
$("scrubber").addEventListener("input", () => { stop(); show(Number($("scrubber").value)); });
$("transition").addEventListener("change", () => { state.name = $("transition").value; state.index = 0; stop(); loadListing().catch(reportDown); });
$("golden-mode").addEventListener("change", () => { state.goldenMode = $("golden-mode").value; show(state.index); });
$("onion").addEventListener("input", () => show(state.index));
document.addEventListener("keydown", (event) => {
  if (event.target instanceof HTMLSelectElement || event.target instanceof HTMLInputElement && event.target.type !== "range") return;
  if (event.key === "ArrowRight" || event.key === "ArrowLeft") {
    event.preventDefault();
    stop();
    show(state.index + (event.key === "ArrowRight" ? 1 : -1));
  } else if (event.key === " ") {
    event.preventDefault();
    state.playing ? stop() : play();
  }
});

function reportDown() {
  $("status").textContent = "server stopped";
  $("status").className = "status down";
}

// The first view can be named in the address: #t=NAME&frame=K&scale=S&golden=side|onion|diff.
const wanted = new URLSearchParams(location.hash.slice(1));
if (wanted.get("t")) state.name = wanted.get("t");
if (["1", "2", "3"].includes(wanted.get("scale"))) state.scale = Number(wanted.get("scale"));
if (["side", "onion", "diff"].includes(wanted.get("golden"))) { state.goldenMode = wanted.get("golden"); $("golden-mode").value = state.goldenMode; }
if (wanted.get("frame")) state.index = Math.max(0, Number(wanted.get("frame")) || 0);

const events = new EventSource("/events");
events.addEventListener("reload", (event) => {
  const { version } = JSON.parse(event.data);
  $("status").textContent = `live · version ${version}`;
  $("status").className = "status live";
  if (state.listing && state.listing.version === version) return;
  state.reloadedAt = Date.now();
  state.reloadSteps = { event: performance.now() };
  cancelRequests();
  loadListing().catch((error) => { state.reloading = false; reportDown(error); });
});
events.addEventListener("error", () => { if (events.readyState === EventSource.CLOSED) reportDown(); });
loadListing().catch(reportDown);
