// Dork Tower's small pieces (the choices' buttons, headings, dice), the hero sheet and the shop's
// cards. Part of Dork Tower's page module (page.js).
import { _, el } from "/static/js/common.js";
import { seat, seatLabel } from "/static/js/seats.js";
import {
  ability, dataWord, dayWord, faceName, faceText, goldText, joinAnd, joinOr, rich, scrollTiming,
  scrollsText, space, typeName, versus, xpText,
} from "./words.js";

// -- small pieces -------------------------------------------------------------------------------

/** What a choice's button does (the player page's send) and how the page is drawn again after a
 * choice that changes only the page (a trade partner chosen): set by the page for each drawing. */
export let sendAction = () => {};
export let rerender = () => {};
export function useActions(send, again) {
  sendAction = send;
  rerender = again;
}
/** What the player has picked on the page and not sent yet, kept across drawings. */
export const ui = { choose: {}, helper: null, open: {}, offer: null, accept: [] };

/** A stable name for a button, for tests and for people reading the page's code. */
export function actionKey(a) {
  return [a.type, a.to, a.cross, a.scroll, a.extra ? "extra" : null, a.token, a.card, a.face,
    a.die !== undefined ? `die${a.die}` : null, a.character, a.city]
    .filter((x) => x !== undefined && x !== null && x !== false).join("-");
}

export function button(label, action, { detail = null, cls = "", disabled = false, key = null } = {}) {
  return el("button", { type: "button", class: `dt-act ${cls}`, disabled,
    "data-action": key || actionKey(action), onclick: () => sendAction(action) },
  el("span", { class: "label", text: label }), detail ? el("small", { text: detail }) : null);
}

export function heading(text) { return el("h3", { class: "dt-sub", text }); }

export function symbolFor(day) {
  return el("span", { class: `dt-time ${day ? "day" : "night"}`, text: dayWord(day) });
}

export function dice(values, sixes = 0) {
  return el("span", { class: "dt-dice", role: "img", "aria-label": _("dice {values}", { values: joinAnd(values) }) },
    values.map((v, i) => el("span", { class: `die${i < sixes ? " bought" : ""}`, text: v })));
}

// -- the hero sheet -----------------------------------------------------------------------------

function itemBonus(view, p) {
  let total = 0;
  for (const slot of p.slots) {
    if (!slot || !slot.card) continue;
    total += slot.max !== null && slot.max !== undefined && view.options.slot_max === "cap" ? Math.min(slot.bonus, slot.max) : slot.bonus;
  }
  return total;
}

function fits(view, slot, item) {
  return slot.accepts.includes(item.type) && (slot.max === null || slot.max === undefined
    || view.options.slot_max === "cap" || item.bonus <= slot.max);
}

/** May this player rearrange slots now (DT-CHAR-5: own turn, not between a roll and its outcome). */
function canManage(snap, name) {
  const view = snap.view;
  if (view.active !== name || ["start_roll", "choose", "over"].includes(view.phase)) return false;
  const a = view.awaiting;
  return !(a && a.why === "combat" && view.combat && view.combat.rolls);
}

function xpPips(xp, cap) {
  const pips = [];
  for (let i = 1; i <= cap; i++) pips.push(el("i", { class: i <= xp ? "on" : "" }));
  return el("span", { class: "xp-pips", "aria-hidden": "true" }, pips);
}

function stat(label, value, note = null) {
  return el("div", { class: "dt-stat" }, el("dt", { text: label }), el("dd", {}, el("b", { text: value }),
    note ? el("small", { text: note }) : null));
}

/** One hero's sheet: public for everyone; the scrolls' names only on the owner's own page. */
export function heroSheet(snap, d, name, { me = null, open = true } = {}) {
  const view = snap.view;
  const p = view.players[name];
  const mine = name === me;
  const s = seat(snap, name);
  const legal = mine ? snap.legal || [] : [];
  const badges = [];
  const playing = !["start_roll", "choose", "setup"].includes(view.phase);
  if (view.active === name && playing && !view.finished) badges.push(el("span", { class: "badge", text: _("Turn") }));
  if (view.combat && view.active === name) badges.push(el("span", { class: "badge alt", text: _("Fighting") }));
  if (p.level === "high") badges.push(el("span", { class: "badge alt", text: _("High level") }));
  if (p.dead) badges.push(el("span", { class: "badge alt", text: _("Dead") }));
  if (view.winners.includes(name)) badges.push(el("span", { class: "badge", text: _("Winner") }));
  const head = el("div", { class: "row" }, seatLabel(snap, name, mine ? " " + _("(you)") : ""),
    p.hero ? el("span", { class: "dt-hero", text: p.hero }) : null, el("span", { class: "row" }, badges));
  if (!p.character) {
    return el("article", { class: `player dt-sheet ${s.cls}`, "data-player": name }, head,
      el("p", { class: "muted", text: view.choosing === name ? _("Choosing a hero now…") : _("Has not chosen a hero yet.") }));
  }
  const bonus = itemBonus(view, p);
  const vs = p.slots.filter((x) => x && x.card).flatMap((x) => Object.entries(x.vs || {}).map(([t, v]) => versus(v, t)));
  const manage = mine && canManage(snap, name);
  const where = p.space ? space(d, view, p.space) : null;
  const cap = d.xp.level_up;
  const body = [];
  body.push(el("dl", { class: "dt-stats" },
    stat(_("Strength"), String(p.strength + bonus), bonus ? _("{strength} + {bonus} items", { strength: p.strength, bonus }) + (vs.length ? `; ${vs.join(", ")}` : "") : (vs.length ? vs.join(", ") : _("no item bonus"))),
    stat(_("Move"), String(p.movement), view.active === name && view.moves_left !== null && view.phase === "move" ? _("{n} left", { n: view.moves_left }) : null),
    stat(_("Gold"), String(p.gold)),
    stat(_("XP"), String(p.xp), p.level === "low" ? _("of {n}", { n: cap }) : _("high level"))));
  if (p.level === "low") {
    body.push(el("div", { class: "xp-row", role: "img", "aria-label": _("{xp} of {cap} XP towards high level", { xp: p.xp, cap }) }, xpPips(p.xp, cap),
      el("small", { class: "hint", text: _("level up at {n} XP", { n: cap }) })));
  }
  if (where) {
    body.push(el("p", { class: "dt-where" },
      rich(_("On {space} ({type}, {wedge}, {time})", { type: typeName(where.type), wedge: where.wedgeName }),
        { space: el("strong", { text: where.name }), time: symbolFor(where.day) }),
      p.home ? el("span", { class: "hint", text: " · " + _("home: {space}", { space: d.spaces[p.home].name }) }) : null));
  }
  if (p.abilities.length) body.push(el("p", { class: "hint", text: _("Ability: {abilities}", { abilities: p.abilities.map(ability).join(", ") }) }));
  // the four slots
  body.push(heading(_("Slots: their items count in a fight")));
  body.push(el("ol", { class: "dt-slots" }, p.slots.map((slot, k) => {
    const accepts = joinOr(slot.accepts.map(dataWord)) + (slot.max !== null && slot.max !== undefined ? " (" + _("Max +{n}", { n: slot.max }) + ")" : "");
    return el("li", { "data-slot": k },
      el("span", { class: "slot-name", text: String(k + 1), "aria-label": _("slot {n}", { n: k + 1 }) }), el("small", { class: "accepts", text: accepts }),
      slot.card ? el("span", { class: `dt-item ${slot.face}` }, el("strong", { text: faceText(slot) }), el("small", { text: ` (${faceName(slot.face)})` }))
        : el("span", { class: "muted", text: _("empty") }),
      manage && slot.card ? el("button", { type: "button", class: "small", "data-action": `unequip-${slot.card}`,
        onclick: () => sendAction({ type: "unequip", card: slot.card }) }, _("To backpack")) : null);
  })));
  // the backpack
  const limits = p.limits || { backpack: 2, scrolls: 3 };
  const over = p.backpack.length > limits.backpack;
  const packed = { n: p.backpack.length, limit: limits.backpack };
  body.push(heading((p.backpack.length ? _("Backpack: {n} of {limit}", packed) : _("Backpack: {n} of {limit}, empty", packed))
    + (over ? " (" + _("too many: discard before the tower turns") + ")" : "")));
  body.push(p.backpack.length ? el("ul", { class: "dt-pack" }, p.backpack.map((item) => {
    const slots = p.slots.map((slot, k) => (fits(view, slot, item) ? k : -1)).filter((k) => k >= 0);
    const discard = legal.find((a) => a.type === "discard" && a.card === item.card);
    const sell = legal.find((a) => a.type === "sell" && a.card === item.card);
    return el("li", {}, el("span", { class: `dt-item ${item.face}` }, el("strong", { text: faceText(item) }), el("small", { text: ` (${faceName(item.face)})` })),
      el("span", { class: "row" },
        manage ? slots.map((k) => el("button", { type: "button", class: "small", "data-action": `equip-${item.card}-${k}`,
          onclick: () => sendAction({ type: "equip", card: item.card, slot: k }) }, _("Into slot {n}", { n: k + 1 }))) : null,
        sell ? el("button", { type: "button", class: "small", "data-action": actionKey(sell), onclick: () => sendAction(sell) }, _("Sell ({n} gold)", { n: item.price })) : null,
        discard ? el("button", { type: "button", class: "small danger", "data-action": actionKey(discard), onclick: () => sendAction(discard) }, _("Discard")) : null));
  })) : null);
  // scrolls: names only for their owner (the server sends them to no one else)
  const count = p.scroll_count;
  const tooMany = count > limits.scrolls;
  const held = { n: count, limit: limits.scrolls };
  body.push(heading((count ? _("Scrolls: {n} of {limit}", held) : _("Scrolls: {n} of {limit}, none", held))
    + (tooMany ? " (" + _("too many: play or discard before the tower turns") + ")" : "")));
  if (p.scrolls) {
    body.push(count ? el("ul", { class: "dt-scrolls" }, p.scrolls.map((sc) => {
      const discard = legal.find((a) => a.type === "discard" && a.scroll === sc.scroll);
      const sell = mine && sellScrollAllowed(snap, name) ? { type: "sell", scroll: sc.scroll } : null;
      return el("li", { class: "dt-scroll", "data-scroll": sc.scroll },
        el("strong", { text: sc.name }), el("span", { text: sc.text }),
        el("small", { class: "hint", text: scrollTiming(sc) }),
        (sell || discard) ? el("span", { class: "row" },
          sell ? el("button", { type: "button", class: "small", "data-action": actionKey(sell), onclick: () => sendAction(sell) }, _("Sell ({n} gold)", { n: view.prices.scroll })) : null,
          discard ? el("button", { type: "button", class: "small danger", "data-action": actionKey(discard), onclick: () => sendAction(discard) }, _("Discard")) : null) : null);
    })) : null);
    if (mine && count) body.push(el("p", { class: "hint", text: _("Only you see your scrolls.") }));
  } else {
    const backs = [];
    for (let i = 0; i < count; i++) backs.push(el("span", { class: "dt-scroll-back", "aria-hidden": "true" }));
    if (count) body.push(el("p", { class: "dt-hidden-scrolls" }, backs, el("span", { text: " " + (count === 1 ? _("1 scroll (hidden)") : _("{n} scrolls (hidden)", { n: count })) })));
  }
  const levelUp = legal.find((a) => a.type === "level_up");
  if (levelUp) {
    const high = d.characters[p.character].high;
    body.push(button(_("Level up"), levelUp, { cls: "primary", detail: _("{xp} XP: {hero} becomes high level (strength {strength}, movement {movement})",
      { xp: cap, hero: p.hero, strength: high.strength, movement: high.movement }) }));
  }
  const summary = `${p.hero} · ${where ? where.name : "—"} · ${goldText(p.gold)} · ${xpText(p.xp)} · ${scrollsText(count)}`;
  if (open) return el("article", { class: `player dt-sheet ${s.cls}`, "data-player": name }, head, body);
  return el("details", { class: `player dt-sheet ${s.cls}`, "data-player": name, open: ui.open[name] || false,
    ontoggle: (e) => { ui.open[name] = e.target.open; } },
  el("summary", {}, head, el("span", { class: "hint", text: summary })), body);
}

export function sellScrollAllowed(snap, name) {
  const view = snap.view;
  return view.phase === "city" && view.active === name && !view.awaiting && view.shop
    && (view.shop.business !== "work" || view.options.work_allows_selling);
}

// -- the shop -----------------------------------------------------------------------------------

/** The shop's cards: the active hero's to buy from, everyone else's to watch. */
export function shopCards(snap, d, legal) {
  const view = snap.view;
  const me = view.viewer;
  const gold = view.players[view.active].gold;
  return [heading(_("The shop's cards (buy one face of each)")), el("ul", { class: "dt-shop" }, view.shop.cards.map((c) =>
    el("li", { "data-card": c.card }, ["equipment", "magic"].map((face) => {
      const f = c[face];
      const buy = legal.find((a) => a.type === "buy" && a.card === c.card && a.face === face);
      const bought = c.bought === face;
      const note = bought ? _("bought") : c.bought ? _("card sold") : f.price > gold ? _("needs {n} gold", { n: f.price }) : "";
      return el("div", { class: `dt-face ${face}${bought ? " bought" : ""}` },
        el("small", { class: "face-name", text: face === "magic" ? _("Magic (purple)") : _("Equipment (white)") }),
        el("strong", { text: f.name }), el("span", { text: faceText(f).split(": ")[1] }),
        el("span", { class: "price", text: goldText(f.price) }),
        view.active === me && !bought && !c.bought ? el("button", { type: "button", class: buy ? "primary small" : "small",
          disabled: !buy, "data-action": `buy-${c.card}-${face}`, onclick: () => buy && sendAction(buy) }, buy ? _("Buy {item}", { item: f.name }) : note || _("Buy"))
          : el("small", { class: "hint", text: note }));
    })))),
  ];
}
