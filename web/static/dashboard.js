// The dashboard: renders /api/state, refreshes it when the server pushes an event (SSE),
// and sends every click as a command to /api/command. No framework: one file, no build.
// Everything drawn from the server goes through esc() or safeColor(): names, labels and
// messages are text, never markup.
"use strict";

const csrf = document.querySelector('meta[name="csrf-token"]').content;
let snap = null;
let systems = []; // the installed games (/api/systems): their words and sample forces
let faces = [];
let refreshTimer = null;
let selected = null; // {cell} or {piece}: what a click on the board picked
let picking = null; // {key, byRegion: Map}: a group of like choices waiting for a place
let groupsNow = []; // the groups the options card shows, by index
let undoArmed = null; // the undo waiting for its second press: [label, timer]

const $ = (id) => document.getElementById(id);
const esc = (s) => String(s).replace(/[&<>"']/g,
  (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));
// A card is redrawn only when its markup changed: the server pushes a snapshot for every
// event (a health tick too), and a button replaced between a finger's press and release
// takes no click, so an unchanged card keeps the very elements under the finger.
const drawn = new WeakMap();
function setHTML(el, html) {
  if (drawn.get(el) === html) return;
  drawn.set(el, html);
  el.innerHTML = html;
}
// Colours go into SVG attributes: only #rrggbb ever does (the server checks too).
const safeColor = (c) => (/^#[0-9a-fA-F]{6}$/.test(c) ? c : "#888888");

async function post(url, body) {
  const r = await fetch(url, {
    method: "POST", credentials: "same-origin",
    headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf },
    body: JSON.stringify(body),
  });
  const data = await r.json().catch(() => ({ error: `HTTP ${r.status}` }));
  if (!r.ok) showWarning(data.error || `HTTP ${r.status}`);
  scheduleRefresh(0);
  return { ok: r.ok, data };
}

const command = (cmd) => post("/api/command", cmd);

function showWarning(text) {
  const w = $("warning");
  w.textContent = text;
  w.hidden = false;
  clearTimeout(showWarning.t);
  showWarning.t = setTimeout(clearWarning, 8000);
}

function clearWarning() { $("warning").hidden = true; }

function scheduleRefresh(delay = 80) {
  clearTimeout(refreshTimer);
  refreshTimer = setTimeout(refresh, delay);
}

async function refresh() {
  try {
    const r = await fetch("/api/state", { credentials: "same-origin" });
    snap = await r.json();
    render();
  } catch (e) { /* the stream's reconnect will bring us back */ }
}

// -- live updates ----------------------------------------------------------------------
function connect() {
  const es = new EventSource("/api/events");
  const kinds = ["action", "undo", "correction", "prompt", "desync", "resync", "confirm",
                 "warning", "health", "board", "score", "game_over", "game"];
  for (const k of kinds) {
    es.addEventListener(k, (e) => {
      if (k === "warning") showWarning(JSON.parse(e.data).message);
      // A step forward makes an older warning stale: it spoke of what came before.
      if (k === "action" || k === "undo" || k === "correction") clearWarning();
      if (k === "game") selected = null;
      scheduleRefresh();
    });
  }
  es.addEventListener("reload", () => scheduleRefresh(0));
  es.addEventListener("hello", () => scheduleRefresh(0));
  es.onerror = () => { document.body.dataset.stream = "down"; };
  es.onopen = () => { document.body.dataset.stream = "up"; };
}

// -- words ---------------------------------------------------------------------------------
const nameOf = (p) => (snap.setup.names || {})[p] || p; // raw text: escape where drawn
const playerName = (p) => esc(nameOf(p));
const pieces = () => snap.board.pieces;
const pieceOf = (ref) => pieces().find((m) => m.ref === ref);
const boxOk = () => Boolean((snap.health || {}).box && snap.health.box.ok);

function colors() {
  const c = snap.setup.colors || {};
  return { p1: safeColor(c.p1), p2: safeColor(c.p2) };
}

// A colour the board model names: a player's (chosen at setup) or #rrggbb.
const paint = (c) => (c === "p1" || c === "p2" ? colors()[c] : safeColor(c));

// A name that fits a chip: whole words while they fit, the full name in a tooltip.
function fitName(name, room) {
  if (name.length <= room) return name;
  let out = "";
  for (const word of name.split(" ")) {
    if ((out + " " + word).trim().length > room - 1) break;
    out = (out + " " + word).trim();
  }
  return (out || name.slice(0, room - 1)) + "…";
}

// A name on a disk too small for it: the words' initials and its number ("High Elf
// Spearmen 2" reads "HES2"), which tell disks apart where "Hig…" does not; one word and
// a number keep the word's first letters ("Plaguebearers 2" reads "Pla2", not "P2",
// which reads like a player); a single word is cut short. Tapping the disk gives the
// whole name.
function discName(name, room) {
  if (name.length <= room) return name;
  const words = name.split(" ");
  const named = words.filter((w) => !/^[0-9]+$/.test(w));
  if (named.length === 1 && words.length > 1) {
    const number = words.filter((w) => /^[0-9]+$/.test(w)).join("");
    return named[0].slice(0, Math.max(2, room - number.length)) + number;
  }
  if (words.length > 1) {
    const short = words.map((w) => (/^[0-9]+$/.test(w) ? w : w[0].toUpperCase())).join("");
    if (short.length <= Math.max(room, 3)) return short;
  }
  return fitName(name, room);
}

function describePiece(m) {
  let text = `<b class="${esc(m.player)}">${playerName(m.player)}'s ${esc(m.label)}</b>`;
  if (m.details) text += ` — ${esc(m.details)}`;
  if (m.states.length) text += ` <span class="state">(${esc(m.states.join(", "))})</span>`;
  return text;
}

// -- rendering ---------------------------------------------------------------------------
function render() {
  if (!snap) return;
  document.body.dataset.gameId = snap.game_id ?? "";
  if (selected && selected.piece && !pieceOf(selected.piece)) selected = null;
  renderPrompt();
  renderBanners();
  renderHealth();
  fitBoard();  // the board's size first (the prompt above it is drawn): names are sized to it
  renderBoard();
  renderLegend();
  renderCellInfo();
  renderZones();
  renderScore();
  renderDice();
  renderPanel();
  renderOptions();
  renderHistory();
  $("follow").checked = snap.follow_camera;
  document.querySelectorAll("[data-seat-link]").forEach((b) => {
    b.textContent = `Make ${nameOf(b.dataset.seatLink)}'s link`;
  });
  $("login").hidden = !snap.staff_login || snap.staff;
  $("staff-state").textContent = !snap.staff_login ? "This table needs no staff PIN."
    : snap.staff ? "Staff: logged in." : "Staff: log in with the admin PIN to change the game.";
}

// The whole board on the first screen, under a prompt of any length: the board is drawn
// no taller than the window below its top (never under MIN_BOARD px), its map scaled
// to fit and centred.
const MIN_BOARD = 300;
function fitBoard() {
  const el = $("board");
  if (!$("tab-table").classList.contains("active")) return;
  const top = el.getBoundingClientRect().top + window.scrollY;
  el.style.maxHeight = `${Math.max(MIN_BOARD, Math.floor(window.innerHeight - top - 8))}px`;
}

function renderPrompt() {
  const p = snap.prompt;
  const el = $("prompt");
  el.textContent = p.text;
  el.className = "prompt" + (p.player ? " " + p.player : "");
  el.dataset.step = p.step;
  // How to play this step: the text changes with the step, the card keeps whether it
  // was opened.
  $("how").hidden = !p.how;
  $("how-text").textContent = p.how || "";
}

function renderBanners() {
  const d = $("desync");
  if (snap.desync && snap.desync.length) {
    setHTML(d, "The board does not match the game: " +
      snap.desync.map((l) => `<div class="problem">${esc(l)}</div>`).join("") +
      `<button data-board-ok title="staff: the pieces are right, the camera misreads them">` +
      "The board is right: overrule the camera</button>");
    d.hidden = false;
  } else d.hidden = true;
  const c = $("confirm");
  if (snap.confirm && snap.confirm.length && snap.confirm_question) {
    // A measurement too close to call: the players look and say.
    setHTML(c, `${esc(snap.confirm_question)} ` +
      (snap.confirm_labels || snap.confirm).map((opt, i) =>
        `<button data-choose="${i}">Yes: ${esc(opt.join("; then "))}</button>`).join("") +
      `<button data-choose="no">No: it is not</button>`);
    c.hidden = false;
  } else if (snap.confirm && snap.confirm.length) {
    setHTML(c, "The camera saw a move with several readings. Which one happened? " +
      (snap.confirm_labels || snap.confirm).map((opt, i) =>
        `<button data-choose="${i}">${esc(opt.join("; then "))}</button>`).join(""));
    c.hidden = false;
  } else c.hidden = true;
}

function renderCameraStats() {
  const h = (snap.health || {}).camera;
  const c = snap.camera;
  const parts = [];
  if (h) parts.push(`<p class="${h.ok ? "" : "bad"}">${esc(h.message)}</p>`);
  if (c) {
    parts.push(`<p>${Number(c.frames)} frames seen, ${Number(c.commits)} boards committed` +
      (c.detect_ms_median != null ? `, ${Number(c.detect_ms_median)} ms per frame (median)`
        : "") + "</p>");
  }
  setHTML($("camera-stats"), parts.join("") || "<p>No camera on this table.</p>");
  // No picture yet (no camera, or one not found): the words above, not a black box.
  $("camera-view").hidden = !(c && Number(c.frames) > 0);
}

function renderHealth() {
  renderCameraStats();
  const h = snap.health || {};
  setHTML($("health"), ["camera", "box"].map((part) => {
    const x = h[part];
    if (!x) return `<span class="pill">${part}: none</span>`;
    // A pill says what is wrong in a few words ("camera 99 not found"); the whole line,
    // with what to check, is its tooltip and on the Camera tab.
    const short = x.message.split(":")[0];
    const said = x.ok ? `${part}: ok` : short.includes(part) ? short : `${part}: ${short}`;
    return `<span class="pill ${x.ok ? "ok" : "bad"}" title="${esc(x.message)}">` +
      `${esc(said)}</span>`;
  }).join(""));
}

// The regions and pieces the current choices involve: what a click can pick.
function choosable() {
  const regions = new Set();
  const pieces = new Set();
  for (const c of snap.prompt.choices || []) {
    c.regions.forEach((x) => regions.add(x));
    c.pieces.forEach((x) => pieces.add(x));
  }
  return { regions, pieces };
}

// -- geometry of the board model (map millimetres) ----------------------------------------
function bbox(outline) {
  const xs = outline.map((p) => p[0]);
  const ys = outline.map((p) => p[1]);
  const x0 = Math.min(...xs), y0 = Math.min(...ys);
  return { x0, y0, x1: Math.max(...xs), y1: Math.max(...ys),
           w: Math.max(...xs) - x0, h: Math.max(...ys) - y0 };
}

// Where a horizontal line at y crosses a convex outline: [left, right], or null.
function rowSpan(outline, y) {
  const xs = [];
  for (let i = 0; i < outline.length; i++) {
    const [ax, ay] = outline[i];
    const [bx, by] = outline[(i + 1) % outline.length];
    if (ay === by) { if (ay === y) xs.push(ax, bx); continue; }
    if ((y - ay) * (y - by) <= 0) xs.push(ax + (bx - ax) * (y - ay) / (by - ay));
  }
  return xs.length ? [Math.min(...xs), Math.max(...xs)] : null;
}

// The widest stretch of an outline between two heights (a chip's band inside a hex).
function bandSpan(outline, y0, y1) {
  const a = rowSpan(outline, y0), b = rowSpan(outline, y1);
  if (!a || !b) return null;
  const s = [Math.max(a[0], b[0]), Math.min(a[1], b[1])];
  return s[1] > s[0] ? s : null;
}

const points = (outline) => outline.map((p) => `${p[0]},${p[1]}`).join(" ");

function renderBoard() {
  const svg = $("board");
  const b = snap.board;
  const byRegion = {};
  for (const piece of b.pieces) {
    // A piece at a point is drawn as a disc there (below), not as a chip in its region.
    if (piece.region && !piece.at) (byRegion[piece.region] ||= []).push(piece);
  }
  const can = choosable();
  // Text is sized to the regions (a 110 mm cell was drawn at 112 units before): so a
  // hex map's small hexes and a big grid's cells both read at the same screen size.
  const holders = b.regions.filter((r) => r.holds_pieces).map((r) => bbox(r.outline).w);
  const k = (holders.length ? Math.min(...holders) : b.frame[2] / 5) / 112;
  // On a small screen (a phone: the board ~370 px wide) fewer, larger chips: their text
  // stays ~13 px tall; the region's full list is one tap away.
  const compact = svg.clientWidth > 0 && svg.clientWidth < 520;
  const chip = compact ? { h: 25, gap: 2, font: 19, room: 10, max: 3 }
    : { h: 19, gap: 2, font: 14, room: 15, max: 4 };
  // A map scaled down to fit the window (a laptop's hexes) would scale its names down
  // with it: no name is drawn under 12 px on the screen (18 px on a TV, read from two
  // or three metres), and a chip is tall enough for it (a long name takes two lines,
  // or its full name is one tap away).
  const [, , fw, fh] = b.frame;
  const scale = svg.clientWidth > 0 && svg.clientHeight > 0
    ? Math.min(svg.clientWidth / fw, svg.clientHeight / fh) : 0;
  const least = window.innerWidth >= 1500 ? 18 : 12;
  if (scale > 0 && chip.font * k * scale < least) {
    chip.font = least / (k * scale);
    chip.h = Math.max(chip.h, chip.font * 1.3);
    chip.room = Math.max(6, Math.round(chip.room * 14 / chip.font));
  }
  let out = "";
  const chipBoxes = [];  // where names are written: lines stop at their edges
  const hasLoose = b.pieces.some((p) => p.at);
  let onTop = "";
  for (const r of b.regions) {
    const box = bbox(r.outline);
    const here = byRegion[r.id] || [];
    const picked = selected && (selected.cell === r.id ||
      (selected.piece && pieceOf(selected.piece)?.region === r.id));
    const fill = r.fill ? paint(r.fill) + "55" : r.alert ? "#5a1f1f" : "#1c232b";
    const target = picking && picking.byRegion.has(r.id);
    const cls = ["cell", can.regions.has(r.id) && !picking ? "choosable" : "",
                 picked ? "picked" : "", target ? "target" : ""];
    out += `<g class="${cls.join(" ")}" data-cell="${esc(r.id)}" role="button" ` +
      `aria-label="${esc(r.label || r.id)}${here.length ? ": " + here.map((a) =>
        esc(`${nameOf(a.player)}'s ${a.label}`)).join(", ") : ""}">`;
    // Inset the outline toward its centre so neighbours keep a gap between them.
    const cx = (box.x0 + box.x1) / 2, cy = (box.y0 + box.y1) / 2;
    const inset = r.outline.map(([x, y]) => [x + Math.sign(cx - x) * 2 * k,
                                             y + Math.sign(cy - y) * 2 * k]);
    out += `<polygon class="cell-bg" points="${points(inset)}" fill="${fill}" ` +
      `stroke-linejoin="round" stroke-width="${(r.alert ? 4 : 2) * k}" ` +
      `stroke="${r.alert ? "#ff4d4d" : "#3a4654"}"/>`;
    const top = box.y0 + 21 * k;
    const span = rowSpan(r.outline, top) || [box.x0, box.x1];
    if (r.label) {
      const at = `x="${span[0] + 8 * k}" y="${top}" font-size="${17 * k}" ` +
        `fill="${r.alert ? "#ff8080" : "#9fb0c0"}"`;
      const said = `${esc(r.label)}${r.alert ? " " + esc(r.alert.symbol) : ""}`;
      out += `<text ${at}>${said}</text>`;
      // Pieces put anywhere (discs, drawn after the regions) may lie on the name: it is
      // written again over them, on a dark outline, and lets taps through.
      if (hasLoose) {
        onTop += `<text ${at} stroke="#0b0e11" stroke-width="${4 * k}" paint-order="stroke" ` +
          `pointer-events="none" aria-hidden="true">${said}</text>`;
      }
    }
    if (r.alert) out += `<title>${esc(r.alert.text)}</title>`;
    let sx = span[1] - 8 * k;
    for (const m of r.marks.slice().reverse()) {
      out += `<text x="${sx}" y="${box.y0 + 22 * k}" font-size="${20 * k}" ` +
        `font-weight="800" text-anchor="end" fill="${paint(m.color)}">` +
        `${m.title ? `<title>${esc(m.title)}</title>` : ""}${esc(m.text)}</text>`;
      sx -= (m.text.length * 12 + 10) * k;
    }
    // A lone piece (a hex holds one creature) gets one chip as wide and tall as its
    // region allows, so its name and badge read from across the table.
    const lone = here.length === 1 ? loneChip(here[0], r.outline, box, chip, k) : null;
    if (lone) {
      out += chipOf(here[0], lone.x, lone.y, lone.w, lone.h, lone.chip, k, can) + "</g>";
      chipBoxes.push([lone.x, lone.y, lone.x + lone.w, lone.y + lone.h]);
      continue;
    }
    // Chips, one per piece, top to bottom while they fit inside the outline.
    const h = chip.h * k, gap = chip.gap * k;
    const rows = [];
    for (let yy = box.y0 + 27 * k; yy + h <= box.y1 - 4 * k && rows.length < chip.max;
         yy += h + gap) {
      const band = bandSpan(r.outline, yy, yy + h);
      if (band) rows.push([yy, band[0] + 5 * k, band[1] - 5 * k]);
    }
    const shown = here.length > rows.length ? here.slice(0, Math.max(rows.length - 1, 0))
      : here;
    shown.forEach((piece, i) => {
      const [yy, x0, x1] = rows[i];
      out += chipOf(piece, x0, yy, x1 - x0, h, chip, k, can);
      chipBoxes.push([x0, yy, x1, yy + h]);
    });
    if (here.length > shown.length) {
      const [yy, x0] = rows.length ? rows[rows.length - 1] : [box.y1 - 20 * k, box.x0 + 8 * k];
      out += `<text x="${x0 + 3 * k}" y="${yy + h * 0.8}" font-size="${(compact ? 19 : 15) * k}" ` +
        `font-weight="700" fill="#fff">+${here.length - shown.length} more</text>`;
    }
    out += "</g>";
  }
  // Pieces at a point (free placement): discs of their size, the top one drawn last.
  const loose = b.pieces.filter((p) => p.at).sort((a, c) => a.layer - c.layer);
  for (const piece of loose) out += discOf(piece, k, can);
  out += onTop;
  for (const ln of b.lines) out += lineOf(ln, chipBoxes, k);
  out += ringsOf(snap.prompt.rings || {}, k, b.frame);
  out += shapesOf(snap.prompt.shapes || [], k, b.frame);
  svg.setAttribute("viewBox", b.frame.join(" "));
  setHTML(svg, out);
}

// Choices by their shape (a piece put anywhere in a circle): the circle drawn over the
// board; a tap inside it sends the action with the point tapped, in map millimetres.
// Where several pieces each have one, circles overlap and a tap could move the wrong
// piece: only the picked piece's circle is drawn (tap a piece, then where it goes).
function shownShapes(shapes) {
  const within = shapes.filter((sh) => sh.kind === "within");
  if (within.length <= 1) return within;
  return within.filter((sh) => selected && selected.piece === sh.piece);
}

// Distances the rules measure from a piece (a disk's range bands), drawn round the
// picked piece as thin rings. Each is named where it crosses a ray of its own, turned
// a little more for each ring and toward the board's middle: side by side on one line
// the names ran into one another ("mediulong"), and by an edge they left the board.
function ringsOf(rings, k, frame) {
  const piece = selected && selected.piece && pieceOf(selected.piece);
  const mine = piece && piece.at && rings[piece.ref];
  if (!mine) return "";
  const [x, y] = piece.at;
  const [fx, fy, fw, fh] = frame;
  const down = y < fy + fh / 2 ? 1 : -1;
  const right = x < fx + fw / 2 ? 1 : -1;
  return mine.map((r, i) => {
    const a = (20 + 22 * i) * Math.PI / 180;
    const tx = x + right * r.radius * Math.cos(a);
    const ty = y + down * r.radius * Math.sin(a);
    return `<g class="ring"><circle cx="${x}" cy="${y}" r="${r.radius}" ` +
      `fill="none" stroke="#e8e8e8" stroke-width="${1.5 * k}" ` +
      `stroke-dasharray="${3 * k} ${4 * k}" opacity="0.8"/>` +
      `<text x="${tx + right * 3 * k}" y="${ty + (down > 0 ? 12 : -3) * k}" ` +
      `font-size="${13 * k}" text-anchor="${right > 0 ? "start" : "end"}" ` +
      `fill="#e8e8e8">${esc(r.label)}</text></g>`;
  }).join("");
}

function shapesOf(shapes, k, frame) {
  const col = colors();
  const shown = new Set(shownShapes(shapes));
  const [fx, fy, fw] = frame;
  return shapes.map((sh, i) => {
    if (!shown.has(sh)) return "";
    const [x, y] = sh.centre;
    const c = col[snap.prompt.player] || "#ffffff";
    // The label above the circle, kept on the board.
    const ty = Math.max(y - sh.radius - 6 * k, fy + 18 * k);
    const tx = Math.min(Math.max(x, fx + sh.label.length * 4.5 * k), fx + fw - sh.label.length * 4.5 * k);
    return `<g class="shape" data-shape="${i}" role="button" aria-label="${esc(sh.label)}">` +
      `<title>${esc(sh.label)}</title>` +
      `<circle cx="${x}" cy="${y}" r="${sh.radius}" fill="${c}22" stroke="${c}" ` +
      `stroke-width="${3 * k}" stroke-dasharray="${10 * k} ${6 * k}"/>` +
      `<text x="${tx}" y="${ty}" font-size="${16 * k}" font-weight="700" ` +
      `text-anchor="middle" fill="${c}">${esc(sh.label)}</text></g>`;
  }).join("");
}

// Where on the map (mm) a tap on the board fell.
function mapPoint(e) {
  const svg = $("board");
  const pt = svg.createSVGPoint();
  pt.x = e.clientX;
  pt.y = e.clientY;
  const m = pt.matrixTransform(svg.getScreenCTM().inverse());
  return [Math.round(m.x * 10) / 10, Math.round(m.y * 10) / 10];
}

// The one chip of a region holding a single piece: up to 1.8 times a row's height,
// centred a little below the region's name, as wide as the outline is there; its text
// as large as lets the whole name fit, never smaller than a row's. A name that does not
// fit on one line at that size gets a chip tall enough for two lines where the region
// has the room, rather than squeezed glyphs (a scaled-down board's hexes are small).
function loneChip(piece, outline, box, chip, k) {
  const one = chipIn(piece, outline, box, chip, k,
    Math.min(chip.h * 1.8 * k, (box.y1 - box.y0) * 0.4));
  // Whole on one line without squeezing its glyphs (as ``chipText`` measures them).
  const whole = (c) => c.chip.lines === 2 || piece.label.length * c.chip.font * k * 0.66
    <= 1.2 * (c.w - 8 * k - (piece.badge ? c.h : 0));
  if (one && whole(one)) return one;
  const two = chipIn(piece, outline, box, chip, k,
    Math.min(2.3 * chip.font * k, (box.y1 - box.y0) * 0.62));
  return two && two.chip.lines === 2 ? two : one;
}

function chipIn(piece, outline, box, chip, k, h) {
  const y = Math.max(box.y0 + 27 * k, (box.y0 + box.y1) / 2 - h / 2 + 8 * k);
  if (y + h > box.y1 - 2 * k) return null;
  const band = bandSpan(outline, y, y + h);
  if (!band) return null;
  const w = band[1] - band[0] - 6 * k;
  const text = w - 8 * k - (piece.badge ? h : 0);  // room for the name, in units
  // Bold glyphs are about 0.66 em wide (as ``chipText`` measures them).
  const fits = text / (Math.max(piece.label.length, 1) * 0.66 * k);
  const font = Math.max(chip.font, Math.min(chip.font * h / (chip.h * k), fits));
  const room = Math.max(chip.room, Math.floor(text / (font * k * 0.66)));
  // A name too long for one line goes on two when the chip is tall enough for them (a
  // little too long is squeezed a little instead: "Wisp 1" reads better whole).
  const lines = piece.label.length * font * k * 0.66 > 1.2 * text && h >= 2.1 * font * k
    && piece.label.includes(" ") ? 2 : 1;
  return { x: band[0] + 3 * k, y, w, h, chip: { ...chip, font, room, lines } };
}

function pieceTitle(p) {
  return `<title>${esc(`${nameOf(p.player)}'s ${p.label}` +
    (p.details ? ` (${p.details})` : ""))}</title>`;
}

function chipOf(piece, x, y, w, h, chip, k, can) {
  const col = colors();
  const pick = selected && selected.piece === piece.ref;
  const badge = piece.badge ? 1 : 0;
  let out = `<g class="piece${pick ? " picked" : ""}${can.pieces.has(piece.ref) ? " choosable" : ""}" ` +
    `data-ref="${esc(piece.ref)}" role="button">${pieceTitle(piece)}` +
    `<rect x="${x}" y="${y}" width="${w}" height="${h}" rx="${4 * k}" ` +
    `fill="${col[piece.player] || "#888888"}" stroke="${piece.outline ? "#fff" : "none"}" ` +
    `stroke-dasharray="${piece.outline === "dashed" ? `${4 * k} ${3 * k}` : "none"}" ` +
    `stroke-width="${2 * k}"/>` +
    (chip.lines === 2 ? twoLines(piece.label, chip.room - 3 * badge, x + 4 * k, y, h,
      chip.font * k, w - 8 * k - (badge ? h : 0))
      : chipText(fitName(piece.label, chip.room - 3 * badge), x + 4 * k, y + h * 0.74,
        chip.font * k, w - 8 * k - (badge ? h : 0)));
  if (badge) {  // a count at a glance (damage): a red badge
    const r = h / 2;
    out += `<circle cx="${x + w - r}" cy="${y + r}" r="${r}" fill="#b00020"/>` +
      `<text x="${x + w - r}" y="${y + r * 1.45}" font-size="${chip.font * k}" ` +
      `font-weight="800" text-anchor="middle" fill="#fff">${Number(piece.badge)}</text>`;
  }
  return out + "</g>";
}

function discOf(piece, k, can) {
  const col = colors();
  const pick = selected && selected.piece === piece.ref;
  const [x, y] = piece.at;
  const r = piece.diameter / 2;
  let out = `<g class="piece${pick ? " picked" : ""}${can.pieces.has(piece.ref) ? " choosable" : ""}" ` +
    `data-ref="${esc(piece.ref)}" role="button">${pieceTitle(piece)}` +
    `<circle cx="${x}" cy="${y}" r="${r}" fill="${col[piece.player] || "#888888"}" ` +
    `stroke="${piece.outline || pick ? "#fff" : "#000"}" stroke-width="${2 * k}" ` +
    `stroke-dasharray="${piece.outline === "dashed" ? `${4 * k} ${3 * k}` : "none"}"/>` +
    chipText(discName(piece.label, Math.max(4, Math.round(piece.diameter / (7 * k)))),
      x - r * 0.8, y + 5 * k, 14 * k, r * 1.6);
  if (piece.badge) {
    out += `<circle cx="${x + r * 0.7}" cy="${y - r * 0.7}" r="${9 * k}" fill="#b00020"/>` +
      `<text x="${x + r * 0.7}" y="${y - r * 0.7 + 5 * k}" font-size="${13 * k}" ` +
      `font-weight="800" text-anchor="middle" fill="#fff">${Number(piece.badge)}</text>`;
  }
  return out + "</g>";
}

// A line between two places (an attack, a range): where it starts or ends on a piece's
// chip it starts or ends at the chip's edge, never over the name; its label, if any,
// sits above its middle on a dark outline so it reads over anything.
function lineOf(ln, chipBoxes, k) {
  let [ax, ay] = ln.a, [bx, by] = ln.b;
  const dx = bx - ax, dy = by - ay;
  let t0 = 0, t1 = 1;
  for (const [x0, y0, x1, y1] of chipBoxes) {
    const inside = (x, y) => x >= x0 && x <= x1 && y >= y0 && y <= y1;
    if (inside(ax, ay)) t0 = Math.max(t0, leave(ax, ay, dx, dy, x0, y0, x1, y1));
    if (inside(bx, by)) t1 = Math.min(t1, 1 - leave(bx, by, -dx, -dy, x0, y0, x1, y1));
  }
  const col = paint(ln.color);
  let out = "";
  if ((dx || dy) && t1 - t0 > 0.02) {  // (a line of no length only carries its label)
    [ax, ay, bx, by] = [ln.a[0] + dx * t0, ln.a[1] + dy * t0, ln.a[0] + dx * t1, ln.a[1] + dy * t1];
    out += `<line x1="${ax}" y1="${ay}" x2="${bx}" y2="${by}" stroke="${col}" ` +
      `stroke-width="${4 * k}" stroke-linecap="round" ` +
      `${ln.dashed ? `stroke-dasharray="${8 * k} ${5 * k}"` : ""}/>`;
    if (ln.arrow) {  // a head at b, along the line
      const len = Math.hypot(bx - ax, by - ay) || 1;
      const ux = (bx - ax) / len, uy = (by - ay) / len, s = 12 * k;
      out += `<polygon points="${points([[bx, by], [bx - ux * s - uy * s * 0.6,
        by - uy * s + ux * s * 0.6], [bx - ux * s + uy * s * 0.6, by - uy * s - ux * s * 0.6]])}" ` +
        `fill="${col}"/>`;
    }
  }
  if (ln.label) {
    out += `<text x="${(ln.a[0] + ln.b[0]) / 2}" y="${(ln.a[1] + ln.b[1]) / 2 - 6 * k}" ` +
      `font-size="${16 * k}" font-weight="700" text-anchor="middle" stroke="#000" ` +
      `stroke-width="${4 * k}" paint-order="stroke" fill="${col}">${esc(ln.label)}</text>`;
  }
  return out;
}

// The part of the way (0 to 1 of dx, dy) from x, y inside a box until it leaves it.
function leave(x, y, dx, dy, x0, y0, x1, y1) {
  const tx = dx > 0 ? (x1 - x) / dx : dx < 0 ? (x0 - x) / dx : Infinity;
  const ty = dy > 0 ? (y1 - y) / dy : dy < 0 ? (y0 - y) / dy : Infinity;
  return Math.min(tx, ty);
}

// A name on two lines, broken between the words where the longer line is shortest
// (each line cut if it must be).
function twoLines(name, room, x, y, h, font, width) {
  const words = name.split(" ");
  let best = 1;
  for (let i = 1; i < words.length; i++) {
    const longest = (j) => Math.max(words.slice(0, j).join(" ").length,
      words.slice(j).join(" ").length);
    if (longest(i) < longest(best)) best = i;
  }
  const first = fitName(words.slice(0, best).join(" "), room);
  const second = fitName(words.slice(best).join(" "), room);
  return chipText(first, x, y + h * 0.45, font, width) +
    (second ? chipText(second, x, y + h * 0.88, font, width) : "");
}

// A chip's label, squeezed to its room when the font's glyphs run wide.
function chipText(text, x, y, font, room) {
  const squeeze = text.length * font * 0.66 > room
    ? ` textLength="${room}" lengthAdjust="spacingAndGlyphs"` : "";
  return `<text x="${x}" y="${y}" font-size="${font}" font-weight="700" fill="#000"${squeeze}>` +
    `${esc(text)}</text>`;
}

function renderCellInfo() {
  const el = $("cell-info");
  if (!selected) { el.hidden = true; return; }
  const piece = selected.piece ? pieceOf(selected.piece) : null;
  const where = selected.cell || (piece && piece.region);
  let html;
  if (piece && piece.at) {
    // A piece at a point in an open area: itself, not the whole area's list.
    const region = snap.board.regions.find((r) => r.id === piece.region);
    html = `<h2>On the ${esc(region ? region.label || region.id : "board")}</h2>` +
      `<p>${describePiece(piece)}</p>`;
  } else if (where) {
    const region = snap.board.regions.find((r) => r.id === where);
    const here = pieces().filter((m) => m.region === where);
    html = `<h2>In ${esc(region ? region.label || region.id : where)}</h2>` + (here.length
      ? "<ul>" + here.map((m) => `<li class="${m.ref === selected.piece ? "picked" : ""}">` +
        `<button type="button" class="linkish" data-pick="${esc(m.ref)}">` +
        `${describePiece(m)}</button></li>`).join("") + "</ul>"
      : "<p>Empty.</p>");
  } else {
    const zone = snap.board.zones.find((z) => z.id === piece.zone);
    html = `<h2>${esc(zone ? zone.label : "off the board")}</h2><p>${describePiece(piece)}</p>`;
  }
  setHTML(el, html + `<button type="button" data-unpick>Close</button>`);
  el.hidden = false;
}

function renderZones() {
  const zones = snap.board.zones;
  const el = $("zones");
  el.hidden = !zones.length;
  setHTML(el, ["p1", "p2"].map((p) => {
    const list = (z) => pieces().filter((m) => m.player === p && m.zone === z)
      .map((m) => `<button type="button" class="chip ${esc(p)}` +
        `${selected && selected.piece === m.ref ? " picked" : ""}" data-pick="${esc(m.ref)}">` +
        `${esc(m.label)}${m.note ? ` <small>(${esc(m.note)})</small>` : ""}</button>`)
      .join(" ") || "—";
    return `<div><b class="${esc(p)}">${playerName(p)}</b>` + zones.map((z) =>
      `<div class="zone">${esc(z.label)}: ${list(z.id)}</div>`).join("") + "</div>";
  }).join(""));
}

function renderScore() {
  const s = snap.score;
  const el = $("score");
  el.hidden = !s || !s.players;
  if (el.hidden) { setHTML(el, ""); return; }
  const track = (p, v) => v.of && v.of <= 12 ? `<div class="track ${esc(p)}" ` +
    `aria-label="${playerName(p)}: ${Number(v.value)} ${esc(v.label)} of ${Number(v.of)}">` +
    Array.from({ length: v.of }, (_, i) =>
      `<span class="${i < v.value ? "won" : ""}"></span>`).join("") + "</div>" : "";
  setHTML(el, `<h2>${esc(s.title || "Score")}</h2>` +
    Object.entries(s.players).map(([p, v]) => `<div><b class="${esc(p)}">${playerName(p)}` +
      `</b> <span class="big" data-score="${esc(p)}">${Number(v.value)}</span>` +
      `${v.of ? ` / ${Number(v.of)}` : ""} <small>${esc(v.label)}</small>${track(p, v)}</div>`)
      .join("") +
    (s.lines || []).map((l) => `<div>${esc(l)}</div>`).join("") +
    (s.winner ? `<div class="big" id="winner">${playerName(s.winner)} wins!</div>` : ""));
}

// Dice: each need offers its die's faces. One die a player rolls alone (initiative) is
// sent at the first tap; several are entered face by face, then submitted.
function renderDice() {
  const p = snap.prompt;
  const el = $("dice");
  el.hidden = !p.dice.length;
  if (!p.dice.length) { setHTML(el, ""); faces = []; return; }
  let html = "<h2>Dice</h2>";
  const how = boxOk() ? "roll on the table box, or enter the roll here"
    : "no table box: enter the roll here";
  for (const d of p.dice) {
    if (d.private) {
      // A draw only its player may see: entered on their own page, never here.
      html += `<div><b class="${esc(d.player)}">${playerName(d.player)}</b> draws ` +
        `${esc(d.label)}: ${boxOk() ? "press the table box's roll button, or " : ""}` +
        `enter it on ${playerName(d.player)}'s own page</div>`;
      continue;
    }
    html += `<div><b class="${esc(d.player)}">${playerName(d.player)}</b> rolls ` +
      `<span class="big">${Number(d.n)}</span> ${esc(d.label)}: ${how}</div>`;
    const faceList = d.faces || [];
    if (d.n === 1) {
      html += `<div class="faces">` + faceList.map((f) =>
        `<button data-die-for="${esc(d.player)}" data-command="${esc(d.command)}" ` +
        `data-face="${esc(f.code)}" aria-label="${playerName(d.player)} rolled ` +
        `${esc(f.label)}">${esc(f.label)}</button>`).join("") + "</div>";
    } else {
      html += `<div class="faces">` + faceList.map((f) =>
        `<button data-face="${esc(f.code)}" title="${esc(f.label)}">${esc(f.label)}</button>`)
        .join("") + `</div><div>entered: <b id="faces">${esc(faces.join(" ")) || "—"}</b> ` +
        `<button data-roll="${esc(d.player)}" data-command="${esc(d.command)}" ` +
        `${faces.length ? "" : "disabled"}>Submit roll</button> ` +
        "<button data-clear-faces>Clear</button></div>";
    }
  }
  setHTML(el, html);
}

// The board's legend, as the game writes it: each marking drawn as the board draws it
// (its text in its colour, on its fill; a fill alone as a swatch), then what it means.
function renderLegend() {
  const keys = snap.board.legend || [];
  $("legend").hidden = !keys.length;
  setHTML($("legend-list"), keys.map((k) => {
    const fill = k.fill ? paint(k.fill) : k.text ? "none" : paint(k.color);
    const sample = `<svg class="key" viewBox="0 0 30 30" aria-hidden="true">` +
      `<rect x="1" y="1" width="28" height="28" rx="4" fill="${fill}" stroke="#3a4654"/>` +
      (k.text ? `<text x="15" y="22" text-anchor="middle" font-size="19" font-weight="700" ` +
        `fill="${paint(k.color)}">${esc(k.text)}</text>` : "") + "</svg>";
    return `<li>${sample} ${esc(k.means)}</li>`;
  }).join(""));
}

// A step's own card (a fight's damage to assign): rows of action buttons.
function renderPanel() {
  const panel = snap.prompt.panel;
  const el = $("combat");
  if (!panel) { setHTML(el, ""); el.hidden = true; return; }
  el.hidden = false;
  setHTML(el, `<h2>${esc(panel.title)}</h2>` + (panel.text ? `<div>${esc(panel.text)}</div>` : "") +
    panel.rows.map((row) => `<div class="target"><b>${esc(row.label)}</b><br>` +
      row.buttons.map((b) => `<button data-action="${esc(b.action)}" title="${esc(b.title || "")}">` +
        `${esc(b.label)}</button>`).join("") + "</div>").join(""));
}

function renderOptions() {
  const p = snap.prompt;
  let html = "<h2>What can be done</h2>";
  if (p.step === "game_over") {
    html += `<p>${snap.score.winner ? playerName(snap.score.winner) + " won." : ""}</p>` +
      `<button data-new-game class="ready">New game: same players and ${esc(tableWords().force_word)}s</button>` +
      ` <button data-tab-go="setup">Other players or ${esc(tableWords().force_word)}s…</button>`;
    setHTML($("options"), html);
    $("options").hidden = false;
    return;
  }
  if (p.proposal) {
    html += `<p><button data-ready="${esc(p.player)}" class="ready" ` +
      `aria-keyshortcuts="Enter">Ready: ${esc(p.proposal_label || p.proposal)}</button></p>`;
  }
  // Choices a card shows (the dice, a fight's damage), or the Ready button above, are
  // not listed twice.
  let shown = (p.choices || []).filter((c) => !c.card && c.action !== p.proposal);
  if (selected) {
    const cell = selected.cell || (pieceOf(selected.piece) || {}).region;
    const picked = shown.filter((c) => (selected.piece && c.pieces.includes(selected.piece)) ||
      (cell && (c.regions.includes(cell) ||
        c.pieces.some((r) => (pieceOf(r) || {}).region === cell && !selected.piece))));
    const what = selected.piece ? esc(pieceOf(selected.piece)?.label || "") : esc(cell || "");
    html += `<p class="filter">Choices for <b>${what}</b>: ${picked.length} of ${shown.length}` +
      ` <button type="button" data-unpick>Show all</button></p>`;
    shown = picked;
  }
  const { groups, rest } = selected ? { groups: [], rest: shown } : groupChoices(shown);
  groupsNow = groups;
  if (picking && !groups.some((g) => g.key === picking.key)) picking = null;  // gone
  if (picking) {
    html += `<p class="filter"><b>${esc(picking.key)}…</b> tap one of the ` +
      `${picking.byRegion.size} marked places on the board ` +
      "<button type=\"button\" data-unpick>Cancel</button></p>";
  } else if (rest.length || groups.length) {
    html += `<div class="options">` + groups.map((g, i) =>
      `<button data-group="${i}">${esc(g.key)}… <small>(pick one of ` +
      `${g.items.length} places on the board)</small></button>`).join("") +
      rest.map((c) => `<button data-action="${esc(c.action)}">${esc(c.label)}</button>`)
        .join("") + "</div>";
  }
  const shapes = p.shapes || [];
  const drawn = shownShapes(shapes);
  for (const sh of drawn) {
    html += `<p class="shape-hint">${esc(sh.label)}: tap the board inside the dashed ` +
      "circle, or set the piece there for the camera</p>";
  }
  if (shapes.length > 1 && !drawn.length) {
    const names = shapes.map((sh) => pieceOf(sh.piece)?.label || "").filter(Boolean);
    html += `<p class="shape-hint">To move ${esc(names.join(", "))}: tap it on the board ` +
      "to see where it may go, then tap there (or set it there for the camera)</p>";
  }
  setHTML($("options"), html);
  // Nothing to choose here (initiative: the dice card asks): no empty card.
  $("options").hidden = !shown.length && !shapes.length && !p.proposal && !selected;
}

// Many choices alike but for the place they name (a spell on any of twenty hexes) are
// one button, then a tap on the board: GROUP_AT or more choices, each naming one region
// its label ends with, the rest of their labels the same.
const GROUP_AT = 6;
function groupChoices(choices) {
  const byKey = new Map();
  const rest = [];
  for (const c of choices) {
    const region = c.regions.length === 1 &&
      snap.board.regions.find((r) => r.id === c.regions[0]);
    const place = region && [region.label, region.id].find((n) => n && c.label.endsWith(" " + n));
    if (!place) { rest.push(c); continue; }
    const key = c.label.slice(0, -place.length - 1).replace(/ (on|to|in|at|into)$/, "");
    if (!byKey.has(key)) byKey.set(key, []);
    byKey.get(key).push(c);
  }
  const groups = [];
  for (const [key, items] of byKey) {
    const places = new Set(items.map((c) => c.regions[0]));
    if (items.length >= GROUP_AT && places.size === items.length) groups.push({ key, items });
    else rest.push(...items);
  }
  // The choices keep the order the game gave them.
  rest.sort((a, b) => choices.indexOf(a) - choices.indexOf(b));
  return { groups, rest };
}

// What each kind of log entry is, in a word a player reads (the log's own names are
// for programs: "seat_key", "board_ok").
const KIND_WORDS = {
  action: "played", roll: "dice", undo: "undo", correction: "correction",
  warning: "warning", desync: "camera", resync: "camera", observation: "camera",
  board_ok: "camera overruled", seat_key: "private page", answered: "answer",
  device: "table box", health: "health", follow_camera: "camera",
};

function renderHistory() {
  setHTML($("history"), snap.history.slice().reverse()
    .filter((h) => h.text).slice(0, 80).map((h) =>
      `<li data-kind="${esc(h.kind)}"><b>${esc(KIND_WORDS[h.kind] ||
        String(h.kind).replace(/_/g, " "))}</b> ${esc(h.text)}` +
      `<span class="src">${esc(h.source || "")}</span></li>`).join(""));
  // The correction form picks a piece by name (its value is the id the API takes).
  const pickMini = $("correct-piece");
  const where = (m) => m.region || (snap.board.zones.find((z) => z.id === m.zone) || {}).label
    || "off the board";
  const opts = pieces().map((m) => `<option value="${esc(m.ref)}">${playerName(m.player)}'s ` +
    `${esc(m.label)} (${esc(where(m))})</option>`).join("");
  $("correct-to").placeholder = snap.correction_places || "";
  if (pickMini.dataset.opts !== opts) {
    const keep = pickMini.value;
    pickMini.innerHTML = opts;
    pickMini.dataset.opts = opts;
    if (keep) pickMini.value = keep;
  }
  const undo = $("undo");
  undo.disabled = !snap.can_undo;
  undo.textContent = !snap.can_undo ? "Nothing to undo"
    : undoArmed ? `Press again to undo: ${undoArmed[0]}`
      : `Undo: ${snap.undo_label} (u)`;
  undo.classList.toggle("armed", Boolean(undoArmed));
}

// Undo takes two presses: the first says what it would undo.
function undoPressed() {
  if (!snap || !snap.can_undo) return;
  if (undoArmed && undoArmed[0] === snap.undo_label) {
    clearTimeout(undoArmed[1]);
    undoArmed = null;
    command({ do: "undo" });
    return;
  }
  if (undoArmed) clearTimeout(undoArmed[1]);
  undoArmed = [snap.undo_label, setTimeout(() => { undoArmed = null; renderHistory(); }, 6000)];
  showTab("history");
  renderHistory();
}

function pick(what) {
  const same = selected && ((what.cell && selected.cell === what.cell) ||
    (what.piece && selected.piece === what.piece));
  selected = same ? null : what;
  render();
}

// -- input ------------------------------------------------------------------------------
document.addEventListener("click", (e) => {
  const shapeEl = e.target.closest("#board g.shape");
  if (shapeEl) {
    const sh = (snap.prompt.shapes || [])[Number(shapeEl.dataset.shape)];
    if (sh) {
      const [x, y] = mapPoint(e);
      selected = null;
      return command({ do: "action", action: sh.action.replace("{x}", x).replace("{y}", y) });
    }
  }
  const pieceEl = e.target.closest("#board g.piece");
  if (pieceEl) return pick({ piece: pieceEl.dataset.ref });
  const cellEl = e.target.closest("#board g.cell");
  if (cellEl && picking) {
    const action = picking.byRegion.get(cellEl.dataset.cell);
    if (!action) return undefined;  // not one of the marked places
    picking = null;
    return command({ do: "action", action });
  }
  if (cellEl) return pick({ cell: cellEl.dataset.cell });
  const b = e.target.closest("button");
  if (!b) return;
  if (b.classList.contains("tab")) return showTab(b.dataset.tab);
  if (b.dataset.tabGo) return showTab(b.dataset.tabGo);
  if (b.dataset.pick) return pick({ piece: b.dataset.pick });
  if ("unpick" in b.dataset) { selected = null; picking = null; return render(); }
  if (b.dataset.group) {
    const g = groupsNow[Number(b.dataset.group)];
    if (!g) return undefined;
    picking = { key: g.key, byRegion: new Map(g.items.map((c) => [c.regions[0], c.action])) };
    return render();
  }
  if (b.dataset.action) { selected = null; return command({ do: "action", action: b.dataset.action }); }
  if (b.dataset.ready) return command({ do: "ready", player: b.dataset.ready });
  if (b.dataset.dieFor) {
    return command({ do: b.dataset.command, player: b.dataset.dieFor, faces: [b.dataset.face] });
  }
  if (b.dataset.face) { faces.push(b.dataset.face); return renderDice(); }
  if ("clearFaces" in b.dataset) { faces = []; return renderDice(); }
  if (b.dataset.roll) {
    const f = faces; faces = [];
    return command({ do: b.dataset.command, player: b.dataset.roll, faces: f });
  }
  if (b.dataset.choose) {
    const o = b.dataset.choose;
    return command({ do: "choose", option: o === "no" ? "no" : Number(o) });
  }
  if (b.id === "undo") return undoPressed();
  if ("boardOk" in b.dataset) return command({ do: "board_ok" });
  if ("newGame" in b.dataset) return rematch();
  if (b.id === "sample") return fillSample();
  if (b.dataset.seatLink) return seatLink(b.dataset.seatLink);
  if ("seatLinkDone" in b.dataset) { $("seat-link").innerHTML = ""; return undefined; }
});

// A player's private page link, shown once for them to open (or type) on their phone;
// closed again so the shared screen does not keep it.
async function seatLink(seat) {
  const r = await post("/api/seats", { seat });
  const el = $("seat-link");
  if (!r.ok) { el.textContent = r.data.error; return; }
  const url = location.origin + r.data.url;
  el.innerHTML = `<p>${esc(nameOf(seat))}: open <b class="link-text">${esc(url)}</b> ` +
    "on your phone, then close this.</p><button type=\"button\" data-seat-link-done>" +
    "Close the link</button>";
}

async function rematch() {
  const s = snap.setup;
  const r = await post("/api/games", { system: s.system, names: s.names, colors: s.colors,
                                       forces: s.forces });
  if (r.ok) { selected = null; showTab("table"); }
}

$("follow").addEventListener("change", (e) => command({ do: "follow_camera", on: e.target.checked }));
$("typed").addEventListener("submit", (e) => {
  e.preventDefault();
  command({ do: "action", action: $("typed-action").value.trim() });
});
$("correct").addEventListener("submit", (e) => {
  e.preventDefault();
  // The seam's neutral shape: the session hands ``piece`` to the game under its own word.
  command({ do: "correct", piece: $("correct-piece").value.trim(), to: $("correct-to").value.trim() });
});
$("login").addEventListener("submit", async (e) => {
  e.preventDefault();
  await post("/api/login", { pin: $("pin").value });
  $("pin").value = "";
});
$("setup").addEventListener("submit", async (e) => {
  e.preventDefault();
  const f = e.target.elements;
  const lines = (t) => t.split("\n").map((s) => s.trim()).filter(Boolean);
  const wb = { p1: lines(f.p1wb.value), p2: lines(f.p2wb.value) };
  const msg = $("setup-msg");
  const empty = ["p1", "p2"].filter((p) => !wb[p].length);
  if (empty.length) {
    const g = chosenGame() || { piece_word: "piece", force_word: "force" };
    msg.textContent = `${empty.map((p) => f[`${p}name`].value).join(" and ")}: ` +
      `add at least one ${g.piece_word} to the ${g.force_word}.`;
    msg.className = "bad";
    return;
  }
  if (snap && snap.prompt.step !== "game_over" && !window.confirm(
    `Game ${snap.game_id} (${nameOf("p1")} vs ${nameOf("p2")}) is still being played. ` +
    "Set it aside and start the new one? It stays in the log: resume it from this page.")) {
    return;
  }
  if (wb.p1.length !== wb.p2.length && !window.confirm(
    `The ${(chosenGame() || {}).force_word || "force"}s are uneven: ${f.p1name.value} has ` +
    `${wb.p1.length}, ` +
    `${f.p2name.value} ${wb.p2.length}. Start anyway?`)) return;
  const r = await post("/api/games", {
    system: $("system").value || undefined,
    names: { p1: f.p1name.value, p2: f.p2name.value },
    colors: { p1: f.p1color.value, p2: f.p2color.value },
    forces: wb,
  });
  msg.textContent = r.ok ? `Game ${r.data.game_id} started.` : r.data.error;
  msg.className = r.ok ? "" : "bad";
  if (r.ok) {
    selected = null;
    delete $("setup").dataset.edited;  // the next visit shows the new game's players
    showTab("table");
    window.scrollTo(0, 0);  // the new game's prompt, not where the setup page was
  }
});

const chosenGame = () => systems.find((g) => g.name === $("system").value) || systems[0];
// The words of the game on the table (its piece_word, force_word), for its own pages.
const tableWords = () => (snap && systems.find((g) => g.name === snap.setup.system))
  || { piece_word: "piece", force_word: "force" };

async function fillSample() {
  const g = chosenGame();
  const f = $("setup").elements;
  const same = snap && snap.setup.system === g.name;
  f.p1wb.value = (same ? snap.setup.forces.p1 : g.sample.p1).join("\n");
  f.p2wb.value = (same ? snap.setup.forces.p2 : g.sample.p2).join("\n");
}

// The setup page speaks the chosen game's words (its piece_word, force_word).
function setupWords() {
  const g = chosenGame();
  if (!g) return;
  document.querySelectorAll("[data-word]").forEach((el) => {
    el.textContent = g[el.dataset.word];
  });
}

async function loadCatalog() {
  const g = chosenGame();
  const cat = await fetch(`/api/catalog?game=${encodeURIComponent(g.name)}`)
    .then((r) => r.json());
  setHTML($("catalog"), cat.map((m) => `<li><button type="button" data-add="${esc(m.name)}" ` +
    `aria-label="add ${esc(m.name)} (cost ${Number(m.cost)}) to the chosen ${esc(g.force_word)}">` +
    `${esc(m.name)} (${Number(m.cost)})</button></li>`).join(""));
}

async function loadSystems() {
  systems = await fetch("/api/systems").then((r) => r.json());
  const sel = $("system");
  // The game on the table, until a person picks another one for the next game.
  const now = (sel.dataset.picked && sel.value) || (snap && snap.setup.system) ||
    (systems[0] || {}).name;
  setHTML(sel, systems.map((g) => `<option value="${esc(g.name)}">${esc(g.title)}</option>`)
    .join(""));
  if (systems.some((g) => g.name === now)) sel.value = now;
  $("system-row").hidden = systems.length < 2;  // one game installed: nothing to choose
  setupWords();
}

function showTab(name) {
  document.querySelectorAll(".tab").forEach((t) => t.classList.toggle("active", t.dataset.tab === name));
  document.querySelectorAll(".panel").forEach((p) => p.classList.toggle("active", p.id === `tab-${name}`));
  const cam = $("camera-view");
  if (name === "camera") cam.src = "/camera.mjpg";
  else cam.removeAttribute("src");  // no stream while nobody looks
  if (name === "setup") loadSetup();
  if (name === "table") { fitBoard(); if (snap) renderBoard(); }  // sized while in view
}

async function loadSetup() {
  const [dev, games] = await Promise.all([
    fetch("/api/devices").then((r) => r.json()),
    fetch("/api/games").then((r) => r.json()),
    loadSystems()]);
  await loadCatalog();
  fillFromTable();
  $("camera-spec").value = dev.camera;
  setHTML($("port"), [{ device: "none", description: "no table box" }, ...dev.ports]
    .map((p) => `<option value="${esc(p.device)}" ${p.device === dev.port ? "selected" : ""}>` +
      `${esc(p.device)}${p.description ? " — " + esc(p.description) : ""}</option>`).join(""));
  const title = (name) => (systems.find((g) => g.name === name) || { title: name || "" }).title;
  setHTML($("games"), games.map((g) => {
    const names = g.names ? `${esc(g.names.p1)} vs ${esc(g.names.p2)}` : "";
    const current = snap && g.id === snap.game_id;
    return `<li>game ${Number(g.id)} · ${esc(title(g.game))} · ${names} · ${esc(g.status)} · ` +
      `${Number(g.entries)} entries ` + (current ? "<b>(on the table)</b>" :
        `<button data-resume="${Number(g.id)}">Resume game ${Number(g.id)}</button>`) + "</li>";
  }).join("") || "<li>no games yet</li>");
}

// The form starts as the game on the table (its players, colours and forces), so
// "other players" means changing what differs, not typing everything again. A form a
// person has begun to edit is left alone.
function fillFromTable() {
  const form = $("setup");
  if (!snap || form.dataset.edited) return;
  const f = form.elements;
  const st = snap.setup;
  for (const p of ["p1", "p2"]) {
    f[`${p}name`].value = (st.names || {})[p] || f[`${p}name`].value;
    if (/^#[0-9a-fA-F]{6}$/.test((st.colors || {})[p] || "")) f[`${p}color`].value = st.colors[p];
    if ($("system").value === st.system) f[`${p}wb`].value = (st.forces[p] || []).join("\n");
  }
}
$("setup").addEventListener("input", () => { $("setup").dataset.edited = "1"; });

$("system").addEventListener("change", () => {
  $("system").dataset.picked = "1";
  setupWords();
  loadCatalog();
  const f = $("setup").elements;
  f.p1wb.value = "";
  f.p2wb.value = "";
});

$("devices").addEventListener("submit", async (e) => {
  e.preventDefault();
  const r = await post("/api/devices", { camera: $("camera-spec").value.trim(),
                                         port: $("port").value });
  $("devices-msg").textContent = r.ok ? "in use" : r.data.error;
});

// A catalog pick is one more line in the chosen player's force.
document.addEventListener("click", (e) => {
  const b = e.target.closest("button[data-add]");
  if (!b) return;
  const who = document.querySelector('input[name="pickfor"]:checked').value;
  const box = $("setup").elements[`${who}wb`];
  box.value = (box.value.trim() ? box.value.trim() + "\n" : "") + b.dataset.add;
});

document.addEventListener("click", async (e) => {
  const b = e.target.closest("button[data-resume]");
  if (!b) return;
  const r = await post(`/api/games/${b.dataset.resume}/resume`, {});
  if (r.ok) { selected = null; showTab("table"); }
});

document.addEventListener("keydown", (e) => {
  if (e.target.matches("input, textarea, select")) return;
  const keys = { t: "table", h: "history", c: "camera", s: "setup" };
  if (keys[e.key]) return showTab(keys[e.key]);
  if (e.key === "u") return undoPressed();
  if (e.key === "Escape" && selected) { selected = null; return render(); }
  if (e.key === "Enter" && snap && snap.prompt.proposal) {
    e.preventDefault();
    command({ do: "ready", player: snap.prompt.player });
  }
});

// The board's chips depend on its width (a phone gets fewer, larger ones).
window.addEventListener("resize", () => {
  clearTimeout(renderBoard.t);
  renderBoard.t = setTimeout(() => { if (snap) { fitBoard(); renderBoard(); } }, 150);
});

connect();
loadSystems().then(refresh, refresh);
