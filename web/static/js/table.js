// The table display: what every player may see. The game's own part is drawn by its page module
// (games.js, docs/pages.md).
import { _, el, events, live, refusals, replace, showPutBack } from "./common.js";
import { gamePage } from "./games.js";
import { endLink } from "./play_end.js";
import { seatLabel } from "./seats.js";

const main = document.getElementById("main");
let lastSnap = null;
// What the game's page module draws in: its cards, and a line under the prompt.
const ctx = { area: document.getElementById("game"), head: document.getElementById("game-head"), redraw: () => render(lastSnap) };
let drawn = null; // the game whose cards are in the page

// The seats no phone has claimed yet: a QR code each (it disappears once the seat is taken).
function joins(snap) {
  const list = snap.joins || [];
  document.getElementById("joins-card").hidden = list.length === 0;
  replace("joins", list.map((j) => el("figure", { "data-join": j.player },
    el("img", { src: `/join/${encodeURIComponent(j.code)}.svg`, alt: _("QR code: join as {player}", { player: j.player }), width: 200, height: 200 }),
    el("figcaption", {}, seatLabel(snap, j.player)))));
}

function render(snap) {
  if (!snap) return;
  lastSnap = snap;
  const page = gamePage(snap.game && snap.game.game, ctx.redraw);
  // The PIN is in this page only when this screen is the table display (the server put it
  // there); it shows until the first phone signs in as host.
  document.getElementById("pin-card").hidden = !(snap.pin_offered && document.getElementById("pin").textContent);
  document.getElementById("paused").hidden = !(snap.game && snap.game.paused);
  if (snap.game) joins(snap); else document.getElementById("joins-card").hidden = true;
  if (snap.game) document.body.dataset.game = snap.game.game;
  else delete document.body.dataset.game;
  document.getElementById("title").textContent = snap.game ? _("{game} · table", { game: snap.game.title }) : _("companion · table");
  replace("refusals", refusals(snap.refusals));
  replace("events", events(snap.events, 12, page && page.eventNote));
  showPutBack(snap);
  endLink(snap.game, main.dataset.plays);
  const shown = page && snap.view ? snap.game.game : null;
  if (shown !== drawn) { // another game, or none: the last one's cards go
    ctx.area.replaceChildren();
    ctx.head.replaceChildren();
    drawn = shown;
  }
  if (!snap.view) {
    document.getElementById("prompt").textContent = _("No game yet: the host starts one from the host page.");
    document.getElementById("sub").textContent = "";
    return;
  }
  document.getElementById("prompt").textContent = snap.view.prompt;
  document.getElementById("sub").textContent = (page && page.table && page.table(snap, ctx)) || "";
}

live(main.dataset.stream, render);
