// A player's own Battle Cards and Resource Tiles on their phone: each card's colour, strength and
// movement, each tile's kind and what it does, and the controls to play them (a card in a battle,
// a tile with what it needs: a player, a Cup Tile, a space, who gets the Cloak). Only the viewer's
// own view holds them; the table display never calls this. Part of the game's page module.
import { _, el } from "/static/js/common.js";
import { cardFace } from "./battle.js";
import { cupName, legalOf, spaceName, tileEffect, tileName } from "./words.js";

// -- buttons ------------------------------------------------------------------------------------

/** What a button does (the page's send) and how the page is drawn again after a choice made on
 * the page only (a picker's value): set by the page for each drawing. */
export let sendAction = () => {};
export let rerender = () => {};
export function useActions(send, again) {
  sendAction = send;
  rerender = again;
}
/** What the player has picked on the page and not sent yet, kept across drawings. */
export const ui = { picks: {} };

/** A stable name for a button, for tests and for people reading the page's code. */
export function actionKey(a) {
  const on = a.type === "place_cloak" ? (a.on === null ? "aside" : a.on) : null;
  return [a.type, a.card, a.tile, on, a.space, a.type === "first" ? a.player : null].filter((x) => x !== undefined && x !== null).join("-");
}

export function button(label, action, { detail = null, cls = "", disabled = false, key = null, run = null } = {}) {
  return el("button", { type: "button", class: `tw-act ${cls}`.trim(), disabled,
    "data-action": key || actionKey(action), onclick: () => (run ? run() : sendAction(action)) },
  el("span", { class: "label", text: label }), detail ? el("small", { text: detail }) : null);
}

export function heading(text) { return el("h3", { class: "tw-sub", text }); }

// -- the choices a tile needs -------------------------------------------------------------------

// which field of play_tile each kind needs (TW-AMB-12 and the design's actions)
const PARAM = { dumbledore: "target", red_sparks: "target", veritaserum: "target", four_point: "slot", cloak: "on", summon_hedge: "space" };

/** The open spaces for the Wandering Hedge (TW-RES-HEDGE-2/3): Path, no symbol (its own starting
 * space counts as none), no side touching Dark Hedge or the board's edge, no piece on it. */
export function openSpaces(d, view) {
  const b = d.board;
  const taken = new Set(view.order.map((n) => view.players[n].space));
  return Object.values(b.spaces).filter((sp) => {
    if (sp.kind !== "path" || (sp.feature && sp.feature !== "hedge_home") || taken.has(sp.id) || sp.id === view.hedge) return false;
    return [[1, 0], [-1, 0], [0, 1], [0, -1]].every(([dx, dy]) => {
      const id = b.at[`${sp.x + dx},${sp.y + dy}`];
      return id !== undefined && b.spaces[id] && ["path", "green_hedge"].includes(b.spaces[id].kind);
    });
  }).map((sp) => sp.id);
}

/** The values a tile's parameter may take: from the legal actions when they name them, else from
 * the view (the rules refuse a wrong one with its rule). */
function values(snap, d, me, tile, kind) {
  const view = snap.view;
  const param = PARAM[kind];
  if (!param) return [];
  const named = legalOf(snap, "play_tile").filter((a) => a.tile === tile && param in a).map((a) => a[param]);
  if (named.length) return [...new Set(named)];
  const others = view.order.filter((n) => n !== me);
  if (kind === "dumbledore") return view.cloak && view.cloak !== me ? [view.cloak] : [];
  if (kind === "red_sparks" || kind === "veritaserum") return others.filter((n) => view.players[n].tile_count > 0);
  if (kind === "four_point") return (view.cups || []).filter((c) => !c.face_up).map((c) => c.slot);
  if (kind === "cloak") return view.order.filter((n) => view.players[n].space && n !== view.cloak);
  if (kind === "summon_hedge") return openSpaces(d, view);
  return [];
}

function valueText(d, view, kind, v) {
  if (kind === "four_point") {
    const c = (view.cups || []).find((x) => x.slot === v);
    return c && c.peeked ? _("Cup Tile {n} (you saw {tile})", { n: v, tile: cupName(c.peeked) }) : _("Cup Tile {n}", { n: v });
  }
  if (kind === "summon_hedge") return spaceName(d, v);
  return v;
}

const PICK_LABEL = {
  dumbledore: () => _("whose Cloak"), red_sparks: () => _("from whom"), veritaserum: () => _("whom"),
  four_point: () => _("which Cup Tile"), cloak: () => _("on whose piece"), summon_hedge: () => _("to which space"),
};

/** A tile's picker and its Play button, when the rules let it be played now. */
function tileControls(snap, d, me, t) {
  const view = snap.view;
  const plays = legalOf(snap, "play_tile").filter((a) => a.tile === t.tile);
  if (!plays.length) return [];
  const param = PARAM[t.kind];
  const action = { type: "play_tile", player: me, tile: t.tile };
  if (!param) return [button(_("Play {tile}", { tile: tileName(t.kind) }), action, { cls: "primary" })];
  const vals = values(snap, d, me, t.tile, t.kind);
  if (!vals.length) return [el("p", { class: "hint", text: _("Nothing to play it on now.") })];
  if (!vals.includes(ui.picks[t.tile])) ui.picks[t.tile] = vals[0];
  const go = button(_("Play {tile}", { tile: tileName(t.kind) }), action,
    { cls: "primary", run: () => sendAction({ ...action, [param]: ui.picks[t.tile] }) });
  const select = el("select", { id: `tw-pick-${t.tile}`, onchange: (e) => { ui.picks[t.tile] = e.target.value; } },
    vals.map((v) => el("option", { value: v, selected: v === ui.picks[t.tile], text: valueText(d, view, t.kind, v) })));
  return [el("label", { class: "tw-pick" }, el("span", { text: PICK_LABEL[t.kind]() }), select), go];
}

// -- the hand -----------------------------------------------------------------------------------

/** The viewer's Battle Cards, with a Play button on each in a battle (battle_select). Every card
 * is listed the same way whether or not it matches; a card that does not match has its button
 * disabled, and "No matching card" is always there, enabled only when it is true. */
export function hand(snap, d, me) {
  const view = snap.view;
  const p = view.players[me];
  if (!p || !p.hand) return [];
  const selecting = view.phase === "battle_select" && view.active === me && !view.interrupt;
  const plays = legalOf(snap, "play_card");
  const out = [heading(_("Your Battle Cards ({n} of 4)", { n: p.hand.length }))];
  out.push(el("ul", { class: "tw-hand" }, p.hand.map((c) => el("li", { class: `tw-card k-${c.colour}` }, cardFace(c),
    selecting ? button(_("Play this card"), { type: "play_card", player: me, card: c.card },
      { disabled: !plays.some((a) => a.card === c.card), cls: "small" }) : null))));
  if (!p.hand.length) out.push(el("p", { class: "muted", text: _("No Battle Card in hand.") }));
  if (selecting) {
    const none = legalOf(snap, "no_match")[0];
    out.push(button(_("No matching card"), none || { type: "no_match", player: me },
      { disabled: !none, detail: _("the battle is lost: pushed back up to 4 spaces") }));
  }
  return out;
}

/** The viewer's Resource Tiles: kind, what it does, and how to play it now. */
export function tiles(snap, d, me) {
  const view = snap.view;
  const p = view.players[me];
  if (!p || !p.tiles) return [];
  const out = [heading(_("Your Resource Tiles ({n} of 6)", { n: p.tiles.length }))];
  if (!p.tiles.length) out.push(el("p", { class: "muted", text: _("No Resource Tile.") }));
  const overflow = view.interrupt && view.interrupt.kind === "overflow" && view.interrupt.player === me;
  const discards = legalOf(snap, "discard_tile");
  out.push(el("ul", { class: "tw-tiles" }, p.tiles.map((t) => {
    const controls = [];
    if (overflow) {
      const a = discards.find((x) => x.tile === t.tile);
      controls.push(button(_("Discard this tile"), a || { type: "discard_tile", player: me, tile: t.tile }, { disabled: !a, cls: "danger small" }));
    } else if (t.kind === "reductor") {
      controls.push(el("small", { class: "hint", text: _("Played by tapping a route that needs it, after your roll.") }));
    } else {
      controls.push(...tileControls(snap, d, me, t));
    }
    return el("li", { class: `tw-tile t-${t.kind}` }, el("strong", { text: tileName(t.kind) }),
      el("small", { text: tileEffect(t.kind) }), controls);
  })));
  return out;
}
