// The table display: what every player may see.
import { _, el, events, live, refusals, replace } from "./common.js";
import * as abr from "./games/abracadawhat.js";
import * as dt from "./games/dorktower.js";

const main = document.getElementById("main");
let lastSnap = null;

function renderAbracadawhat(snap) {
  const view = snap.view;
  document.getElementById("sub").textContent = view.finished ? "" : _("Round {n}", { n: view.round });
  replace("players", abr.players(snap));
  replace("board", abr.board(view));
  document.getElementById("reserve").textContent = _("{reserve} stones in the reserve · {secret} secret stones on the board",
    { reserve: view.reserve_size, secret: view.secret_slots.filter(Boolean).length });
  replace("result", view.phase === "deal" || view.finished ? abr.roundResult(snap) : null);
}

function renderDorkTower(snap) {
  const view = snap.view;
  document.getElementById("sub").textContent = dt.subline(snap);
  const d = dt.data(view);
  if (!d) {
    dt.load(view).then(() => render(lastSnap)).catch(() => {});
    return;
  }
  const page = dt.tablePage(snap, d);
  replace("dt-turn", page.turn);
  replace("dt-tower", page.tower);
  document.getElementById("dt-fight-card").hidden = page.fight.length === 0;
  replace("dt-fight", page.fight);
  replace("dt-heroes", page.heroes);
  replace("dt-map", page.board);
}

// The seats no phone has claimed yet: a QR code each (it disappears once the seat is taken).
function joins(snap) {
  const list = snap.joins || [];
  document.getElementById("joins-card").hidden = list.length === 0;
  replace("joins", list.map((j) => el("figure", { "data-join": j.player },
    el("img", { src: `/join/${encodeURIComponent(j.code)}.svg`, alt: _("QR code: join as {player}", { player: j.player }), width: 200, height: 200 }),
    el("figcaption", {}, abr.seatLabel(snap, j.player)))));
}

function render(snap) {
  if (!snap) return;
  lastSnap = snap;
  // The PIN is in this page only when this screen is the table display (the server put it
  // there); it shows until the first phone signs in as host.
  document.getElementById("pin-card").hidden = !(snap.pin_offered && document.getElementById("pin").textContent);
  document.getElementById("paused").hidden = !(snap.game && snap.game.paused);
  if (snap.game) joins(snap); else document.getElementById("joins-card").hidden = true;
  if (snap.game) document.body.dataset.game = snap.game.game;
  else delete document.body.dataset.game;
  document.getElementById("title").textContent = snap.game ? _("{game} · table", { game: snap.game.title }) : _("companion · table");
  replace("refusals", refusals(snap.refusals));
  const dork = snap.game && snap.game.game === "dorktower";
  replace("events", dork ? dt.events(snap.events) : events(snap.events));
  if (!snap.view) {
    document.getElementById("prompt").textContent = _("No game yet: the host starts one from the host page.");
    document.getElementById("sub").textContent = "";
    replace("players"); replace("board"); replace("result");
    return;
  }
  document.getElementById("prompt").textContent = snap.view.prompt;
  if (dork) renderDorkTower(snap);
  else renderAbracadawhat(snap);
}

live(main.dataset.stream, render);
