// The Triwizard Maze Game's public table: whose turn, the roll and the allowance, the Obstacle
// Lineup face up, the piles, the battle being fought, and the interrupts everyone sees (the
// Dumbledore counter's window with its countdown, Veritaserum, a choice of spaces). Part of the
// game's page module (page.js).
import { _, el } from "/static/js/common.js";
import { seatLabel } from "/static/js/seats.js";
import { colourBlock, colourName, faceText, joinAnd, rich, spaceName, tileName } from "./words.js";

// -- the countdown (snap.countdown: the same for every viewer) ----------------------------------

const firstSeen = new Map(); // countdown key -> when this page first saw it (its own clock)

function secondsLeft(cd) {
  const now = Date.now() / 1000;
  if (!firstSeen.has(cd.key)) {
    if (firstSeen.size > 20) firstSeen.clear();
    firstSeen.set(cd.key, now);
  }
  // the table's end, unless this phone's clock disagrees with it: then from when it was seen
  const plausible = cd.ends_at !== null && cd.ends_at - now <= cd.seconds + 1 && cd.ends_at - now >= -30;
  const end = plausible ? cd.ends_at : firstSeen.get(cd.key) + cd.seconds;
  return Math.max(0, Math.min(cd.seconds, end - now));
}

function tick(node, cd) {
  const left = secondsLeft(cd);
  node.querySelector("b").textContent = left > 0 ? _("{n} s", { n: Math.ceil(left) }) : _("closing…");
  node.querySelector(".bar > span").style.width = `${(100 * left) / cd.seconds}%`;
}

let ticking = null;

/** The counter window's countdown: a bar and the seconds left, alike on every page. Without a
 * countdown (the window waits) the same line says so, so the prompt keeps its layout. */
export function countdownBar(snap) {
  const cd = snap.countdown;
  if (!cd || !cd.seconds) {
    return el("div", { class: "tw-countdown", role: "timer" }, el("span", { text: _("The window stays open until an answer.") + " " }),
      el("b", {}), el("div", { class: "bar", "aria-hidden": "true" }, el("span", { style: { width: "100%" } })));
  }
  const node = el("div", { class: "tw-countdown", role: "timer", "data-key": cd.key },
    el("span", { text: _("The window closes in") + " " }), el("b", {}), el("div", { class: "bar", "aria-hidden": "true" }, el("span", {})));
  node.countdown = cd;
  tick(node, cd);
  if (ticking === null) {
    ticking = setInterval(() => {
      const shown = [...document.querySelectorAll(".tw-countdown")].filter((n) => n.countdown);
      for (const n of shown) tick(n, n.countdown);
      if (!shown.length) { clearInterval(ticking); ticking = null; }
    }, 250);
  }
  return node;
}

// -- the turn -----------------------------------------------------------------------------------

/** Whose turn, the roll and the allowance, the steps walked. */
export function turnLine(snap, me = null) {
  const view = snap.view;
  if (!view.active) return [];
  const ts = view.turn_state || {};
  const facts = [_("turn {n}", { n: view.turn })];
  if (ts.roll !== null && ts.roll !== undefined) {
    facts.push(ts.roll === "cloak" ? _("rolled the Cloak: no move") : _("rolled {n}: up to {allowance} spaces", { n: ts.roll, allowance: ts.allowance }));
  }
  if (ts.path && ts.path.length) facts.push(ts.path.length === 1 ? _("1 step walked") : _("{n} steps walked", { n: ts.path.length }));
  if (ts.card_played) facts.push(_("Battle Card played"));
  if (ts.tile_played) facts.push(_("Resource Tile played"));
  return [el("p", { class: "tw-whose" }, seatLabel(snap, view.active, view.active === me ? " " + _("(you)") : ""),
    el("span", { class: "hint", text: " " + facts.join(" · ") }))];
}

// -- the Obstacle Lineup and the piles ----------------------------------------------------------

// The view names no face-down card: a position without one is empty only while new Obstacle Cards
// are awaited (TW-OCARD-4); otherwise a defeated card lies there face down (TW-OCARD-3).
function obstacleCard(o, current, refilling = false) {
  if (!o.card && refilling) return el("li", { class: "tw-obstacle empty" }, el("span", { class: "pos", text: `L${o.position}` }), el("small", { text: _("empty") }));
  if (!o.face_up) {
    return el("li", { class: "tw-obstacle down" }, el("span", { class: "pos", text: `L${o.position}` }),
      el("span", { class: "back", "aria-hidden": "true" }), el("small", { text: _("defeated (face down)") }));
  }
  const label = _("Obstacle L{n}: {colours}, strength {strength}, reward {reward}",
    { n: o.position, colours: joinAnd(o.colours.map(colourName)), strength: o.strength, reward: o.reward });
  return el("li", { class: `tw-obstacle up${current ? " current" : ""}`, "aria-label": label + (current ? " · " + _("the one to battle next") : "") },
    el("span", { class: "head", "aria-hidden": "true" }, el("span", { class: "pos", text: `L${o.position}` }),
      el("span", { class: "blocks" }, o.colours.map(colourBlock))),
    el("span", { class: "nums", "aria-hidden": "true" },
      el("b", { class: "strength", text: o.strength }), el("small", { text: _("strength") })),
    el("span", { class: "nums", "aria-hidden": "true" },
      el("b", { class: "reward", text: o.reward }), el("small", { text: _("reward") })),
    current ? el("strong", { class: "next", "aria-hidden": "true", text: "▶ " + _("next") }) : null);
}

/** The Obstacle Lineup face up (L1 beside the draw pile), the current obstacle marked. */
export function lineup(snap) {
  const view = snap.view;
  return [el("ol", { class: "tw-lineup", "aria-label": _("Obstacle Lineup") },
    (view.lineup || []).map((o) => obstacleCard(o, o.position === view.current,
      !!view.awaiting && view.awaiting.kind === "obstacle")))];
}

/** The piles' counts. */
export function piles(snap) {
  const p = snap.view.piles || {};
  const row = (name, deck, discard) => el("li", {}, el("strong", { text: name }),
    el("span", { text: _("{deck} to draw · {discard} discarded", { deck, discard }) }));
  return [el("ul", { class: "tw-piles" },
    row(_("Battle Cards"), p.battle, p.battle_discard),
    row(_("Resource Tiles"), p.tiles, p.tiles_discard),
    row(_("Obstacle Cards"), p.obstacles, p.obstacles_discard))];
}

/** Every player: piece, space, cards and tiles held (counted), the Cloak, an uncleared obstacle. */
export function players(snap, d) {
  const view = snap.view;
  return [el("ul", { class: "tw-players" }, view.order.map((name) => {
    const p = view.players[name];
    const facts = [p.space ? spaceName(d, p.space) : _("off the board"),
      p.hand_count === 1 ? _("1 Battle Card") : _("{n} Battle Cards", { n: p.hand_count }),
      p.tile_count === 1 ? _("1 Resource Tile") : _("{n} Resource Tiles", { n: p.tile_count })];
    if (view.cloak === name) facts.push(_("under the Invisibility Cloak"));
    if (p.uncleared) facts.push(_("on an uncleared obstacle"));
    return el("li", { class: view.active === name ? "active" : "" }, seatLabel(snap, name), el("small", { text: facts.join(" · ") }));
  }))];
}

// -- the battle ---------------------------------------------------------------------------------

const RESULTS = {
  won: () => _("Won: the obstacle is defeated."),
  short: () => _("Short of the obstacle's strength."),
  lost: () => _("Lost: the player to the right pushes the piece back."),
  no_match: () => _("No matching Battle Card: lost, pushed back up to 4 spaces."),
};

/** The battle: the obstacle, the card played, the rolls and the total against the strength. */
export function fight(snap, d, me = null) {
  const view = snap.view;
  const f = view.fight;
  if (!f) return [];
  const o = f.obstacle || {};
  const out = [el("h2", { text: _("Battle") }),
    el("p", { class: "tw-fighter" }, rich(_("{player} battles on {space}:", { space: spaceName(d, f.space) }),
      { player: seatLabel(snap, f.player, f.player === me ? " " + _("(you)") : "") }))];
  if (o.card) out.push(el("ol", { class: "tw-lineup one" }, obstacleCard(o, true)));
  if (f.card) {
    out.push(el("p", { class: "tw-played" }, _("Battle Card played:") + " ", cardFace(f.card)));
  }
  if (f.rolls && f.rolls.length) {
    out.push(el("p", { class: "tw-total" }, _("Rolls {rolls} (the Cloak counts 0) · total {total} against {strength}",
      { rolls: f.rolls.map(faceText).join(" + "), total: f.total, strength: f.strength ?? o.strength })));
  }
  if (f.result && RESULTS[f.result]) {
    const good = f.result === "won";
    out.push(el("p", { class: `tw-banner ${good ? "good" : "bad"}`, role: "status", "data-result": f.result },
      el("strong", { text: (good ? "✔ " : "✘ ") + RESULTS[f.result]() })));
  }
  if (view.push_back) {
    const pb = view.push_back;
    out.push(el("p", { class: "sub" }, rich(_("{by} pushes {player} back up to {n} spaces.", { n: pb.max }),
      { by: seatLabel(snap, pb.by), player: seatLabel(snap, f.player) })));
  }
  if (view.advance) out.push(el("p", { class: "sub", text: _("{player} may advance up to {n} spaces.", { player: f.player, n: view.advance.max }) }));
  return out;
}

/** A Battle Card's face: its colour as a block with its name, its strength and its movement. */
export function cardFace(c) {
  return el("span", { class: "tw-card-face" }, colourBlock(c.colour),
    el("span", { text: _("strength {s} · movement {m}", { s: c.strength, m: c.movement }) }));
}

// -- interrupts every viewer sees ---------------------------------------------------------------

/** What an interrupt is, in words, for the players it does not ask (the same for each of them). */
export function interruptNote(snap, me = null) {
  const view = snap.view;
  const it = view.interrupt;
  if (!it) return [];
  const by = it.by || it.caster || view.active;
  if (it.kind === "dumbledore") {
    if (it.player === me) return []; // the target's own prompt (hand.js) says it
    return [el("h2", { text: tileName("dumbledore") }),
      el("p", {}, rich(_("{by} plays Albus Dumbledore against {player}'s Cloak. Waiting for {player}: counter or not.", { player: it.player }),
        { by: seatLabel(snap, by) })), countdownBar(snap)];
  }
  if (it.kind === "veritaserum") {
    const target = it.target || it.from || null;
    if (it.player === me || by === me) return [];
    return [el("h2", { text: tileName("veritaserum") }),
      el("p", { text: target ? _("{by} makes {player} show their Resource Tiles and takes one.", { by, player: target })
        : _("{by} takes a Resource Tile with Veritaserum.", { by }) })];
  }
  if (it.kind === "overflow" && it.player !== me) {
    return [el("p", { class: "sub", text: _("{player} holds more than 6 Resource Tiles and discards down to 6.", { player: it.player }) })];
  }
  if (it.kind === "choose" && it.player !== me) {
    return [el("p", { class: "sub", text: it.piece && it.piece !== it.player
      ? _("{player} chooses where {piece}'s piece goes.", { player: it.player, piece: it.piece })
      : _("{player} chooses a space.", { player: it.player }) })];
  }
  return [];
}
