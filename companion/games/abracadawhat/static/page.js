// Abracada...What? on the pages: its part of the table display, of a player's page and of the
// host's simulation panel, drawn by the generic pages through this module (docs/pages.md).
// Everything is drawn from the view the server sent for this viewer, which never holds the
// viewer's own stones; page.css holds its styles.
import { _, el, replace } from "/static/js/common.js";
import { seat, seatLabel, seatText } from "/static/js/seats.js";

export const styles = ["page.css"];

const SPELLS = {
  1: _("Ancient Dragon"), 2: _("Dark Wanderer"), 3: _("Sweet Dreams"), 4: _("Night Singer"),
  5: _("Lightning Storm"), 6: _("Blizzard"), 7: _("Fireball"), 8: _("Magic Potion"),
};

// Life as pips that are told apart by shape, not colour: a filled pip for each life left, an
// empty ring for each lost, and the count in figures beside them.
function lifePips(life, cap) {
  const pips = [];
  for (let i = 0; i < cap; i++) pips.push(el("i", { class: i < life ? "on" : "" }));
  return el("span", { class: "life", role: "img", "aria-label": _("{n} life", { n: life }) }, pips,
    el("small", { class: "life-count", text: `${life}/${cap}` }));
}

function stones(list, cls = "") {
  return el("span", { class: "stones" }, list.map((n) =>
    el("span", { class: `stone ${cls}`, title: SPELLS[n], text: n })));
}

function backs(count, label) {
  const list = [];
  for (let i = 0; i < count; i++) list.push(el("span", { class: "stone back", "aria-hidden": "true" }));
  return el("span", { class: "stones", role: "img", "aria-label": label }, list);
}

function playerCard(snap, name, { me = null } = {}) {
  const view = snap.view;
  const p = view.players[name];
  const s = seat(snap, name);
  const active = view.active === name && !["deal", "over"].includes(view.phase);
  const badges = [];
  if (active) badges.push(el("span", { class: "badge", text: _("Turn") }));
  if (view.pending && view.pending.remover === name) badges.push(el("span", { class: "badge alt", text: _("Removes the stone") }));
  if (view.winners.includes(name)) badges.push(el("span", { class: "badge", text: _("Winner") }));
  if (view.phase === "deal" && view.deal && view.deal.player === name) badges.push(el("span", { class: "badge alt", text: _("Being dealt") }));
  const mine = name === me;
  let rack;
  if (p.rack) rack = stones(p.rack);
  else rack = backs(p.rack_size, mine ? _("your {n} stones, hidden from you", { n: p.rack_size }) : _("{n} stones", { n: p.rack_size }));
  return el("article", { class: `player ${s.cls} ${active ? "active" : ""}`, "data-player": name },
    el("div", { class: "row" }, mine ? seatText(snap, name, _("{player} (you)", { player: name })) : seatLabel(snap, name), el("span", { class: "row" }, badges)),
    el("div", { class: "row" }, lifePips(p.life, view.options.life_cap),
      el("span", { class: "score", text: _("{score} / 8 points", { score: p.score }) })),
    el("div", { class: "row" }, rack,
      p.secret_stones ? el("span", { class: "hint", text: _("+{n} secret", { n: p.secret_stones }) }) : null));
}

// The board: a list of the eight numbers, each read as one sentence (what is cast and removed of
// it); the figures drawn are for the eyes only.
function board(view) {
  const cells = [];
  for (let n = 1; n <= 8; n++) {
    const cast = view.board.cast[n - 1];
    const removed = view.board.removed[n - 1];
    cells.push(el("li", { title: _("{spell}: {cast} cast, {removed} removed face up, {n} in the box", { spell: SPELLS[n], cast, removed, n }) },
      el("span", { class: "sr-only", text: _("{n}: {cast} cast, {removed} removed of {n}", { n, cast, removed }) }),
      el("b", { "aria-hidden": "true", text: n }),
      el("small", { "aria-hidden": "true", text: `${cast + removed}/${n}` }),
      removed ? el("small", { class: "removed", "aria-hidden": "true", text: _("{n} up", { n: removed }) }) : null));
  }
  return el("ul", { class: "board", "aria-label": _("stones on the board by number") }, cells);
}

// What the board's cells and the stones' numbers mean, in words under the board (a phone shows
// no tooltip): the counts, the face-up stones, and each number's spell.
function boardLegend() {
  return [
    el("p", { class: "hint", text: _("Under each number: its stones on the board (cast, and removed face up) out of those in the box; \"up\": removed face up at the deal.") }),
    el("p", { class: "hint spells-legend", text: Object.entries(SPELLS).map(([n, name]) => `${n} ${name}`).join(" · ") }),
  ];
}

// How many of each number this viewer cannot see (rack, reserve, secret): only from the view.
function unseen(view, me) {
  const left = {};
  for (let n = 1; n <= 8; n++) left[n] = n - view.board.cast[n - 1] - view.board.removed[n - 1];
  for (const [name, p] of Object.entries(view.players)) {
    if (name !== me && p.rack) for (const n of p.rack) left[n] -= 1;
    if (name === me && p.secret) for (const n of p.secret) left[n] -= 1;
  }
  return left;
}

function roundResult(snap) {
  const r = snap.view.last_round;
  if (!r) return null;
  const losers = r.losers.reduce((list, name) => (list ? _("{list} and {name}", { list, name }) : name), "");
  const v = { winner: r.winner, losers, round: r.round };
  const how = {
    stones_out: _("{winner} cast every stone and won round {round}", v),
    knockout: _("{winner} knocked out {losers} and won round {round}", v),
    self_knockout: _("Round {round}: {losers} lost the last life; nobody won", v),
    last_standing: _("{winner} was the last wizard standing and won round {round}", v),
  };
  const rows = snap.view.order.map((name) => el("tr", {},
    el("td", {}, seatLabel(snap, name)),
    el("td", { text: `+${r.gained[name]}` }),
    el("td", { text: r.bonus[name] ? _("{n} secret", { n: r.bonus[name] }) : "" }),
    el("td", { text: `${snap.view.players[name].score}` })));
  const who = how[r.end];
  return el("section", { class: "card result", "aria-live": "polite" },
    el("h2", { text: _("Last round") }), el("p", { class: "prompt", text: who }),
    el("table", {}, el("tr", {}, el("th", { text: _("Player") }), el("th", { text: _("Gained") }),
      el("th", { text: _("Bonus") }), el("th", { text: _("Score") })), rows));
}

// The buttons for what this player may do now (the server sent them as "legal").
function actions(snap, send) {
  const legal = snap.legal || [];
  const view = snap.view;
  const buttons = [];
  for (const a of legal) {
    if (a.type === "cast") {
      const lower = view.last_cast !== null && a.spell < view.last_cast && !view.options.easy;
      buttons.push(el("button", { class: lower ? "spell lower" : "spell", "data-action": `cast-${a.spell}`,
        onclick: () => send({ type: "cast", spell: a.spell }) },
        el("b", { text: a.spell }), el("small", { text: SPELLS[a.spell] }),
        lower ? el("small", { class: "costs", text: _("✕ costs 1 life") }) : null));
    } else if (a.type === "take_secret") {
      buttons.push(el("button", { "data-action": `take_secret-${a.slot}`, onclick: () => send({ type: "take_secret", slot: a.slot }) }, _("Take secret stone {n}", { n: a.slot + 1 })));
    } else if (a.type === "decline_secret") {
      buttons.push(el("button", { "data-action": "decline_secret", onclick: () => send({ type: "decline_secret" }) }, _("Leave them")));
    } else if (a.type === "object") {
      buttons.push(el("button", { class: "danger", "data-action": "object", onclick: () => send({ type: "object" }) }, _("Object: out of order")));
    } else if (a.type === "allow") {
      buttons.push(el("button", { "data-action": "allow", onclick: () => send({ type: "allow" }) }, _("Let it stand")));
    }
  }
  return buttons;
}

// What the ✕ on a lower spell means, said in words above the spells (a phone shows no tooltip).
function lowerLegend(snap) {
  const view = snap.view;
  const lower = (snap.legal || []).some((a) => a.type === "cast" && view.last_cast !== null && a.spell < view.last_cast);
  if (!lower || view.options.easy) return null;
  const v = { n: view.last_cast, spell: SPELLS[view.last_cast] };
  const text = view.options.order_violation === "require_objection"
    ? _("✕ lower than the {n} {spell} you just cast: if another player objects, you lose 1 life and your turn ends (ABR-CAST-8).", v)
    : _("✕ lower than the {n} {spell} you just cast: casting it costs 1 life and ends your turn (ABR-CAST-8).", v);
  return el("p", { class: "hint lower-legend", id: "lower-legend", text });
}

// The prompt's main action, for the page's sticky bar: ending the turn.
function endTurn(snap, send) {
  if (!(snap.legal || []).some((a) => a.type === "end_turn")) return [];
  return [el("button", { class: "primary", "data-action": "end_turn", onclick: () => send({ type: "end_turn" }) }, _("End turn"))];
}

// -- what the generic pages call ----------------------------------------------------------------

/** The host's line under the prompt. */
export function progress(snap) {
  return _("round {n}", { n: snap.view.round });
}

/** An event's note for this viewer only: the stone this viewer saw. */
export function eventNote(event) {
  return event.private && event.private.stone ? _("(you saw a {stone})", { stone: event.private.stone }) : null;
}

/** The table display: the last round's result, every player, the board. */
export function table(snap, ctx) {
  if (!ctx.area.hasChildNodes()) {
    ctx.area.append(
      el("div", { id: "result", class: "wide" }),
      el("section", { class: "card wide" }, el("h2", { text: _("Players") }), el("div", { id: "players", class: "players" })),
      el("section", { class: "card" }, el("h2", { text: _("Board") }), el("div", { id: "board" }), el("p", { id: "reserve", class: "sub" }), boardLegend()));
  }
  const view = snap.view;
  replace("players", snap.view.order.map((name) => playerCard(snap, name)));
  replace("board", board(view));
  document.getElementById("reserve").textContent = _("{reserve} stones in the reserve · {secret} secret stones on the board",
    { reserve: view.reserve_size, secret: view.secret_slots.filter(Boolean).length });
  replace("result", view.phase === "deal" || view.finished ? roundResult(snap) : null);
  return view.finished ? "" : _("Round {n}", { n: view.round });
}

/** A player's own page: the moves, the player's own card and secret stones, the last round's
 * result, the others, the board and what this player cannot see. */
export function player(snap, ctx) {
  if (!ctx.area.hasChildNodes()) {
    ctx.area.append(
      el("section", { class: "card wide", id: "actions-card", hidden: true }, el("h2", { text: _("Your move") }),
        el("div", { id: "actions-legend" }), el("div", { id: "actions", class: "actions" })),
      el("section", { class: "card wide" }, el("h2", { text: _("You") }), el("div", { id: "me" }), el("div", { id: "secret" })),
      el("div", { id: "result", class: "wide" }),
      el("section", { class: "card wide" }, el("h2", { text: _("The others") }), el("div", { id: "players", class: "players" })),
      el("section", { class: "card" }, el("h2", { text: _("Board") }), el("div", { id: "board" }), el("p", { id: "unseen", class: "sub" }), boardLegend()));
  }
  const view = snap.view;
  const me = ctx.me;
  const buttons = actions(snap, ctx.send);
  document.getElementById("actions-card").hidden = buttons.length === 0;
  replace("actions", buttons);
  replace("actions-legend", lowerLegend(snap));
  if (ctx.bar) ctx.bar.replaceChildren(...endTurn(snap, ctx.send));
  replace("me", playerCard(snap, me, { me }));
  const secret = view.players[me].secret || [];
  replace("secret", secret.length ? el("p", {}, _("Your secret stones (only you see them):") + " ",
    el("span", { class: "stones" }, secret.map((n) => el("span", { class: "stone secret", text: n })))) : null);
  replace("players", view.order.filter((n) => n !== me).map((n) => playerCard(snap, n, { me })));
  replace("board", board(view));
  const left = unseen(view, me);
  const parts = Object.entries(left).filter(([, c]) => c > 0).map(([n, c]) => `${c}×${n}`);
  document.getElementById("unseen").textContent = parts.length
    ? _("Not visible to you (your rack, the reserve, the secret stones): {stones}.", { stones: parts.join(", ") })
    : _("Not visible to you (your rack, the reserve, the secret stones): none.");
  replace("result", view.phase === "deal" || view.finished ? roundResult(snap) : null);
  return view.waiting_for.includes(me) ? _("It is up to you.") : _("Round {n}", { n: view.round });
}

/** The host's simulation panel: every stone and where it lies, the racks' stones to tap. For a
 * host who plays a seat (world.blind) the server sent only what that player sees: their own rack,
 * the pile and the face-down stones are counts (world.hidden), drawn as backs. */
export function simulation(world, snap, ctx) {
  if (!world.places) return [];
  const blind = world.blind || null;
  const hidden = world.hidden || {};
  const stoneButton = (stone, name) => {
    const label = _("tap {player}'s {stone}", { player: name, stone: stone.stone });
    return el("button", { type: "button", class: "stone", "data-stone": stone.stone, "data-rack": name,
      title: label, "aria-label": label, onclick: () => ctx.sim("tap_rack", { player: name, stone: stone.stone }) }, String(stone.stone));
  };
  const places = [];
  const order = snap.view ? snap.view.order : [];
  const pile = world.places.pile ? world.places.pile.length : hidden.pile || 0;
  places.push(el("div", { class: "place" }, el("span", { text: _("Face-down pile: {n} stones", { n: pile }) })));
  for (const name of order) {
    const acquired = world.places[`acquired:${name}`];
    const secrets = acquired ? acquired.map((s) => el("span", { class: "stone secret", title: _("acquired secret stone"), text: s.stone }))
      : backs(hidden[`acquired:${name}`] || 0, _("{n} secret stones, unseen", { n: hidden[`acquired:${name}`] || 0 }));
    if (name === blind) {
      const n = hidden[`rack:${name}`] || 0;
      places.push(el("div", { class: "place mine", "data-blind": name },
        el("span", {}, seatText(snap, name, _("{player}'s rack (you play it: unseen)", { player: name }))),
        el("div", { class: "stones" }, backs(n, _("your {n} stones, hidden from you", { n })), secrets)));
      continue;
    }
    const rack = world.places[`rack:${name}`] || [];
    places.push(el("div", { class: "place" }, el("span", {}, seatText(snap, name, _("{player}'s rack", { player: name }))),
      el("div", { class: "stones" }, rack.map((s) => stoneButton(s, name)), secrets)));
  }
  places.push(el("div", { class: "place" }, el("span", { text: _("Secret stones on the board") }),
    el("div", { class: "stones" }, world.secret.map((s, i) => s ? el("button", { type: "button", class: "stone back", "data-secret": i, "aria-label": _("secret stone {n}", { n: i + 1 }), onclick: () => ctx.sim("take_secret", { slot: i }) }, "?") : null))));
  const onBoard = [...world.places.board, ...world.places.removed];
  places.push(el("div", { class: "place" }, el("span", { text: _("On the board") }), el("div", { class: "stones" }, onBoard.map((s) => el("span", { class: "stone", text: s.stone })))));
  return places;
}
