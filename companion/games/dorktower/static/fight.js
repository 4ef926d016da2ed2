// Dork Tower's fights: this turn's fight (the monsters, the totals, the scrolls played, the
// dice), the encounter being resolved, the last fight's result, and what an awaited roll is for.
// Part of Dork Tower's page module (page.js).
import { _, el } from "/static/js/common.js";
import { seatLabel } from "/static/js/seats.js";
import { dice, shopCards } from "./sheet.js";
import {
  SIGNED, dataWord, goldText, heroName, rich, rowLabel, scrollEffect, tokenText, treasureName, xpText,
} from "./words.js";

export const needsText = (n) => _("needs {n} or more", { n });

// -- the countdown of the rivals' scroll windows (snap.countdown: the same for every viewer) ----

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
  const whole = Math.ceil(left);
  node.querySelector("b").textContent = left > 0 ? _("{n} s", { n: whole }) : _("closing…");
  node.querySelector(".bar > span").style.width = `${(100 * left) / cd.seconds}%`;
}

let ticking = null;

/** The rivals' scroll window's countdown: a bar and the seconds left, alike on every page. */
export function countdownBar(snap) {
  const cd = snap.countdown;
  if (!cd) return null;
  const node = el("div", { class: "dt-countdown", role: "timer", "data-key": cd.key },
    el("span", { text: _("The scroll window closes in") + " " }), el("b", {}),
    el("div", { class: "bar", "aria-hidden": "true" }, el("span", {})));
  node.countdown = cd;
  tick(node, cd);
  if (ticking === null) {
    ticking = setInterval(() => {
      const shown = document.querySelectorAll(".dt-countdown");
      for (const n of shown) tick(n, n.countdown);
      if (!shown.length) { clearInterval(ticking); ticking = null; }
    }, 250);
  }
  return node;
}

/** The scrolls played in this fight: who played which, and what it does. */
export function playedList(snap, c) {
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
      el("strong", { text: m.name }), el("span", { class: "num", "data-label": _("strength"), text: m.strength }),
      el("small", { text: `${m.types.map(dataWord).join(", ")} · ${xpText(m.xp)}` + (removed[i] ? " · " + _("removed by a scroll") : "") })))));

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
      const answerable = view.phase === "scrolls_after";
      out.push(el("p", { class: `dt-banner ${lost ? "bad" : answerable ? "good" : ""}` }, dice(c.dice.map((x) => x.value), c.dice.filter((x) => x.six).length),
        ` = ${sum}`, lost ? el("strong", { text: " ✘ " + _("not enough: the monsters win this roll (needed {n})", { n: t.target }) })
          : answerable ? el("strong", { text: " ✔ " + _("enough (needed {n}), unless a rival's scroll changes the dice", { n: t.target }) }) : null));
    }
    const nobody = _("nobody");
    const status = {
      scrolls_own: () => _("{player} may play scrolls first.", { player: who }),
      scrolls_others: () => _("The others may play scrolls against {player}: waiting for {waiting}.",
        { player: who, waiting: view.waiting_for.join(", ") || nobody }),
      pre_roll: () => _("{player} rolls two dice.", { player: who }),
      scrolls_after: () => _("The others may answer {player}'s roll with scrolls: waiting for {waiting}.",
        { player: who, waiting: view.waiting_for.join(", ") || nobody }),
      defeat: () => view.prompt, // what is possible and why not (DT-SPACE-8, DT-WIZ-5, DT-DEFEAT-5): the rules' words
    }[view.phase];
    const rivals = ["scrolls_others", "scrolls_after"].includes(view.phase);
    // passing is said aloud at the table: who passed is public, and never depends on a hand
    if (c.passed.length && rivals) out.push(el("p", { class: "hint", text: _("Passed: {players}", { players: c.passed.join(", ") }) }));
    if (status) out.push(el("p", { class: "sub", text: status() }));
    if (rivals) out.push(countdownBar(snap));
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
      el("strong", { text: m.name }), m.monster ? el("span", { class: "num", "data-label": _("strength"), text: m.strength }) : null,
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

// -- the dice -----------------------------------------------------------------------------------

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

