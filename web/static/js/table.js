// The table display: what every player may see.
import { el, events, live, refusals, replace } from "./common.js";
import * as abr from "./games/abracadawhat.js";

const main = document.getElementById("main");

function render(snap) {
  document.getElementById("title").textContent = snap.game ? `${snap.game.title} · table` : "companion · table";
  replace("refusals", refusals(snap.refusals));
  replace("events", events(snap.events));
  if (!snap.view) {
    document.getElementById("prompt").textContent = "No game yet: the host starts one from the host page.";
    replace("players"); replace("board"); replace("result");
    return;
  }
  const view = snap.view;
  document.getElementById("prompt").textContent = view.prompt;
  document.getElementById("sub").textContent = view.finished ? "" : `Round ${view.round}`;
  replace("players", abr.players(snap));
  replace("board", abr.board(view));
  document.getElementById("reserve").textContent = `${view.reserve_size} stones in the reserve · ${view.secret_slots.filter(Boolean).length} secret stones on the board`;
  replace("result", view.phase === "deal" || view.finished ? abr.roundResult(snap) : null);
}

live(main.dataset.stream, render);
