// Dork Tower's tower and board: the tower seen from above (day and night, the door, the heroes),
// the wedges in words, the quests and monsters on the board, and the encounter count (how many
// tokens a space draws now). Part of Dork Tower's page module (page.js).
import { _, el } from "/static/js/common.js";
import { seat, seatLabel } from "/static/js/seats.js";
import { symbolFor, ui } from "./sheet.js";
import { CAP, MOON, SUN, dayOrNight, dayWord, rich, space, timeAt, typeName, wedgeIndex } from "./words.js";

// the SVG namespace, as the HTML parser gives it (no address written here: every asset is local)
const SVGNS = (() => {
  const t = document.createElement("template");
  t.innerHTML = "<svg></svg>";
  return t.content.firstChild.namespaceURI;
})();
export function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVGNS, tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== null && v !== undefined) node.setAttribute(k, v);
  for (const c of children.flat()) if (c !== null && c !== undefined) node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return node;
}
export const pt = (r, deg) => {
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
      // each hero here by shape and name, both visible (a phone shows no tooltip)
      here.length ? el("span", { class: "row" }, here.map((n) => seatLabel(snap, n))) : null);
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

// -- the encounter count ------------------------------------------------------------------------

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

