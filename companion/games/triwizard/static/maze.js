// The Triwizard maze on a page: the board drawn from the data set as a grid (the Path, the Dark
// and the Green Hedge told apart by pattern as well as colour), every feature by a glyph, the Cup
// Tiles face down or face up, the Wandering Hedge, the pieces in their seats' colours and shapes,
// the Cloak on its wearer, and a legend. On the mover's phone the spaces it can reach are ringed
// with their steps and one tap moves there; the advance, the push-back and a choice of spaces are
// made the same way. Part of the game's page module (page.js).
import { _, el } from "/static/js/common.js";
import { seat } from "/static/js/seats.js";
import { cupName, featureName, spaceName } from "./words.js";

const S = 40; // a cell's side in the drawing's units
const BIG = 46; // a cell's side in pixels when the map is drawn bigger than the screen

// the SVG namespace, as the HTML parser gives it (no address written here)
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

// a glyph per feature (the legend says what each is)
export const GLYPHS = { entrance: "⌂", obstacle: "⚔", gold_mist: "✺", penalty: "⚠", hedge_home: "◌" };
export const HEDGE = "♣"; // the Wandering Hedge Tile
const PORTKEY_SHAPES = ["circle", "square", "diamond", "triangle"];

function text(x, y, content, cls) {
  return svg("text", { class: cls, x, y, "text-anchor": "middle", "dominant-baseline": "central", "aria-hidden": "true" }, content);
}

/** n small headstones side by side, centred on (x, y). */
function headstones(x, y, n, size = 9) {
  const g = svg("g", { class: "stones", "aria-hidden": "true" });
  for (let i = 0; i < n; i += 1) {
    const cx = x + (i - (n - 1) / 2) * (size + 2);
    const w = size;
    const h = size * 1.3;
    g.append(svg("path", { d: `M ${cx - w / 2} ${y + h / 2} V ${y - h / 6} A ${w / 2} ${w / 2} 0 0 1 ${cx + w / 2} ${y - h / 6} V ${y + h / 2} Z` }));
  }
  return g;
}

/** A portkey's pair: its letter in a shape of its own (A a circle, B a square, C a diamond...). */
function portkey(x, y, pair) {
  const i = Math.max(0, pair.charCodeAt(0) - 65) % PORTKEY_SHAPES.length;
  const shape = PORTKEY_SHAPES[i];
  const r = 12;
  let mark;
  if (shape === "circle") mark = svg("circle", { cx: x, cy: y, r });
  else if (shape === "square") mark = svg("rect", { x: x - r + 1, y: y - r + 1, width: 2 * r - 2, height: 2 * r - 2 });
  else if (shape === "diamond") mark = svg("path", { d: `M ${x} ${y - r - 1} L ${x + r + 1} ${y} L ${x} ${y + r + 1} L ${x - r - 1} ${y} Z` });
  else mark = svg("path", { d: `M ${x} ${y - r - 1} L ${x + r + 1} ${y + r - 2} L ${x - r - 1} ${y + r - 2} Z` });
  return svg("g", { class: `portkey p-${shape}`, "aria-hidden": "true" }, mark, text(x, y + (shape === "triangle" ? 3 : 0), pair, "pk"));
}

/** A Cup Tile on its space: face down, face up (the Cup or 1-3 headstones), or face down with
 * what this viewer saw of it (a Four Point Spell: only in the caster's view). */
function cupTile(x, y, cup) {
  const shown = cup.face_up || cup.peeked;
  const cls = cup.face_up ? (cup.face_up === "cup" ? "cup up real" : "cup up false") : cup.peeked ? "cup down peeked" : "cup down";
  const g = svg("g", { class: cls, "aria-hidden": "true" }, svg("rect", { x: x - 15, y: y - 15, width: 30, height: 30, rx: 4 }));
  if (!shown) g.append(text(x, y, "?", "q"));
  else if (shown === "cup") g.append(text(x, y, "★", "star"));
  else g.append(headstones(x, y + 1, Number(shown.split("-")[1]) || 1, 7));
  if (cup.peeked && !cup.face_up) g.append(svg("circle", { class: "eye", cx: x + 13, cy: y - 13, r: 5 }));
  return g;
}

/** The pieces on a space: each a disc in its seat's colour with its seat's shape; the Cloak a
 * dashed ring round its wearer. */
function pieces(snap, names, x, y, cloak) {
  const crowd = names.length > 2; // three or four on one space (the Entrance): smaller discs
  const r = crowd ? 6.5 : 9;
  const gap = crowd ? 8.5 : 15;
  return names.map((name, k, all) => {
    const s = seat(snap, name);
    const px = x + (k - (all.length - 1) / 2) * gap;
    const py = y + (all.length > 1 ? 6 : 4) + (crowd && k % 2 ? 4 : 0);
    return svg("g", { class: `tw-piece ${s.cls}${name === cloak ? " cloaked" : ""}${crowd ? " crowd" : ""}`, "aria-hidden": "true" },
      name === cloak ? svg("circle", { class: "cloak", cx: px, cy: py, r: r + 4 }) : null,
      svg("circle", { class: "disc", cx: px, cy: py, r }), text(px, py, s.mark, "mark"));
  });
}

// -- paths for the advance and the push-back ----------------------------------------------------

/** The shortest legal-looking walk from `from` to each space within `max` steps: Path spaces
 * only, not the Wandering Hedge's, no space twice, an Obstacle Space ends the walk, and a walk
 * ends on a free space. `first` forces the first step (the push-back's, TW-AMB-9), `not` forbids
 * it (the advance's). The rules check the walk again; this only offers the ends. */
export function walks(d, view, mover, from, max, { first = null, not = null } = {}) {
  const board = d.board;
  const taken = new Set(view.order.filter((n) => n !== mover).map((n) => view.players[n].space));
  const out = {};
  const seen = new Set([from]);
  let frontier = [[from]];
  const open = (id) => board.spaces[id] && board.spaces[id].kind === "path" && id !== view.hedge;
  for (let step = 1; step <= max && frontier.length; step += 1) {
    const next = [];
    for (const path of frontier) {
      const here = path[path.length - 1];
      if (path.length > 1 && board.spaces[here].feature === "obstacle") continue; // stops there
      for (const there of board.neighbours[here] || []) {
        if (seen.has(there) || !open(there)) continue;
        if (step === 1 && ((first && there !== first) || there === not)) continue;
        if (board.spaces[there].feature === "obstacle" && taken.has(there)) continue;
        seen.add(there);
        const walk = [...path, there];
        if (!taken.has(there)) out[there] = { space: there, steps: step, path: walk.slice(1) };
        next.push(walk);
      }
    }
    frontier = next;
  }
  return out;
}

// -- what a tap does on this phone --------------------------------------------------------------

/** The spaces this viewer may tap now, each with what the tap sends: a move (reach), the advance,
 * the push-back, or one of the spaces offered by a choice. */
export function targets(snap, d, me) {
  const view = snap.view;
  if (!me || !view.players[me] || view.awaiting) return { kind: null, spaces: {} };
  const it = view.interrupt;
  if (it && it.kind === "choose") {
    if (it.player !== me) return { kind: null, spaces: {} };
    const offered = it.spaces || it.options || [];
    const spaces = {};
    for (const id of offered) spaces[id] = { space: id, steps: null, action: { type: "choose", player: me, space: id } };
    return { kind: "choose", spaces, focus: offered[0] || null };
  }
  if (it) return { kind: null, spaces: {} };
  if (view.reach && view.active === me) {
    const spaces = {};
    for (const r of view.reach) {
      if (!r.path.length) continue; // staying put is the "Stay here" button
      if (spaces[r.space] && spaces[r.space].steps <= r.steps) continue;
      const action = { type: "move", player: me, path: r.path };
      if (r.reductor) action.reductor = r.reductor;
      spaces[r.space] = { ...r, action };
    }
    return { kind: "move", spaces };
  }
  const fighter = view.fight ? view.fight.player : view.active;
  const at = fighter && view.players[fighter] ? view.players[fighter].space : null;
  for (const kind of ["advance", "push_back"]) {
    const mine = kind === "advance" ? view.advance && view.active === me : view.push_back && view.push_back.by === me;
    if (!mine || !at) continue;
    // the walks the rules accept, when the legal actions list them; else the likely ones
    const listed = (snap.legal || []).filter((a) => a.type === kind && Array.isArray(a.path) && a.path.length);
    let found = {};
    if (listed.length) {
      for (const a of listed) found[a.path[a.path.length - 1]] = { space: a.path[a.path.length - 1], steps: a.path.length, path: a.path };
    } else if (kind === "advance") {
      const path = (view.turn_state && view.turn_state.path) || [];
      const came = path.length > 1 ? path[path.length - 2] : null;
      found = walks(d, view, me, at, view.advance.max, { not: came });
    } else {
      const from = view.push_back.from && view.push_back.from !== at ? view.push_back.from : null;
      found = walks(d, view, fighter, at, view.push_back.max, { first: from });
    }
    for (const w of Object.values(found)) w.action = { type: kind, player: me, path: w.path };
    return { kind, spaces: found, focus: at };
  }
  return { kind: null, spaces: {} };
}

let zoomed = null; // the map drawn bigger than the screen (and scrolled) or fitted to it, as chosen
let sheetFor = null; // the space whose Reductor route waits for a confirmation
let legendOpen = false; // the phone's legend, opened or folded by its player

function routeSheet(d, target, send, redraw) {
  return el("div", { class: "tw-sheet", role: "group", "aria-label": _("Move to {space}", { space: spaceName(d, target.space) }) },
    el("p", { text: _("This route crosses Green Hedge: it uses your Reductor Curse.") }),
    el("button", { type: "button", class: "tw-act primary", "data-action": `move-${target.space}`,
      onclick: () => { sheetFor = null; send(target.action); } },
    el("span", { class: "label", text: _("Move to {space}", { space: spaceName(d, target.space) }) }),
    el("small", { text: _("{n} steps, with the Reductor Curse", { n: target.steps }) })),
    el("button", { type: "button", class: "small", onclick: () => { sheetFor = null; redraw(); } }, _("Cancel")));
}

function targetWords(d, kind, t) {
  const where = spaceName(d, t.space);
  if (kind === "choose") return _("Choose {space}", { space: where });
  const steps = t.steps === 1 ? _("1 step") : _("{n} steps", { n: t.steps });
  if (kind === "advance") return _("Advance to {space}: {steps}", { space: where, steps });
  if (kind === "push_back") return _("Push back to {space}: {steps}", { space: where, steps });
  let said = _("Move to {space}: {steps}", { space: where, steps });
  if (t.reductor) said += " · " + _("with the Reductor Curse");
  if (t.stops === "obstacle") said += " · " + _("the move ends there: battle");
  return said;
}

const HINTS = {
  move: () => _("Tap a ringed space to move there; the number is its steps."),
  advance: () => _("You won: tap a ringed space to advance there."),
  push_back: () => _("Tap a ringed space to push the piece back there."),
  choose: () => _("Tap one of the ringed spaces."),
};

// -- the map ------------------------------------------------------------------------------------

/** The maze and its legend; `me` is the viewer (null on the table display), `send` sends an
 * action, `redraw` draws the page again. */
export function mazeMap(snap, d, me = null, { send = null, redraw = () => {} } = {}) {
  const view = snap.view;
  const board = d.board;
  const { kind, spaces: tapTo, focus: around = null } = targets(snap, d, me);
  const W = board.width * S;
  const H = board.height * S;
  const parts = [svg("defs", {},
    svg("pattern", { id: "tw-dark", width: 10, height: 10, patternUnits: "userSpaceOnUse" },
      svg("rect", { width: 10, height: 10, class: "pat-dark-bg" }), svg("path", { class: "pat-dark", d: "M0 0 L10 10 M10 0 L0 10" })),
    svg("pattern", { id: "tw-green", width: 12, height: 12, patternUnits: "userSpaceOnUse" },
      svg("rect", { width: 12, height: 12, class: "pat-green-bg" }), svg("path", { class: "pat-green", d: "M2 9 L6 3 L10 9" })))];
  // the Dark Hedge under everything: every cell the data set does not list
  parts.push(svg("rect", { class: "dark", x: 0, y: 0, width: W, height: H }));
  const cupsAt = {};
  for (const c of view.cups || []) cupsAt[c.space] = c;
  const who = {};
  for (const name of view.order) {
    const p = view.players[name];
    if (p && p.space && board.spaces[p.space]) (who[p.space] ||= []).push(name);
  }
  const mover = me && view.players[me] ? view.players[me].space : null;
  const decos = [];
  for (const [id, sp] of Object.entries(board.spaces)) {
    const x = sp.x * S + S / 2;
    const y = sp.y * S + S / 2;
    const t = tapTo[id];
    const facts = [spaceName(d, id)];
    if (cupsAt[id]) {
      const c = cupsAt[id];
      facts.push(c.face_up ? _("face up: {tile}", { tile: cupName(c.face_up) }) : _("a Cup Tile face down"));
      if (c.peeked && !c.face_up) facts.push(_("you saw {tile} there", { tile: cupName(c.peeked) }));
    }
    if (id === view.hedge) facts.push(_("the Wandering Hedge"));
    for (const name of who[id] || []) facts.push(name === view.cloak ? _("{player} under the Cloak", { player: name }) : name);
    const label = t ? `${targetWords(d, kind, t)} (${facts.join(", ")})` : facts.join(", ");
    const cls = ["tw-space", sp.kind === "green_hedge" ? "green" : "path", sp.feature ? `f-${sp.feature}` : "",
      t ? "reach" : "", t && t.reductor ? "reductor" : "", id === mover ? "here" : ""].filter(Boolean).join(" ");
    const g = svg("g", { class: cls, "data-space": id, role: t ? "button" : "img", tabindex: t ? "0" : null, "aria-label": label },
      svg("title", {}, label), svg("rect", { class: "cell", x: sp.x * S, y: sp.y * S, width: S, height: S }));
    if (t) g.append(svg("rect", { class: "ring", x: sp.x * S + 3, y: sp.y * S + 3, width: S - 6, height: S - 6, rx: 6 }));
    parts.push(g);
    const deco = svg("g", { class: "tw-deco", "aria-hidden": "true" });
    if (cupsAt[id]) deco.append(cupTile(x, y, cupsAt[id]));
    else if (sp.feature === "portkey") deco.append(portkey(x, y, sp.pair));
    else if (sp.feature === "headstone") deco.append(headstones(x, y, sp.number));
    else if (sp.feature === "cup_slot") deco.append(cupTile(x, y, { face_up: null, peeked: null }));
    else if (GLYPHS[sp.feature] && who[id]) { // a piece stands on it: the glyph in the corner
      deco.append(text(sp.x * S + 9, sp.y * S + 9, GLYPHS[sp.feature], `glyph small g-${sp.feature}`));
    } else if (GLYPHS[sp.feature]) deco.append(text(x, y, GLYPHS[sp.feature], `glyph g-${sp.feature}`));
    if (id === view.hedge) {
      deco.append(svg("rect", { class: "whedge", x: sp.x * S + 4, y: sp.y * S + 4, width: S - 8, height: S - 8, rx: 3 }),
        text(x, y, HEDGE, "whedge-mark"));
    }
    deco.append(...pieces(snap, who[id] || [], x, y, view.cloak));
    if (t && t.steps !== null && t.steps !== undefined) {
      const tag = `${t.steps}${t.reductor ? "R" : ""}`;
      deco.append(svg("rect", { class: "steps", x: sp.x * S + S - 7 - 6 * tag.length, y: sp.y * S + 1, width: 6 * tag.length + 6, height: 13, rx: 6 }),
        text(sp.x * S + S - 4 - 3 * tag.length, sp.y * S + 8, tag, "steps-n"));
    }
    if (t) {
      const go = () => {
        if (!send) return;
        if (t.reductor) { sheetFor = id; redraw(); } else send(t.action);
      };
      g.addEventListener("click", go);
      g.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); go(); } });
    }
    decos.push(deco);
  }
  parts.push(...decos);
  const n = Object.values(board.spaces).filter((sp) => sp.kind === "path").length;
  const map = svg("svg", { class: "tw-map", viewBox: `0 0 ${W} ${H}`, role: "group",
    "aria-label": _("The maze: {w} by {h} squares, {n} Path spaces.", { w: board.width, h: board.height, n }) }, parts);
  const out = [];
  const tappable = Object.keys(tapTo).length > 0;
  if (kind) out.push(el("p", { class: "tw-map-hint", text: tappable ? HINTS[kind]() : _("No space can be reached now.") }));
  const big = me ? (zoomed === null ? tappable : zoomed) : false;
  if (me) {
    out.push(el("button", { type: "button", class: "small tw-map-zoom", "aria-pressed": big ? "true" : "false",
      onclick: () => { zoomed = !big; redraw(); } }, big ? _("Whole maze") : _("Bigger maze")));
  }
  if (big) map.style.width = `${board.width * BIG}px`;
  // a bigger maze scrolls: the keyboard reaches it too, even with no ringed space inside
  const wrap = el("div", { class: `tw-map-wrap${big ? " big" : ""}`, tabindex: big ? "0" : null,
    role: big ? "region" : null, "aria-label": big ? _("The maze") : null }, map);
  out.push(wrap);
  // the piece being moved in the middle of the screen: the viewer's, or the one pushed back
  const focus = around || mover || (view.active && view.players[view.active] ? view.players[view.active].space : null);
  if (big && focus && board.spaces[focus]) {
    const sp = board.spaces[focus];
    requestAnimationFrame(() => {
      wrap.scrollLeft = (sp.x + 0.5) * BIG - wrap.clientWidth / 2;
      wrap.scrollTop = (sp.y + 0.5) * BIG - wrap.clientHeight / 2;
    });
  }
  const pending = sheetFor && tapTo[sheetFor];
  if (pending && send) out.push(routeSheet(d, pending, send, redraw)); else sheetFor = null;
  // the legend: open on the table display, folded on a phone (one tap opens it)
  const open = me ? legendOpen : true;
  out.push(el("details", { class: "tw-legend-box", open: open || null, ontoggle: (e) => { if (me) legendOpen = e.target.open; } },
    el("summary", { text: _("Legend") }), legend(d, view, Boolean(me))));
  return out;
}

/** The legend: the three kinds of square, each feature's glyph, the Cup Tiles, the Wandering
 * Hedge, the pieces and the Cloak, the rings. */
function legend(d, view, phone) {
  const item = (cls, glyph, words) => el("li", {}, el("span", { class: `lg ${cls}`, "aria-hidden": "true", text: glyph }), words);
  const pairs = Object.values(d.board.spaces).filter((sp) => sp.feature === "portkey").map((sp) => sp.pair);
  const shapes = [...new Set(pairs)].sort().map((p) => {
    const i = Math.max(0, p.charCodeAt(0) - 65) % PORTKEY_SHAPES.length;
    return item(`portkey p-${PORTKEY_SHAPES[i]}`, p, featureName({ feature: "portkey", pair: p }));
  });
  return el("ul", { class: "tw-legend", "aria-label": _("Legend") },
    item("sq path", "", _("Path")), item("sq dark", "", _("Dark Hedge")), item("sq green", "", _("Green Hedge (the Reductor Curse crosses it)")),
    item("glyph", GLYPHS.entrance, featureName({ feature: "entrance" })),
    item("glyph", GLYPHS.obstacle, _("Obstacle Space (crossed wands): stop and battle")),
    item("glyph mist", GLYPHS.gold_mist, _("Gold Mist Space: draw 1 Resource Tile")),
    item("glyph", GLYPHS.penalty, featureName({ feature: "penalty" })),
    shapes,
    el("li", {}, svg("svg", { class: "lg stones-lg", viewBox: "0 0 30 20", "aria-hidden": "true" }, headstones(15, 10, 2, 8)),
      _("Headstone Space 1, 2 or 3: one, two or three headstones")),
    item("cupd", "?", _("Cup Tile face down")),
    item("cupu", "★", _("the Triwizard Cup, face up")),
    view.cups && view.cups.some((c) => c.peeked) ? item("cupd peeked", "?", _("a Cup Tile you saw with the Four Point Spell")) : null,
    item("whedge", HEDGE, _("the Wandering Hedge: no piece may enter")),
    item("piece", "●", _("a piece, in its seat's colour and shape")),
    item("piece cloaked", "●", _("a piece under the Invisibility Cloak (dashed ring)")),
    phone ? item("ring", "3", _("a space you may tap, with its steps (R: with the Reductor Curse)")) : null);
}
