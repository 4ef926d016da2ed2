// Dork Tower's map: the board drawn from the data set (each space where its layout puts it, in
// rings around the tower, the eight wedges clockwise from the top), with what the view says is on
// it now: day or night per wedge, the door, the quests, the monster groups and the heroes. Every
// fact has a shape or a word besides its colour (a glyph per space type, a sun or a moon per
// wedge, wavy lakes and zig-zag mountains). On the moving hero's own page the spaces he can reach
// are ringed with their cost, and a tap moves him there (a sheet asks how to pay when there are
// several ways). Part of Dork Tower's page module (page.js).
import { _, el } from "/static/js/common.js";
import { seat } from "/static/js/seats.js";
import { pt, svg } from "./board.js";
import { button } from "./sheet.js";
import { MOON, SUN, dayOrNight, joinAnd, space, theBorder, typeName, wedgeIndex } from "./words.js";

const R0 = 46; // the tower's radius
const RING = 84; // one ring's depth
const DOT = 22; // a space's radius

// a glyph per space type (the data set's own types show their first letter)
const GLYPHS = { city: "♜", field: "✿", forest: "♣", dungeon: "☠", shadowland: MOON };
const glyph = (type) => GLYPHS[type] || type.charAt(0).toUpperCase();

/** Where a space is drawn: [x, y] and its angle on the board. */
function place(d, id) {
  const at = d.layout[id];
  const deg = wedgeIndex(d, id) * 45 + at.angle;
  const [x, y] = pt(R0 + (at.ring + 0.5) * RING, deg).split(" ").map(Number);
  return { x, y, deg };
}

/** A border drawn across the edge between two spaces: a blue wave (lake) or a brown zig-zag
 * (mountain), crossing the line half-way. */
function borderMark(a, b, border) {
  const mx = (a.x + b.x) / 2;
  const my = (a.y + b.y) / 2;
  const len = Math.hypot(b.x - a.x, b.y - a.y) || 1;
  const [ux, uy] = [(b.x - a.x) / len, (b.y - a.y) / len]; // along the edge
  const [nx, ny] = [-uy, ux]; // across it
  const half = 16;
  const parts = [];
  const steps = 8;
  for (let i = 0; i <= steps; i += 1) {
    const s = -half + (2 * half * i) / steps;
    const off = border === "lake" ? 4 * Math.sin((i / steps) * Math.PI * 3) : (i % 2 ? 5 : -5);
    parts.push(`${i ? "L" : "M"} ${(mx + nx * s + ux * off).toFixed(1)} ${(my + ny * s + uy * off).toFixed(1)}`);
  }
  return svg("path", { class: `border ${border}`, d: parts.join(" ") });
}

/** A way to a space in words: steps, extra steps and XP, each crossing and how it is paid, and
 * whether the movement ends there. */
export function wayText(d, view, me, way) {
  const parts = [way.moves === 1 ? _("1 step") : _("{n} steps", { n: way.moves })];
  if (way.path.length > 1) parts.push(_("by {spaces}", { spaces: way.path.slice(0, -1).map((id) => d.spaces[id].name).join(", ") }));
  if (way.extra) parts.push(way.extra === 1 ? _("1 extra step") : _("{n} extra steps", { n: way.extra }));
  if (way.xp) parts.push(_("{n} XP", { n: way.xp }));
  const mine = (view.players[me] && view.players[me].scrolls) || [];
  for (const c of way.crossings) {
    const across = { border: theBorder(c.border), space: d.spaces[c.to].name };
    if (c.by === "xp") parts.push(_("across {border} to {space} for {n} XP", { ...across, n: d.xp.cross_border }));
    else if (c.by === "whole") parts.push(_("across {border} to {space} with all your movement", across));
    else if (c.by === "scroll") {
      const sc = mine.find((s) => s.scroll === c.scroll);
      parts.push(_("across {border} to {space} with {scroll}", { ...across, scroll: sc ? sc.name : c.scroll }));
    } else parts.push(_("across {border} to {space}: you cross it freely", across));
  }
  if (way.ends === "monsters") parts.push(_("monsters there: the movement ends, fight"));
  if (way.ends === "quest") parts.push(_("a quest there: the movement ends"));
  return parts.join(" · ");
}

/** The short cost written on a reachable space: steps, and XP when any. */
function costTag(way) {
  return way.xp ? `${way.moves + way.extra}·${way.xp}XP` : String(way.moves);
}

/** A space's name on the map: one line when short, else two lines split between words. */
function nameLines(name) {
  const cut = (line) => line; // whole words: the accessible name holds what is seen
  const words = name.split(/\s+/);
  if (name.length <= 12 || words.length === 1) return [cut(name)];
  let best = 1;
  for (let k = 1; k < words.length; k += 1) {
    const gap = (k2) => Math.abs(words.slice(0, k2).join(" ").length - words.slice(k2).join(" ").length);
    if (gap(k) < gap(best)) best = k;
  }
  return [cut(words.slice(0, best).join(" ")), cut(words.slice(best).join(" "))];
}

let zoomed = null; // the map drawn bigger than the screen (scrolled) or fitted to it, as chosen
let sheetFor = null; // the space whose ways the sheet shows (kept across drawings)

/** The travel action of a way. */
function travel(me, way) {
  return { type: "travel", player: me, path: way.path, pay: way.pay };
}

/** The sheet that asks how to pay, when a space has several ways. */
function sheet(snap, d, me, reach, redraw) {
  const entry = sheetFor && reach.find((r) => r.to === sheetFor);
  if (!entry) { sheetFor = null; return null; }
  const view = snap.view;
  return el("div", { class: "dt-route-sheet", role: "group", "aria-label": _("Move to {space}", { space: d.spaces[entry.to].name }) },
    el("h3", { class: "dt-sub", text: _("Move to {space}: how?", { space: d.spaces[entry.to].name }) }),
    entry.ways.map((way, k) => button(k === 0 ? _("Cheapest way") : _("Way {n}", { n: k + 1 }), travel(me, way),
      { detail: wayText(d, view, me, way), key: `travel-${entry.to}-${k}`, cls: k === 0 ? "primary" : "" })),
    el("button", { type: "button", class: "small", onclick: () => { sheetFor = null; redraw(); } }, _("Cancel")));
}

/** The map and its legend; ``me`` is the viewer's name (null on the table display), ``send``
 * sends an action, ``redraw`` draws the page again (after opening or closing the sheet). */
export function boardMap(snap, d, me = null, { send = null, redraw = () => {} } = {}) {
  const view = snap.view;
  const reach = me && view.reach && view.active === me && !view.awaiting ? view.reach : null;
  const reachable = {};
  for (const r of reach || []) reachable[r.to] = r;
  const maxRing = Math.max(0, ...Object.values(d.layout).map((p) => p.ring));
  const R = R0 + (maxRing + 1) * RING + 8;
  const parts = [];
  // the wedges: day or night, with a sun or a moon on the rim and the wedge's name
  view.tower.wedges.forEach((w, j) => {
    const a0 = j * 45 - 22.5;
    const a1 = j * 45 + 22.5;
    parts.push(svg("path", { class: `mwedge ${w.day ? "day" : "night"}`,
      d: `M ${pt(R, a0)} A ${R} ${R} 0 0 1 ${pt(R, a1)} L ${pt(R0, a1)} A ${R0} ${R0} 0 0 0 ${pt(R0, a0)} Z` }));
    const [sx, sy] = pt(R - 14, j * 45 + 15).split(" ");
    parts.push(svg("text", { class: `msym ${w.day ? "day" : "night"}`, x: sx, y: sy, "text-anchor": "middle", "dominant-baseline": "central" },
      svg("title", {}, `${w.name}: ${dayOrNight(w.day)}`), w.day ? SUN : MOON));
    const [nx, ny] = pt(R - 14, j * 45 - 8).split(" ");
    const side = Math.sin(((j * 45 - 8) * Math.PI) / 180); // names at the sides stay inside
    const anchor = side > 0.5 ? "end" : side < -0.5 ? "start" : "middle";
    parts.push(svg("text", { class: `mwname ${w.day ? "day" : "night"}`, x: nx, y: ny, "text-anchor": anchor, "dominant-baseline": "central" },
      w.name));
  });
  // the tower and its door
  const door = view.tower.door_wedge;
  parts.push(svg("circle", { class: "mtower", r: R0 - 4 }));
  parts.push(svg("path", { class: "mdoor", d: `M ${pt(R0 - 2, door * 45 - 14)} A ${R0 - 2} ${R0 - 2} 0 0 1 ${pt(R0 - 2, door * 45 + 14)}` }));
  const [dx, dy] = pt(R0 - 17, door * 45).split(" ");
  parts.push(svg("text", { class: "mdoor-label", x: dx, y: dy, "text-anchor": "middle", "dominant-baseline": "central" }, _("DOOR")));
  // the edges, then the borders across them
  const at = {};
  for (const id of Object.keys(d.spaces)) at[id] = place(d, id);
  const borders = [];
  for (const [a, next] of Object.entries(d.adjacent)) {
    for (const [b, border] of Object.entries(next)) {
      if (a >= b) continue;
      parts.push(svg("line", { class: `edge ${border}`, x1: at[a].x.toFixed(1), y1: at[a].y.toFixed(1), x2: at[b].x.toFixed(1), y2: at[b].y.toFixed(1) }));
      if (border !== "none") borders.push(borderMark(at[a], at[b], border));
    }
  }
  // the heroes by space
  const heroes = {};
  for (const name of view.order) {
    const p = view.players[name];
    if (p.space && d.spaces[p.space] && !p.dead) (heroes[p.space] ||= []).push(name);
  }
  const mySpace = me && view.players[me] ? view.players[me].space : null;
  const decos = [];
  for (const id of Object.keys(d.spaces)) {
    const info = space(d, view, id);
    const { x, y } = at[id];
    const target = reachable[id];
    const facts = [info.name, typeName(info.type), info.kind.always_night ? _("always night") : dayOrNight(info.day)];
    if (info.quest) facts.push(_("quest"));
    if (info.monsters) facts.push(_("monsters: {monsters}", { monsters: info.monsters.map((m) => m.name).join(", ") }));
    if (heroes[id]) facts.push(joinAnd(heroes[id]));
    if (id === view.tower.door_space) facts.push(_("the door"));
    const label = target ? _("Move to {space}: {cost}", { space: facts.join(", "), cost: wayText(d, view, me, target.ways[0]) }) : facts.join(", ");
    const cls = ["mspace", `t-${info.type}`, info.kind.always_night ? "dark" : "", target ? "reach" : "",
      target && target.ways[0].xp ? "xp" : "", id === mySpace ? "here" : ""].filter(Boolean).join(" ");
    const g = svg("g", { class: cls, "data-space": id, role: target ? "button" : "img", tabindex: target ? "0" : null, "aria-label": label },
      svg("title", {}, label));
    if (target) g.append(svg("circle", { class: "ring", cx: x, cy: y, r: DOT + 6 }));
    if (info.kind.city) g.append(svg("rect", { class: "dot", x: x - DOT + 2, y: y - DOT + 2, width: 2 * DOT - 4, height: 2 * DOT - 4, rx: 6 }));
    else g.append(svg("circle", { class: "dot", cx: x, cy: y, r: DOT }));
    // what is written on the space: drawn apart from the button (its name says all of it)
    const deco = svg("g", { class: "mdeco", "data-for": id, "aria-hidden": "true" });
    deco.append(svg("text", { class: "glyph", "aria-hidden": "true", x, y: y - 4, "text-anchor": "middle", "dominant-baseline": "central" }, glyph(info.type)));
    if (!info.kind.always_night) {
      deco.append(svg("text", { class: "sname", x, y: y + DOT + 11, "text-anchor": "middle" },
        nameLines(info.name).map((line, k, all) => svg("tspan", { x, dy: k ? 11 : 0 }, k < all.length - 1 ? `${line} ` : line))));
    }
    if (info.quest) deco.append(svg("text", { class: "quest", "aria-hidden": "true", x: x + DOT - 2, y: y - DOT + 3, "text-anchor": "middle", "dominant-baseline": "central" }, "✦"));
    if (info.monsters) {
      deco.append(svg("rect", { class: "monsters", x: x - DOT - 8, y: y - DOT - 6, width: 22, height: 15, rx: 4 }),
        svg("text", { class: "monsters-n", "aria-hidden": "true", x: x - DOT + 3, y: y - DOT + 2, "text-anchor": "middle", "dominant-baseline": "central" }, `⚔${info.monsters.length}`));
    }
    (heroes[id] || []).forEach((name, k, all) => {
      const s = seat(snap, name);
      const hx = x + (k - (all.length - 1) / 2) * 13;
      deco.append(svg("g", { class: `mhero ${s.cls}`, "aria-hidden": "true" }, svg("circle", { cx: hx, cy: y + 10, r: 7.5 }),
        svg("text", { x: hx, y: y + 10, "text-anchor": "middle", "dominant-baseline": "central" }, s.mark)));
    });
    if (target) {
      const tag = costTag(target.ways[0]);
      deco.append(svg("rect", { class: "cost", x: x + 4, y: y + 6, width: 7 * tag.length + 6, height: 15, rx: 7 }),
        svg("text", { class: "cost-n", "aria-hidden": "true", x: x + 7 + 3.5 * tag.length, y: y + 14, "text-anchor": "middle", "dominant-baseline": "central" }, tag));
      const go = () => {
        if (target.ways.length === 1 && send) send(travel(me, target.ways[0]));
        else { sheetFor = id; redraw(); }
      };
      g.addEventListener("click", go);
      g.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); go(); } });
    }
    parts.push(g);
    decos.push(deco);
  }
  parts.push(...borders, ...decos); // the borders over the spaces' edges, the names over all
  const days = view.tower.wedges.filter((w) => w.day).map((w) => w.name);
  const map = svg("svg", { class: "dt-map", viewBox: `${-R - 24} ${-R} ${2 * R + 48} ${2 * R}`, role: "group",
    "aria-label": _("The map: {n} spaces around the tower; day in {days}.", { n: Object.keys(d.spaces).length, days: days.join(", ") || _("no wedge") }) }, parts);
  const out = [];
  if (reach) {
    out.push(el("p", { class: "dt-map-hint", text: reach.length ? _("Tap a ringed space to move there; the number is its steps (and XP).")
      : _("No space can be reached now.") }));
  }
  const big = zoomed === null ? Boolean(reach) : zoomed; // bigger while moving, unless chosen

  if (me) {
    out.push(el("button", { type: "button", class: "small dt-map-zoom", "aria-pressed": big ? "true" : "false",
      onclick: () => { zoomed = !big; redraw(); } }, big ? _("Whole map") : _("Bigger map")));
  }
  const wrap = el("div", { class: `dt-map-wrap${big ? " big" : ""}` }, map);
  out.push(wrap);
  if (big && mySpace) { // the hero's space in the middle of the screen
    const { x, y } = at[mySpace];
    requestAnimationFrame(() => {
      const scale = map.clientWidth / (2 * R + 48);
      wrap.scrollLeft = (x + R + 24) * scale - wrap.clientWidth / 2;
      wrap.scrollTop = (y + R) * scale - wrap.clientHeight / 2;
    });
  }
  if (reach) { const s = sheet(snap, d, me, reach, redraw); if (s) out.push(s); } else sheetFor = null;
  out.push(legend(d));
  return out;
}

/** The legend: every type's glyph, the two borders, day and night, the tokens. */
function legend(d) {
  const swatch = (border) => svg("svg", { class: "swatch", viewBox: "-20 -10 40 20", "aria-hidden": "true" },
    borderMark({ x: 0, y: -20 }, { x: 0, y: 20 }, border));
  const types = Object.keys(d.space_types).map((ty) => el("li", {}, el("span", { class: `lg t-${ty}`, "aria-hidden": "true", text: glyph(ty) }), typeName(ty)));
  return el("ul", { class: "dt-legend", "aria-label": _("Legend") }, types,
    el("li", {}, swatch("lake"), _("lake (a border)")),
    el("li", {}, swatch("mountain"), _("mountain (a border)")),
    el("li", {}, el("span", { class: "lg day", "aria-hidden": "true", text: SUN }), _("day in the wedge")),
    el("li", {}, el("span", { class: "lg night", "aria-hidden": "true", text: MOON }), _("night in the wedge")),
    el("li", {}, el("span", { class: "lg quest", "aria-hidden": "true", text: "✦" }), _("quest")),
    el("li", {}, el("span", { class: "lg monsters", "aria-hidden": "true", text: "⚔" }), _("monsters")));
}
