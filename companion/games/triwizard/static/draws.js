// "What did you draw?": at a table without stickers on its cards, the draw the table waits for is
// told on a phone. A private draw (a Battle Card, a Resource Tile, the Cup Tile a Four Point Spell
// shows, the tile Red Sparks takes) on the drawer's own phone; a public one (an Obstacle Card laid
// in the Lineup, a Cup Tile turned face up) on the active player's phone (the first seat's while
// the game is dealt), for everyone to see. Part of the game's page module (page.js).
//
// What may be drawn comes from the printed data set and this viewer's own view only: every card
// or tile of the set that the viewer cannot see is elsewhere (not in their hand, not face up in
// the Lineup or the battle). Other players' hands are never known to a phone, so a card listed
// may be in one of them: the rules then take another card printed alike from the pile, or refuse
// with their rule when none is left there. Cards are grouped by what is printed on them (colour,
// strength, movement), never by id: the button sends the first id of its group.
import { _, el } from "/static/js/common.js";
import { colourBlock, colourName, cupName, joinAnd, tileEffect, tileName } from "./words.js";
import { sendAction } from "./hand.js";

const COLOURS = ["red", "blue", "orange", "green"];
const KINDS = ["dumbledore", "double_die", "four_point", "cloak", "red_sparks", "reductor", "summon_hedge", "veritaserum"];
const IDENTITIES = ["cup", "headstone-1", "headstone-2", "headstone-3"];
const PRIVATE = ["card", "tile", "peek", "steal"];
const PUBLIC = ["obstacle", "cup"];

const rank = (list, x) => (list.includes(x) ? list.indexOf(x) : list.length);

/** Who tells a public draw: the active player, or the first seat before the first turn. */
function teller(view) {
  return view.active || view.order[0];
}

/** The draw picker is this player's now (the awaited draw is theirs, or public and theirs to tell). */
export function picksNow(view, me) {
  const a = view.awaiting;
  if (!a || !view.players[me]) return false;
  if (PRIVATE.includes(a.kind)) return a.player === me;
  return PUBLIC.includes(a.kind) && teller(view) === me;
}

let send = (action) => sendAction(action); // the picker's answer: the phone posts the action

function pick(children, action, key, detail) {
  const tell = send;
  return el("button", { type: "button", class: "tw-act tw-draw-pick", "data-action": key, onclick: () => tell(action) },
    el("span", { class: "label" }, children), detail ? el("small", { text: detail }) : null);
}

const mayLeft = (n) => (n === 1 ? _("1 such card may still be drawn") : _("{n} such cards may still be drawn", { n }));
const tilesLeft = (n) => (n === 1 ? _("1 such tile may still be drawn") : _("{n} such tiles may still be drawn", { n }));

/** Groups of items printed alike: [{key, first, count, item}] in the order `order` gives. */
function groups(items, printed, order) {
  const out = new Map();
  for (const item of [...items].sort((x, y) => String(x.id).localeCompare(String(y.id)))) {
    const key = printed(item);
    if (!out.has(key)) out.set(key, { key, first: item.id, count: 0, item });
    out.get(key).count += 1;
  }
  return [...out.values()].sort(order);
}

function battleEntries(view, d, me) {
  const mine = new Set((view.players[me].hand || []).map((c) => c.card));
  if (view.fight && view.fight.card) mine.add(view.fight.card.card); // face up in the battle
  const cards = Object.values(d.battle).filter((c) => !mine.has(c.id));
  return groups(cards, (c) => `${c.colour}-${c.strength}-${c.movement}`,
    (x, y) => rank(COLOURS, x.item.colour) - rank(COLOURS, y.item.colour) || x.item.strength - y.item.strength || x.item.movement - y.item.movement)
    .map((g) => ({
      node: pick([colourBlock(g.item.colour), " ", _("strength {s} · movement {m}", { s: g.item.strength, m: g.item.movement })],
        { type: "draw_card", card: g.first }, `draw-card-${g.key}`, mayLeft(g.count)),
      words: `${colourName(g.item.colour)} ${g.item.strength} ${g.item.movement}`,
    }));
}

function tileEntries(view, d, me, steal) {
  const mine = new Set((view.players[me].tiles || []).map((x) => x.tile));
  const tiles = Object.values(d.tiles).filter((x) => steal || !mine.has(x.id));
  return groups(tiles, (x) => x.kind, (x, y) => rank(KINDS, x.key) - rank(KINDS, y.key)).map((g) => ({
    node: pick([tileName(g.key)], { type: steal ? "steal" : "draw_tile", tile: g.first }, `${steal ? "steal" : "draw-tile"}-${g.key}`,
      steal ? tileEffect(g.key) : `${tilesLeft(g.count)} · ${tileEffect(g.key)}`),
    words: tileName(g.key),
  }));
}

function obstacleEntries(view, d) {
  const shown = new Set((view.lineup || []).filter((o) => o.card).map((o) => o.card));
  const cards = Object.values(d.obstacles).filter((o) => !shown.has(o.id));
  const colours = (o) => [...o.colours].sort((x, y) => rank(COLOURS, x) - rank(COLOURS, y));
  return groups(cards, (o) => `${colours(o).join("-")}-${o.strength}-${o.reward}`,
    (x, y) => x.item.strength - y.item.strength || x.key.localeCompare(y.key)).map((g) => {
    const text = _("strength {strength}, reward {reward}", { strength: g.item.strength, reward: g.item.reward });
    return {
      node: pick([...colours(g.item).map(colourBlock), " ", text], { type: "reveal_obstacle", card: g.first }, `draw-obstacle-${g.key}`, mayLeft(g.count)),
      words: `${joinAnd(colours(g.item).map(colourName))} ${text}`,
    };
  });
}

/** The Cup identities this viewer cannot place elsewhere: not face up, not seen at another slot. */
function cupEntries(view, a, type, me) {
  const cups = view.cups || [];
  const here = cups.find((c) => c.slot === a.slot);
  const known = here && here.peeked;
  const elsewhere = new Set(cups.filter((c) => c.slot !== a.slot).flatMap((c) => [c.face_up, c.peeked]).filter(Boolean));
  const ids = known ? [known] : IDENTITIES.filter((x) => !elsewhere.has(x));
  return ids.map((x) => {
    const action = type === "peek" ? { type, player: me, slot: a.slot, tile: x } : { type, slot: a.slot, tile: x };
    return { node: pick([cupName(x)], action, `${type}-${x}`, null), words: cupName(x) };
  });
}

/** What the drawer is asked, in words. */
function question(a) {
  const n = a.left || 1;
  return {
    card: () => (n > 1 ? _("Draw a Battle Card ({n} to draw): only you will see which.", { n }) : _("Draw a Battle Card: only you will see which.")),
    tile: () => (n > 1 ? _("Draw a Resource Tile ({n} to draw): only you will see which.", { n }) : _("Draw a Resource Tile: only you will see which.")),
    peek: () => _("Look at the Cup Tile on Cup Tile Space {slot}: only you will see it.", { slot: a.slot }),
    steal: () => _("Draw one of {player}'s Resource Tiles blind: which did you take?", { player: a.from || "" }),
    obstacle: () => _("Turn the top Obstacle Card face up in the Lineup: everyone sees it."),
    cup: () => _("Turn the Cup Tile on Cup Tile Space {slot} face up: everyone sees it.", { slot: a.slot }),
  }[a.kind]();
}

/** The picker on this player's phone, or nothing when no draw is theirs to tell now. */
export function drawPicker(snap, d, me) {
  if (!picksNow(snap.view, me)) return [];
  send = (action) => sendAction(action);
  return picker(snap.view, d, me);
}

/** On the host's simulation panel: a public draw (an Obstacle Card laid out, a Cup Tile turned
 * up) picked by its face and told through the panel's hands (`tell`: its sticker tapped at the
 * board's reader, or without one told as the active player's phone would). */
export function hostPicker(snap, d, tap) {
  const a = snap.view && snap.view.awaiting;
  if (!a || !PUBLIC.includes(a.kind)) return [];
  send = (action) => tap(action.type === "flip_cup" ? `cup ${action.tile}` : `obstacle ${action.card}`);
  return picker(snap.view, d, null);
}

function picker(view, d, me) {
  const a = view.awaiting;
  const entries = {
    card: () => battleEntries(view, d, me),
    tile: () => tileEntries(view, d, me, false),
    steal: () => tileEntries(view, d, me, true),
    obstacle: () => obstacleEntries(view, d),
    peek: () => cupEntries(view, a, "peek", me),
    cup: () => cupEntries(view, a, "flip_cup", me),
  }[a.kind]();
  const list = el("div", { class: "tw-draw-list", role: "group", tabindex: "0", "aria-label": _("What did you draw?") },
    entries.map((e) => { e.node.dataset.words = e.words.toLowerCase(); return e.node; }));
  const out = [el("h2", { text: PUBLIC.includes(a.kind) ? _("What was turned up?") : a.kind === "peek" ? _("What did you see?") : _("What did you draw?") }),
    el("p", { class: "prompt mine", text: question(a) }),
    el("p", { class: "hint", text: _("Tap it on the reader, or pick it here.") })];
  if (entries.length > 8) {
    out.push(el("input", { type: "search", class: "tw-draw-find", placeholder: _("Search: colour, number, name"), "aria-label": _("find it"), autocomplete: "off",
      oninput: (ev) => {
        const words = ev.target.value.trim().toLowerCase().split(/\s+/).filter(Boolean);
        for (const b of list.children) b.hidden = !words.every((w) => b.dataset.words.includes(w));
      } }));
  }
  out.push(list);
  return out;
}
