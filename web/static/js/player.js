// A player's own page. The server sends this player's view only: never the player's own stones
// (Abracada...What?), never another player's scrolls (Dork Tower). The page draws the game the
// snapshot names with that game's module.
import { _, el, events, live, post, refusals, replace, toast } from "./common.js";
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
  if (result.ok) toast(_("Done."));
}

const DIE_STATES = {
  moving: _("The die is moving…"),
  rolling: _("The die is rolling…"),
  crooked: _("The die landed crooked: roll it again."),
  placed: _("The die was set down by hand: roll it to count."),
  missing: _("A die is not connected to the reader."),
};

async function virtualRoll() {
  if (busy) return;
  busy = true;
  const result = await post(main.dataset.roll, {});
  busy = false;
  if (result.ok) toast(_("Rolled."));
}

// Who rolls what: "You roll the die (faces 1, 2, 3).", "Elena rolls 2 dice (faces …)."
function awaitedRoll(awaited) {
  const v = { player: awaited.player, n: awaited.dice, faces: awaited.faces.join(", ") };
  const many = awaited.dice > 1;
  if (awaited.player === me) return many ? _("You roll {n} dice (faces {faces}).", v) : _("You roll the die (faces {faces}).", v);
  if (awaited.player) return many ? _("{player} rolls {n} dice (faces {faces}).", v) : _("{player} rolls the die (faces {faces}).", v);
  return many ? _("Someone rolls {n} dice (faces {faces}).", v) : _("Someone rolls the die (faces {faces}).", v);
}

// The roll the game waits for: the real die's state, or a virtual roll when no reader is connected.
function dice(snap, note = null) {
  const awaited = snap.dice && snap.dice.awaited;
  if (!awaited) return [];
  const lines = [el("p", { class: "prompt" + (awaited.player === me ? " mine" : ""), text: awaitedRoll(awaited) })];
  if (note) lines.push(el("p", { class: "dice-note", text: note }));
  const rolled = Object.entries(snap.dice.rolled || {});
  if (rolled.length) {
    const dice = rolled.map(([d, f]) => _("die {n} shows {face}", { n: Number(d) + 1, face: f })).join(", ");
    lines.push(el("p", { class: "sub", text: _("Rolled so far: {dice}.", { dice }) }));
  }
  if (!snap.dice.reader) {
    lines.push(el("p", { class: "sub", text: _("No dice reader is connected.") }));
  } else if (snap.dice.virtual) {
    lines.push(el("p", { class: "sub", text: _("The dice reader cannot read this die.") }));
  } else {
    const states = Object.values(snap.dice.dice).map((d) => DIE_STATES[d.state]).filter(Boolean);
    lines.push(el("p", { class: "sub", text: states[0] || (awaited.dice > 1 ? _("Roll them on the dice reader.") : _("Roll it on the dice reader.")) }));
  }
  if (snap.dice.virtual) {
    lines.push(el("div", { class: "actions" }, el("button", { type: "button", class: "primary", onclick: virtualRoll, text: _("Roll for me") })));
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
  document.getElementById("sub").textContent = mine ? _("It is up to you.") : _("Round {n}", { n: view.round });
  const actions = document.getElementById("actions");
  actions.className = "actions";
  const buttons = abr.actions(snap, send);
  document.getElementById("actions-card").hidden = buttons.length === 0;
  replace("actions", buttons);
  replace("me", abr.playerCard(snap, me, { me }));
  const secret = view.players[me].secret || [];
  replace("secret", secret.length ? el("p", {}, _("Your secret stones (only you see them):") + " ",
    el("span", { class: "stones" }, secret.map((n) => el("span", { class: "stone secret", text: n })))) : null);
  replace("players", view.order.filter((n) => n !== me).map((n) => abr.playerCard(snap, n, { me })));
  replace("board", abr.board(view));
  const left = abr.unseen(view, me);
  const parts = Object.entries(left).filter(([, c]) => c > 0).map(([n, c]) => `${c}×${n}`);
  document.getElementById("unseen").textContent = parts.length
    ? _("Not visible to you (your rack, the reserve, the secret stones): {stones}.", { stones: parts.join(", ") })
    : _("Not visible to you (your rack, the reserve, the secret stones): none.");
  replace("result", view.phase === "deal" || view.finished ? abr.roundResult(snap) : null);
}

let dtDrawn = null; // the game's state last drawn: a device report alone does not redraw the forms

function renderDorkTower(snap, force) {
  const view = snap.view;
  const d = dt.data(view);
  const mine = view.waiting_for.includes(me);
  document.getElementById("sub").textContent = mine ? _("It is up to you. {status}", { status: dt.subline(snap, me) }) : dt.subline(snap, me);
  if (!d) {
    dt.load(view).then(() => render(lastSnap, true)).catch(() => toast(_("The game's cards could not be loaded; reload the page."), true));
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
    document.getElementById("prompt").textContent = _("Waiting for the host to start a game.");
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
    document.getElementById("prompt").textContent = _("This link belongs to a game that is no longer on the table. Ask the host for the new one.");
  },
});
