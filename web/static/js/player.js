// A player's own page. The server sends this player's view only: never what the game hides from
// this player (the player's own stones, another player's cards). The game's own part is drawn by
// its page module (games.js, docs/pages.md).
import { _, el, events, live, post, refusalText, refusals, replace, showPutBack } from "./common.js";
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
  const result = await post(main.dataset.act, action, { quiet: true });
  busy = false;
  document.body.toggleAttribute("data-busy", false);
  buttons.forEach((b) => { b.disabled = false; });
  answered(result);
  if (lastSnap) holdWhilePaused(lastSnap);
}

// The answer to this phone's own move, said at once in the action bar, where the person looks:
// a refusal with its rule and reason, or what the move caused as this player sees it (the
// answer's "seen" events), a penalty with the rule it comes from.
const feedback = document.getElementById("feedback");
function answered(result) {
  feedback.classList.toggle("bad", !result.ok);
  let lines;
  if (!result.ok) {
    lines = [el("strong", { text: _("Refused:") }), " ", refusalText(result)];
  } else {
    // a penalty and what followed it (the declaration before it is known); else the last few
    let seen = (result.seen || []).filter((e) => e.text);
    const ruled = seen.findIndex((e) => e.rule);
    seen = ruled >= 0 ? seen.slice(ruled, ruled + 4) : seen.slice(-3);
    feedback.classList.toggle("bad", ruled >= 0);
    const page = lastSnap && lastSnap.game ? gamePage(lastSnap.game.game, ctx.redraw) : null;
    const note = (e) => (page && page.eventNote ? page.eventNote(e) : null); // "(you drew …)"
    lines = seen.length
      ? seen.flatMap((e, i) => [...(i ? [" "] : []), el("span", { class: "said" }, e.text, note(e) ? " " + note(e) : null,
        e.rule ? [" (", el("code", { text: e.rule }), ")"] : null)])
      : [_("Done.")];
  }
  feedback.replaceChildren(...lines);
  feedback.hidden = false;
  showBar();
}

// Paused by the host: every phone says so in its action bar and its inputs wait, disabled, until
// the game resumes (the ones disabled here come back; the game's own stay as it drew them).
function holdWhilePaused(snap) {
  const paused = Boolean(snap.game && snap.game.paused);
  document.getElementById("paused-note").hidden = !paused;
  document.body.classList.toggle("paused", paused);
  if (paused) {
    for (const input of main.querySelectorAll("button, input, select, textarea")) {
      if (!input.disabled) { input.disabled = true; input.dataset.paused = ""; }
    }
  } else {
    for (const input of main.querySelectorAll("[data-paused]")) {
      input.disabled = false;
      delete input.dataset.paused;
    }
  }
  showBar();
}

// The bar shows when it holds something: the prompt's main actions, the answer, the pause.
function showBar() {
  const bar = document.getElementById("action-bar");
  bar.hidden = ctx.bar.childElementCount === 0 && feedback.hidden && document.getElementById("paused-note").hidden;
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
  const result = await post(main.dataset.roll, {}, { quiet: true });
  busy = false;
  answered(result);
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
const ctx = { area: document.getElementById("game"), bar: document.getElementById("bar"), me, send, redraw: () => render(lastSnap) };
let drawn = null; // the game whose cards are in the page

function render(snap) {
  if (!snap) return;
  lastSnap = snap;
  const page = gamePage(snap.game && snap.game.game, ctx.redraw);
  showGame(snap);
  replace("refusals", refusals(snap.refusals));
  replace("events", events(snap.events, 12, page && page.eventNote));
  showPutBack(snap);
  const newest = snap.events[snap.events.length - 1];
  if (newest && newest.type === "undone") feedback.hidden = true; // the move it told of is undone
  const shown = page && snap.view ? snap.game.game : null;
  if (shown !== drawn) { // another game, or none: the last one's cards go
    ctx.area.replaceChildren();
    ctx.bar.replaceChildren();
    feedback.hidden = true;
    drawn = shown;
  }
  if (!snap.view) {
    document.getElementById("prompt").textContent = _("Waiting for the host to start a game.");
    holdWhilePaused(snap);
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
  holdWhilePaused(snap);
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
  // Asked at once, then every 5 s: a game set aside comes back when it is resumed; a seat handed
  // to another phone (or a game that cannot come back) is refused, and the page says why.
  let asking = null;
  const ask = async () => {
    try {
      const response = await fetch(main.dataset.back, { cache: "no-store" });
      if (!response.ok) {
        clearInterval(asking);
        const answer = await response.json().catch(() => ({}));
        prompt.textContent = _("This link no longer opens a seat here.");
        if (answer.error) document.getElementById("sub").textContent = answer.error;
        return;
      }
      if ((await response.json()).back) { clearInterval(asking); location.reload(); }
    } catch (err) { /* not reachable now: asked again */ }
  };
  asking = setInterval(ask, 5000);
  ask();
}

live(main.dataset.stream, render, { onGone: notAtTheTable });
