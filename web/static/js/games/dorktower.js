// Dork Tower on a page. Everything is drawn from two things: the view the server sent for this
// viewer (scrolls in hand only for their owner: the server filters them) and the game's data set,
// the printed board, tables and cards, which is public and fetched once. Phone first: one thumb,
// large targets, each choice a wide button that says what it costs; day and night, the door and
// the seats always have a symbol or a word besides their colour.
import { el } from "../common.js";
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
const PLURAL = (n, word, many = `${word}s`) => `${n} ${n === 1 ? word : many}`;
const CAP = (s) => s.charAt(0).toUpperCase() + s.slice(1);
const SUN = "☀";
const MOON = "☾";
const WINDOWS = {
  own_pre_roll: "before your own fight roll",
  opponent_pre_roll: "against a rival, before the roll",
  post_roll: "after your own failed roll",
  movement: "while moving",
  any: "whenever it applies",
};
const ABILITIES = {
  cross_lake: "crosses lakes", cross_mountain: "crosses mountains",
  avoid_monsters: "may walk past monsters",
};

/** A Combat Table row as printed: "0", "+1 or +2", "−1 or −2", "+9 or more". */
export function rowLabel(row) {
  if (row.min === null) return `${SIGNED(row.max)} or less`;
  if (row.max === null) return `${SIGNED(row.min)} or more`;
  if (row.min === row.max) return SIGNED(row.min);
  const [a, b] = row.max < 0 ? [row.max, row.min] : [row.min, row.max];
  return Math.abs(b - a) === 1 ? `${SIGNED(a)} or ${SIGNED(b)}` : `${SIGNED(a)} to ${SIGNED(b)}`;
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

function dayWord(day) { return day ? `${SUN} day` : `${MOON} night`; }

function spaceDetail(info) {
  const parts = [info.type, dayWord(info.day)];
  if (info.monsters) parts.push(`⚔ ${info.monsters.map((m) => m.name).join(", ")}: fight`);
  else if (info.kind.city) parts.push(info.quest ? "quest, no tokens" : "no encounter");
  else parts.push(`draw ${info.count}`);
  if (info.quest) parts.push("✦ quest");
  return parts.join(" · ");
}

function faceText(face) {
  const extra = Object.entries(face.vs || {}).map(([t, v]) => `+${v} vs ${t}`);
  if (face.crosses && face.crosses.length) extra.push(`crosses ${face.crosses.join(" and ")}s`);
  return `${face.name}: ${face.type} +${face.bonus}${extra.length ? `, ${extra.join(", ")}` : ""}`;
}

function effectText(effect) {
  const parts = [];
  if (effect.gold) parts.push(`${effect.gold} gold`);
  if (effect.xp) parts.push(`${effect.xp} XP`);
  if (effect.draw_item) parts.push(`draw ${effect.draw_item === "magic" ? "a magic" : "an equipment"} item`);
  if (effect.draw_scroll) parts.push(`draw ${PLURAL(effect.draw_scroll, "scroll")}`);
  if (effect.draw_tokens) parts.push(`draw ${PLURAL(effect.draw_tokens, "more token")}`);
  return parts.join(", ") || "no effect";
}

function tokenText(t) {
  if (t.monster) return `strength ${t.strength} · ${t.types.join(", ")} · ${t.xp} XP${t.treasure ? " · treasure" : ""}`;
  return `${t.friendly ? "friendly: " : ""}${effectText(t.effect || {})}`;
}

function scrollEffect(effect) {
  if (effect.fighter) return `+${effect.fighter} to the fighter`;
  if (effect.monsters) return `+${effect.monsters} to the monsters`;
  if (effect.remove_monster) return "removes a monster";
  if (effect.reroll) return "roll again";
  if (effect.set_die) return `a die becomes ${effect.set_die}`;
  if (effect.cross) return `crosses a ${effect.cross.join(" or ")}`;
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
  return el("span", { class: `dt-time ${day ? "day" : "night"}`, text: day ? `${SUN} day` : `${MOON} night` });
}

function dice(values, sixes = 0) {
  return el("span", { class: "dt-dice", role: "img", "aria-label": `dice ${values.join(" and ")}` },
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
  if (view.active === name && playing && !view.finished) badges.push(el("span", { class: "badge", text: "Turn" }));
  if (view.combat && view.active === name) badges.push(el("span", { class: "badge alt", text: "Fighting" }));
  if (p.level === "high") badges.push(el("span", { class: "badge alt", text: "High level" }));
  if (p.dead) badges.push(el("span", { class: "badge alt", text: "Dead" }));
  if (view.winners.includes(name)) badges.push(el("span", { class: "badge", text: "Winner" }));
  const head = el("div", { class: "row" }, seatLabel(snap, name, mine ? " (you)" : ""),
    p.hero ? el("span", { class: "dt-hero", text: p.hero }) : null, el("span", { class: "row" }, badges));
  if (!p.character) {
    return el("article", { class: `player dt-sheet ${s.cls}`, "data-player": name }, head,
      el("p", { class: "muted", text: view.choosing === name ? "Choosing a hero now…" : "Has not chosen a hero yet." }));
  }
  const bonus = itemBonus(view, p);
  const vs = p.slots.filter((x) => x && x.card).flatMap((x) => Object.entries(x.vs || {}).map(([t, v]) => `+${v} vs ${t}`));
  const manage = mine && canManage(snap, name);
  const where = p.space ? space(d, view, p.space) : null;
  const cap = d.xp.level_up;
  const body = [];
  body.push(el("dl", { class: "dt-stats" },
    stat("Strength", String(p.strength + bonus), bonus ? `${p.strength} + ${bonus} items${vs.length ? `; ${vs.join(", ")}` : ""}` : (vs.length ? vs.join(", ") : "no item bonus")),
    stat("Move", String(p.movement), view.active === name && view.moves_left !== null && view.phase === "move" ? `${view.moves_left} left` : null),
    stat("Gold", String(p.gold)),
    stat("XP", String(p.xp), p.level === "low" ? `of ${cap}` : "high level")));
  if (p.level === "low") {
    body.push(el("div", { class: "xp-row", role: "img", "aria-label": `${p.xp} of ${cap} XP towards high level` }, xpPips(p.xp, cap),
      el("small", { class: "hint", text: `level up at ${cap} XP` })));
  }
  if (where) {
    body.push(el("p", { class: "dt-where" }, "On ", el("strong", { text: where.name }),
      ` (${where.type}, ${where.wedgeName}, `, symbolFor(where.day), ")",
      p.home ? el("span", { class: "hint", text: ` · home: ${d.spaces[p.home].name}` }) : null));
  }
  if (p.abilities.length) body.push(el("p", { class: "hint", text: `Ability: ${p.abilities.map((a) => ABILITIES[a] || a).join(", ")}` }));
  // the four slots
  body.push(heading("Slots: their items count in a fight"));
  body.push(el("ol", { class: "dt-slots" }, p.slots.map((slot, k) => {
    const accepts = `${slot.accepts.join(" or ")}${slot.max !== null && slot.max !== undefined ? ` (Max +${slot.max})` : ""}`;
    return el("li", { "data-slot": k },
      el("span", { class: "slot-name", text: String(k + 1), "aria-label": `slot ${k + 1}` }), el("small", { class: "accepts", text: accepts }),
      slot.card ? el("span", { class: `dt-item ${slot.face}` }, el("strong", { text: faceText(slot) }), el("small", { text: ` (${slot.face})` }))
        : el("span", { class: "muted", text: "empty" }),
      manage && slot.card ? el("button", { type: "button", class: "small", "data-action": `unequip-${slot.card}`,
        onclick: () => sendAction({ type: "unequip", card: slot.card }) }, "To backpack") : null);
  })));
  // the backpack
  const limits = p.limits || { backpack: 2, scrolls: 3 };
  const over = p.backpack.length > limits.backpack;
  body.push(heading(`Backpack: ${p.backpack.length} of ${limits.backpack}${p.backpack.length ? "" : ", empty"}${over ? " (too many: discard before the tower turns)" : ""}`));
  body.push(p.backpack.length ? el("ul", { class: "dt-pack" }, p.backpack.map((item) => {
    const slots = p.slots.map((slot, k) => (fits(view, slot, item) ? k : -1)).filter((k) => k >= 0);
    const discard = legal.find((a) => a.type === "discard" && a.card === item.card);
    const sell = legal.find((a) => a.type === "sell" && a.card === item.card);
    return el("li", {}, el("span", { class: `dt-item ${item.face}` }, el("strong", { text: faceText(item) }), el("small", { text: ` (${item.face})` })),
      el("span", { class: "row" },
        manage ? slots.map((k) => el("button", { type: "button", class: "small", "data-action": `equip-${item.card}-${k}`,
          onclick: () => sendAction({ type: "equip", card: item.card, slot: k }) }, `Into slot ${k + 1}`)) : null,
        sell ? el("button", { type: "button", class: "small", "data-action": actionKey(sell), onclick: () => sendAction(sell) }, `Sell (${item.price} gold)`) : null,
        discard ? el("button", { type: "button", class: "small danger", "data-action": actionKey(discard), onclick: () => sendAction(discard) }, "Discard") : null));
  })) : null);
  // scrolls: names only for their owner (the server sends them to no one else)
  const count = p.scroll_count;
  const tooMany = count > limits.scrolls;
  body.push(heading(`Scrolls: ${count} of ${limits.scrolls}${count ? "" : ", none"}${tooMany ? " (too many: play or discard before the tower turns)" : ""}`));
  if (p.scrolls) {
    body.push(count ? el("ul", { class: "dt-scrolls" }, p.scrolls.map((sc) => {
      const discard = legal.find((a) => a.type === "discard" && a.scroll === sc.scroll);
      const sell = mine && sellScrollAllowed(snap, name) ? { type: "sell", scroll: sc.scroll } : null;
      return el("li", { class: "dt-scroll", "data-scroll": sc.scroll },
        el("strong", { text: sc.name }), el("span", { text: sc.text }),
        el("small", { class: "hint", text: `Played ${WINDOWS[sc.window] || sc.window}` }),
        (sell || discard) ? el("span", { class: "row" },
          sell ? el("button", { type: "button", class: "small", "data-action": actionKey(sell), onclick: () => sendAction(sell) }, `Sell (${view.prices.scroll} gold)`) : null,
          discard ? el("button", { type: "button", class: "small danger", "data-action": actionKey(discard), onclick: () => sendAction(discard) }, "Discard") : null) : null);
    })) : null);
    if (mine && count) body.push(el("p", { class: "hint", text: "Only you see your scrolls." }));
  } else {
    const backs = [];
    for (let i = 0; i < count; i++) backs.push(el("span", { class: "dt-scroll-back", "aria-hidden": "true" }));
    if (count) body.push(el("p", { class: "dt-hidden-scrolls" }, backs, el("span", { text: ` ${PLURAL(count, "scroll")} (hidden)` })));
  }
  const levelUp = legal.find((a) => a.type === "level_up");
  if (levelUp) {
    const high = d.characters[p.character].high;
    body.push(button("Level up", levelUp, { cls: "primary", detail: `${cap} XP: ${p.hero} becomes high level (strength ${high.strength}, movement ${high.movement})` }));
  }
  const summary = `${p.hero} · ${where ? where.name : "—"} · ${p.gold} gold · ${p.xp} XP · ${PLURAL(count, "scroll")}`;
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
      parts.push(svg("text", { class: `door-label ${w.day ? "day" : "night"}`, x: dx, y: dy, "text-anchor": "middle", "dominant-baseline": "central" }, "DOOR"));
    }
    (heroes[j] || []).forEach((name, k, all) => {
      const s = seat(snap, name);
      const [hx, hy] = pt(51, j * 45 + (k - (all.length - 1) / 2) * 13).split(" ");
      parts.push(svg("g", { class: `hero ${s.cls}` }, svg("circle", { cx: hx, cy: hy, r: 7 }),
        svg("text", { x: hx, y: hy, "text-anchor": "middle", "dominant-baseline": "central" }, s.mark)));
    });
  });
  parts.push(svg("circle", { class: "tower-top", r: R0 - 3 }));
  parts.push(svg("text", { class: "tower-label", "text-anchor": "middle", "dominant-baseline": "central", y: 0 }, "TOWER"));
  const days = view.tower.wedges.filter((w) => w.day).map((w) => w.name);
  const nights = view.tower.wedges.filter((w) => !w.day).map((w) => w.name);
  const label = `The tower: the door faces ${view.tower.wedges[view.tower.door_wedge].name}; day in ${days.join(", ") || "no wedge"}; night in ${nights.join(", ") || "no wedge"}.`;
  return svg("svg", { class: "dt-ring", viewBox: "-104 -104 208 208", role: "img", "aria-label": label }, parts);
}

/** The wedges as a list: the same facts as the ring, in words. */
export function wedgeList(snap, d) {
  const view = snap.view;
  return el("ol", { class: "dt-wedges" }, view.tower.wedges.map((w, j) => {
    const here = view.order.filter((n) => view.players[n].space && wedgeIndex(d, view.players[n].space) === j);
    return el("li", { class: w.day ? "day" : "night" },
      el("span", { class: "sym", "aria-hidden": "true", text: w.day ? SUN : MOON }),
      el("span", {}, el("strong", { text: w.name }), ` ${w.day ? "day" : "night"}`, w.kind === "wild" ? " · wild" : "",
        j === view.tower.door_wedge ? el("b", { class: "door-word", text: " · door" }) : null),
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
    ms.map((m) => `${m.name} (${m.strength})`).join(", "), el("span", { class: "hint", text: ` · strength ${ms.reduce((a, m) => a + m.strength, 0)}` })));
  return [
    el("h3", { class: "dt-sub", text: "Quests" }),
    el("ul", { class: "dt-facts" }, quests.length ? quests : el("li", { class: "muted", text: "None placed yet." })),
    el("h3", { class: "dt-sub", text: "Monsters on the board" }),
    el("ul", { class: "dt-facts" }, groups.length ? groups : el("li", { class: "muted", text: "No monster group waits on the board." })),
    el("p", { class: "hint", text: `Item deck ${view.decks.items} · scroll deck ${view.decks.scrolls} · ${view.decks.bowl} tokens in the bowl · door on ${d.spaces[view.tower.door_space].name}` }),
  ];
}

// -- the fight ----------------------------------------------------------------------------------

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
    out.push(el("h2", { text: c.wizard ? "Fight: Z'Mindrik's monsters" : "Fight" }));
    out.push(el("p", { class: "dt-fighter" }, seatLabel(snap, who, who === me ? " (you)" : ""),
      ` fights${c.space ? ` on ${d.spaces[c.space].name}` : " in the tower"}${c.quest ? " for the quest" : ""}:`));
    out.push(el("ul", { class: "dt-monsters" }, c.monsters.map((m, i) => el("li", { class: removed[i] ? "removed" : "" },
      el("strong", { text: m.name }), el("span", { class: "num", text: m.strength }),
      el("small", { text: `${m.types.join(", ")} · ${m.xp} XP${removed[i] ? " · removed by a scroll" : ""}` })))));

    out.push(el("div", { class: "dt-totals", role: "group", "aria-label": "the combat totals" },
      el("div", { class: "side hero" }, el("h4", { text: who }),
        el("p", {}, `Strength ${t.strength}`), el("p", {}, `Items ${SIGNED(t.items)}`), el("p", {}, `Scrolls ${SIGNED(t.scrolls)}`),
        el("p", { class: "total" }, el("b", { text: t.player }))),
      el("div", { class: "vs", "aria-hidden": "true", text: "vs" }),
      el("div", { class: "side monsters" }, el("h4", { text: "Monsters" }),
        el("p", {}, `Strength ${t.monster_strength}`), el("p", {}, `Scrolls ${SIGNED(t.against)}`),
        el("p", { class: "total" }, el("b", { text: t.monsters })))));
    out.push(el("p", { class: "dt-target", "data-target": t.target },
      `Difference ${SIGNED(t.difference)} → Combat Table row “${rowLabel(t.row)}” → `,
      el("strong", { text: `needs ${t.target} or more` }), " on two dice",
      c.sixes ? el("span", { text: ` · ${PLURAL(c.sixes, "die", "dice")} bought as a 6` }) : null));
    if (c.played.length) {
      out.push(el("ul", { class: "dt-played" }, c.played.map((p) => el("li", {},
        seatLabel(snap, p.player), ` played ${p.name}: ${scrollEffect(p.effect)}`))));
    }
    if (c.dice) {
      const sum = c.dice.reduce((a, x) => a + x.value, 0);
      const lost = view.phase === "defeat";
      out.push(el("p", { class: `dt-banner ${lost ? "bad" : ""}` }, dice(c.dice.map((x) => x.value), c.dice.filter((x) => x.six).length),
        ` = ${sum}`, lost ? el("strong", { text: ` ✘ not enough: the monsters win this roll (needed ${t.target})` }) : null));
    }
    const status = {
      scrolls_own: `${who} may play scrolls first.`,
      scrolls_others: `The others may play scrolls against ${who}: waiting for ${view.waiting_for.join(", ") || "nobody"}.`,
      pre_roll: `${who} rolls two dice.`,
      defeat: `${who}: re-roll with a scroll, flee, or die.`,
    }[view.phase];
    if (c.passed.length && view.phase === "scrolls_others") out.push(el("p", { class: "hint", text: `Passed: ${c.passed.join(", ")}` }));
    if (status) out.push(el("p", { class: "sub", text: status }));
    return out;
  }
  const last = lastFight(snap);
  if (last) out.push(...lastFightBanner(snap, d, last, me));
  const enc = view.encounter;
  if (enc && enc.drawn.length) {
    out.push(el("h2", { text: enc.wizard ? "In the tower" : "Encounter" }));
    out.push(el("p", {}, `${heroName(view, view.active)} drew${enc.space ? ` on ${d.spaces[enc.space].name}` : ""}:`));
    out.push(el("ul", { class: "dt-monsters" }, enc.drawn.map((m) => el("li", {},
      el("strong", { text: m.name }), m.monster ? el("span", { class: "num", text: m.strength }) : null,
      el("small", { text: `${tokenText(m)}${enc.unresolved.includes(m.token) ? " · resolve first" : ""}` })))));
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
  const who = last.player === me ? "You" : last.player;
  const dies = dice(last.dice);
  if (last.won) {
    return [el("div", { class: "dt-banner good", "data-result": "victory", role: "status" },
      el("strong", { class: "big", text: "✔ Victory!" }),
      el("p", {}, `${who} rolled `, dies, ` = ${last.roll}, needing ${last.totals.target}: ${names.join(", ")} killed, +${xp} XP.`))];
  }
  return [el("div", { class: "dt-banner bad", "data-result": "defeat", role: "status" },
    el("strong", { class: "big", text: "✘ Defeat" }),
    el("p", {}, `${who} rolled `, dies, ` = ${last.roll}, needing ${last.totals.target}: ${names.join(", ")} stay${names.length === 1 ? "s" : ""} on the board.`))];
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
    go.replaceChildren(el("span", { class: "label", text: `Play ${d.characters[ui.choose.character].name}` }),
      el("small", { text: `from ${d.spaces[ui.choose.city].name}` }));
  };
  label();
  const charField = el("fieldset", { class: "dt-choices" }, el("legend", { text: "Your hero" }), chars.map((c) => {
    const ch = d.characters[c];
    const abil = ch.low.abilities.map((a) => ABILITIES[a] || a);
    const limits = ch.low.scroll_limit !== null && ch.low.scroll_limit !== undefined ? ` · holds ${ch.low.scroll_limit} scrolls, ${ch.low.backpack_limit} in the backpack` : "";
    return el("label", { class: "dt-choice" }, el("input", { type: "radio", name: "dt-character", value: c, checked: c === ui.choose.character,
      onchange: () => { ui.choose.character = c; label(); } }),
    el("span", {}, el("strong", { text: ch.name }),
      el("small", { text: `strength ${ch.low.strength} · movement ${ch.low.movement}${abil.length ? ` · ${abil.join(", ")}` : ""}${limits}` }),
      el("small", { class: "hint", text: `high level: strength ${ch.high.strength}, movement ${ch.high.movement}` })));
  }));
  const cityField = el("fieldset", { class: "dt-choices" }, el("legend", { text: "Your home city" }), cities.map((c) => el("label", { class: "dt-choice" },
    el("input", { type: "radio", name: "dt-city", value: c, checked: c === ui.choose.city, onchange: () => { ui.choose.city = c; label(); } }),
    el("span", {}, el("strong", { text: d.spaces[c].name }), el("small", { text: `kingdom of ${d.wedges[wedgeIndex(d, c)].name}` })))));
  return [charField, cityField, go];
}

function stepDetail(d, view, a, me) {
  const info = space(d, view, a.to);
  const here = view.players[me].space;
  const border = d.adjacent[here][a.to];
  const parts = [spaceDetail(info)];
  if (border !== "none") {
    if (a.cross === "xp") parts.push(`across the ${border}: ${d.xp.cross_border} XP`);
    else if (a.cross === "whole") parts.push(`across the ${border}: all your movement`);
    else if (a.cross === "scroll") parts.push(`across the ${border} with ${view.players[me].scrolls.find((s) => s.scroll === a.scroll).name}`);
    else parts.push(`across the ${border}: you cross it freely`);
  }
  if (a.extra) parts.push(`extra step: ${d.xp.extra_step} XP`);
  return parts.join(" · ");
}

function movement(snap, d, me, legal) {
  const view = snap.view;
  const p = view.players[me];
  const out = [heading(`Move: ${view.moves_left} of ${p.movement} steps left`)];
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
    const what = info.monsters ? "fight the monsters here" : info.kind.city ? (info.quest ? "the quest here" : "no encounter: city business")
      : `draw ${PLURAL(info.count, "encounter token")} (${info.type}, ${dayWord(info.day)})`;
    out.push(button(`Stop on ${info.name}`, stop, { cls: "primary", detail: what }));
  }
  const enter = legal.find((a) => a.type === "enter_tower");
  if (enter) out.push(button("Enter the tower", enter, { cls: "danger", detail: `Z'Mindrik summons ${d.tower_draw} monsters; nobody flees` }));
  return out;
}

function shopCards(snap, d, legal) {
  const view = snap.view;
  const me = view.viewer;
  const gold = view.players[view.active].gold;
  return [heading("The shop's cards (buy one face of each)"), el("ul", { class: "dt-shop" }, view.shop.cards.map((c) =>
    el("li", { "data-card": c.card }, ["equipment", "magic"].map((face) => {
      const f = c[face];
      const buy = legal.find((a) => a.type === "buy" && a.card === c.card && a.face === face);
      const bought = c.bought === face;
      const note = bought ? "bought" : c.bought ? "card sold" : f.price > gold ? `needs ${f.price} gold` : "";
      return el("div", { class: `dt-face ${face}${bought ? " bought" : ""}` },
        el("small", { class: "face-name", text: face === "magic" ? "Magic (purple)" : "Equipment (white)" }),
        el("strong", { text: f.name }), el("span", { text: faceText(f).split(": ")[1] }),
        el("span", { class: "price", text: `${f.price} gold` }),
        view.active === me && !bought && !c.bought ? el("button", { type: "button", class: buy ? "primary small" : "small",
          disabled: !buy, "data-action": `buy-${c.card}-${face}`, onclick: () => buy && sendAction(buy) }, buy ? `Buy ${f.name}` : note || "Buy")
          : el("small", { class: "hint", text: note }));
    })))),
  ];
}

function city(snap, d, me, legal) {
  const view = snap.view;
  const p = view.players[me];
  const out = [heading(`${d.spaces[p.space].name}: shop or work (${p.gold} gold)`)];
  const find = (type) => legal.find((a) => a.type === type);
  if (find("shop")) out.push(button(`Shop: draw ${2} item cards`, find("shop"), { cls: "primary", detail: "then buy one face of each card you like" }));
  if (find("work")) out.push(button(`Work for ${view.prices.work[p.level]} gold`, find("work"), { detail: "instead of shopping" }));
  if (view.shop && view.shop.cards.length) out.push(...shopCards(snap, d, legal));
  if (find("shop_more")) out.push(button("Draw another item card", find("shop_more"), { detail: `${d.xp.extra_shop_card} XP (you have ${p.xp})` }));
  if (find("buy_scroll")) out.push(button("Buy a scroll", find("buy_scroll"), { detail: `${view.prices.scroll} gold, drawn blind: only you will see it` }));
  const sells = legal.filter((a) => a.type === "sell");
  if (sells.length || (sellScrollAllowed(snap, me) && p.scroll_count)) {
    out.push(el("p", { class: "hint", text: "Sell items and scrolls from your hero sheet below." }));
  }
  if (find("done")) out.push(button("Leave the city", find("done"), { detail: "business done" }));
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
    out.push(heading("Your scrolls for this fight"));
    out.push(...plays.map((a) => button(`Play ${name(a)}${a.token ? ` on the ${c.monsters.find((m) => m.token === a.token).name}` : ""}`, a, { detail: text(a) })));
    const done = legal.find((a) => a.type === "done");
    if (done) out.push(button("On to the fight", done, { cls: "primary", detail: plays.length ? "play no more scrolls" : "none of your scrolls helps now" }));
  } else if (view.phase === "pre_roll") {
    const six = legal.find((a) => a.type === "buy_six");
    if (six) out.push(button(`Pay ${d.xp.die_to_six} XP for a 6`, six, { detail: `one die shows 6 without rolling (you have ${view.players[me].xp} XP)` }));
  } else if (view.phase === "defeat") {
    out.push(heading("The monsters win this roll"));
    out.push(...plays.map((a) => {
      const sc = mine.find((s) => s.scroll === a.scroll);
      const label = sc && sc.effect.set_die ? `Play ${sc.name}: die ${a.die + 1} (${c.dice[a.die].value}) becomes ${sc.effect.set_die}` : `Play ${name(a)}: roll again`;
      return button(label, a, { cls: "primary", detail: text(a) });
    }));
    out.push(...legal.filter((a) => a.type === "flee").map((a) => button(`Flee to ${d.spaces[a.to].name}`, a, {
      detail: `${d.spaces[a.to].type}; the monsters stay${c.space ? ` on ${d.spaces[c.space].name}` : ""} and your turn ends` })));
    const die = legal.find((a) => a.type === "die");
    if (die) out.push(button("Die", die, { cls: "danger", detail: "carried home: items, scrolls and gold are lost, XP kept; resurrected next turn" }));
  }
  // a scroll played in this fight may be taken back until someone else plays one (DT-CARD-7)
  if (c && !c.rolls && ["scrolls_own", "scrolls_others", "pre_roll"].includes(view.phase)) {
    const idx = c.played.map((p) => p.player).lastIndexOf(me);
    if (idx >= 0 && c.played.slice(idx + 1).every((p) => p.player === me)) {
      out.push(button(`Take back ${c.played[idx].name}`, { type: "take_back" }, { detail: "nobody has played a scroll since" }));
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
    if (side.gold) parts.push(`${side.gold} gold`);
    for (const card of side.items || []) {
      const held = [...view.players[owner].slots, ...view.players[owner].backpack].find((x) => x && x.card === card);
      parts.push(held ? held.name : card);
    }
    if (Array.isArray(side.scrolls)) {
      if (side.scrolls.length) {
        const own = view.players[owner].scrolls;
        parts.push(scrollsShown && own ? side.scrolls.map((s) => (own.find((x) => x.scroll === s) || { name: "a scroll" }).name).join(", ") : PLURAL(side.scrolls.length, "scroll"));
      }
    } else if (side.scrolls) parts.push(PLURAL(side.scrolls, "scroll"));
    return parts.join(", ") || "nothing";
  };
  if (o) {
    if (o.to === me) {
      out.push(heading(`${o.from} offers you a trade`));
      out.push(el("p", {}, el("strong", { text: "You get: " }), describe(o.give, o.from, false)));
      out.push(el("p", {}, el("strong", { text: "You give: " }), describe(o.take, me, true)));
      const want = o.take.scrolls;
      const mine = view.players[me].scrolls || [];
      ui.accept = ui.accept.filter((s) => mine.some((x) => x.scroll === s)).slice(0, want);
      if (want) {
        out.push(el("fieldset", { class: "dt-choices" }, el("legend", { text: `Choose ${PLURAL(want, "scroll")} to hand over` }),
          mine.map((s) => el("label", { class: "dt-choice" }, el("input", { type: "checkbox", value: s.scroll, checked: ui.accept.includes(s.scroll),
            onchange: (e) => { ui.accept = e.target.checked ? [...ui.accept, s.scroll] : ui.accept.filter((x) => x !== s.scroll); } }),
          el("span", {}, el("strong", { text: s.name }), el("small", { text: s.text }))))));
      }
      out.push(el("button", { type: "button", class: "dt-act primary", "data-action": "accept",
        onclick: () => sendAction({ type: "accept", scrolls: ui.accept.slice(0, want) }) }, el("span", { class: "label", text: "Accept" })));
      out.push(button("Decline", { type: "decline" }, { cls: "danger" }));
    } else if (o.from === me) {
      out.push(el("p", {}, `Waiting for ${o.to}: you give ${describe(o.give, me, true)}; you ask for ${describe(o.take, o.to, false)}.`));
      out.push(button("Withdraw the offer", { type: "decline" }, { cls: "danger" }));
    }
    return out;
  }
  const done = legal.find((a) => a.type === "done");
  if (!done) return out;
  const p = view.players[me];
  const partners = view.order.filter((n) => n !== me && view.players[n].space === p.space && !view.players[n].dead);
  if (!partners.length) return [button("Carry on", done, { cls: "primary" })];
  const f = ui.offer && partners.includes(ui.offer.with) ? ui.offer : (ui.offer = { with: partners[0], giveGold: 0, giveItems: [], giveScrolls: [], takeGold: 0, takeItems: [], takeScrolls: 0 });
  const partner = view.players[f.with];
  const held = (q) => [...q.slots.filter((x) => x && x.card), ...q.backpack];
  const num = (key, max, label) => el("label", {}, label, el("input", { type: "number", min: 0, max, value: f[key], inputmode: "numeric",
    oninput: (e) => { f[key] = Math.max(0, Math.min(max, Math.floor(Number(e.target.value)) || 0)); } }));
  const checks = (key, list, text) => list.map((x) => el("label", { class: "check" }, el("input", { type: "checkbox", checked: f[key].includes(x.id),
    onchange: (e) => { f[key] = e.target.checked ? [...f[key], x.id] : f[key].filter((y) => y !== x.id); } }), el("span", { text: text(x) })));
  out.push(heading("Trade with a hero on your space"));
  out.push(el("form", { class: "stack dt-offer", onsubmit: (e) => {
    e.preventDefault();
    sendAction({ type: "offer", with: f.with, give: { gold: f.giveGold, items: f.giveItems, scrolls: f.giveScrolls },
      take: { gold: f.takeGold, items: f.takeItems, scrolls: f.takeScrolls } });
  } },
  el("label", {}, "With", el("select", { onchange: (e) => { ui.offer = { ...f, with: e.target.value, takeItems: [], takeScrolls: 0 }; rerender(); } },
    partners.map((n) => el("option", { value: n, selected: n === f.with, text: heroName(view, n) })))),
  el("fieldset", { class: "stack" }, el("legend", { text: "You give" }), num("giveGold", p.gold, "Gold"),
    checks("giveItems", held(p).map((x) => ({ id: x.card, name: x.name })), (x) => x.name),
    checks("giveScrolls", (p.scrolls || []).map((x) => ({ id: x.scroll, name: x.name })), (x) => `${x.name} (scroll)`)),
  el("fieldset", { class: "stack" }, el("legend", { text: `You ask ${f.with} for` }), num("takeGold", partner.gold, "Gold"),
    checks("takeItems", held(partner).map((x) => ({ id: x.card, name: x.name })), (x) => x.name),
    num("takeScrolls", partner.scroll_count, `Scrolls (any of their ${partner.scroll_count}, they choose)`)),
  el("button", { type: "submit", class: "primary", "data-action": "offer" }, "Make the offer")));
  out.push(button("No trade: carry on", done));
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
    out.push(heading("Resolve these tokens first"));
    out.push(...resolves.map((a) => button(`Resolve the ${d.tokens[a.token].name}`, a, { detail: tokenText(d.tokens[a.token]) })));
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
      out.push(heading("Discard down to your limits"));
      out.push(...discards.filter((a) => (a.scroll && p.scroll_count > p.limits.scrolls) || (a.card && p.backpack.length > p.limits.backpack)).map((a) => {
        const what = a.scroll ? p.scrolls.find((s) => s.scroll === a.scroll).name : p.backpack.find((x) => x.card === a.card).name;
        return button(`Discard ${what}`, a, { cls: "danger", detail: a.scroll ? "scroll" : "from the backpack" });
      }));
    }
  }
  const end = legal.find((a) => a.type === "end_turn");
  if (end) out.push(button("Turn the tower", end, { cls: "primary tower", detail: "ends your turn (so does your seat button, or tapping the tower's sticker)" }));
  const level = legal.find((a) => a.type === "level_up");
  if (level && view.players[me].character) {
    const high = d.characters[view.players[me].character].high;
    out.push(button("Level up", level, { detail: `${d.xp.level_up} XP: strength ${high.strength}, movement ${high.movement}` }));
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
  const out = [el("h2", { text: `Play a scroll against ${who}?` }),
    el("p", {}, `${heroName(view, who)} has ${t.player} against the monsters' ${t.monsters}: `, el("strong", { text: `needs ${t.target} or more` }), " on two dice.")];
  if (c.played.length) {
    out.push(el("ul", { class: "dt-played" }, c.played.map((p) => el("li", {},
      seatLabel(snap, p.player), ` played ${p.name}: ${scrollEffect(p.effect)}`))));
  }
  const plays = legal.filter((a) => a.type === "play_scroll");
  const pass = legal.find((a) => a.type === "pass");
  const mine = view.players[me].scrolls || [];
  if (pass) {
    out.push(...plays.map((a) => {
      const sc = mine.find((s) => s.scroll === a.scroll) || { name: a.scroll, text: "" };
      return button(`Play ${sc.name} against ${who}`, a, { cls: "danger", detail: sc.text });
    }));
    if (!plays.length) out.push(el("p", { class: "hint", text: "None of your scrolls can be played against a fighter now." }));
    out.push(button("Pass", pass, { cls: "primary", detail: "play nothing now" }));
  } else if (c.passed.includes(me)) {
    out.push(el("p", { class: "sub", text: "You passed. Waiting for the others." }));
  } else {
    out.push(el("p", { class: "sub", text: "You hold no scroll: nothing to play." }));
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
    what = a.why === "wizard" ? "Z'Mindrik summons: draw a token from the bowl." : `Draw an encounter token from the bowl${a.left > 1 ? ` (${a.left} to draw)` : ""}.`;
    entries = Object.values(d.tokens).sort((x, y) => (y.monster - x.monster) || (x.strength || 0) - (y.strength || 0) || x.name.localeCompare(y.name))
      .map((t) => ({ action: { type: "draw_token", token: t.id }, name: t.name, detail: tokenText(t) }));
  } else if (a.kind === "item") {
    what = { shop: "Draw the top item card: the shop offers both faces.", magic: "Draw an item card: its magic face is yours.",
      equipment: "Draw an item card: its equipment face is yours." }[a.face] || "Draw an item card.";
    entries = Object.values(d.items).sort((x, y) => x.equipment.name.localeCompare(y.equipment.name)).map((c) => ({
      action: { type: "draw_item", card: c.id }, name: `${c.equipment.name} / ${c.magic.name}`,
      detail: a.face === "shop" ? `${c.equipment.name} ${c.equipment.price} gold · ${c.magic.name} ${c.magic.price} gold` : faceText(c[a.face] || c.equipment) }));
  } else {
    what = "Draw a scroll: only you will see which.";
    const seen = new Set();
    entries = Object.values(d.scrolls).sort((x, y) => x.name.localeCompare(y.name)).filter((s) => !seen.has(s.name) && seen.add(s.name))
      .map((s) => ({ action: { type: "draw_scroll", scroll: s.id }, name: s.name, detail: s.text }));
  }
  const list = el("div", { class: "dt-draw-list" }, entries.map((e) => button(e.name, e.action, { detail: e.detail })));
  const filter = el("input", { type: "search", placeholder: "Find it by name", "aria-label": "find it by name", autocomplete: "off",
    oninput: (ev) => {
      const q = ev.target.value.trim().toLowerCase();
      for (const b of list.children) b.hidden = q !== "" && !b.textContent.toLowerCase().includes(q);
    } });
  return [el("h2", { text: "What did you draw?" }), el("p", { class: "prompt mine", text: what }),
    el("p", { class: "hint", text: "Tap it on the reader, or pick it here." }), filter, list];
}

/** How many encounter tokens a space draws now: the active hero's space, and any wedge and type. */
export function helper(snap, d, me) {
  const view = snap.view;
  const out = [];
  if (view.here && view.active) {
    const info = space(d, view, view.here.space);
    const who = view.active === me ? "You stand" : `${view.active} stands`;
    const what = info.monsters ? "monsters there: fight them, draw nothing" : info.kind.city && !info.quest ? "a city: no encounter"
      : `draws ${PLURAL(view.here.draw, "token")}`;
    out.push(el("p", { class: "dt-here" }, `${who} on `, el("strong", { text: info.name }), ` (${info.type}, `, symbolFor(view.here.day), `): ${what}.`));
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
    const why = t.kind.always_night ? "always night" : t.day ? `${SUN} day there now` : `${MOON} night there now`;
    result.replaceChildren(el("b", { class: "big", text: String(t.count) }),
      el("span", { text: t.kind.city ? ` tokens: a ${ui.helper.type} in ${w.name} has no encounter (unless a quest is there).`
        : ` ${t.count === 1 ? "token" : "tokens"} for a ${ui.helper.type} in ${w.name} (${why}).` }));
  };
  update();
  const wedgeSelect = el("select", { "aria-label": "wedge", onchange: (e) => { ui.helper.wedge = Number(e.target.value); update(); } },
    d.wedges.map((w, j) => el("option", { value: j, selected: j === ui.helper.wedge, text: `${w.name} (${view.tower.wedges[j].day ? `${SUN} day` : `${MOON} night`})` })));
  const types = el("div", { class: "dt-types", role: "radiogroup", "aria-label": "space type" }, Object.keys(d.space_types).map((ty) =>
    el("label", { class: "dt-type" }, el("input", { type: "radio", name: "dt-helper-type", value: ty, checked: ty === ui.helper.type,
      onchange: () => { ui.helper.type = ty; update(); } }), el("span", { text: CAP(ty) }))));
  out.push(el("label", {}, "Wedge", wedgeSelect), types, result);
  return out;
}

/** The roll being awaited, in the game's words: what it is for and what it needs. */
export function diceNote(snap, d) {
  const view = snap.view;
  const a = view.awaiting;
  if (!a || a.kind !== "die") return null;
  if (a.why === "start") return "Two dice each: the highest total starts (ties roll again).";
  if (a.why === "combat" && view.combat) {
    const c = view.combat;
    return `For the fight: needs ${c.totals.target} or more${c.sixes ? ` (with ${PLURAL(c.sixes, "die", "dice")} bought as a 6)` : ""}.`;
  }
  if (a.why === "treasure" && d.tokens[a.token]) {
    const t = d.tokens[a.token];
    const table = Object.entries(t.treasure || {}).map(([face, r]) => `${face}: ${r.gold ? `${r.gold} gold` : Object.keys(r)[0]}`);
    return `The ${t.name}'s treasure: ${table.join(" · ")}.`;
  }
  if (a.why === "quest") return `The Quest Location table (${PLURAL(a.dice, "die", "dice")}): where the quest goes next.`;
  return null;
}

/** The events, newest first; a scroll drawn by this viewer is named for this viewer only. */
export function events(list, count = 12) {
  const items = [...list].reverse().slice(0, count).map((e) => el("li", {}, e.text,
    e.private && e.private.name ? el("strong", { text: ` (you drew ${e.private.name})` }) : null));
  return items.length ? items : [el("li", { class: "muted", text: "Nothing has happened yet." })];
}

/** A line under the prompt: the turn, whose it is, and where. */
export function subline(snap, me = null) {
  const view = snap.view;
  if (view.finished) return `The game is over: ${view.winners.join(", ")} won.`;
  if (view.phase === "start_roll") {
    const rolls = Object.entries(view.start_rolls).map(([n, v]) => `${n} ${v}`);
    return `Who starts?${rolls.length ? ` Rolled: ${rolls.join(", ")}.` : ""}`;
  }
  if (view.phase === "choose") return `${view.choosing} chooses a hero.`;
  const who = view.active === me ? "your turn" : `${view.active}'s turn`;
  return `Turn ${view.turn} · ${who}${view.phase === "move" && view.moves_left !== null ? ` · ${view.moves_left} steps left` : ""}`;
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
      el("span", { class: "hint", text: ` turn ${view.turn}${view.phase === "move" ? ` · ${view.moves_left} of ${p.movement} steps left` : ""}` })));
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
