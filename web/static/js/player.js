// A player's own page. The server sends this player's view only: never the player's own stones.
import { el, events, live, post, refusals, replace, toast } from "./common.js";
import * as abr from "./games/abracadawhat.js";

const main = document.getElementById("main");
const me = main.dataset.player;
let busy = false;

async function send(action) {
  if (busy) return;
  busy = true;
  document.querySelectorAll("#actions button").forEach((b) => { b.disabled = true; });
  const result = await post(main.dataset.act, action);
  busy = false;
  document.querySelectorAll("#actions button").forEach((b) => { b.disabled = false; });
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
function dice(snap) {
  const awaited = snap.dice && snap.dice.awaited;
  if (!awaited) return [];
  const who = awaited.player === me ? "You roll" : `${awaited.player || "Someone"} rolls`;
  const what = awaited.dice > 1 ? `${awaited.dice} dice` : "the die";
  const lines = [el("p", { class: "prompt" + (awaited.player === me ? " mine" : ""), text: `${who} ${what} (faces ${awaited.faces.join(", ")}).` })];
  const rolled = Object.entries(snap.dice.rolled || {});
  if (rolled.length) lines.push(el("p", { class: "sub", text: `Rolled so far: ${rolled.map(([d, f]) => `die ${Number(d) + 1} shows ${f}`).join(", ")}.` }));
  if (!snap.dice.reader) {
    lines.push(el("p", { class: "sub", text: "No dice reader is connected." }));
  } else if (snap.dice.virtual) {
    lines.push(el("p", { class: "sub", text: "The dice reader cannot read this die." }));
  } else {
    const states = Object.values(snap.dice.dice).map((d) => DIE_STATES[d.state]).filter(Boolean);
    lines.push(el("p", { class: "sub", text: states[0] || "Roll it on the dice reader." }));
  }
  if (snap.dice.virtual) {
    lines.push(el("div", { class: "actions" }, el("button", { type: "button", class: "primary", onclick: virtualRoll, text: "Roll for me" })));
  }
  return lines;
}

function render(snap) {
  replace("refusals", refusals(snap.refusals));
  replace("events", events(snap.events));
  if (!snap.view) {
    document.getElementById("prompt").textContent = "Waiting for the host to start a game.";
    return;
  }
  const view = snap.view;
  const mine = view.waiting_for.includes(me);
  const prompt = document.getElementById("prompt");
  prompt.textContent = view.prompt;
  prompt.classList.toggle("mine", mine);
  document.getElementById("sub").textContent = mine ? "It is up to you." : `Round ${view.round}`;
  const roll = dice(snap);
  document.getElementById("dice-card").hidden = roll.length === 0;
  replace("dice", roll);
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

live(main.dataset.stream, render, {
  onGone: () => {
    document.getElementById("prompt").textContent = "This link belongs to a game that is no longer on the table. Ask the host for the new one.";
  },
});
