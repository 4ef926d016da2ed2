// Abracada...What? on a page: everything here is drawn from the view the server sent for this
// viewer, which never holds the viewer's own stones.
import { _, el } from "../common.js";

export const SPELLS = {
  1: _("Ancient Dragon"), 2: _("Dark Wanderer"), 3: _("Sweet Dreams"), 4: _("Night Singer"),
  5: _("Lightning Storm"), 6: _("Blizzard"), 7: _("Fireball"), 8: _("Magic Potion"),
};
const MARKS = ["●", "▲", "■", "◆", "★", "✚", "⬟"];

export function seat(snap, name) {
  const colour = (snap.game.colours[name] || "").replace(/ /g, "-");
  const index = snap.game.players.indexOf(name);
  return { cls: `c-${colour}`, mark: MARKS[index % MARKS.length], colour: snap.game.colours[name] };
}

export function seatLabel(snap, name, suffix = "") {
  return seatText(snap, name, name + suffix);
}

// A seat's colour and shape with a text of its own about that player ("Elena's rack").
export function seatText(snap, name, text) {
  const s = seat(snap, name);
  return el("span", { class: `seat ${s.cls}` },
    el("span", { class: "mark", "aria-hidden": "true", text: s.mark }), text);
}

function lifePips(life, cap) {
  const pips = [];
  for (let i = 0; i < cap; i++) pips.push(el("i", { class: i < life ? "on" : "" }));
  return el("span", { class: "life", role: "img", "aria-label": _("{n} life", { n: life }) }, pips);
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

export function playerCard(snap, name, { me = null } = {}) {
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

export function players(snap, opts) {
  return snap.view.order.map((name) => playerCard(snap, name, opts));
}

export function board(view) {
  const cells = [];
  for (let n = 1; n <= 8; n++) {
    const cast = view.board.cast[n - 1];
    const removed = view.board.removed[n - 1];
    cells.push(el("div", { title: _("{spell}: {cast} cast, {removed} removed face up, {n} in the box", { spell: SPELLS[n], cast, removed, n }),
      "aria-label": _("{n}: {cast} cast, {removed} removed of {n}", { n, cast, removed }) },
      el("b", { text: n }),
      el("small", { text: `${cast + removed}/${n}` }),
      removed ? el("small", { class: "removed", text: _("{n} up", { n: removed }) }) : null));
  }
  return el("div", { class: "board", role: "table", "aria-label": _("stones on the board by number") }, cells);
}

// How many of each number this viewer cannot see (rack, reserve, secret): only from the view.
export function unseen(view, me) {
  const left = {};
  for (let n = 1; n <= 8; n++) left[n] = n - view.board.cast[n - 1] - view.board.removed[n - 1];
  for (const [name, p] of Object.entries(view.players)) {
    if (name !== me && p.rack) for (const n of p.rack) left[n] -= 1;
    if (name === me && p.secret) for (const n of p.secret) left[n] -= 1;
  }
  return left;
}

export function roundResult(snap) {
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
export function actions(snap, send) {
  const legal = snap.legal || [];
  const view = snap.view;
  const buttons = [];
  for (const a of legal) {
    if (a.type === "cast") {
      const lower = view.last_cast !== null && a.spell < view.last_cast && !view.options.easy;
      buttons.push(el("button", { class: "spell", "data-action": `cast-${a.spell}`,
        title: lower ? _("Lower than the last spell: this costs 1 life") : "",
        onclick: () => send({ type: "cast", spell: a.spell }) },
        el("b", { text: a.spell }), el("small", { text: SPELLS[a.spell] + (lower ? " ✕" : "") })));
    } else if (a.type === "end_turn") {
      buttons.push(el("button", { class: "primary", "data-action": "end_turn", onclick: () => send({ type: "end_turn" }) }, _("End turn")));
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
