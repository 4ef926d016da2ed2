// The Triwizard Maze Game on the pages: its part of the table display and of a player's page,
// drawn by the generic pages through this module (docs/pages.md). Everything is drawn from two
// things: the view the server sent for this viewer (a hand, tiles, a peeked Cup Tile and the
// reachable spaces only in their owner's view: the server filters them) and the game's data set,
// the printed maze and cards, which is public and fetched once. Phone first (390 px): the maze
// zooms on the mover, one tap moves; every colour has a shape, a pattern or a word beside it.
//
// Its parts: words.js (the game's words), maze.js (the maze and moving by touch), battle.js (the
// turn, the Obstacle Lineup, the piles, the battle, the countdown), hand.js (the viewer's cards
// and tiles and playing them), choices.js (what the viewer may do now), draws.js (a draw told on
// the phone at a table without stickers); page.css, its styles.
import { _, el, replace, toast } from "/static/js/common.js";
import { fight, interruptNote, lineup, piles, players, turnLine } from "./battle.js";
import { actions, asks, awaitedWords, awaitingLine, endTurn, peeks } from "./choices.js";
import { hand, tiles, useActions } from "./hand.js";
import { declareWalk, declared } from "./declare.js";
import { drawPicker, hostPicker } from "./draws.js";
import { mazeMap } from "./maze.js";
import { faceText, setName } from "./words.js";

export const styles = ["page.css"];

// -- the data set -------------------------------------------------------------------------------

const sets = {};

/** The data set the view names, once loaded (null before). */
function data(view) {
  const entry = view ? sets[setName(view)] : null;
  return entry && entry.value ? entry.value : null;
}

/** Load the view's data set once; resolves to it. */
function load(view) {
  const name = setName(view);
  if (!sets[name]) {
    const entry = { value: null };
    const lang = encodeURIComponent(document.documentElement.lang || "en");
    entry.promise = fetch(`/api/games/triwizard/data/${encodeURIComponent(name)}?lang=${lang}`)
      .then((r) => (r.ok ? r.json() : Promise.reject(new Error(r.statusText))))
      .then((d) => { entry.value = d; return d; })
      .catch((err) => { delete sets[name]; throw err; });
    sets[name] = entry;
  }
  return sets[name].promise;
}

// -- lines under the prompt, notes --------------------------------------------------------------

const PHASES = {
  setup: () => _("Setting up the maze"),
  deal: () => _("Dealing"),
  first_player: () => _("Who starts?"),
};

/** A line under the prompt: the turn, whose it is, the roll and the allowance; once the game is
 * over, the prompt says who won and the line only the turn it ended in. */
function subline(snap, me = null) {
  const view = snap.view;
  if (view.finished) return _("Turn {n}", { n: view.turn });
  if (PHASES[view.phase]) return PHASES[view.phase]();
  if (!view.active) return "";
  const who = view.active === me ? _("your turn") : _("{player}'s turn", { player: view.active });
  const ts = view.turn_state || {};
  const roll = ts.roll === null || ts.roll === undefined ? "" : ts.roll === "cloak" ? " · " + _("rolled the Cloak")
    : " · " + _("rolled {n}: up to {allowance} spaces", { n: ts.roll, allowance: ts.allowance });
  return _("Turn {n}", { n: view.turn }) + " · " + who + roll;
}

/** The host's line under the prompt. */
export function progress(snap) {
  const view = snap.view;
  if (view.finished) return _("The game is over: {winners} won.", { winners: view.winners.join(", ") });
  return subline(snap);
}

/** What the awaited roll is for, under a player's dice. */
export function diceNote(snap) {
  const view = snap.view;
  const a = view && view.awaiting;
  if (!a || a.kind !== "die") return null;
  if (a.why === "move") return _("Your movement roll: move up to double it; the Cloak face puts the Cloak on a piece instead.");
  if (a.why === "removal") return _("An odd number takes the Cloak off (the Cloak face is not odd).");
  if (a.why === "tie") return _("The highest roll starts; the Cloak counts 0; ties roll again.");
  const f = view.fight;
  if (f && (a.why === "battle" || a.why === "reroll")) {
    const need = f.strength ?? (f.obstacle && f.obstacle.strength);
    return a.why === "battle" ? _("Battle: your card's strength {s} plus the roll (the Cloak counts 0) must reach {need}.", { s: f.card ? f.card.strength : 0, need })
      : _("Double Die: this roll is added to {first}; the total must reach {need}.", { first: (f.rolls || []).map(faceText).join(" + "), need });
  }
  return null;
}

/** In place of the maze when the moves are declared: where the pieces are is in the players' list. */
function noMap() {
  return [el("p", { class: "hint", text: _("The moves are declared on the phones: this table has no board data to draw the maze from.") })];
}

// -- the table display --------------------------------------------------------------------------

function tableCards(ctx) {
  ctx.head.append(el("div", { id: "tw-turn" }));
  ctx.area.append(
    el("section", { class: "card tw-fight", id: "tw-fight-card", hidden: true, "aria-live": "polite" }, el("div", { id: "tw-fight" })),
    el("section", { class: "card wide", id: "tw-maze-card" }, el("h2", { text: _("The maze") }), el("div", { id: "tw-maze" })),
    el("section", { class: "card", id: "tw-lineup-card" }, el("h2", { text: _("Obstacle Lineup") }), el("div", { id: "tw-lineup" })),
    el("section", { class: "card", id: "tw-players-card" }, el("h2", { text: _("Players") }), el("div", { id: "tw-players" })));
}

/** The table display: whose turn, the battle, the maze, the lineup and piles, every player. It
 * never shows a hand, a tile or a Cup Tile face down: the table's view holds none. */
export function table(snap, ctx) {
  if (!ctx.area.hasChildNodes()) tableCards(ctx);
  const view = snap.view;
  const d = data(view);
  if (!d) {
    load(view).then(() => ctx.redraw()).catch(() => {});
    return subline(snap);
  }
  useActions(() => {}, () => {});
  replace("tw-turn", turnLine(snap), awaitingLine(snap));
  const fought = [...fight(snap, d, null), ...interruptNote(snap, null)];
  document.getElementById("tw-fight-card").hidden = fought.length === 0;
  replace("tw-fight", fought);
  replace("tw-maze", declared(view) ? noMap() : mazeMap(snap, d, null));
  replace("tw-lineup", lineup(snap), piles(snap));
  replace("tw-players", players(snap, d));
  return subline(snap);
}

// -- a player's page ----------------------------------------------------------------------------

function playerCards() {
  const card = (id, cls, title, inner) => el("section", { class: `card wide ${cls}`.trim(), id: `${id}-card`, hidden: true,
    "aria-live": title ? null : "polite" }, title ? el("h2", { text: title }) : null, inner);
  return [
    card("tw-ask", "tw-ask", null, el("div", { id: "tw-ask" })),
    card("tw-fight", "tw-fight", null, el("div", { id: "tw-fight" })),
    card("tw-maze", "", _("The maze"), el("div", { id: "tw-maze" })),
    card("actions", "", _("Your move"), el("div", { id: "actions", class: "tw-actions" })),
    card("tw-hand", "", _("Your hand"), el("div", { id: "tw-hand" })),
    card("tw-lineup", "", _("Obstacle Lineup"), el("div", { id: "tw-lineup" })),
    card("tw-players", "", _("Players"), el("div", { id: "tw-players" })),
  ];
}

/** A card with what it holds, hidden when it holds nothing. */
function section(id, children) {
  const list = [children].flat(Infinity).filter((c) => c !== null && c !== undefined && c !== false);
  document.getElementById(`${id}-card`).hidden = list.length === 0;
  replace(id, list);
}

let drawn = null; // what was last drawn: a countdown's tick or a device report alone does not redraw
let forced = false; // drawn again all the same (a choice changed the page, the data set came)

/** A player's own page: what asks them, the battle, the maze, their move, their hand and tiles,
 * the lineup and piles, the players. */
export function player(snap, ctx) {
  if (!ctx.area.hasChildNodes()) {
    ctx.area.append(...playerCards());
    drawn = null;
  }
  const view = snap.view;
  const me = ctx.me;
  const status = subline(snap, me);
  const sub = view.waiting_for.includes(me) ? _("It is up to you. {status}", { status }) : status;
  const again = () => { forced = true; ctx.redraw(); };
  const d = data(view);
  if (!d) {
    load(view).then(again).catch(() => toast(_("The maze could not be loaded; reload the page."), true));
    return sub;
  }
  const key = JSON.stringify([view, snap.legal, snap.countdown && snap.countdown.key]);
  if (!forced && key === drawn) return sub;
  forced = false;
  drawn = key;
  useActions(ctx.send, again);
  section("tw-ask", [...asks(snap, d, me), ...drawPicker(snap, d, me)]);
  section("tw-fight", [...turnLine(snap, me), ...awaitingLine(snap), ...fight(snap, d, me), ...interruptNote(snap, me)]);
  section("tw-maze", declared(view) ? noMap() : mazeMap(snap, d, me, { send: ctx.send, redraw: again }));
  section("actions", [...declareWalk(snap, me), ...actions(snap, d, me)]);
  if (ctx.bar) ctx.bar.replaceChildren(...endTurn(snap, me));
  section("tw-hand", [...hand(snap, d, me), ...tiles(snap, d, me), ...peeks(snap)]);
  section("tw-lineup", [...lineup(snap), ...piles(snap)]);
  section("tw-players", players(snap, d));
  return sub;
}

// -- the host's simulation panel ----------------------------------------------------------------

/** The simulated box: what is awaited (the panel's buttons draw it), and how many stickers; a
 * public draw (an Obstacle Card, a Cup Tile turned up) may be picked by its face and tapped, unless
 * the host plays a seat (the panel is blind then, and the active player's phone tells it). */
export function simulation(world, snap, panel) {
  const said = awaitedWords(world.awaiting);
  const count = Object.values(world.stickers || {}).reduce((n, s) => n + (Array.isArray(s) ? s.length : s), 0);
  const out = [el("div", { class: "place" }, el("span", { text: said || _("Nothing is being drawn, flipped or peeked.") })),
    el("div", { class: "place" }, el("span", { text: _("{n} stickers in the box", { n: count }) }))];
  const view = snap && snap.view;
  if (view && panel && !(world.plays && world.plays.player)) {
    const d = data(view);
    if (!d) load(view).then(() => panel.redraw()).catch(() => {});
    else {
      const told = hostPicker(snap, d, (component) => panel.sim("tell", { component }));
      if (told.length) out.push(el("div", { class: "tw-host-draw" }, told));
    }
  }
  return out;
}
