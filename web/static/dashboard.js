// The dashboard: renders /api/state, refreshes it when the server pushes an event (SSE),
// and sends every click as a command to /api/command. No framework: one file, no build.
"use strict";

const csrf = document.querySelector('meta[name="csrf-token"]').content;
let snap = null;
let faces = [];
let refreshTimer = null;
let lastWarning = null;

const $ = (id) => document.getElementById(id);
const esc = (s) => String(s).replace(/[&<>"']/g,
  (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));

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
  lastWarning = text;
  const w = $("warning");
  w.textContent = text;
  w.hidden = false;
  clearTimeout(showWarning.t);
  showWarning.t = setTimeout(() => { w.hidden = true; }, 8000);
}

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
      scheduleRefresh();
    });
  }
  es.addEventListener("reload", () => scheduleRefresh(0));
  es.addEventListener("hello", () => scheduleRefresh(0));
  es.onerror = () => { document.body.dataset.stream = "down"; };
  es.onopen = () => { document.body.dataset.stream = "up"; };
}

// -- rendering ---------------------------------------------------------------------------
// Colours go into SVG attributes: only #rrggbb ever does (the server checks too).
const safeColor = (c) => (/^#[0-9a-fA-F]{6}$/.test(c) ? c : "#888888");
function colors() {
  const c = snap.setup.colors || {};
  return { p1: safeColor(c.p1), p2: safeColor(c.p2) };
}

function render() {
  if (!snap) return;
  document.body.dataset.gameId = snap.game_id ?? "";
  renderPrompt();
  renderBanners();
  renderHealth();
  renderBoard();
  renderZones();
  renderScore();
  renderDice();
  renderCombat();
  renderOptions();
  renderHistory();
  $("follow").checked = snap.follow_camera;
  $("staff-state").textContent = snap.staff_login
    ? (snap.staff ? "staff: logged in" : "staff: not logged in") : "no PIN needed on this table";
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
      snap.confirm.map((opt, i) =>
        `<button data-choose="${i}">${esc(opt.join(", "))}</button>`).join("");
    c.hidden = false;
  } else c.hidden = true;
}

function renderCameraStats() {
  const h = (snap.health || {}).camera;
  const c = snap.camera;
  const parts = [];
  if (h) parts.push(`<p class="${h.ok ? "" : "bad"}">${esc(h.message)}</p>`);
  if (c) {
    parts.push(`<p>${c.frames} frames seen, ${c.commits} boards committed` +
      (c.detect_ms_median != null ? `, ${c.detect_ms_median} ms per frame (median)` : "") +
      "</p>");
  }
  $("camera-stats").innerHTML = parts.join("") || "<p>No camera on this table.</p>";
}

function renderHealth() {
  renderCameraStats();
  const h = snap.health || {};
  $("health").innerHTML = ["camera", "box"].map((part) => {
    const x = h[part];
    if (!x) return `<span class="pill">${part}: …</span>`;
    return `<span class="pill ${x.ok ? "ok" : "bad"}" title="${esc(x.message)}">` +
      `${part}: ${x.ok ? "ok" : esc(x.message)}</span>`;
  }).join("");
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
  let out = "";
  for (const [name, c] of Object.entries(m.cells)) {
    const x = c.column * cell;
    const y = (m.rows - c.row) * cell;
    const here = byCell[name] || [];
    const engaged = here.some((a) => a.player === "p1" && a.kind === "creature") &&
      here.some((a) => a.player === "p2" && a.kind === "creature");
    const fill = c.portal ? col[c.portal] + "55" : engaged ? "#5a1f1f" : "#1c232b";
    out += `<g class="cell" data-cell="${esc(name)}" aria-label="cell ${esc(name)}">`;
    out += `<rect x="${x + 2}" y="${y + 2}" width="${cell - 4}" height="${cell - 4}" rx="8"
      fill="${fill}" stroke="${engaged ? "#ff4d4d" : "#3a4654"}" stroke-width="${engaged ? 4 : 2}"/>`;
    out += `<text x="${x + 8}" y="${y + 22}" font-size="18" fill="#9fb0c0">${esc(name)}</text>`;
    let sx = x + cell - 8;
    for (const p of ["p2", "p1"]) {
      const v = c.scoring[p];
      if (v) {
        out += `<text x="${sx}" y="${y + 22}" font-size="20" font-weight="800" text-anchor="end"
          fill="${col[p]}">${v}</text>`;
        sx -= 22;
      }
    }
    here.slice(0, 6).forEach((mini, i) => {
      const yy = y + 34 + i * 13.5;
      const label = mini.name.length > 13 ? mini.name.slice(0, 12) + "…" : mini.name;
      const dmg = mini.damage ? ` ✖${mini.damage}` : "";
      out += `<g class="mini" data-ref="${esc(mini.ref)}"><rect x="${x + 6}" y="${yy - 11}"
        width="${cell - 12}" height="13" rx="3" fill="${col[mini.player]}"/>
        <text x="${x + 9}" y="${yy}" font-size="11" font-weight="700" fill="#000">${esc(
          label)}${dmg}</text></g>`;
    });
    if (here.length > 6) {
      out += `<text x="${x + 8}" y="${y + cell - 6}" font-size="12" fill="#fff">+${
        here.length - 6} more</text>`;
    }
    out += "</g>";
  }
  svg.setAttribute("viewBox", `0 0 ${m.columns * cell} ${m.rows * cell}`);
  svg.innerHTML = out;
  svg.setAttribute("aria-label", "The dreamscape: " + Object.entries(byCell).map(
    ([c, ms]) => `${c}: ${ms.map((x) => `${x.player} ${x.name}`).join(", ")}`).join("; "));
}

function renderZones() {
  const zone = (p, z) => snap.minis.filter((m) => m.player === p && m.zone === z);
  $("zones").innerHTML = ["p1", "p2"].map((p) => {
    const name = esc(snap.setup.names[p]);
    const list = (z) => zone(p, z).map((m) => esc(m.name)).join(", ") || "—";
    return `<div><b class="${p}">${name}</b><br>reserves: ${list("reserves")}<br>` +
      `graveyard: ${list("graveyard")}</div>`;
  }).join("");
}

function renderScore() {
  const s = snap.score;
  const st = snap.state;
  const track = (p) => `<div class="track ${p}" aria-label="${p} has won ${s.turns_won[p]} turns">` +
    Array.from({ length: 6 }, (_, i) => `<span class="${i < s.turns_won[p] ? "won" : ""}"></span>`)
      .join("") + "</div>";
  const last = s.conquest.length ? s.conquest[s.conquest.length - 1] : null;
  $("score").innerHTML = `<h2>Score · turn ${st.turn}</h2>` +
    ["p1", "p2"].map((p) => `<div><b class="${p}">${esc(snap.setup.names[p])}</b> ` +
      `<span class="big" data-turns-won="${p}">${s.turns_won[p]}</span> / 6${track(p)}</div>`)
      .join("") +
    (last ? `<div>last conquest (turn ${last.turn}): p1 ${last.points.p1} – p2 ${last.points.p2}` +
      ` → ${last.winner || "tie"}</div>` : "") +
    (s.winner ? `<div class="big" id="winner">${esc(snap.setup.names[s.winner])} wins!</div>` : "");
}

function renderDice() {
  const p = snap.prompt;
  const el = $("dice");
  if (!p.dice.length) { el.innerHTML = "<h2>Dice</h2>No roll needed now."; faces = []; return; }
  let html = "<h2>Dice</h2>";
  for (const d of p.dice) {
    const who = esc(snap.setup.names[d.player]);
    html += `<div>Waiting for the box: <b class="${d.player}">${who}</b> rolls ` +
      `<span class="big">${d.n}</span> ${p.step === "wail" ? "six-sided dice (Wail)"
        : d.kind === "init" ? "initiative die" : "attack dice"}` +
      " — or enter it here:</div>";
    if (d.kind === "init") {
      html += `<div class="faces">` + [1, 2, 3, 4, 5, 6].map((f) =>
        `<button data-init="${d.player}" data-die="${f}" aria-label="${d.player} rolled ${f}">${f}</button>`)
        .join("") + "</div>";
    } else {
      html += `<div class="faces">` + ["1", "2", "3", "miss", "blade"].map((f) =>
        `<button data-face="${f}">${f}</button>`).join("") +
        `</div><div>entered: <b id="faces">${faces.join(" ") || "—"}</b> ` +
        `<button data-roll="${d.player}" ${faces.length ? "" : "disabled"}>Submit roll</button>` +
        ` <button data-clear-faces>Clear</button></div>`;
    }
  }
  el.innerHTML = html;
}

function renderCombat() {
  const p = snap.prompt;
  const el = $("combat");
  if (!p.targets) { el.innerHTML = ""; el.hidden = true; return; }
  el.hidden = false;
  let html = `<h2>Combat in ${esc(p.cell)}</h2><div>${p.damage_left} damage to assign</div>`;
  for (const t of p.targets) {
    const name = snap.minis.find((m) => m.ref === t.mini)?.name || t.mini;
    html += `<div><b>${esc(name)}</b> (${esc(t.mini)}) damage ${t.damage}, defense ${t.defense}, ` +
      `life ${t.life}<br>`;
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
  if (p.proposal) {
    html += `<p><button data-ready="${p.player}" class="ready" aria-keyshortcuts="Enter">` +
      `Ready: ${esc(p.proposal)}</button></p>`;
  }
  // Dice and damage have their own panels.
  const shown = p.options.filter((o) => !/ (roll|damage|wail) /.test(o));
  if (shown.length) {
    html += `<div class="options">` + shown.map((o) =>
      `<button data-action="${esc(o)}">${esc(o)}</button>`).join("") + "</div>";
  }
  $("options").innerHTML = html;
}

function renderHistory() {
  $("history").innerHTML = snap.history.slice().reverse().slice(0, 80).map((h) => {
    const text = h.action || h.message || (h.problems ? h.problems.join("; ") : "") ||
      (h.kind === "correction" ? `${h.mini} → ${h.to}` : "") ||
      (h.kind === "undo" ? `undid ${h.undone.action || h.undone.mini}` : "") ||
      (h.kind === "die" ? `${h.player} rolled ${h.die}` : "") || "";
    return `<li data-kind="${h.kind}"><b>${h.kind}</b> ${esc(text)}` +
      `<span class="src">${esc(h.source || "")}</span></li>`;
  }).join("");
  $("undo").disabled = !snap.can_undo;
}

// -- input ------------------------------------------------------------------------------
document.addEventListener("click", (e) => {
  const b = e.target.closest("button");
  if (!b) return;
  if (b.classList.contains("tab")) return showTab(b.dataset.tab);
  if (b.dataset.action) return command({ do: "action", action: b.dataset.action });
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
  if (b.id === "undo") return command({ do: "undo" });
  if ("boardOk" in b.dataset) return command({ do: "board_ok" });
  if (b.id === "sample") return fillSample();
});

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
  const r = await post("/api/games", {
    names: { p1: f.p1name.value, p2: f.p2name.value },
    colors: { p1: f.p1color.value, p2: f.p2color.value },
    warbands: { p1: lines(f.p1wb.value), p2: lines(f.p2wb.value) },
  });
  $("setup-msg").textContent = r.ok ? `Game ${r.data.game_id} started.` : r.data.error;
  if (r.ok) showTab("table");
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
    `aria-label="add ${esc(m.name)} (cost ${m.cost}) to the chosen warband">` +
    `${esc(m.name)} (${m.cost})</button></li>`).join("");
  $("camera-spec").value = dev.camera;
  $("port").innerHTML = ["none", ...dev.ports.map((p) => p.device)].map((d) =>
    `<option ${d === dev.port ? "selected" : ""}>${esc(d)}</option>`).join("");
  $("games").innerHTML = games.map((g) => {
    const names = g.names ? `${esc(g.names.p1)} vs ${esc(g.names.p2)}` : "";
    const current = snap && g.id === snap.game_id;
    return `<li>game ${g.id} · ${names} · ${esc(g.status)} · ${Number(g.entries)} entries ` +
      (current ? "<b>(on the table)</b>" :
        `<button data-resume="${g.id}">Resume game ${g.id}</button>`) + "</li>";
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
  if (r.ok) showTab("table");
});

document.addEventListener("keydown", (e) => {
  if (e.target.matches("input, textarea")) return;
  const keys = { t: "table", h: "history", c: "camera", s: "setup" };
  if (keys[e.key]) return showTab(keys[e.key]);
  if (e.key === "u") return command({ do: "undo" });
  if (e.key === "Enter" && snap && snap.prompt.proposal) {
    e.preventDefault();
    command({ do: "ready", player: snap.prompt.player });
  }
});

connect();
refresh();
