// What a player may do now, from the server's legal actions and the view: the prompts that ask
// only them (the Dumbledore counter, Veritaserum's pick, a choice of spaces), the turn's actions
// (confirm the setup, who shouted first, swap the hand, take off the Cloak, battle, place the
// Cloak, stay, decline the Double Die) and ending the turn. Part of the game's page module.
import { _, el } from "/static/js/common.js";
import { seatLabel } from "/static/js/seats.js";
import { countdownBar } from "./battle.js";
import { button, heading } from "./hand.js";
import { cupName, legalOf, rich, spaceName, tileEffect, tileName } from "./words.js";

/** The Dumbledore counter's prompt on the target's phone: always the same question, the same two
 * buttons and the same countdown, whatever the hand holds (TW-RES-DUMB-2; section 7: it must not
 * tell whether the target holds a Dumbledore tile). Counter is enabled only when one is held. */
function counterPrompt(snap, me) {
  const view = snap.view;
  const it = view.interrupt;
  const by = it.by || it.caster || view.active;
  const counter = legalOf(snap, "counter")[0];
  const decline = legalOf(snap, "decline")[0];
  return [
    el("h2", { text: _("Counter with Albus Dumbledore?") }),
    el("p", {}, rich(_("{by} plays Albus Dumbledore against your Cloak. If it stands, the Cloak goes beside the board and your piece to the nearest empty Penalty Space."),
      { by: seatLabel(snap, by) })),
    el("div", { class: "tw-two" },
      button(_("Counter"), counter || { type: "counter", player: me }, { key: "counter", cls: "primary", disabled: !counter,
        detail: _("play your own Albus Dumbledore: both are discarded, the Cloak stays") }),
      button(_("Let it stand"), decline || { type: "decline", player: me }, { key: "decline", disabled: !decline,
        detail: _("the Cloak comes off") })),
    countdownBar(snap),
  ];
}

/** Veritaserum on the caster's phone: the target's tiles (only in the caster's view), take one. */
function veritaserumPrompt(snap, me) {
  const view = snap.view;
  const it = view.interrupt;
  const target = it.target || it.from || null;
  const takes = legalOf(snap, "take");
  return [
    el("h2", { text: tileName("veritaserum") }),
    el("p", { text: target ? _("{player} shows you their Resource Tiles: take one.", { player: target }) : _("Take one of the tiles shown.") }),
    el("ul", { class: "tw-tiles" }, (view.veritaserum || []).map((t) => el("li", { class: `tw-tile t-${t.kind}` },
      el("strong", { text: tileName(t.kind) }), el("small", { text: tileEffect(t.kind) }),
      button(_("Take {tile}", { tile: tileName(t.kind) }), { type: "take", player: me, tile: t.tile },
        { disabled: !takes.some((a) => a.tile === t.tile), cls: "small" })))),
  ];
}

/** A choice of spaces (TW-AMB-5/6/32/34): a button per space, as well as the map's rings. */
function choosePrompt(snap, d, me) {
  const it = snap.view.interrupt;
  const offered = it.spaces || it.options || [];
  return [el("h2", { text: _("Choose a space") }),
    el("p", { text: !it.piece || it.piece === me ? _("Where does your piece go? These spaces are as near as each other: choose one.")
      : _("Where does {player}'s piece go? These spaces are as near as each other: choose one.", { player: it.piece }) }),
    offered.map((id) => button(spaceName(d, id), { type: "choose", player: me, space: id }))];
}

/** The prompts that ask this player alone, now. */
export function asks(snap, d, me) {
  const view = snap.view;
  const it = view.interrupt;
  if (!it || !view.players[me]) return [];
  const by = it.by || it.caster || view.active;
  if (it.kind === "dumbledore" && it.player === me) return counterPrompt(snap, me);
  if (it.kind === "veritaserum" && (view.veritaserum || by === me)) return veritaserumPrompt(snap, me);
  if (it.kind === "choose" && it.player === me) return choosePrompt(snap, d, me);
  if (it.kind === "overflow" && it.player === me) {
    return [el("h2", { text: _("Too many Resource Tiles") }), el("p", { text: _("You may hold 6: discard one below, under Your Resource Tiles.") })];
  }
  return [];
}

/** What this player's cup peeks show (only their own view holds them). */
export function peeks(snap) {
  const seen = (snap.view.cups || []).filter((c) => c.peeked && !c.face_up);
  return seen.length ? [heading(_("What you saw")), el("ul", { class: "tw-facts" }, seen.map((c) =>
    el("li", { text: _("Cup Tile {n}: {tile}", { n: c.slot, tile: cupName(c.peeked) }) })))] : [];
}

/** The turn's actions (not the ones in the hand's cards, nor ending the turn). */
export function actions(snap, d, me) {
  const view = snap.view;
  if (!view.players[me]) return [];
  const out = [];
  const one = (type) => legalOf(snap, type)[0];
  const placed = one("placed");
  if (placed) out.push(button(_("The maze is ready"), placed, { cls: "primary", detail: _("pieces on the Entrance, the Cup Tiles face down, the Wandering Hedge in the centre") }));
  const first = one("first");
  if (first) out.push(button(_("I shouted a spell first"), first, { detail: _("the first to shout a spell taught at Hogwarts starts") }));
  for (const tie of legalOf(snap, "tie")) out.push(button(_("A tie: {players} roll", { players: tie.players.join(", ") }), tie, { key: `tie-${tie.players.join("-")}` }));
  const battle = one("battle");
  if (battle) out.push(button(_("Battle the obstacle"), battle, { cls: "primary", detail: _("you stand on an uncleared Obstacle Space: battle instead of rolling") }));
  const swap = one("swap_hand");
  if (swap) out.push(button(_("Swap your hand"), swap, { detail: _("discard your Battle Cards and draw 4: your turn ends") }));
  const remove = one("remove_cloak");
  if (remove) out.push(button(_("Take off the Cloak"), remove, { detail: _("your whole turn: roll an odd number (the Cloak face is not odd)") }));
  const places = legalOf(snap, "place_cloak");
  if (places.length) {
    out.push(heading(view.phase === "removal_place" ? _("The Cloak is off: where does it go?") : _("You rolled the Cloak: put it on a piece")));
    for (const a of places) {
      out.push(a.on === null ? button(_("Beside the board"), a, { detail: _("no piece wears it") })
        : button(a.on === me ? _("On your own piece") : _("On {player}'s piece", { player: a.on }), a));
    }
  }
  const moves = legalOf(snap, "move").filter((a) => Array.isArray(a.path) && a.path.length === 0);
  if (view.phase === "moving" && view.active === me && (moves.length || view.reach)) {
    out.push(button(_("Stay here"), moves[0] || { type: "move", player: me, path: [] }, { key: "move-stay", detail: _("end the move where you stand") }));
  }
  if (view.phase === "battle_short" && view.active === me) {
    const decline = one("decline");
    if (decline) out.push(button(_("No Double Die"), decline, { detail: _("the battle is lost") }));
    if (!legalOf(snap, "play_tile").length) out.push(el("p", { class: "hint", text: _("The roll fell short.") }));
  }
  const stay = (type) => legalOf(snap, type).find((a) => Array.isArray(a.path) && a.path.length === 0);
  if (stay("advance")) out.push(button(_("Do not advance"), stay("advance"), { key: "advance-stay", detail: _("stay on the Obstacle Space") }));
  if (stay("push_back")) out.push(button(_("Do not push back"), stay("push_back"), { key: "push_back-stay", detail: _("the piece stays where it is") }));
  return out;
}

/** The prompt's main action, for the page's sticky bar: ending the turn. */
export function endTurn(snap, me) {
  const end = legalOf(snap, "end_turn")[0];
  return end ? [button(_("End your turn"), end, { key: "end_turn", cls: "primary", detail: _("the die passes to the next player") })] : [];
}

/** What the table waits for, when it is a draw or a flip: who draws what. */
export function awaitingLine(snap) {
  const said = awaitedWords(snap.view.awaiting);
  return said ? [el("p", { class: "sub", text: said })] : [];
}

/** An awaited draw, reveal, flip, peek or steal in words (null for a roll or nothing). */
export function awaitedWords(a) {
  if (!a || a.kind === "die") return null;
  const v = { player: a.player || "" };
  const said = {
    card: () => _("Waiting for {player} to draw a Battle Card.", v),
    tile: () => _("Waiting for {player} to draw a Resource Tile.", v),
    obstacle: () => _("Waiting for an Obstacle Card to be laid in the Lineup."),
    cup: () => _("Waiting for the Cup Tile to be turned face up."),
    peek: () => _("Waiting for {player} to look at a Cup Tile, unseen by the others.", v),
    steal: () => _("Waiting for {player} to draw a tile blind.", v),
  }[a.kind];
  return said ? said() : null;
}
