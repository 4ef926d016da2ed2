// One play, stepped through from its set-up to its end on the table display (or the host's
// phone): each step is the table display's own view of the state after that many actions, drawn
// by the game's page module like the live table (docs/plays.md, docs/pages.md).
import { _, dateTime, el, events, replace } from "./common.js";
import { gamePage } from "./games.js";
import { facts, result, scoreList } from "./play_facts.js";

const main = document.getElementById("main");
const range = document.getElementById("step-range");
const ctx = { area: document.getElementById("game"), head: document.getElementById("game-head"), redraw: () => draw(shown) };
let steps = 0;
let shown = null; // the step's snapshot drawn now
let asked = 0; // the step asked last (a slow answer for an older one is dropped)

function draw(snap) {
  if (!snap) return;
  shown = snap;
  const page = gamePage(snap.game.game, ctx.redraw);
  document.body.dataset.game = snap.game.game;
  document.getElementById("prompt").textContent = snap.view ? snap.view.prompt : _("This play cannot be replayed here.");
  document.getElementById("sub").textContent = (page && page.table && snap.view && page.table(snap, ctx)) || "";
  const list = snap.events.length ? events(snap.events, 12, page && page.eventNote) : [el("li", { class: "muted", text: snap.step === 0 ? _("The game is set up.") : _("Nothing was said at this step.") })];
  replace("events", list);
  document.getElementById("step-where").textContent = snap.step === 0
    ? _("Step 0 of {steps}: as it was set up", { steps: snap.steps })
    : _("Step {step} of {steps} · {at}", { step: snap.step, steps: snap.steps, at: dateTime(snap.at, snap.at) });
  range.value = String(snap.step);
  document.getElementById("step-first").disabled = document.getElementById("step-back").disabled = snap.step === 0;
  document.getElementById("step-last").disabled = document.getElementById("step-next").disabled = snap.step >= steps;
}

async function go(step) {
  const target = Math.max(0, Math.min(steps, step));
  asked = target;
  const response = await fetch(`${main.dataset.api.replace(/\/api$/, "")}/steps/${target}`, { headers: { Accept: "application/json" } });
  const snap = await response.json();
  if (asked !== target) return;
  if (!snap.ok) { document.getElementById("step-where").textContent = snap.reason; return; }
  draw(snap);
}

async function start() {
  const response = await fetch(main.dataset.api, { headers: { Accept: "application/json" } });
  const data = await response.json();
  if (!data.ok) { document.getElementById("play-facts").textContent = data.reason; return; }
  const play = data.play;
  steps = play.actions;
  range.max = String(steps);
  document.getElementById("title").textContent = _("{game} · play {id}", { game: play.title, id: play.id });
  document.getElementById("play-facts").replaceChildren(el("span", { text: facts(play) }), scoreList(play));
  document.getElementById("play-result").textContent = result(play);
  if (play.bgstats) {
    document.getElementById("play-bgstats-link").href = play.bgstats;
    document.getElementById("play-bgstats").hidden = false;
  }
  const wanted = Number(new URLSearchParams(location.search).get("step")); // ?step=k opens at k
  await go(Number.isInteger(wanted) && wanted > 0 ? wanted : 0);
}

document.getElementById("step-first").addEventListener("click", () => go(0));
document.getElementById("step-back").addEventListener("click", () => go((shown ? shown.step : 0) - 1));
document.getElementById("step-next").addEventListener("click", () => go((shown ? shown.step : 0) + 1));
document.getElementById("step-last").addEventListener("click", () => go(steps));
range.addEventListener("change", () => go(Number(range.value)));
start();
