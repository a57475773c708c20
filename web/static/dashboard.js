// The dashboard: renders /api/state, refreshes it when the server pushes an event (SSE),
// and sends every click as a command to /api/command. No framework: one file, no build.
// Everything drawn from the server goes through esc() or safeColor(): names, labels and
// messages are text, never markup.
"use strict";

const csrf = document.querySelector('meta[name="csrf-token"]').content;
let snap = null;
let faces = [];
let refreshTimer = null;
let selected = null; // {cell} or {mini}: what a click on the board picked
let undoArmed = null; // the undo waiting for its second press: [label, timer]

const $ = (id) => document.getElementById(id);
const esc = (s) => String(s).replace(/[&<>"']/g,
  (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));
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
const miniOf = (ref) => snap.minis.find((m) => m.ref === ref);
const boxOk = () => Boolean((snap.health || {}).box && snap.health.box.ok);

function colors() {
  const c = snap.setup.colors || {};
  return { p1: safeColor(c.p1), p2: safeColor(c.p2) };
}

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

function describeMini(m) {
  let text = `<b class="${esc(m.player)}">${playerName(m.player)}'s ${esc(m.label)}</b>`;
  if (m.kind === "creature") {
    text += ` — ${m.damage} damage of ${m.life} life, defense ${m.defense}, power ${m.power}`;
  } else text += " — location";
  const states = [];
  if (m.engaged) states.push("engaged");
  if (m.at_risk) states.push("to be disrupted or destroyed");
  if (m.disrupted) states.push("disrupted: to be placed");
  if (states.length) text += ` <span class="state">(${states.join(", ")})</span>`;
  return text;
}

// -- rendering ---------------------------------------------------------------------------
function render() {
  if (!snap) return;
  document.body.dataset.gameId = snap.game_id ?? "";
  if (selected && selected.mini && !miniOf(selected.mini)) selected = null;
  renderPrompt();
  renderBanners();
  renderHealth();
  renderBoard();
  renderCellInfo();
  renderZones();
  renderScore();
  renderDice();
  renderCombat();
  renderOptions();
  renderHistory();
  $("follow").checked = snap.follow_camera;
  $("login").hidden = !snap.staff_login || snap.staff;
  $("staff-state").textContent = !snap.staff_login ? "This table needs no staff PIN."
    : snap.staff ? "Staff: logged in." : "Staff: log in with the admin PIN to change the game.";
}

function renderPrompt() {
  const p = snap.prompt;
  const el = $("prompt");
  el.textContent = p.text;
  el.className = "prompt" + (p.player ? " " + p.player : "");
  el.dataset.step = p.step;
}

function renderBanners() {
  const d = $("desync");
  if (snap.desync && snap.desync.length) {
    d.innerHTML = "The board does not match the game: " +
      snap.desync.map((l) => `<div class="problem">${esc(l)}</div>`).join("") +
      `<button data-board-ok title="staff: the pieces are right, the camera misreads them">` +
      "The board is right: overrule the camera</button>";
    d.hidden = false;
  } else d.hidden = true;
  const c = $("confirm");
  if (snap.confirm && snap.confirm.length) {
    c.innerHTML = "The camera saw a move with several readings. Which one happened? " +
      (snap.confirm_labels || snap.confirm).map((opt, i) =>
        `<button data-choose="${i}">${esc(opt.join("; then "))}</button>`).join("");
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
  $("camera-stats").innerHTML = parts.join("") || "<p>No camera on this table.</p>";
}

function renderHealth() {
  renderCameraStats();
  const h = snap.health || {};
  $("health").innerHTML = ["camera", "box"].map((part) => {
    const x = h[part];
    if (!x) return `<span class="pill">${part}: none</span>`;
    return `<span class="pill ${x.ok ? "ok" : "bad"}" title="${esc(x.message)}">` +
      `${part}: ${x.ok ? "ok" : esc(x.message)}</span>`;
  }).join("");
}

// The cells and miniatures the current choices involve: what a click can pick.
function choosable() {
  const cells = new Set();
  const minis = new Set();
  for (const c of snap.prompt.choices || []) {
    c.cells.forEach((x) => cells.add(x));
    c.minis.forEach((x) => minis.add(x));
  }
  return { cells, minis };
}

function renderBoard() {
  const svg = $("board");
  const cell = 112;
  const m = snap.map;
  const byCell = {};
  for (const mini of snap.minis) {
    if (mini.cell) (byCell[mini.cell] ||= []).push(mini);
  }
  const col = colors();
  const can = choosable();
  // On a small screen (a phone: the board ~370 px wide) fewer, larger chips: their text
  // stays ~13 px tall; the cell's full list is one tap away.
  const compact = svg.clientWidth > 0 && svg.clientWidth < 520;
  const chip = compact ? { h: 25, gap: 2, font: 19, room: 10, max: 3 }
    : { h: 19, gap: 2, font: 14, room: 15, max: 4 };
  let out = "";
  for (const [name, c] of Object.entries(m.cells)) {
    const x = c.column * cell;
    const y = (m.rows - c.row) * cell;
    const here = byCell[name] || [];
    const engaged = here.some((a) => a.engaged);
    const picked = selected && (selected.cell === name ||
      (selected.mini && miniOf(selected.mini)?.cell === name));
    const fill = c.portal ? col[c.portal] + "55" : engaged ? "#5a1f1f" : "#1c232b";
    const cls = ["cell", can.cells.has(name) ? "choosable" : "", picked ? "picked" : ""];
    out += `<g class="${cls.join(" ")}" data-cell="${esc(name)}" role="button" ` +
      `aria-label="cell ${esc(name)}${here.length ? ": " + here.map((a) =>
        esc(`${nameOf(a.player)}'s ${a.label}`)).join(", ") : ""}">`;
    out += `<rect class="cell-bg" x="${x + 2}" y="${y + 2}" width="${cell - 4}" ` +
      `height="${cell - 4}" rx="8" fill="${fill}" stroke-width="${engaged ? 4 : 2}" ` +
      `stroke="${engaged ? "#ff4d4d" : "#3a4654"}"/>`;
    out += `<text x="${x + 8}" y="${y + 21}" font-size="17" fill="${engaged ? "#ff8080"
      : "#9fb0c0"}">${esc(name)}${engaged ? " ⚔" : ""}</text>`;
    if (engaged) out += "<title>engaged: creatures of both players fight here</title>";
    let sx = x + cell - 8;
    for (const p of ["p2", "p1"]) {
      const v = c.scoring[p];
      if (v) {
        out += `<text x="${sx}" y="${y + 22}" font-size="20" font-weight="800" ` +
          `text-anchor="end" fill="${col[p]}">${Number(v)}</text>`;
        sx -= 22;
      }
    }
    const shown = here.length > chip.max ? here.slice(0, chip.max - 1) : here;
    shown.forEach((mini, i) => {
      const yy = y + 27 + i * (chip.h + chip.gap);
      const pick = selected && selected.mini === mini.ref;
      const dmg = mini.damage ? 1 : 0;
      out += `<g class="mini${pick ? " picked" : ""}${can.minis.has(mini.ref) ? " choosable" : ""}" ` +
        `data-ref="${esc(mini.ref)}" role="button"><title>${esc(
          `${nameOf(mini.player)}'s ${mini.label}` +
          (mini.kind === "creature" ? ` (${mini.damage}/${mini.life} damage)` : ""))}</title>` +
        `<rect x="${x + 5}" y="${yy}" width="${cell - 10}" height="${chip.h}" rx="4" ` +
        `fill="${col[mini.player]}" stroke="${mini.disrupted || mini.at_risk ? "#fff" : "none"}" ` +
        `stroke-dasharray="${mini.disrupted ? "4 3" : "none"}" stroke-width="2"/>` +
        chipText(fitName(mini.label, chip.room - 3 * dmg), x + 9, yy + chip.h * 0.74,
          chip.font, cell - 18 - (dmg ? chip.h : 0));
      if (dmg) {  // damage at a glance: a red badge with the count
        const r = chip.h / 2;
        out += `<circle cx="${x + cell - 5 - r}" cy="${yy + r}" r="${r}" fill="#b00020"/>` +
          `<text x="${x + cell - 5 - r}" y="${yy + r * 1.45}" font-size="${chip.font}" ` +
          `font-weight="800" text-anchor="middle" fill="#fff">${Number(mini.damage)}</text>`;
      }
      out += "</g>";
    });
    if (here.length > shown.length) {
      out += `<text x="${x + 8}" y="${y + cell - 7}" font-size="${compact ? 19 : 15}" ` +
        `font-weight="700" fill="#fff">+${here.length - shown.length} more</text>`;
    }
    out += "</g>";
  }
  svg.setAttribute("viewBox", `0 0 ${m.columns * cell} ${m.rows * cell}`);
  svg.innerHTML = out;
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
  const mini = selected.mini ? miniOf(selected.mini) : null;
  const cellName = selected.cell || (mini && mini.cell);
  let html;
  if (cellName) {
    const here = snap.minis.filter((m) => m.cell === cellName);
    html = `<h2>In ${esc(cellName)}</h2>` + (here.length
      ? "<ul>" + here.map((m) => `<li class="${m.ref === selected.mini ? "picked" : ""}">` +
        `<button type="button" class="linkish" data-pick="${esc(m.ref)}">` +
        `${describeMini(m)}</button></li>`).join("") + "</ul>"
      : "<p>Empty.</p>");
  } else {
    html = `<h2>${esc(mini.zone)}</h2><p>${describeMini(mini)}</p>`;
  }
  el.innerHTML = html + `<button type="button" data-unpick>Close</button>`;
  el.hidden = false;
}

function renderZones() {
  const zone = (p, z) => snap.minis.filter((m) => m.player === p && m.zone === z);
  $("zones").innerHTML = ["p1", "p2"].map((p) => {
    const list = (z) => zone(p, z).map((m) => `<button type="button" class="chip ${esc(p)}` +
      `${selected && selected.mini === m.ref ? " picked" : ""}" data-pick="${esc(m.ref)}">` +
      `${esc(m.label)} <small>(${Number(m.cost)})</small></button>`).join(" ") || "—";
    return `<div><b class="${esc(p)}">${playerName(p)}</b>` +
      `<div class="zone">reserves: ${list("reserves")}</div>` +
      `<div class="zone">graveyard: ${list("graveyard")}</div></div>`;
  }).join("");
}

function renderScore() {
  const s = snap.score;
  const st = snap.state;
  const track = (p) => `<div class="track ${p}" aria-label="${playerName(p)} has won ` +
    `${Number(s.turns_won[p])} turns">` + Array.from({ length: 6 }, (_, i) =>
    `<span class="${i < s.turns_won[p] ? "won" : ""}"></span>`).join("") + "</div>";
  const last = s.conquest.length ? s.conquest[s.conquest.length - 1] : null;
  $("score").innerHTML = `<h2>Score · turn ${Number(st.turn)}</h2>` +
    ["p1", "p2"].map((p) => `<div><b class="${p}">${playerName(p)}</b> ` +
      `<span class="big" data-turns-won="${p}">${Number(s.turns_won[p])}</span> / 6` +
      `${track(p)}</div>`).join("") +
    (last ? `<div>last conquest (turn ${Number(last.turn)}): ${playerName("p1")} ` +
      `${Number(last.points.p1)} – ${playerName("p2")} ${Number(last.points.p2)} → ` +
      `${last.winner ? playerName(last.winner) : "tie"}</div>` : "") +
    (s.winner ? `<div class="big" id="winner">${playerName(s.winner)} wins!</div>` : "");
}

function renderDice() {
  const p = snap.prompt;
  const el = $("dice");
  el.hidden = !p.dice.length;
  if (!p.dice.length) { el.innerHTML = ""; faces = []; return; }
  let html = "<h2>Dice</h2>";
  const how = boxOk() ? "roll on the table box, or enter the roll here"
    : "no table box: enter the roll here";
  for (const d of p.dice) {
    const what = p.step === "wail" ? "six-sided dice (Wail)"
      : d.kind === "init" ? "initiative die" : "attack dice";
    html += `<div><b class="${esc(d.player)}">${playerName(d.player)}</b> rolls ` +
      `<span class="big">${Number(d.n)}</span> ${what}: ${how}</div>`;
    if (d.kind === "init") {
      html += `<div class="faces">` + [1, 2, 3, 4, 5, 6].map((f) =>
        `<button data-init="${esc(d.player)}" data-die="${f}" ` +
        `aria-label="${playerName(d.player)} rolled ${f}">${f}</button>`).join("") + "</div>";
    } else {
      html += `<div class="faces">` + ["1", "2", "3", "miss", "blade"].map((f) =>
        `<button data-face="${f}">${f}</button>`).join("") +
        `</div><div>entered: <b id="faces">${esc(faces.join(" ")) || "—"}</b> ` +
        `<button data-roll="${esc(d.player)}" ${faces.length ? "" : "disabled"}>` +
        "Submit roll</button> <button data-clear-faces>Clear</button></div>";
    }
  }
  el.innerHTML = html;
}

function renderCombat() {
  const p = snap.prompt;
  const el = $("combat");
  if (!p.targets) { el.innerHTML = ""; el.hidden = true; return; }
  el.hidden = false;
  let html = `<h2>Combat in ${esc(p.cell)}</h2><div>${Number(p.damage_left)} damage to ` +
    "assign</div>";
  for (const t of p.targets) {
    const m = miniOf(t.mini);
    const name = m ? `${playerName(m.player)}'s ${esc(m.label)}` : esc(t.mini);
    html += `<div class="target"><b>${name}</b>: damage ${Number(t.damage)}, defense ` +
      `${Number(t.defense)}, life ${Number(t.life)}<br>`;
    for (let n = 1; n <= p.damage_left; n++) {
      const total = t.damage + n;
      const what = total >= t.life && total >= t.defense ? "destroy or disrupt"
        : total >= t.life ? "destroys" : total >= t.defense ? "disrupts" : "no effect yet";
      html += `<button data-action="${esc(`${p.player} damage ${t.mini} ${n}`)}" ` +
        `title="${what}">${n}: ${what}</button>`;
    }
    html += "</div>";
  }
  el.innerHTML = html;
}

function renderOptions() {
  const p = snap.prompt;
  let html = "<h2>What can be done</h2>";
  if (p.step === "game_over") {
    html += `<p>${snap.score.winner ? playerName(snap.score.winner) + " won." : ""}</p>` +
      `<button data-new-game class="ready">New game: same players and warbands</button>` +
      ` <button data-tab-go="setup">Other players or warbands…</button>`;
    $("options").innerHTML = html;
    $("options").hidden = false;
    return;
  }
  if (p.proposal) {
    html += `<p><button data-ready="${esc(p.player)}" class="ready" ` +
      `aria-keyshortcuts="Enter">Ready: ${esc(p.proposal_label || p.proposal)}</button></p>`;
  }
  // Dice and damage have their own cards.
  let shown = (p.choices || []).filter((c) => !/ (roll|damage|wail) /.test(c.action));
  if (selected) {
    const cell = selected.cell || (miniOf(selected.mini) || {}).cell;
    const picked = shown.filter((c) => (selected.mini && c.minis.includes(selected.mini)) ||
      (cell && (c.cells.includes(cell) ||
        c.minis.some((r) => (miniOf(r) || {}).cell === cell && !selected.mini))));
    const what = selected.mini ? esc(miniOf(selected.mini)?.label || "") : esc(cell || "");
    html += `<p class="filter">Choices for <b>${what}</b>: ${picked.length} of ${shown.length}` +
      ` <button type="button" data-unpick>Show all</button></p>`;
    shown = picked;
  }
  if (shown.length) {
    html += `<div class="options">` + shown.map((c) =>
      `<button data-action="${esc(c.action)}" title="${esc(c.action)}">${esc(c.label)}</button>`)
      .join("") + "</div>";
  }
  $("options").innerHTML = html;
  // Nothing to choose here (initiative: the dice card asks): no empty card.
  $("options").hidden = !shown.length && !p.proposal && !selected;
}

function renderHistory() {
  $("history").innerHTML = snap.history.slice().reverse()
    .filter((h) => h.text).slice(0, 80).map((h) =>
      `<li data-kind="${esc(h.kind)}"><b>${esc(h.kind)}</b> ${esc(h.text)}` +
      `<span class="src">${esc(h.source || "")}</span></li>`).join("");
  // The correction form picks a miniature by name (its value is the id the API takes).
  const pickMini = $("correct-mini");
  const opts = snap.minis.map((m) => `<option value="${esc(m.ref)}">${playerName(m.player)}'s ` +
    `${esc(m.label)} (${esc(m.cell || m.zone)})</option>`).join("");
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
    (what.mini && selected.mini === what.mini));
  selected = same ? null : what;
  render();
}

// -- input ------------------------------------------------------------------------------
document.addEventListener("click", (e) => {
  const miniEl = e.target.closest("#board g.mini");
  if (miniEl) return pick({ mini: miniEl.dataset.ref });
  const cellEl = e.target.closest("#board g.cell");
  if (cellEl) return pick({ cell: cellEl.dataset.cell });
  const b = e.target.closest("button");
  if (!b) return;
  if (b.classList.contains("tab")) return showTab(b.dataset.tab);
  if (b.dataset.tabGo) return showTab(b.dataset.tabGo);
  if (b.dataset.pick) return pick({ mini: b.dataset.pick });
  if ("unpick" in b.dataset) { selected = null; return render(); }
  if (b.dataset.action) { selected = null; return command({ do: "action", action: b.dataset.action }); }
  if (b.dataset.ready) return command({ do: "ready", player: b.dataset.ready });
  if (b.dataset.init) return command({ do: "initiative", player: b.dataset.init,
                                       die: Number(b.dataset.die) });
  if (b.dataset.face) { faces.push(b.dataset.face); return renderDice(); }
  if ("clearFaces" in b.dataset) { faces = []; return renderDice(); }
  if (b.dataset.roll) {
    const f = faces; faces = [];
    return command({ do: "roll", player: b.dataset.roll, faces: f });
  }
  if (b.dataset.choose) return command({ do: "choose", option: Number(b.dataset.choose) });
  if (b.id === "undo") return undoPressed();
  if ("boardOk" in b.dataset) return command({ do: "board_ok" });
  if ("newGame" in b.dataset) return rematch();
  if (b.id === "sample") return fillSample();
});

async function rematch() {
  const s = snap.setup;
  const r = await post("/api/games", { names: s.names, colors: s.colors, warbands: s.warbands });
  if (r.ok) { selected = null; showTab("table"); }
}

$("follow").addEventListener("change", (e) => command({ do: "follow_camera", on: e.target.checked }));
$("typed").addEventListener("submit", (e) => {
  e.preventDefault();
  command({ do: "action", action: $("typed-action").value.trim() });
});
$("correct").addEventListener("submit", (e) => {
  e.preventDefault();
  command({ do: "correct", mini: $("correct-mini").value.trim(), to: $("correct-to").value.trim() });
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
    msg.textContent = `${empty.map((p) => f[`${p}name`].value).join(" and ")}: ` +
      "add at least one miniature to the warband.";
    return;
  }
  if (wb.p1.length !== wb.p2.length && !window.confirm(
    `The warbands are uneven: ${f.p1name.value} has ${wb.p1.length} miniatures, ` +
    `${f.p2name.value} ${wb.p2.length}. Start anyway?`)) return;
  const r = await post("/api/games", {
    names: { p1: f.p1name.value, p2: f.p2name.value },
    colors: { p1: f.p1color.value, p2: f.p2color.value },
    warbands: wb,
  });
  msg.textContent = r.ok ? `Game ${r.data.game_id} started.` : r.data.error;
  if (r.ok) { selected = null; showTab("table"); }
});

async function fillSample() {
  const r = await fetch("/api/catalog");
  const cat = await r.json();
  const sample = snap ? snap.setup.warbands.p1 : cat.slice(0, 8).map((m) => m.name);
  const f = $("setup").elements;
  f.p1wb.value = sample.join("\n");
  f.p2wb.value = sample.join("\n");
}

function showTab(name) {
  document.querySelectorAll(".tab").forEach((t) => t.classList.toggle("active", t.dataset.tab === name));
  document.querySelectorAll(".panel").forEach((p) => p.classList.toggle("active", p.id === `tab-${name}`));
  const cam = $("camera-view");
  if (name === "camera") cam.src = "/camera.mjpg";
  else cam.removeAttribute("src");  // no stream while nobody looks
  if (name === "setup") loadSetup();
}

async function loadSetup() {
  const [cat, dev, games] = await Promise.all([
    fetch("/api/catalog").then((r) => r.json()),
    fetch("/api/devices").then((r) => r.json()),
    fetch("/api/games").then((r) => r.json())]);
  $("catalog").innerHTML = cat.map((m) => `<li><button type="button" data-add="${esc(m.name)}" ` +
    `aria-label="add ${esc(m.name)} (cost ${Number(m.cost)}) to the chosen warband">` +
    `${esc(m.name)} (${Number(m.cost)})</button></li>`).join("");
  $("camera-spec").value = dev.camera;
  $("port").innerHTML = [{ device: "none", description: "no table box" }, ...dev.ports]
    .map((p) => `<option value="${esc(p.device)}" ${p.device === dev.port ? "selected" : ""}>` +
      `${esc(p.device)}${p.description ? " — " + esc(p.description) : ""}</option>`).join("");
  $("games").innerHTML = games.map((g) => {
    const names = g.names ? `${esc(g.names.p1)} vs ${esc(g.names.p2)}` : "";
    const current = snap && g.id === snap.game_id;
    return `<li>game ${Number(g.id)} · ${names} · ${esc(g.status)} · ${Number(g.entries)} ` +
      "entries " + (current ? "<b>(on the table)</b>" :
        `<button data-resume="${Number(g.id)}">Resume game ${Number(g.id)}</button>`) + "</li>";
  }).join("") || "<li>no games yet</li>";
}

$("devices").addEventListener("submit", async (e) => {
  e.preventDefault();
  const r = await post("/api/devices", { camera: $("camera-spec").value.trim(),
                                         port: $("port").value });
  $("devices-msg").textContent = r.ok ? "in use" : r.data.error;
});

// A catalog pick is one more line in the chosen player's warband.
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
  renderBoard.t = setTimeout(() => snap && renderBoard(), 150);
});

connect();
refresh();
