// Abracada...What? on a page: everything here is drawn from the view the server sent for this
// viewer, which never holds the viewer's own stones.
import { el } from "../common.js";

export const SPELLS = {
  1: "Ancient Dragon", 2: "Dark Wanderer", 3: "Sweet Dreams", 4: "Night Singer",
  5: "Lightning Storm", 6: "Blizzard", 7: "Fireball", 8: "Magic Potion",
};
const MARKS = ["●", "▲", "■", "◆", "★", "✚", "⬟"];

export function seat(snap, name) {
  const colour = (snap.game.colours[name] || "").replace(/ /g, "-");
  const index = snap.game.players.indexOf(name);
  return { cls: `c-${colour}`, mark: MARKS[index % MARKS.length], colour: snap.game.colours[name] };
}

export function seatLabel(snap, name, suffix = "") {
  const s = seat(snap, name);
  return el("span", { class: `seat ${s.cls}` },
    el("span", { class: "mark", "aria-hidden": "true", text: s.mark }), name + suffix);
}

function lifePips(life, cap) {
  const pips = [];
  for (let i = 0; i < cap; i++) pips.push(el("i", { class: i < life ? "on" : "" }));
  return el("span", { class: "life", role: "img", "aria-label": `${life} life` }, pips);
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
  if (active) badges.push(el("span", { class: "badge", text: "Turn" }));
  if (view.pending && view.pending.remover === name) badges.push(el("span", { class: "badge alt", text: "Removes the stone" }));
  if (view.winners.includes(name)) badges.push(el("span", { class: "badge", text: "Winner" }));
  if (view.phase === "deal" && view.deal && view.deal.player === name) badges.push(el("span", { class: "badge alt", text: "Being dealt" }));
  const mine = name === me;
  let rack;
  if (p.rack) rack = stones(p.rack);
  else rack = backs(p.rack_size, mine ? `your ${p.rack_size} stones, hidden from you` : `${p.rack_size} stones`);
  return el("article", { class: `player ${s.cls} ${active ? "active" : ""}`, "data-player": name },
    el("div", { class: "row" }, seatLabel(snap, name, mine ? " (you)" : ""), el("span", { class: "row" }, badges)),
    el("div", { class: "row" }, lifePips(p.life, view.options.life_cap),
      el("span", { class: "score", text: `${p.score} / 8 points` })),
    el("div", { class: "row" }, rack,
      p.secret_stones ? el("span", { class: "hint", text: `+${p.secret_stones} secret` }) : null));
}

export function players(snap, opts) {
  return snap.view.order.map((name) => playerCard(snap, name, opts));
}

export function board(view) {
  const cells = [];
  for (let n = 1; n <= 8; n++) {
    const cast = view.board.cast[n - 1];
    const removed = view.board.removed[n - 1];
    cells.push(el("div", { title: `${SPELLS[n]}: ${cast} cast, ${removed} removed face up, ${n} in the box`,
      "aria-label": `${n}: ${cast} cast, ${removed} removed of ${n}` },
      el("b", { text: n }),
      el("small", { text: `${cast + removed}/${n}` }),
      removed ? el("small", { class: "removed", text: `${removed} up` }) : null));
  }
  return el("div", { class: "board", role: "table", "aria-label": "stones on the board by number" }, cells);
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
  const losers = r.losers.join(" and ");
  const how = {
    stones_out: `${r.winner} cast every stone and won round ${r.round}`,
    knockout: `${r.winner} knocked out ${losers} and won round ${r.round}`,
    self_knockout: `Round ${r.round}: ${losers} lost the last life; nobody won`,
    last_standing: `${r.winner} was the last wizard standing and won round ${r.round}`,
  };
  const rows = snap.view.order.map((name) => el("tr", {},
    el("td", {}, seatLabel(snap, name)),
    el("td", { text: `+${r.gained[name]}` }),
    el("td", { text: r.bonus[name] ? `${r.bonus[name]} secret` : "" }),
    el("td", { text: `${snap.view.players[name].score}` })));
  const who = how[r.end];
  return el("section", { class: "card result", "aria-live": "polite" },
    el("h2", { text: "Last round" }), el("p", { class: "prompt", text: who }),
    el("table", {}, el("tr", {}, el("th", { text: "Player" }), el("th", { text: "Gained" }),
      el("th", { text: "Bonus" }), el("th", { text: "Score" })), rows));
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
        title: lower ? "Lower than the last spell: this costs 1 life" : "",
        onclick: () => send({ type: "cast", spell: a.spell }) },
        el("b", { text: a.spell }), el("small", { text: SPELLS[a.spell] + (lower ? " ✕" : "") })));
    } else if (a.type === "end_turn") {
      buttons.push(el("button", { class: "primary", "data-action": "end_turn", onclick: () => send({ type: "end_turn" }) }, "End turn"));
    } else if (a.type === "take_secret") {
      buttons.push(el("button", { "data-action": `take_secret-${a.slot}`, onclick: () => send({ type: "take_secret", slot: a.slot }) }, `Take secret stone ${a.slot + 1}`));
    } else if (a.type === "decline_secret") {
      buttons.push(el("button", { "data-action": "decline_secret", onclick: () => send({ type: "decline_secret" }) }, "Leave them"));
    } else if (a.type === "object") {
      buttons.push(el("button", { class: "danger", "data-action": "object", onclick: () => send({ type: "object" }) }, "Object: out of order"));
    } else if (a.type === "allow") {
      buttons.push(el("button", { "data-action": "allow", onclick: () => send({ type: "allow" }) }, "Let it stand"));
    }
  }
  return buttons;
}
