// A player's private page: what they alone may see and do (a hidden hand, a card drawn
// by hand), refreshed every few seconds. Its key is in the address: the only way in.
"use strict";

const csrf = document.querySelector('meta[name="csrf-token"]').content;
const key = location.pathname.split("/").pop();
const $ = (id) => document.getElementById(id);
const esc = (s) => String(s).replace(/[&<>"']/g, (c) => ({
  "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));
let busy = false;
// A card is redrawn only when its markup changed: the page refreshes every few seconds,
// and a button replaced between a finger's press and release takes no click.
const drawn = new WeakMap();
function setHTML(el, html) {
  if (drawn.get(el) === html) return;
  drawn.set(el, html);
  el.innerHTML = html;
}
let seat = null; // "p1" or "p2", as the page's data says

async function load() {
  const r = await fetch(`/api/seat/${encodeURIComponent(key)}`);
  const d = await r.json().catch(() => ({}));
  if (!r.ok) {
    setHTML($("mine"), `<p>${esc(d.error || "this page is not available")}</p>`);
    return;
  }
  render(d);
}

function render(d) {
  seat = d.seat;
  $("who").textContent = `${d.name}'s private page`;
  $("who").style.color = d.color;
  const p = $("prompt");
  p.textContent = d.prompt.text;
  p.className = "prompt" + (d.prompt.player ? " " + d.prompt.player : "");
  const mine = d.private;
  let html = "<h2>Only yours</h2>";
  if (!mine) {
    html += "<p>Nothing in this game is secret.</p>";
  } else {
    html += `<p class="mine-text">${esc(mine.text || "")}</p>`;
    if ((mine.hand || []).length) {
      html += `<div class="hand">` + mine.hand.map((c) =>
        `<span class="luck">${esc(c.label)}</span>`).join("") +
        "</div>";
    }
    for (const c of mine.choices || []) {
      html += `<button data-action="${esc(c.action)}" class="ready">${esc(c.label)}</button>`;
    }
    if (mine.dice) {
      html += `<p>${esc(mine.dice.label)}: which card did you draw?</p>` +
        mine.dice.faces.map((f) => `<button data-command="${esc(mine.dice.command)}" ` +
          `data-face="${esc(f.code)}">${esc(f.label)}</button>`).join("");
    }
  }
  setHTML($("mine"), html);
  // Colours through the DOM, not inline attributes: the page's CSP allows no inline style.
  document.querySelectorAll(".hand .luck").forEach((el) => { el.style.color = d.color; });
  const s = d.score || {};
  setHTML($("score"), `<h2>${esc(s.title || "Score")}</h2>` +
    Object.entries(s.players || {}).map(([seat, v]) =>
      `<div>${esc(d.names[seat] || seat)}: <b>${Number(v.value)}</b> ${esc(v.label || "")}</div>`)
      .join("") + (s.lines || []).map((l) => `<div>${esc(l)}</div>`).join(""));
}

async function send(cmd) {
  if (busy) return;
  busy = true;
  try {
    const r = await fetch(`/api/seat/${encodeURIComponent(key)}/command`, {
      method: "POST", body: JSON.stringify(cmd),
      headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf } });
    const d = await r.json().catch(() => ({}));
    $("said").textContent = r.ok ? "" : (d.error || "refused");
  } finally {
    busy = false;
    load();
  }
}

document.addEventListener("click", (e) => {
  const b = e.target.closest("button");
  if (!b) return;
  if (b.dataset.action) return send({ do: "action", action: b.dataset.action });
  if (b.dataset.face) {
    return send({ do: b.dataset.command, player: seat, faces: [b.dataset.face] });
  }
});

load();
setInterval(load, 2000);
