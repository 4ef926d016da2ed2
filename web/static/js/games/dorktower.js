// Dork Tower on a page. Everything is drawn from two things: the view the server sent for this
// viewer (scrolls in hand only for their owner: the server filters them) and the game's data set,
// the printed board, tables and cards, which is public and fetched once. Phone first: one thumb,
// large targets, each choice a wide button that says what it costs; day and night, the door and
// the seats always have a symbol or a word besides their colour.
import { _, el } from "../common.js";
import { seat, seatLabel } from "./abracadawhat.js";

// -- the data set -------------------------------------------------------------------------------

const sets = {};

/** The data set the view names, once loaded (null before). */
export function data(view) {
  const entry = view && view.data_set ? sets[view.data_set.name] : null;
  return entry && entry.value ? entry.value : null;
}

/** Load the view's data set once; resolves to it. */
export function load(view) {
  const name = view.data_set.name;
  if (!sets[name]) {
    const entry = { value: null };
    entry.promise = fetch(`/api/games/dorktower/data/${encodeURIComponent(name)}`)
      .then((r) => (r.ok ? r.json() : Promise.reject(new Error(r.statusText))))
      .then((d) => { entry.value = d; return d; })
      .catch((err) => { delete sets[name]; throw err; });
    sets[name] = entry;
  }
  return sets[name].promise;
}

// -- words --------------------------------------------------------------------------------------

const SIGNED = (n) => (n > 0 ? `+${n}` : n < 0 ? `−${-n}` : "0");
const CAP = (s) => s.charAt(0).toUpperCase() + s.slice(1);
const SUN = "☀";
const MOON = "☾";
// a scroll's window, said whole (the sentence under a scroll in hand)
const WINDOWS = {
  own_pre_roll: () => _("Played before your own fight roll"),
  opponent_pre_roll: () => _("Played against a rival, before the roll"),
  post_roll: () => _("Played after your own failed roll"),
  movement: () => _("Played while moving"),
  any: () => _("Played whenever it applies"),
};
const ABILITIES = {
  cross_lake: () => _("crosses lakes"), cross_mountain: () => _("crosses mountains"),
  avoid_monsters: () => _("may walk past monsters"),
};
const ability = (a) => (ABILITIES[a] ? ABILITIES[a]() : a);
// the rulebook's words for the Encounter chart's space types and the borders; a data set's own
// types keep their names
const SPACE_TYPES = {
  city: () => _("city"), field: () => _("field"), forest: () => _("forest"),
  shadowland: () => _("shadowland"), dungeon: () => _("dungeon"),
};
const typeName = (ty) => (SPACE_TYPES[ty] ? SPACE_TYPES[ty]() : ty);
const BORDERS = { lake: () => _("lake"), mountain: () => _("mountain") };
const borderName = (b) => (BORDERS[b] ? BORDERS[b]() : b);
const dayOrNight = (day) => (day ? _("day") : _("night"));
const BORDER_THE = { lake: () => _("the lake"), mountain: () => _("the mountain") };
const theBorder = (b) => (BORDER_THE[b] ? BORDER_THE[b]() : _("the {border}", { border: b }));
const FACES = { equipment: () => _("equipment"), magic: () => _("magic") };
const faceName = (f) => (FACES[f] ? FACES[f]() : f);
const TREASURES = { scroll: () => _("scroll"), equipment: () => _("equipment"), magic: () => _("magic"),
  nothing: () => _("nothing") };
const treasureName = (w) => (TREASURES[w] ? TREASURES[w]() : w);
/** "a or b or c", "a and b", in the page's language. */
const joinOr = (list) => (list.length ? list.map(String).reduce((a, b) => _("{a} or {b}", { a, b })) : "");
const joinAnd = (list) => (list.length ? list.map(String).reduce((a, b) => _("{a} and {b}", { a, b })) : "");
const goldText = (n) => _("{n} gold", { n });
const xpText = (n) => _("{n} XP", { n });
const scrollsText = (n) => (n === 1 ? _("1 scroll") : _("{n} scrolls", { n }));

/** A translated sentence with elements in it: the text of _() (its values filled in), each
 * placeholder named in `nodes` replaced by that element. */
function rich(text, nodes) {
  const out = [];
  let last = 0;
  text.replace(/\{(\w+)\}/g, (whole, key, at) => {
    if (!(key in nodes)) return whole;
    if (at > last) out.push(text.slice(last, at));
    out.push(nodes[key]);
    last = at + whole.length;
    return whole;
  });
  if (last < text.length) out.push(text.slice(last));
  return out;
}

/** A Combat Table row as printed: "0", "+1 or +2", "−1 or −2", "+9 or more". */
export function rowLabel(row) {
  if (row.min === null) return _("{n} or less", { n: SIGNED(row.max) });
  if (row.max === null) return _("{n} or more", { n: SIGNED(row.min) });
  if (row.min === row.max) return SIGNED(row.min);
  const [a, b] = row.max < 0 ? [row.max, row.min] : [row.min, row.max];
  return Math.abs(b - a) === 1 ? _("{a} or {b}", { a: SIGNED(a), b: SIGNED(b) }) : _("{a} to {b}", { a: SIGNED(a), b: SIGNED(b) });
}

function wedgeIndex(d, space) {
  return d.wedges.findIndex((w) => w.id === d.spaces[space].wedge);
}

function timeAt(d, view, typeId, wedge) {
  const kind = d.space_types[typeId];
  const day = !kind.always_night && view.tower.wedges[wedge].day;
  return { day, count: kind.city ? 0 : day ? kind.day : kind.night, kind };
}

/** What a space is now: name, type, day or night, tokens drawn, monsters, quest. */
function space(d, view, id) {
  const sp = d.spaces[id];
  const wedge = wedgeIndex(d, id);
  const t = timeAt(d, view, sp.type, wedge);
  return { id, name: sp.name, type: sp.type, wedge, wedgeName: d.wedges[wedge].name, ...t,
    monsters: view.monsters[id] || null, quest: view.quests.includes(id) };
}

function dayWord(day) { return `${day ? SUN : MOON} ${dayOrNight(day)}`; }

function spaceDetail(info) {
  const parts = [typeName(info.type), dayWord(info.day)];
  if (info.monsters) parts.push("⚔ " + _("{monsters}: fight", { monsters: info.monsters.map((m) => m.name).join(", ") }));
  else if (info.kind.city) parts.push(info.quest ? _("quest, no tokens") : _("no encounter"));
  else parts.push(_("draw {n}", { n: info.count }));
  if (info.quest) parts.push("✦ " + _("quest"));
  return parts.join(" · ");
}

const versus = (v, type) => _("+{n} vs {type}", { n: v, type });

function faceText(face) {
  const extra = Object.entries(face.vs || {}).map(([t, v]) => versus(v, t));
  if (face.crosses && face.crosses.length) {
    const one = face.crosses.length === 1 && ABILITIES[`cross_${face.crosses[0]}`];
    extra.push(one ? one() : _("crosses {borders}s", { borders: joinAnd(face.crosses.map(borderName)) }));
  }
  return `${face.name}: ${face.type} +${face.bonus}${extra.length ? `, ${extra.join(", ")}` : ""}`;
}

function effectText(effect) {
  const parts = [];
  if (effect.gold) parts.push(goldText(effect.gold));
  if (effect.xp) parts.push(xpText(effect.xp));
  if (effect.draw_item) parts.push(effect.draw_item === "magic" ? _("draw a magic item") : _("draw an equipment item"));
  if (effect.draw_scroll) parts.push(effect.draw_scroll === 1 ? _("draw 1 scroll") : _("draw {n} scrolls", { n: effect.draw_scroll }));
  if (effect.draw_tokens) parts.push(effect.draw_tokens === 1 ? _("draw 1 more token") : _("draw {n} more tokens", { n: effect.draw_tokens }));
  return parts.join(", ") || _("no effect");
}

function tokenText(t) {
  if (t.monster) return [_("strength {n}", { n: t.strength }), t.types.join(", "), xpText(t.xp), t.treasure ? _("treasure") : null].filter((x) => x !== null).join(" · ");
  const effect = effectText(t.effect || {});
  return t.friendly ? _("friendly: {effect}", { effect }) : effect;
}

function scrollEffect(effect) {
  if (effect.fighter) return _("+{n} to the fighter", { n: effect.fighter });
  if (effect.monsters) return _("+{n} to the monsters", { n: effect.monsters });
  if (effect.remove_monster) return _("removes a monster");
  if (effect.reroll) return _("roll again");
  if (effect.set_die) return _("a die becomes {n}", { n: effect.set_die });
  if (effect.cross) return _("crosses a {borders}", { borders: joinOr(effect.cross.map(borderName)) });
  return "";
}

function heroName(view, name) {
  const p = view.players[name];
  return p && p.hero ? `${name} (${p.hero})` : name;
}

// -- small pieces -------------------------------------------------------------------------------

let sendAction = () => {};
let rerender = () => {};
const ui = { choose: {}, helper: null, open: {}, offer: null, accept: [] };

/** A stable name for a button, for tests and for people reading the page's code. */
export function actionKey(a) {
  return [a.type, a.to, a.cross, a.scroll, a.extra ? "extra" : null, a.token, a.card, a.face,
    a.die !== undefined ? `die${a.die}` : null, a.character, a.city]
    .filter((x) => x !== undefined && x !== null && x !== false).join("-");
}

function button(label, action, { detail = null, cls = "", disabled = false, key = null } = {}) {
  return el("button", { type: "button", class: `dt-act ${cls}`, disabled,
    "data-action": key || actionKey(action), onclick: () => sendAction(action) },
  el("span", { class: "label", text: label }), detail ? el("small", { text: detail }) : null);
}

function heading(text) { return el("h3", { class: "dt-sub", text }); }

function symbolFor(day) {
  return el("span", { class: `dt-time ${day ? "day" : "night"}`, text: dayWord(day) });
}

function dice(values, sixes = 0) {
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
    const accepts = joinOr(slot.accepts) + (slot.max !== null && slot.max !== undefined ? " (" + _("Max +{n}", { n: slot.max }) + ")" : "");
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
        el("small", { class: "hint", text: WINDOWS[sc.window] ? WINDOWS[sc.window]() : _("Played {window}", { window: sc.window }) }),
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

function sellScrollAllowed(snap, name) {
  const view = snap.view;
  return view.phase === "city" && view.active === name && !view.awaiting && view.shop
    && (view.shop.business !== "work" || view.options.work_allows_selling);
}

// -- the tower and the board --------------------------------------------------------------------

// the SVG namespace, as the HTML parser gives it (no address written here: every asset is local)
const SVGNS = (() => {
  const t = document.createElement("template");
  t.innerHTML = "<svg></svg>";
  return t.content.firstChild.namespaceURI;
})();
function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVGNS, tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== null && v !== undefined) node.setAttribute(k, v);
  for (const c of children.flat()) if (c !== null && c !== undefined) node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return node;
}
const pt = (r, deg) => {
  const a = (deg * Math.PI) / 180;
  return `${(r * Math.sin(a)).toFixed(2)} ${(-r * Math.cos(a)).toFixed(2)}`;
};
let ringIds = 0;

/** The tower seen from above: 8 wedges clockwise from the top, sun or moon, the door, the
 * heroes' seat marks in their wedges. */
export function tower(snap, d) {
  const view = snap.view;
  const id = `ring${++ringIds}`;
  const R0 = 30;
  const R1 = 100;
  const defs = svg("defs");
  const parts = [defs];
  const heroes = {};
  for (const name of view.order) {
    const p = view.players[name];
    if (p.space && d.spaces[p.space] && !p.dead) (heroes[wedgeIndex(d, p.space)] ||= []).push(name);
  }
  const quests = {};
  for (const q of view.quests) quests[wedgeIndex(d, q)] = (quests[wedgeIndex(d, q)] || 0) + 1;
  view.tower.wedges.forEach((w, j) => {
    const a0 = j * 45 - 22.5;
    const a1 = j * 45 + 22.5;
    const door = j === view.tower.door_wedge;
    const cls = `wedge ${w.day ? "day" : "night"}${door ? " door" : ""}`;
    parts.push(svg("path", { class: cls, d: `M ${pt(R1, a0)} A ${R1} ${R1} 0 0 1 ${pt(R1, a1)} L ${pt(R0, a1)} A ${R0} ${R0} 0 0 0 ${pt(R0, a0)} Z` }));
    // the name along the rim, upright on both halves
    const bottom = j * 45 > 90 && j * 45 < 270;
    const r = bottom ? 92 : 85;
    const path = bottom ? `M ${pt(r, a1 - 2)} A ${r} ${r} 0 0 0 ${pt(r, a0 + 2)}` : `M ${pt(r, a0 + 2)} A ${r} ${r} 0 0 1 ${pt(r, a1 - 2)}`;
    defs.append(svg("path", { id: `${id}-${j}`, d: path }));
    const arc = (Math.PI * r * 41) / 180;
    const long = w.name.length * 5.6 > arc;
    parts.push(svg("text", { class: `wname ${w.day ? "day" : "night"}` },
      svg("textPath", { href: `#${id}-${j}`, startOffset: "50%", "text-anchor": "middle",
        textLength: long ? arc.toFixed(1) : null, lengthAdjust: long ? "spacingAndGlyphs" : null }, w.name)));
    const [sx, sy] = pt(67, j * 45).split(" ");
    parts.push(svg("text", { class: `sym ${w.day ? "day" : "night"}`, x: sx, y: sy, "text-anchor": "middle", "dominant-baseline": "central" },
      (w.day ? SUN : MOON) + (quests[j] ? " ✦" : "")));
    if (door) {
      parts.push(svg("path", { class: "door-mark", d: `M ${pt(R0 + 2, a0 + 6)} A ${R0 + 2} ${R0 + 2} 0 0 1 ${pt(R0 + 2, a1 - 6)}` }));
      const [dx, dy] = pt(40.5, j * 45).split(" ");
      parts.push(svg("text", { class: `door-label ${w.day ? "day" : "night"}`, x: dx, y: dy, "text-anchor": "middle", "dominant-baseline": "central" }, _("DOOR")));
    }
    (heroes[j] || []).forEach((name, k, all) => {
      const s = seat(snap, name);
      const [hx, hy] = pt(51, j * 45 + (k - (all.length - 1) / 2) * 13).split(" ");
      parts.push(svg("g", { class: `hero ${s.cls}` }, svg("circle", { cx: hx, cy: hy, r: 7 }),
        svg("text", { x: hx, y: hy, "text-anchor": "middle", "dominant-baseline": "central" }, s.mark)));
    });
  });
  parts.push(svg("circle", { class: "tower-top", r: R0 - 3 }));
  parts.push(svg("text", { class: "tower-label", "text-anchor": "middle", "dominant-baseline": "central", y: 0 }, _("TOWER")));
  const days = view.tower.wedges.filter((w) => w.day).map((w) => w.name);
  const nights = view.tower.wedges.filter((w) => !w.day).map((w) => w.name);
  const none = _("no wedge");
  const label = _("The tower: the door faces {wedge}; day in {days}; night in {nights}.", { wedge: view.tower.wedges[view.tower.door_wedge].name,
    days: days.join(", ") || none, nights: nights.join(", ") || none });
  return svg("svg", { class: "dt-ring", viewBox: "-104 -104 208 208", role: "img", "aria-label": label }, parts);
}

/** The wedges as a list: the same facts as the ring, in words. */
export function wedgeList(snap, d) {
  const view = snap.view;
  return el("ol", { class: "dt-wedges" }, view.tower.wedges.map((w, j) => {
    const here = view.order.filter((n) => view.players[n].space && wedgeIndex(d, view.players[n].space) === j);
    return el("li", { class: w.day ? "day" : "night" },
      el("span", { class: "sym", "aria-hidden": "true", text: w.day ? SUN : MOON }),
      el("span", {}, el("strong", { text: w.name }), " " + dayOrNight(w.day), w.kind === "wild" ? " · " + _("wild") : "",
        j === view.tower.door_wedge ? el("b", { class: "door-word", text: " · " + _("door") }) : null),
      here.length ? el("span", { class: "row" }, here.map((n) => {
        const s = seat(snap, n);
        return el("span", { class: `seat ${s.cls}`, title: n }, el("span", { class: "mark", "aria-hidden": "true", text: s.mark }), el("span", { class: "sr-only", text: n }));
      })) : null);
  }));
}

/** Quests, monster groups on the board, decks. */
export function boardFacts(snap, d) {
  const view = snap.view;
  const quests = view.quests.map((q) => el("li", {}, "✦ ", el("strong", { text: d.spaces[q].name }), ` (${d.wedges[wedgeIndex(d, q)].name})`));
  const groups = Object.entries(view.monsters).map(([sp, ms]) => el("li", {}, "⚔ ", el("strong", { text: d.spaces[sp].name }), ": ",
    ms.map((m) => `${m.name} (${m.strength})`).join(", "), el("span", { class: "hint", text: " · " + _("strength {n}", { n: ms.reduce((a, m) => a + m.strength, 0) }) })));
  return [
    el("h3", { class: "dt-sub", text: _("Quests") }),
    el("ul", { class: "dt-facts" }, quests.length ? quests : el("li", { class: "muted", text: _("None placed yet.") })),
    el("h3", { class: "dt-sub", text: _("Monsters on the board") }),
    el("ul", { class: "dt-facts" }, groups.length ? groups : el("li", { class: "muted", text: _("No monster group waits on the board.") })),
    el("p", { class: "hint", text: _("Item deck {items} · scroll deck {scrolls} · {bowl} tokens in the bowl · door on {space}",
      { items: view.decks.items, scrolls: view.decks.scrolls, bowl: view.decks.bowl, space: d.spaces[view.tower.door_space].name }) }),
  ];
}

// -- the fight ----------------------------------------------------------------------------------

const needsText = (n) => _("needs {n} or more", { n });

/** The scrolls played in this fight: who played which, and what it does. */
function playedList(snap, c) {
  return el("ul", { class: "dt-played" }, c.played.map((p) => el("li", {},
    rich(_("{player} played {scroll}: {effect}", { scroll: p.name, effect: scrollEffect(p.effect) }), { player: seatLabel(snap, p.player) }))));
}

function removedFlags(c) {
  const left = [...c.removed];
  return c.monsters.map((m) => {
    const i = left.indexOf(m.token);
    if (i >= 0) { left.splice(i, 1); return true; }
    return false;
  });
}

/** This turn's fight, the encounter being resolved, or the last fight's result. */
export function fight(snap, d, me = null) {
  const view = snap.view;
  const c = view.combat;
  const out = [];
  if (c) {
    const t = c.totals;
    const who = view.active;
    const removed = removedFlags(c);
    out.push(el("h2", { text: c.wizard ? _("Fight: Z'Mindrik's monsters") : _("Fight") }));
    const where = c.space ? { space: d.spaces[c.space].name } : null;
    const fights = where ? (c.quest ? _("fights on {space} for the quest:", where) : _("fights on {space}:", where))
      : (c.quest ? _("fights in the tower for the quest:") : _("fights in the tower:"));
    out.push(el("p", { class: "dt-fighter" }, seatLabel(snap, who, who === me ? " " + _("(you)") : ""), ` ${fights}`));
    out.push(el("ul", { class: "dt-monsters" }, c.monsters.map((m, i) => el("li", { class: removed[i] ? "removed" : "" },
      el("strong", { text: m.name }), el("span", { class: "num", text: m.strength }),
      el("small", { text: `${m.types.join(", ")} · ${xpText(m.xp)}` + (removed[i] ? " · " + _("removed by a scroll") : "") })))));

    out.push(el("div", { class: "dt-totals", role: "group", "aria-label": _("the combat totals") },
      el("div", { class: "side hero" }, el("h4", { text: who }),
        el("p", {}, _("Strength {n}", { n: t.strength })), el("p", {}, _("Items {n}", { n: SIGNED(t.items) })), el("p", {}, _("Scrolls {n}", { n: SIGNED(t.scrolls) })),
        el("p", { class: "total" }, el("b", { text: t.player }))),
      el("div", { class: "vs", "aria-hidden": "true", text: _("vs") }),
      el("div", { class: "side monsters" }, el("h4", { text: _("Monsters") }),
        el("p", {}, _("Strength {n}", { n: t.monster_strength })), el("p", {}, _("Scrolls {n}", { n: SIGNED(t.against) })),
        el("p", { class: "total" }, el("b", { text: t.monsters })))));
    out.push(el("p", { class: "dt-target", "data-target": t.target },
      rich(_("Difference {difference} → Combat Table row “{row}” → {needs} on two dice", { difference: SIGNED(t.difference), row: rowLabel(t.row) }),
        { needs: el("strong", { text: needsText(t.target) }) }),
      c.sixes ? el("span", { text: " · " + (c.sixes === 1 ? _("1 die bought as a 6") : _("{n} dice bought as a 6", { n: c.sixes })) }) : null));
    if (c.played.length) out.push(playedList(snap, c));
    if (c.dice) {
      const sum = c.dice.reduce((a, x) => a + x.value, 0);
      const lost = view.phase === "defeat";
      out.push(el("p", { class: `dt-banner ${lost ? "bad" : ""}` }, dice(c.dice.map((x) => x.value), c.dice.filter((x) => x.six).length),
        ` = ${sum}`, lost ? el("strong", { text: " ✘ " + _("not enough: the monsters win this roll (needed {n})", { n: t.target }) }) : null));
    }
    const nobody = _("nobody");
    const status = {
      scrolls_own: () => _("{player} may play scrolls first.", { player: who }),
      scrolls_others: () => _("The others may play scrolls against {player}: waiting for {waiting}.",
        { player: who, waiting: view.waiting_for.join(", ") || nobody }),
      pre_roll: () => _("{player} rolls two dice.", { player: who }),
      defeat: () => _("{player}: re-roll with a scroll, flee, or die.", { player: who }),
    }[view.phase];
    if (c.passed.length && view.phase === "scrolls_others") out.push(el("p", { class: "hint", text: _("Passed: {players}", { players: c.passed.join(", ") }) }));
    if (status) out.push(el("p", { class: "sub", text: status() }));
    return out;
  }
  const last = lastFight(snap);
  if (last) out.push(...lastFightBanner(snap, d, last, me));
  const enc = view.encounter;
  if (enc && enc.drawn.length) {
    out.push(el("h2", { text: enc.wizard ? _("In the tower") : _("Encounter") }));
    const drew = { player: heroName(view, view.active) };
    out.push(el("p", {}, enc.space ? _("{player} drew on {space}:", { ...drew, space: d.spaces[enc.space].name }) : _("{player} drew:", drew)));
    out.push(el("ul", { class: "dt-monsters" }, enc.drawn.map((m) => el("li", {},
      el("strong", { text: m.name }), m.monster ? el("span", { class: "num", text: m.strength }) : null,
      el("small", { text: tokenText(m) + (enc.unresolved.includes(m.token) ? " · " + _("resolve first") : "") })))));
  }
  if (view.shop && view.shop.cards.length && view.active !== me) out.push(...shopCards(snap, d, []));
  return out;
}

function lastFight(snap) {
  const view = snap.view;
  // the last fight's result is shown for the rest of the turn it was fought in
  return view.last_combat && view.last_combat.turn === view.turn ? view.last_combat : null;
}

function lastFightBanner(snap, d, last, me) {
  const names = last.monsters.map((m) => d.tokens[m] ? d.tokens[m].name : m);
  const xp = last.monsters.reduce((a, m) => a + (d.tokens[m] ? d.tokens[m].xp : 0), 0);
  const you = last.player === me;
  const values = { player: last.player, roll: last.roll, target: last.totals.target, monsters: names.join(", "), xp };
  const dies = { dice: dice(last.dice) };
  if (last.won) {
    return [el("div", { class: "dt-banner good", "data-result": "victory", role: "status" },
      el("strong", { class: "big", text: "✔ " + _("Victory!") }),
      el("p", {}, rich(you ? _("You rolled {dice} = {roll}, needing {target}: {monsters} killed, +{xp} XP.", values)
        : _("{player} rolled {dice} = {roll}, needing {target}: {monsters} killed, +{xp} XP.", values), dies)))];
  }
  const one = names.length === 1;
  const text = you ? (one ? _("You rolled {dice} = {roll}, needing {target}: {monsters} stays on the board.", values)
    : _("You rolled {dice} = {roll}, needing {target}: {monsters} stay on the board.", values))
    : (one ? _("{player} rolled {dice} = {roll}, needing {target}: {monsters} stays on the board.", values)
      : _("{player} rolled {dice} = {roll}, needing {target}: {monsters} stay on the board.", values));
  return [el("div", { class: "dt-banner bad", "data-result": "defeat", role: "status" },
    el("strong", { class: "big", text: "✘ " + _("Defeat") }),
    el("p", {}, rich(text, dies)))];
}

// -- choices for this moment ---------------------------------------------------------------------

function choosePicker(snap, d, legal) {
  const chars = [...new Set(legal.map((a) => a.character))];
  const cities = [...new Set(legal.map((a) => a.city))];
  if (!chars.includes(ui.choose.character)) ui.choose.character = chars[0];
  if (!cities.includes(ui.choose.city)) ui.choose.city = cities[0];
  const pick = () => legal.find((a) => a.character === ui.choose.character && a.city === ui.choose.city);
  const go = el("button", { type: "button", class: "dt-act primary", "data-action": "choose",
    onclick: () => { const a = pick(); if (a) sendAction(a); } });
  const label = () => {
    go.replaceChildren(el("span", { class: "label", text: _("Play {hero}", { hero: d.characters[ui.choose.character].name }) }),
      el("small", { text: _("from {city}", { city: d.spaces[ui.choose.city].name }) }));
  };
  label();
  const charField = el("fieldset", { class: "dt-choices" }, el("legend", { text: _("Your hero") }), chars.map((c) => {
    const ch = d.characters[c];
    const abil = ch.low.abilities.map(ability);
    const limits = ch.low.scroll_limit !== null && ch.low.scroll_limit !== undefined
      ? " · " + _("holds {scrolls} scrolls, {backpack} in the backpack", { scrolls: ch.low.scroll_limit, backpack: ch.low.backpack_limit }) : "";
    return el("label", { class: "dt-choice" }, el("input", { type: "radio", name: "dt-character", value: c, checked: c === ui.choose.character,
      onchange: () => { ui.choose.character = c; label(); } }),
    el("span", {}, el("strong", { text: ch.name }),
      el("small", { text: _("strength {strength} · movement {movement}", ch.low) + (abil.length ? ` · ${abil.join(", ")}` : "") + limits }),
      el("small", { class: "hint", text: _("high level: strength {strength}, movement {movement}", ch.high) })));
  }));
  const cityField = el("fieldset", { class: "dt-choices" }, el("legend", { text: _("Your home city") }), cities.map((c) => el("label", { class: "dt-choice" },
    el("input", { type: "radio", name: "dt-city", value: c, checked: c === ui.choose.city, onchange: () => { ui.choose.city = c; label(); } }),
    el("span", {}, el("strong", { text: d.spaces[c].name }), el("small", { text: _("kingdom of {wedge}", { wedge: d.wedges[wedgeIndex(d, c)].name }) })))));
  return [charField, cityField, go];
}

function stepDetail(d, view, a, me) {
  const info = space(d, view, a.to);
  const here = view.players[me].space;
  const border = d.adjacent[here][a.to];
  const parts = [spaceDetail(info)];
  if (border !== "none") {
    const across = { border: theBorder(border) };
    if (a.cross === "xp") parts.push(_("across {border}: {n} XP", { ...across, n: d.xp.cross_border }));
    else if (a.cross === "whole") parts.push(_("across {border}: all your movement", across));
    else if (a.cross === "scroll") parts.push(_("across {border} with {scroll}", { ...across, scroll: view.players[me].scrolls.find((s) => s.scroll === a.scroll).name }));
    else parts.push(_("across {border}: you cross it freely", across));
  }
  if (a.extra) parts.push(_("extra step: {n} XP", { n: d.xp.extra_step }));
  return parts.join(" · ");
}

function movement(snap, d, me, legal) {
  const view = snap.view;
  const p = view.players[me];
  const out = [heading(_("Move: {left} of {movement} steps left", { left: view.moves_left, movement: p.movement }))];
  const steps = legal.filter((a) => a.type === "step");
  const plain = new Set(steps.filter((a) => !a.extra).map((a) => `${a.to}|${a.cross || ""}`));
  const shown = steps.filter((a) => !a.extra || !plain.has(`${a.to}|${a.cross || ""}`));
  // crossing a border with a movement scroll (DT-BORDER-2 (a)): the hand is the player's own
  if (view.moves_left > 0) {
    for (const [to, border] of Object.entries(d.adjacent[p.space] || {})) {
      if (border === "none" || steps.some((a) => a.to === to && !a.cross)) continue;
      for (const sc of p.scrolls || []) {
        if ((sc.effect.cross || []).includes(border) && ["movement", "any"].includes(sc.window)) {
          shown.push({ type: "step", to, cross: "scroll", scroll: sc.scroll });
        }
      }
    }
  }
  shown.sort((a, b) => d.spaces[a.to].name.localeCompare(d.spaces[b.to].name));
  out.push(...shown.map((a) => button(`→ ${d.spaces[a.to].name}`, a, { detail: stepDetail(d, view, a, me) })));
  const stop = legal.find((a) => a.type === "stop");
  if (stop) {
    const info = space(d, view, p.space);
    const draw = { n: info.count, type: typeName(info.type), time: dayWord(info.day) };
    const what = info.monsters ? _("fight the monsters here") : info.kind.city ? (info.quest ? _("the quest here") : _("no encounter: city business"))
      : info.count === 1 ? _("draw 1 encounter token ({type}, {time})", draw) : _("draw {n} encounter tokens ({type}, {time})", draw);
    out.push(button(_("Stop on {space}", { space: info.name }), stop, { cls: "primary", detail: what }));
  }
  const enter = legal.find((a) => a.type === "enter_tower");
  if (enter) out.push(button(_("Enter the tower"), enter, { cls: "danger", detail: _("Z'Mindrik summons {n} monsters; nobody flees", { n: d.tower_draw }) }));
  return out;
}

function shopCards(snap, d, legal) {
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

function city(snap, d, me, legal) {
  const view = snap.view;
  const p = view.players[me];
  const out = [heading(_("{city}: shop or work ({gold} gold)", { city: d.spaces[p.space].name, gold: p.gold }))];
  const find = (type) => legal.find((a) => a.type === type);
  if (find("shop")) out.push(button(_("Shop: draw {n} item cards", { n: 2 }), find("shop"), { cls: "primary", detail: _("then buy one face of each card you like") }));
  if (find("work")) out.push(button(_("Work for {n} gold", { n: view.prices.work[p.level] }), find("work"), { detail: _("instead of shopping") }));
  if (view.shop && view.shop.cards.length) out.push(...shopCards(snap, d, legal));
  if (find("shop_more")) out.push(button(_("Draw another item card"), find("shop_more"), { detail: _("{n} XP (you have {xp})", { n: d.xp.extra_shop_card, xp: p.xp }) }));
  if (find("buy_scroll")) out.push(button(_("Buy a scroll"), find("buy_scroll"), { detail: _("{n} gold, drawn blind: only you will see it", { n: view.prices.scroll }) }));
  const sells = legal.filter((a) => a.type === "sell");
  if (sells.length || (sellScrollAllowed(snap, me) && p.scroll_count)) {
    out.push(el("p", { class: "hint", text: _("Sell items and scrolls from your hero sheet below.") }));
  }
  if (find("done")) out.push(button(_("Leave the city"), find("done"), { detail: _("business done") }));
  return out;
}

function combatChoices(snap, d, me, legal) {
  const view = snap.view;
  const c = view.combat;
  const out = [];
  const plays = legal.filter((a) => a.type === "play_scroll");
  const mine = view.players[me].scrolls || [];
  const name = (a) => (mine.find((s) => s.scroll === a.scroll) || { name: a.scroll }).name;
  const text = (a) => (mine.find((s) => s.scroll === a.scroll) || { text: "" }).text;
  if (view.phase === "scrolls_own") {
    out.push(heading(_("Your scrolls for this fight")));
    out.push(...plays.map((a) => button(a.token ? _("Play {scroll} on the {monster}", { scroll: name(a), monster: c.monsters.find((m) => m.token === a.token).name })
      : _("Play {scroll}", { scroll: name(a) }), a, { detail: text(a) })));
    const done = legal.find((a) => a.type === "done");
    if (done) out.push(button(_("On to the fight"), done, { cls: "primary", detail: plays.length ? _("play no more scrolls") : _("none of your scrolls helps now") }));
  } else if (view.phase === "pre_roll") {
    const six = legal.find((a) => a.type === "buy_six");
    if (six) out.push(button(_("Pay {n} XP for a 6", { n: d.xp.die_to_six }), six, { detail: _("one die shows 6 without rolling (you have {xp} XP)", { xp: view.players[me].xp }) }));
  } else if (view.phase === "defeat") {
    out.push(heading(_("The monsters win this roll")));
    out.push(...plays.map((a) => {
      const sc = mine.find((s) => s.scroll === a.scroll);
      const label = sc && sc.effect.set_die ? _("Play {scroll}: die {n} ({value}) becomes {face}", { scroll: sc.name, n: a.die + 1, value: c.dice[a.die].value, face: sc.effect.set_die })
        : _("Play {scroll}: roll again", { scroll: name(a) });
      return button(label, a, { cls: "primary", detail: text(a) });
    }));
    out.push(...legal.filter((a) => a.type === "flee").map((a) => {
      const to = { type: typeName(d.spaces[a.to].type) };
      return button(_("Flee to {space}", { space: d.spaces[a.to].name }), a, {
        detail: c.space ? _("{type}; the monsters stay on {space} and your turn ends", { ...to, space: d.spaces[c.space].name })
          : _("{type}; the monsters stay and your turn ends", to) });
    }));
    const die = legal.find((a) => a.type === "die");
    if (die) out.push(button(_("Die"), die, { cls: "danger", detail: _("carried home: items, scrolls and gold are lost, XP kept; resurrected next turn") }));
  }
  // a scroll played in this fight may be taken back until someone else plays one (DT-CARD-7)
  if (c && !c.rolls && ["scrolls_own", "scrolls_others", "pre_roll"].includes(view.phase)) {
    const idx = c.played.map((p) => p.player).lastIndexOf(me);
    if (idx >= 0 && c.played.slice(idx + 1).every((p) => p.player === me)) {
      out.push(button(_("Take back {scroll}", { scroll: c.played[idx].name }), { type: "take_back" }, { detail: _("nobody has played a scroll since") }));
    }
  }
  return out;
}

function tradeChoices(snap, d, me, legal) {
  const view = snap.view;
  const o = view.offer;
  const out = [];
  const describe = (side, owner, scrollsShown) => {
    const parts = [];
    if (side.gold) parts.push(goldText(side.gold));
    for (const card of side.items || []) {
      const held = [...view.players[owner].slots, ...view.players[owner].backpack].find((x) => x && x.card === card);
      parts.push(held ? held.name : card);
    }
    if (Array.isArray(side.scrolls)) {
      if (side.scrolls.length) {
        const own = view.players[owner].scrolls;
        parts.push(scrollsShown && own ? side.scrolls.map((s) => (own.find((x) => x.scroll === s) || { name: _("a scroll") }).name).join(", ") : scrollsText(side.scrolls.length));
      }
    } else if (side.scrolls) parts.push(scrollsText(side.scrolls));
    return parts.join(", ") || _("nothing");
  };
  if (o) {
    if (o.to === me) {
      out.push(heading(_("{player} offers you a trade", { player: o.from })));
      out.push(el("p", {}, el("strong", { text: _("You get:") + " " }), describe(o.give, o.from, false)));
      out.push(el("p", {}, el("strong", { text: _("You give:") + " " }), describe(o.take, me, true)));
      const want = o.take.scrolls;
      const mine = view.players[me].scrolls || [];
      ui.accept = ui.accept.filter((s) => mine.some((x) => x.scroll === s)).slice(0, want);
      if (want) {
        out.push(el("fieldset", { class: "dt-choices" }, el("legend", { text: want === 1 ? _("Choose 1 scroll to hand over") : _("Choose {n} scrolls to hand over", { n: want }) }),
          mine.map((s) => el("label", { class: "dt-choice" }, el("input", { type: "checkbox", value: s.scroll, checked: ui.accept.includes(s.scroll),
            onchange: (e) => { ui.accept = e.target.checked ? [...ui.accept, s.scroll] : ui.accept.filter((x) => x !== s.scroll); } }),
          el("span", {}, el("strong", { text: s.name }), el("small", { text: s.text }))))));
      }
      out.push(el("button", { type: "button", class: "dt-act primary", "data-action": "accept",
        onclick: () => sendAction({ type: "accept", scrolls: ui.accept.slice(0, want) }) }, el("span", { class: "label", text: _("Accept") })));
      out.push(button(_("Decline"), { type: "decline" }, { cls: "danger" }));
    } else if (o.from === me) {
      out.push(el("p", {}, _("Waiting for {player}: you give {give}; you ask for {take}.",
        { player: o.to, give: describe(o.give, me, true), take: describe(o.take, o.to, false) })));
      out.push(button(_("Withdraw the offer"), { type: "decline" }, { cls: "danger" }));
    }
    return out;
  }
  const done = legal.find((a) => a.type === "done");
  if (!done) return out;
  const p = view.players[me];
  const partners = view.order.filter((n) => n !== me && view.players[n].space === p.space && !view.players[n].dead);
  if (!partners.length) return [button(_("Carry on"), done, { cls: "primary" })];
  const f = ui.offer && partners.includes(ui.offer.with) ? ui.offer : (ui.offer = { with: partners[0], giveGold: 0, giveItems: [], giveScrolls: [], takeGold: 0, takeItems: [], takeScrolls: 0 });
  const partner = view.players[f.with];
  const held = (q) => [...q.slots.filter((x) => x && x.card), ...q.backpack];
  const num = (key, max, label) => el("label", {}, label, el("input", { type: "number", min: 0, max, value: f[key], inputmode: "numeric",
    oninput: (e) => { f[key] = Math.max(0, Math.min(max, Math.floor(Number(e.target.value)) || 0)); } }));
  const checks = (key, list, text) => list.map((x) => el("label", { class: "check" }, el("input", { type: "checkbox", checked: f[key].includes(x.id),
    onchange: (e) => { f[key] = e.target.checked ? [...f[key], x.id] : f[key].filter((y) => y !== x.id); } }), el("span", { text: text(x) })));
  out.push(heading(_("Trade with a hero on your space")));
  out.push(el("form", { class: "stack dt-offer", onsubmit: (e) => {
    e.preventDefault();
    sendAction({ type: "offer", with: f.with, give: { gold: f.giveGold, items: f.giveItems, scrolls: f.giveScrolls },
      take: { gold: f.takeGold, items: f.takeItems, scrolls: f.takeScrolls } });
  } },
  el("label", {}, _("With"), el("select", { onchange: (e) => { ui.offer = { ...f, with: e.target.value, takeItems: [], takeScrolls: 0 }; rerender(); } },
    partners.map((n) => el("option", { value: n, selected: n === f.with, text: heroName(view, n) })))),
  el("fieldset", { class: "stack" }, el("legend", { text: _("You give") }), num("giveGold", p.gold, _("Gold")),
    checks("giveItems", held(p).map((x) => ({ id: x.card, name: x.name })), (x) => x.name),
    checks("giveScrolls", (p.scrolls || []).map((x) => ({ id: x.scroll, name: x.name })), (x) => _("{scroll} (scroll)", { scroll: x.name }))),
  el("fieldset", { class: "stack" }, el("legend", { text: _("You ask {player} for", { player: f.with }) }), num("takeGold", partner.gold, _("Gold")),
    checks("takeItems", held(partner).map((x) => ({ id: x.card, name: x.name })), (x) => x.name),
    num("takeScrolls", partner.scroll_count, _("Scrolls (any of their {n}, they choose)", { n: partner.scroll_count }))),
  el("button", { type: "submit", class: "primary", "data-action": "offer" }, _("Make the offer"))));
  out.push(button(_("No trade: carry on"), done));
  return out;
}

/** The choices this player has now, from the server's legal actions (and the hand). */
export function actions(snap, d, me) {
  const view = snap.view;
  const legal = snap.legal || [];
  const out = [];
  const phase = view.phase;
  if (phase === "choose" && legal.some((a) => a.type === "choose")) return choosePicker(snap, d, legal.filter((a) => a.type === "choose"));
  if (phase === "move" && view.active === me && !view.awaiting) out.push(...movement(snap, d, me, legal));
  const resolves = legal.filter((a) => a.type === "resolve");
  if (resolves.length) {
    out.push(heading(_("Resolve these tokens first")));
    out.push(...resolves.map((a) => button(_("Resolve the {token}", { token: d.tokens[a.token].name }), a, { detail: tokenText(d.tokens[a.token]) })));
  }
  if (phase !== "trade") { ui.offer = null; ui.accept = []; }
  if (["scrolls_own", "pre_roll", "defeat"].includes(phase) && view.active === me) out.push(...combatChoices(snap, d, me, legal));
  if (phase === "city" && view.active === me && !view.awaiting) out.push(...city(snap, d, me, legal));
  if (phase === "trade") out.push(...tradeChoices(snap, d, me, legal));
  if (phase === "cleanup" && view.active === me) {
    const limits = view.players[me].limits;
    const p = view.players[me];
    if (p.scroll_count > limits.scrolls || p.backpack.length > limits.backpack) out.push(el("p", { class: "prompt mine", text: view.prompt }));
  }
  const discards = legal.filter((a) => a.type === "discard");
  if (discards.length && phase === "cleanup") {
    const p = view.players[me];
    if (p.scroll_count > p.limits.scrolls || p.backpack.length > p.limits.backpack) {
      out.push(heading(_("Discard down to your limits")));
      out.push(...discards.filter((a) => (a.scroll && p.scroll_count > p.limits.scrolls) || (a.card && p.backpack.length > p.limits.backpack)).map((a) => {
        const what = a.scroll ? p.scrolls.find((s) => s.scroll === a.scroll).name : p.backpack.find((x) => x.card === a.card).name;
        return button(_("Discard {item}", { item: what }), a, { cls: "danger", detail: a.scroll ? _("scroll") : _("from the backpack") });
      }));
    }
  }
  const end = legal.find((a) => a.type === "end_turn");
  if (end) out.push(button(_("Turn the tower"), end, { cls: "primary tower", detail: _("ends your turn (so does your seat button, or tapping the tower's sticker)") }));
  const level = legal.find((a) => a.type === "level_up");
  if (level && view.players[me].character) {
    const high = d.characters[view.players[me].character].high;
    out.push(button(_("Level up"), level, { detail: _("{xp} XP: strength {strength}, movement {movement}", { xp: d.xp.level_up, strength: high.strength, movement: high.movement }) }));
  }
  return out;
}

/** During scrolls_others: every other player is asked to play a scroll against the fighter. */
export function invite(snap, d, me) {
  const view = snap.view;
  const c = view.combat;
  if (view.phase !== "scrolls_others" || !c || view.active === me || !view.players[me]) return [];
  const legal = (snap.legal || []);
  const who = view.active;
  const t = c.totals;
  const out = [el("h2", { text: _("Play a scroll against {player}?", { player: who }) }),
    el("p", {}, rich(_("{player} has {total} against the monsters' {monsters}: {needs} on two dice.", { player: heroName(view, who), total: t.player, monsters: t.monsters }),
      { needs: el("strong", { text: needsText(t.target) }) }))];
  if (c.played.length) out.push(playedList(snap, c));
  const plays = legal.filter((a) => a.type === "play_scroll");
  const pass = legal.find((a) => a.type === "pass");
  const mine = view.players[me].scrolls || [];
  if (pass) {
    out.push(...plays.map((a) => {
      const sc = mine.find((s) => s.scroll === a.scroll) || { name: a.scroll, text: "" };
      return button(_("Play {scroll} against {player}", { scroll: sc.name, player: who }), a, { cls: "danger", detail: sc.text });
    }));
    if (!plays.length) out.push(el("p", { class: "hint", text: _("None of your scrolls can be played against a fighter now.") }));
    out.push(button(_("Pass"), pass, { cls: "primary", detail: _("play nothing now") }));
  } else if (c.passed.includes(me)) {
    out.push(el("p", { class: "sub", text: _("You passed. Waiting for the others.") }));
  } else {
    out.push(el("p", { class: "sub", text: _("You hold no scroll: nothing to play.") }));
  }
  return out;
}

/** "What did you draw?": the drawer picks the token or card, unless its sticker was tapped. */
export function drawPicker(snap, d, me) {
  const view = snap.view;
  const a = view.awaiting;
  if (!a || !["token", "item", "scroll"].includes(a.kind) || (a.player && a.player !== me)) return [];
  let entries;
  let what;
  if (a.kind === "token") {
    what = a.why === "wizard" ? _("Z'Mindrik summons: draw a token from the bowl.")
      : a.left > 1 ? _("Draw an encounter token from the bowl ({n} to draw).", { n: a.left }) : _("Draw an encounter token from the bowl.");
    entries = Object.values(d.tokens).sort((x, y) => (y.monster - x.monster) || (x.strength || 0) - (y.strength || 0) || x.name.localeCompare(y.name))
      .map((t) => ({ action: { type: "draw_token", token: t.id }, name: t.name, detail: tokenText(t) }));
  } else if (a.kind === "item") {
    what = { shop: () => _("Draw the top item card: the shop offers both faces."), magic: () => _("Draw an item card: its magic face is yours."),
      equipment: () => _("Draw an item card: its equipment face is yours.") }[a.face]?.() || _("Draw an item card.");
    entries = Object.values(d.items).sort((x, y) => x.equipment.name.localeCompare(y.equipment.name)).map((c) => ({
      action: { type: "draw_item", card: c.id }, name: `${c.equipment.name} / ${c.magic.name}`,
      detail: a.face === "shop" ? `${c.equipment.name} ${goldText(c.equipment.price)} · ${c.magic.name} ${goldText(c.magic.price)}` : faceText(c[a.face] || c.equipment) }));
  } else {
    what = _("Draw a scroll: only you will see which.");
    const seen = new Set();
    entries = Object.values(d.scrolls).sort((x, y) => x.name.localeCompare(y.name)).filter((s) => !seen.has(s.name) && seen.add(s.name))
      .map((s) => ({ action: { type: "draw_scroll", scroll: s.id }, name: s.name, detail: s.text }));
  }
  const list = el("div", { class: "dt-draw-list" }, entries.map((e) => button(e.name, e.action, { detail: e.detail })));
  const filter = el("input", { type: "search", placeholder: _("Find it by name"), "aria-label": _("find it by name"), autocomplete: "off",
    oninput: (ev) => {
      const q = ev.target.value.trim().toLowerCase();
      for (const b of list.children) b.hidden = q !== "" && !b.textContent.toLowerCase().includes(q);
    } });
  return [el("h2", { text: _("What did you draw?") }), el("p", { class: "prompt mine", text: what }),
    el("p", { class: "hint", text: _("Tap it on the reader, or pick it here.") }), filter, list];
}

/** How many encounter tokens a space draws now: the active hero's space, and any wedge and type. */
export function helper(snap, d, me) {
  const view = snap.view;
  const out = [];
  if (view.here && view.active) {
    const info = space(d, view, view.here.space);
    const what = info.monsters ? _("monsters there: fight them, draw nothing") : info.kind.city && !info.quest ? _("a city: no encounter")
      : view.here.draw === 1 ? _("draws 1 token") : _("draws {n} tokens", { n: view.here.draw });
    const values = { player: view.active, type: typeName(info.type), what };
    out.push(el("p", { class: "dt-here" }, rich(view.active === me ? _("You stand on {space} ({type}, {time}): {what}.", values)
      : _("{player} stands on {space} ({type}, {time}): {what}.", values), { space: el("strong", { text: info.name }), time: symbolFor(view.here.day) })));
  }
  const mySpace = view.players[me] && view.players[me].space;
  const start = mySpace || (view.here && view.here.space) || null;
  if (!ui.helper || ui.helper.from !== start) { // it follows the hero until he is set elsewhere
    ui.helper = start ? { wedge: wedgeIndex(d, start), type: d.spaces[start].type, from: start }
      : { wedge: 0, type: Object.keys(d.space_types)[0], from: null };
  }
  const result = el("p", { class: "dt-count", "aria-live": "polite" });
  const update = () => {
    const t = timeAt(d, view, ui.helper.type, ui.helper.wedge);
    const w = d.wedges[ui.helper.wedge];
    const why = t.kind.always_night ? _("always night") : t.day ? SUN + " " + _("day there now") : MOON + " " + _("night there now");
    const values = { type: typeName(ui.helper.type), wedge: w.name, why };
    result.replaceChildren(el("b", { class: "big", text: String(t.count) }),
      el("span", { text: " " + (t.kind.city ? _("tokens: a {type} in {wedge} has no encounter (unless a quest is there).", values)
        : t.count === 1 ? _("token for a {type} in {wedge} ({why}).", values) : _("tokens for a {type} in {wedge} ({why}).", values)) }));
  };
  update();
  const wedgeSelect = el("select", { "aria-label": _("wedge"), onchange: (e) => { ui.helper.wedge = Number(e.target.value); update(); } },
    d.wedges.map((w, j) => el("option", { value: j, selected: j === ui.helper.wedge, text: `${w.name} (${dayWord(view.tower.wedges[j].day)})` })));
  const types = el("div", { class: "dt-types", role: "radiogroup", "aria-label": _("space type") }, Object.keys(d.space_types).map((ty) =>
    el("label", { class: "dt-type" }, el("input", { type: "radio", name: "dt-helper-type", value: ty, checked: ty === ui.helper.type,
      onchange: () => { ui.helper.type = ty; update(); } }), el("span", { text: CAP(typeName(ty)) }))));
  out.push(el("label", {}, _("Wedge"), wedgeSelect), types, result);
  return out;
}

/** The roll being awaited, in the game's words: what it is for and what it needs. */
export function diceNote(snap, d) {
  const view = snap.view;
  const a = view.awaiting;
  if (!a || a.kind !== "die") return null;
  if (a.why === "start") return _("Two dice each: the highest total starts (ties roll again).");
  if (a.why === "combat" && view.combat) {
    const c = view.combat;
    const n = c.totals.target;
    if (!c.sixes) return _("For the fight: needs {n} or more.", { n });
    return c.sixes === 1 ? _("For the fight: needs {n} or more (with 1 die bought as a 6).", { n })
      : _("For the fight: needs {n} or more (with {sixes} dice bought as a 6).", { n, sixes: c.sixes });
  }
  if (a.why === "treasure" && d.tokens[a.token]) {
    const t = d.tokens[a.token];
    const table = Object.entries(t.treasure || {}).map(([face, r]) => `${face}: ${r.gold ? goldText(r.gold) : treasureName(Object.keys(r)[0])}`);
    return _("The {token}'s treasure: {table}.", { token: t.name, table: table.join(" · ") });
  }
  if (a.why === "quest") {
    return a.dice === 1 ? _("The Quest Location table (1 die): where the quest goes next.")
      : _("The Quest Location table ({n} dice): where the quest goes next.", { n: a.dice });
  }
  return null;
}

/** The events, newest first; a scroll drawn by this viewer is named for this viewer only. */
export function events(list, count = 12) {
  const items = [...list].reverse().slice(0, count).map((e) => el("li", {}, e.text,
    e.private && e.private.name ? el("strong", { text: " " + _("(you drew {scroll})", { scroll: e.private.name }) }) : null));
  return items.length ? items : [el("li", { class: "muted", text: _("Nothing has happened yet.") })];
}

/** A line under the prompt: the turn, whose it is, and where. */
export function subline(snap, me = null) {
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

/** Everything of a player's own page, by section. */
export function playerPage(snap, d, me, send, again = () => {}) {
  sendAction = send;
  rerender = again;
  const view = snap.view;
  return {
    draw: drawPicker(snap, d, me),
    invite: invite(snap, d, me),
    fight: fight(snap, d, me),
    actions: actions(snap, d, me),
    sheet: view.players[me] ? heroSheet(snap, d, me, { me }) : null,
    helper: helper(snap, d, me),
    others: view.order.filter((n) => n !== me).map((n) => heroSheet(snap, d, n, { me, open: false })),
    board: [tower(snap, d), wedgeList(snap, d), ...boardFacts(snap, d)],
  };
}

/** Everything of the table display, by section. */
export function tablePage(snap, d) {
  sendAction = () => {};
  const view = snap.view;
  const turn = [];
  if (view.active && !["start_roll", "choose"].includes(view.phase)) {
    const p = view.players[view.active];
    turn.push(el("p", { class: "dt-whose" }, seatLabel(snap, view.active), p.hero ? el("span", { class: "dt-hero", text: p.hero }) : null,
      el("span", { class: "hint", text: " " + _("turn {n}", { n: view.turn })
        + (view.phase === "move" ? " · " + _("{left} of {movement} steps left", { left: view.moves_left, movement: p.movement }) : "") })));
  }
  if (view.here && view.active) turn.push(...helper(snap, d, null).slice(0, 1));
  return {
    turn,
    tower: [tower(snap, d), wedgeList(snap, d)],
    fight: fight(snap, d, null),
    heroes: view.order.map((n) => heroSheet(snap, d, n, {})),
    board: boardFacts(snap, d),
  };
}
