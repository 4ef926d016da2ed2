// Dork Tower's words on a page: the rulebook's names for what is printed on its components, the
// sentences the other parts are made of, and what a space is now (its type, day or night, what
// drawing there means). Part of Dork Tower's page module (page.js).
import { _ } from "/static/js/common.js";

export const SIGNED = (n) => (n > 0 ? `+${n}` : n < 0 ? `−${-n}` : "0");
export const CAP = (s) => s.charAt(0).toUpperCase() + s.slice(1);
export const SUN = "☀";
export const MOON = "☾";
// when a scroll is played and by whom, said whole (the sentence under a scroll in hand)
const TIMINGS = {
  "before_roll fighter": () => _("Played before your own fight roll"),
  "before_roll rivals": () => _("Played against a rival, before the roll"),
  "before_roll anyone": () => _("Played before a fight roll, yours or a rival's"),
  "after_roll fighter": () => _("Played after your own failed roll"),
  "after_roll rivals": () => _("Played against a rival, after a winning roll"),
  "after_roll anyone": () => _("Played after your own failed roll, or a rival's winning roll"),
  movement: () => _("Played while moving"),
  any: () => _("Played whenever it applies"),
};
/** When a scroll is played and by whom (its data's ``when`` and ``by``), in a sentence. */
export function scrollTiming(sc) {
  const said = TIMINGS[`${sc.when} ${sc.by}`] || TIMINGS[sc.when];
  return said ? said() : _("Played {window}", { window: `${sc.when} (${sc.by})` });
}
const ABILITIES = {
  cross_lake: () => _("crosses lakes"), cross_mountain: () => _("crosses mountains"),
  avoid_monsters: () => _("may walk past monsters"),
};
export const ability = (a) => (ABILITIES[a] ? ABILITIES[a]() : a);
// the rulebook's words for the Encounter chart's space types and the borders; a data set's own
// types keep their names
const SPACE_TYPES = {
  city: () => _("city"), field: () => _("field"), forest: () => _("forest"),
  shadowland: () => _("shadowland"), dungeon: () => _("dungeon"),
};
// the data set's own words for its ids (slot and monster types...) in the page's language: the
// data endpoint sends them (`words`, English -> translation) beside the set's translated names
let WORDS = {};
export function useWords(d) { WORDS = (d && d.words) || {}; }
export const dataWord = (w) => (Object.prototype.hasOwnProperty.call(WORDS, w) ? WORDS[w] : w);
export const typeName = (ty) => (SPACE_TYPES[ty] ? SPACE_TYPES[ty]() : dataWord(ty));
const BORDERS = { lake: () => _("lake"), mountain: () => _("mountain") };
const borderName = (b) => (BORDERS[b] ? BORDERS[b]() : b);
export const dayOrNight = (day) => (day ? _("day") : _("night"));
const BORDER_THE = { lake: () => _("the lake"), mountain: () => _("the mountain") };
export const theBorder = (b) => (BORDER_THE[b] ? BORDER_THE[b]() : _("the {border}", { border: b }));
const FACES = { equipment: () => _("equipment"), magic: () => _("magic") };
export const faceName = (f) => (FACES[f] ? FACES[f]() : f);
const TREASURES = { scroll: () => _("scroll"), equipment: () => _("equipment"), magic: () => _("magic"),
  nothing: () => _("nothing") };
export const treasureName = (w) => (TREASURES[w] ? TREASURES[w]() : w);
/** "a or b or c", "a and b", in the page's language. */
export const joinOr = (list) => (list.length ? list.map(String).reduce((a, b) => _("{a} or {b}", { a, b })) : "");
export const joinAnd = (list) => (list.length ? list.map(String).reduce((a, b) => _("{a} and {b}", { a, b })) : "");
export const goldText = (n) => _("{n} gold", { n });
export const xpText = (n) => _("{n} XP", { n });
export const scrollsText = (n) => (n === 1 ? _("1 scroll") : _("{n} scrolls", { n }));

/** A translated sentence with elements in it: the text of _() (its values filled in), each
 * placeholder named in `nodes` replaced by that element. */
export function rich(text, nodes) {
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

export function wedgeIndex(d, space) {
  return d.wedges.findIndex((w) => w.id === d.spaces[space].wedge);
}

export function timeAt(d, view, typeId, wedge) {
  const kind = d.space_types[typeId];
  const day = !kind.always_night && view.tower.wedges[wedge].day;
  return { day, count: kind.city ? 0 : day ? kind.day : kind.night, kind };
}

/** What a space is now: name, type, day or night, tokens drawn, monsters, quest. */
export function space(d, view, id) {
  const sp = d.spaces[id];
  const wedge = wedgeIndex(d, id);
  const t = timeAt(d, view, sp.type, wedge);
  return { id, name: sp.name, type: sp.type, wedge, wedgeName: d.wedges[wedge].name, ...t,
    monsters: view.monsters[id] || null, quest: view.quests.includes(id) };
}

export function dayWord(day) { return `${day ? SUN : MOON} ${dayOrNight(day)}`; }

export function spaceDetail(info) {
  const parts = [typeName(info.type), dayWord(info.day)];
  if (info.monsters) parts.push("⚔ " + _("{monsters}: fight", { monsters: info.monsters.map((m) => m.name).join(", ") }));
  else if (info.kind.city) parts.push(info.quest ? _("quest, no tokens") : _("no encounter"));
  else parts.push(_("draw {n}", { n: info.count }));
  if (info.quest) parts.push("✦ " + _("quest"));
  return parts.join(" · ");
}

export const versus = (v, type) => _("+{n} vs {type}", { n: v, type: dataWord(type) });

export function faceText(face) {
  const extra = Object.entries(face.vs || {}).map(([t, v]) => versus(v, t));
  if (face.crosses && face.crosses.length) {
    const one = face.crosses.length === 1 && ABILITIES[`cross_${face.crosses[0]}`];
    extra.push(one ? one() : _("crosses {borders}s", { borders: joinAnd(face.crosses.map(borderName)) }));
  }
  return `${face.name}: ${dataWord(face.type)} +${face.bonus}${extra.length ? `, ${extra.join(", ")}` : ""}`;
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

export function tokenText(t) {
  if (t.monster) return [_("strength {n}", { n: t.strength }), t.types.map(dataWord).join(", "), xpText(t.xp), t.treasure ? _("treasure") : null].filter((x) => x !== null).join(" · ");
  const effect = effectText(t.effect || {});
  return t.friendly ? _("friendly: {effect}", { effect }) : effect;
}

export function scrollEffect(effect) {
  if (effect.fighter) return _("+{n} to the fighter", { n: effect.fighter });
  if (effect.monsters) return _("+{n} to the monsters", { n: effect.monsters });
  if (effect.remove_monster) return _("removes a monster");
  if (effect.reroll) return _("roll again");
  if (effect.set_die) return _("a die becomes {n}", { n: effect.set_die });
  if (effect.cross) return _("crosses a {borders}", { borders: joinOr(effect.cross.map(borderName)) });
  return "";
}

export function heroName(view, name) {
  const p = view.players[name];
  return p && p.hero ? `${name} (${p.hero})` : name;
}
