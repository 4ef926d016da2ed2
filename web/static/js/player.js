// A player's own page. The server sends this player's view only: never the player's own stones
// (Abracada...What?), never another player's scrolls (Dork Tower). The page draws the game the
// snapshot names with that game's module.
import { el, events, live, post, refusals, replace, toast } from "./common.js";
import * as abr from "./games/abracadawhat.js";
import * as dt from "./games/dorktower.js";

const main = document.getElementById("main");
const me = main.dataset.player;
let busy = false;
let lastSnap = null;

async function send(action) {
  if (busy) return;
  busy = true;
  document.body.toggleAttribute("data-busy", true);
  // every choice waits for the answer; those already disabled stay so
  const buttons = [...document.querySelectorAll("#main button[data-action]")].filter((b) => !b.disabled);
  buttons.forEach((b) => { b.disabled = true; });
  const result = await post(main.dataset.act, action);
  busy = false;
  document.body.toggleAttribute("data-busy", false);
  buttons.forEach((b) => { b.disabled = false; });
  if (result.ok) toast("Done.");
}

const DIE_STATES = {
  moving: "The die is moving…",
  rolling: "The die is rolling…",
  crooked: "The die landed crooked: roll it again.",
  placed: "The die was set down by hand: roll it to count.",
  missing: "A die is not connected to the reader.",
};

async function virtualRoll() {
  if (busy) return;
  busy = true;
  const result = await post(main.dataset.roll, {});
  busy = false;
  if (result.ok) toast("Rolled.");
}

// The roll the game waits for: the real die's state, or a virtual roll when no reader is connected.
function dice(snap, note = null) {
  const awaited = snap.dice && snap.dice.awaited;
  if (!awaited) return [];
  const who = awaited.player === me ? "You roll" : `${awaited.player || "Someone"} rolls`;
  const what = awaited.dice > 1 ? `${awaited.dice} dice` : "the die";
  const lines = [el("p", { class: "prompt" + (awaited.player === me ? " mine" : ""), text: `${who} ${what} (faces ${awaited.faces.join(", ")}).` })];
  if (note) lines.push(el("p", { class: "dice-note", text: note }));
  const rolled = Object.entries(snap.dice.rolled || {});
  if (rolled.length) lines.push(el("p", { class: "sub", text: `Rolled so far: ${rolled.map(([d, f]) => `die ${Number(d) + 1} shows ${f}`).join(", ")}.` }));
  if (!snap.dice.reader) {
    lines.push(el("p", { class: "sub", text: "No dice reader is connected." }));
  } else if (snap.dice.virtual) {
    lines.push(el("p", { class: "sub", text: "The dice reader cannot read this die." }));
  } else {
    const states = Object.values(snap.dice.dice).map((d) => DIE_STATES[d.state]).filter(Boolean);
    lines.push(el("p", { class: "sub", text: states[0] || (awaited.dice > 1 ? "Roll them on the dice reader." : "Roll it on the dice reader.") }));
  }
  if (snap.dice.virtual) {
    lines.push(el("div", { class: "actions" }, el("button", { type: "button", class: "primary", onclick: virtualRoll, text: "Roll for me" })));
  }
  return lines;
}

function showGame(snap) {
  if (snap.game) document.body.dataset.game = snap.game.game;
  else delete document.body.dataset.game;
}

function section(id, children) {
  const list = [children].flat(Infinity).filter((c) => c !== null && c !== undefined && c !== false);
  const card = document.getElementById(`${id}-card`);
  if (card) card.hidden = list.length === 0;
  replace(id, list);
}

function renderAbracadawhat(snap) {
  const view = snap.view;
  const mine = view.waiting_for.includes(me);
  document.getElementById("sub").textContent = mine ? "It is up to you." : `Round ${view.round}`;
  const actions = document.getElementById("actions");
  actions.className = "actions";
  const buttons = abr.actions(snap, send);
  document.getElementById("actions-card").hidden = buttons.length === 0;
  replace("actions", buttons);
  replace("me", abr.playerCard(snap, me, { me }));
  const secret = view.players[me].secret || [];
  replace("secret", secret.length ? el("p", {}, "Your secret stones (only you see them): ",
    el("span", { class: "stones" }, secret.map((n) => el("span", { class: "stone secret", text: n })))) : null);
  replace("players", view.order.filter((n) => n !== me).map((n) => abr.playerCard(snap, n, { me })));
  replace("board", abr.board(view));
  const left = abr.unseen(view, me);
  const parts = Object.entries(left).filter(([, c]) => c > 0).map(([n, c]) => `${c}×${n}`);
  document.getElementById("unseen").textContent = `Not visible to you (your rack, the reserve, the secret stones): ${parts.join(", ") || "none"}.`;
  replace("result", view.phase === "deal" || view.finished ? abr.roundResult(snap) : null);
}

let dtDrawn = null; // the game's state last drawn: a device report alone does not redraw the forms

function renderDorkTower(snap, force) {
  const view = snap.view;
  const d = dt.data(view);
  const mine = view.waiting_for.includes(me);
  document.getElementById("sub").textContent = mine ? `It is up to you. ${dt.subline(snap, me)}` : dt.subline(snap, me);
  if (!d) {
    dt.load(view).then(() => render(lastSnap, true)).catch(() => toast("The game's cards could not be loaded; reload the page.", true));
    return;
  }
  const key = JSON.stringify([view, snap.legal, snap.events.length && snap.events[snap.events.length - 1].n]);
  if (!force && key === dtDrawn) return;
  dtDrawn = key;
  const page = dt.playerPage(snap, d, me, send, () => render(lastSnap, true));
  document.getElementById("actions").className = "dt-actions";
  section("dt-draw", page.draw);
  section("dt-invite", page.invite);
  section("dt-fight", page.fight);
  section("actions", page.actions);
  section("dt-sheet", page.sheet);
  section("dt-helper", page.helper);
  section("dt-others", page.others);
  section("dt-board", page.board);
}

function render(snap, force = false) {
  if (!snap) return;
  lastSnap = snap;
  showGame(snap);
  replace("refusals", refusals(snap.refusals));
  const dork = snap.game && snap.game.game === "dorktower";
  replace("events", dork ? dt.events(snap.events) : events(snap.events));
  if (!snap.view) {
    document.getElementById("prompt").textContent = "Waiting for the host to start a game.";
    return;
  }
  const view = snap.view;
  const mine = view.waiting_for.includes(me);
  const prompt = document.getElementById("prompt");
  prompt.textContent = view.prompt;
  prompt.classList.toggle("mine", mine);
  const note = dork && dt.data(view) ? dt.diceNote(snap, dt.data(view)) : null;
  const roll = dice(snap, note);
  document.getElementById("dice-card").hidden = roll.length === 0;
  replace("dice", roll);
  if (dork) renderDorkTower(snap, force);
  else renderAbracadawhat(snap);
}

live(main.dataset.stream, render, {
  onGone: () => {
    document.getElementById("prompt").textContent = "This link belongs to a game that is no longer on the table. Ask the host for the new one.";
  },
});
