// A player's own page. The server sends this player's view only: never what the game hides from
// this player (the player's own stones, another player's cards). The game's own part is drawn by
// its page module (games.js, docs/pages.md).
import { _, el, events, live, post, refusals, replace, toast } from "./common.js";
import { gamePage } from "./games.js";

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

// What the game's page module draws with: its cards' place, this player, and the page's send.
const ctx = { area: document.getElementById("game"), me, send, redraw: () => render(lastSnap) };
let drawn = null; // the game whose cards are in the page

function render(snap) {
  if (!snap) return;
  lastSnap = snap;
  const page = gamePage(snap.game && snap.game.game, ctx.redraw);
  showGame(snap);
  replace("refusals", refusals(snap.refusals));
  replace("events", events(snap.events, 12, page && page.eventNote));
  const shown = page && snap.view ? snap.game.game : null;
  if (shown !== drawn) { // another game, or none: the last one's cards go
    ctx.area.replaceChildren();
    drawn = shown;
  }
  if (!snap.view) {
    document.getElementById("prompt").textContent = _("Waiting for the host to start a game.");
    return;
  }
  const view = snap.view;
  const mine = view.waiting_for.includes(me);
  const prompt = document.getElementById("prompt");
  prompt.textContent = view.prompt;
  prompt.classList.toggle("mine", mine);
  const note = page && page.diceNote ? page.diceNote(snap, me) : null;
  const roll = dice(snap, note);
  document.getElementById("dice-card").hidden = roll.length === 0;
  replace("dice", roll);
  document.getElementById("sub").textContent = (page && page.player && page.player(snap, ctx)) || "";
}

// This seat's game left the table (set aside, ended, or a new game began): the page says so
// plainly, its buttons go, and it comes back by itself if the host resumes the game.
function notAtTheTable() {
  const prompt = document.getElementById("prompt");
  prompt.textContent = _("Your game is no longer at the table: the host set it aside, ended it or started a new one.");
  prompt.classList.remove("mine");
  document.getElementById("sub").textContent = _("To play the new game, scan your seat's code on the table display, or ask the host. If the host resumes this game, this page comes back by itself.");
  document.getElementById("dice-card").hidden = true;
  ctx.area.replaceChildren();
  drawn = null;
  const back = setInterval(async () => {
    try {
      const response = await fetch(main.dataset.back, { cache: "no-store" });
      if (!response.ok) { clearInterval(back); return; } // the game cannot come back
      if ((await response.json()).back) { clearInterval(back); location.reload(); }
    } catch (err) { /* not reachable now: asked again */ }
  }, 5000);
}

live(main.dataset.stream, render, { onGone: notAtTheTable });
