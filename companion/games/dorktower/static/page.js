// Dork Tower on the pages: its part of the table display, of a player's page and of the host's
// simulation panel, drawn by the generic pages through this module (docs/pages.md). Everything is
// drawn from two things: the view the server sent for this viewer (scrolls in hand only for their
// owner: the server filters them) and the game's data set, the printed board, tables and cards,
// which is public and fetched once. Phone first: one thumb, large targets, each choice a wide
// button that says what it costs; day and night, the door and the seats always have a symbol or a
// word besides their colour.
//
// Its parts: words.js (the game's words), sheet.js (buttons, the hero sheet, the shop), board.js
// (the tower, the board, the encounter count), map.js (the map, and moving by touch), fight.js
// (fights and rolls), choices.js (what a player may do now); page.css, its styles.
import { _, el, replace, toast } from "/static/js/common.js";
import { seatLabel } from "/static/js/seats.js";
import { boardFacts, helper, tower, wedgeList } from "./board.js";
import { actions, drawPicker, endTurn, invite } from "./choices.js";
import { diceNote as rollNote, fight } from "./fight.js";
import { boardMap } from "./map.js";
import { heroSheet, useActions } from "./sheet.js";
import { useWords } from "./words.js";

export const styles = ["page.css"];

// -- the data set -------------------------------------------------------------------------------

const sets = {};

/** The data set the view names, once loaded (null before). */
function data(view) {
  const entry = view && view.data_set ? sets[view.data_set.name] : null;
  return entry && entry.value ? entry.value : null;
}

/** Load the view's data set once; resolves to it. */
function load(view) {
  const name = view.data_set.name;
  if (!sets[name]) {
    const entry = { value: null };
    // in the page's language: the set's names and texts where it translates them (docs/languages.md)
    const lang = encodeURIComponent(document.documentElement.lang || "en");
    entry.promise = fetch(`/api/games/dorktower/data/${encodeURIComponent(name)}?lang=${lang}`)
      .then((r) => (r.ok ? r.json() : Promise.reject(new Error(r.statusText))))
      .then((d) => { useWords(d); entry.value = d; return d; })
      .catch((err) => { delete sets[name]; throw err; });
    sets[name] = entry;
  }
  return sets[name].promise;
}

// -- lines under the prompt, notes --------------------------------------------------------------

/** A line under the prompt: the turn, whose it is, and where. */
function subline(snap, me = null) {
  const view = snap.view;
  if (view.finished) return _("The game is over: {winners} won.", { winners: view.winners.join(", ") });
  if (view.phase === "start_roll") {
    const rolls = Object.entries(view.start_rolls).map(([n, v]) => `${n} ${v}`);
    return rolls.length ? _("Who starts? Rolled: {rolls}.", { rolls: rolls.join(", ") }) : _("Who starts?");
  }
  if (view.phase === "choose") return _("{player} chooses a hero.", { player: view.choosing });
  const who = view.active === me ? _("your turn") : _("{player}'s turn", { player: view.active });
  return _("Turn {n}", { n: view.turn }) + " · " + who + (view.phase === "move" && view.moves_left !== null ? " · " + _("{n} steps left", { n: view.moves_left }) : "");
}

/** The host's line under the prompt. */
export function progress(snap) {
  return subline(snap);
}

/** What the awaited roll is for (under the player page's dice), once the data set is here. */
export function diceNote(snap) {
  const d = data(snap.view);
  return d ? rollNote(snap, d) : null;
}

/** An event's note for this viewer only: the scroll this viewer drew is named for them alone. */
export function eventNote(event) {
  return event.private && event.private.name ? _("(you drew {scroll})", { scroll: event.private.name }) : null;
}

// -- the table display --------------------------------------------------------------------------

function tableCards(ctx) {
  ctx.head.append(el("div", { id: "dt-turn" }));
  ctx.area.append(
    el("section", { class: "card dt-tower", id: "dt-tower-card" }, el("h2", { text: _("The tower") }),
      el("div", { id: "dt-tower", class: "dt-board" })),
    el("section", { class: "card dt-fight", id: "dt-fight-card", hidden: true, "aria-live": "polite" }, el("div", { id: "dt-fight" })),
    el("section", { class: "card wide", id: "dt-bmap-card" }, el("h2", { text: _("The map") }), el("div", { id: "dt-bmap" })),
    el("section", { class: "card", id: "dt-map-card" }, el("h2", { text: _("On the board") }), el("div", { id: "dt-map" })),
    el("section", { class: "card wide", id: "dt-heroes-card" }, el("h2", { text: _("Heroes") }),
      el("div", { id: "dt-heroes", class: "players dt-heroes" })));
}

/** The table display: whose turn, the tower, the fight, the board, every hero. */
export function table(snap, ctx) {
  if (!ctx.area.hasChildNodes()) tableCards(ctx);
  const view = snap.view;
  const d = data(view);
  if (!d) {
    load(view).then(() => ctx.redraw()).catch(() => {});
    return subline(snap);
  }
  useActions(() => {}, () => {});
  const turn = [];
  if (view.active && !["start_roll", "choose"].includes(view.phase)) {
    const p = view.players[view.active];
    turn.push(el("p", { class: "dt-whose" }, seatLabel(snap, view.active), p.hero ? el("span", { class: "dt-hero", text: p.hero }) : null,
      el("span", { class: "hint", text: " " + _("turn {n}", { n: view.turn })
        + (view.phase === "move" ? " · " + _("{left} of {movement} steps left", { left: view.moves_left, movement: p.movement }) : "") })));
  }
  if (view.here && view.active) turn.push(...helper(snap, d, null).slice(0, 1));
  const fought = fight(snap, d, null);
  replace("dt-turn", turn);
  replace("dt-tower", tower(snap, d), wedgeList(snap, d));
  document.getElementById("dt-fight-card").hidden = fought.length === 0;
  replace("dt-fight", fought);
  replace("dt-heroes", view.order.map((n) => heroSheet(snap, d, n, {})));
  replace("dt-map", boardFacts(snap, d));
  replace("dt-bmap", boardMap(snap, d, null));
  return subline(snap);
}

// -- a player's page ----------------------------------------------------------------------------

function playerCards() {
  const card = (id, cls, title, inner) => el("section", { class: `card wide ${cls}`.trim(), id: `${id}-card`, hidden: true,
    "aria-live": title ? null : "polite" }, title ? el("h2", { text: title }) : null, inner);
  return [
    card("dt-draw", "dt-draw", null, el("div", { id: "dt-draw" })),
    card("dt-invite", "dt-invite", null, el("div", { id: "dt-invite" })),
    card("dt-fight", "dt-fight", null, el("div", { id: "dt-fight" })),
    card("dt-bmap", "", _("The map"), el("div", { id: "dt-bmap" })),
    card("actions", "", _("Your move"), el("div", { id: "actions", class: "dt-actions" })),
    card("dt-sheet", "", _("Your hero"), el("div", { id: "dt-sheet" })),
    card("dt-helper", "", _("Encounter count"), el("div", { id: "dt-helper", class: "dt-helper" })),
    card("dt-others", "", _("The other heroes"), el("div", { id: "dt-others", class: "players" })),
    card("dt-board", "", _("The tower and the board"), el("div", { id: "dt-board", class: "dt-board" })),
  ];
}

/** A card with what it holds, hidden when it holds nothing. */
function section(id, children) {
  const list = [children].flat(Infinity).filter((c) => c !== null && c !== undefined && c !== false);
  document.getElementById(`${id}-card`).hidden = list.length === 0;
  replace(id, list);
}

let drawn = null; // the game's state last drawn: a device report alone does not redraw the forms
let forced = false; // drawn again all the same (a choice changed the page, the data set came)

/** A player's own page: what was drawn, the invitation to play a scroll, the fight, the choices,
 * the hero sheet, the encounter count, the other heroes, the tower and the board. */
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
    load(view).then(again).catch(() => toast(_("The game's cards could not be loaded; reload the page."), true));
    return sub;
  }
  const key = JSON.stringify([view, snap.legal, snap.events.length && snap.events[snap.events.length - 1].n]);
  if (!forced && key === drawn) return sub;
  forced = false;
  drawn = key;
  useActions(ctx.send, again);
  section("dt-draw", drawPicker(snap, d, me));
  section("dt-invite", invite(snap, d, me));
  section("dt-fight", fight(snap, d, me));
  section("dt-bmap", boardMap(snap, d, me, { send: ctx.send, redraw: again }));
  section("actions", actions(snap, d, me));
  if (ctx.bar) ctx.bar.replaceChildren(...endTurn(snap));
  section("dt-sheet", view.players[me] ? heroSheet(snap, d, me, { me }) : null);
  section("dt-helper", helper(snap, d, me));
  section("dt-others", view.order.filter((n) => n !== me).map((n) => heroSheet(snap, d, n, { me, open: false })));
  section("dt-board", [tower(snap, d), wedgeList(snap, d), ...boardFacts(snap, d)]);
  return sub;
}

// -- the host's simulation panel ----------------------------------------------------------------

let component = ""; // the sticker chosen to tap by hand

function awaitedDraw(a) {
  const v = { player: a.player, face: a.face, why: a.why };
  if (a.player) {
    if (a.kind === "token") return _("Waiting for {player} to draw an encounter token ({why}).", v);
    if (a.kind === "item") return _("Waiting for {player} to draw an item card ({face} face) ({why}).", v);
    return _("Waiting for {player} to draw a scroll ({why}).", v);
  }
  if (a.kind === "token") return _("Waiting for someone to draw an encounter token ({why}).", v);
  if (a.kind === "item") return _("Waiting for someone to draw an item card ({face} face) ({why}).", v);
  return _("Waiting for someone to draw a scroll ({why}).", v);
}

// A component's stickers: their UIDs, or (for a host who plays a seat) only how many there are.
const count = (stickers) => (Array.isArray(stickers) ? stickers.length : stickers);

/** The box: the awaited draw, and any sticker of the box to tap by hand. */
export function simulation(world, snap, ctx) {
  const a = world.awaiting;
  const waiting = a ? awaitedDraw(a) : _("No token or card is being drawn.");
  const names = Object.keys(world.stickers).sort();
  if (!names.includes(component)) component = names.find((n) => n.startsWith("token ")) || names[0] || "";
  const select = el("select", { id: "sim-component", "aria-label": _("sticker to tap"), onchange: (e) => { component = e.target.value; } },
    ["tower", "space", "token", "item", "scroll"].map((kind) => el("optgroup", { label: kind },
      names.filter((n) => n.split(" ")[0] === kind).map((n) => el("option", { value: n, selected: n === component,
        text: `${n} (${count(world.stickers[n])})` })))));
  return [
    el("div", { class: "place" }, el("span", { text: waiting })),
    el("div", { class: "place" }, el("span", { text: _("Tap a chosen sticker on the reader") }),
      el("div", { class: "row" }, select, el("button", { type: "button", id: "sim-tap-component",
        onclick: () => ctx.sim("tap_component", { component: document.getElementById("sim-component").value }) }, _("Tap it")))),
  ];
}
