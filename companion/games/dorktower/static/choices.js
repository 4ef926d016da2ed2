// Dork Tower's choices for this moment, from the server's legal actions (and the hand): choosing
// a hero, moving, the city's business, the fight's scrolls and rolls, trading, discarding, the
// tower's turn; the others' invitation to play a scroll against the fighter; and "What did you
// draw?". Part of Dork Tower's page module (page.js).
import { _, el } from "/static/js/common.js";
import { countdownBar, needsText, playedList } from "./fight.js";
import { button, heading, rerender, sellScrollAllowed, sendAction, shopCards, ui } from "./sheet.js";
import {
  ability, dayWord, faceText, goldText, heroName, rich, scrollsText, space, spaceDetail, theBorder,
  tokenText, typeName, wedgeIndex,
} from "./words.js";

function choosePicker(snap, d, legal) {
  const chars = [...new Set(legal.map((a) => a.character))];
  const cities = [...new Set(legal.map((a) => a.city))];
  if (!chars.includes(ui.choose.character)) ui.choose.character = chars[0];
  if (!cities.includes(ui.choose.city)) ui.choose.city = cities[0];
  const pick = () => legal.find((a) => a.character === ui.choose.character && a.city === ui.choose.city);
  const go = el("button", { type: "button", class: "dt-act primary", "data-action": "choose",
    onclick: () => { const a = pick(); if (a) sendAction(a); } });
  const label = () => {
    go.replaceChildren(el("span", { class: "label", text: _("Play {hero}", { hero: d.characters[ui.choose.character].name }) }),
      el("small", { text: _("from {city}", { city: d.spaces[ui.choose.city].name }) }));
  };
  label();
  const charField = el("fieldset", { class: "dt-choices" }, el("legend", { text: _("Your hero") }), chars.map((c) => {
    const ch = d.characters[c];
    const abil = ch.low.abilities.map(ability);
    const limits = ch.low.scroll_limit !== null && ch.low.scroll_limit !== undefined
      ? " · " + _("holds {scrolls} scrolls, {backpack} in the backpack", { scrolls: ch.low.scroll_limit, backpack: ch.low.backpack_limit }) : "";
    return el("label", { class: "dt-choice" }, el("input", { type: "radio", name: "dt-character", value: c, checked: c === ui.choose.character,
      onchange: () => { ui.choose.character = c; label(); } }),
    el("span", {}, el("strong", { text: ch.name }),
      el("small", { text: _("strength {strength} · movement {movement}", ch.low) + (abil.length ? ` · ${abil.join(", ")}` : "") + limits }),
      el("small", { class: "hint", text: _("high level: strength {strength}, movement {movement}", ch.high) })));
  }));
  const cityField = el("fieldset", { class: "dt-choices" }, el("legend", { text: _("Your home city") }), cities.map((c) => el("label", { class: "dt-choice" },
    el("input", { type: "radio", name: "dt-city", value: c, checked: c === ui.choose.city, onchange: () => { ui.choose.city = c; label(); } }),
    el("span", {}, el("strong", { text: d.spaces[c].name }), el("small", { text: _("kingdom of {wedge}", { wedge: d.wedges[wedgeIndex(d, c)].name }) })))));
  return [charField, cityField, go];
}

function stepDetail(d, view, a, me) {
  const info = space(d, view, a.to);
  const here = view.players[me].space;
  const border = d.adjacent[here][a.to];
  const parts = [spaceDetail(info)];
  if (border !== "none") {
    const across = { border: theBorder(border) };
    if (a.cross === "xp") parts.push(_("across {border}: {n} XP", { ...across, n: d.xp.cross_border }));
    else if (a.cross === "whole") parts.push(_("across {border}: all your movement", across));
    else if (a.cross === "scroll") parts.push(_("across {border} with {scroll}", { ...across, scroll: view.players[me].scrolls.find((s) => s.scroll === a.scroll).name }));
    else parts.push(_("across {border}: you cross it freely", across));
  }
  if (a.extra) parts.push(_("extra step: {n} XP", { n: d.xp.extra_step }));
  return parts.join(" · ");
}

function movement(snap, d, me, legal) {
  const view = snap.view;
  const p = view.players[me];
  const out = [heading(_("Move: {left} of {movement} steps left", { left: view.moves_left, movement: p.movement }))];
  const steps = legal.filter((a) => a.type === "step");
  const plain = new Set(steps.filter((a) => !a.extra).map((a) => `${a.to}|${a.cross || ""}`));
  const shown = steps.filter((a) => !a.extra || !plain.has(`${a.to}|${a.cross || ""}`));
  // crossing a border with a movement scroll (DT-BORDER-2 (a)) is among the legal steps: the hand is the player's own
  shown.sort((a, b) => d.spaces[a.to].name.localeCompare(d.spaces[b.to].name));
  out.push(...shown.map((a) => button(`→ ${d.spaces[a.to].name}`, a, { detail: stepDetail(d, view, a, me) })));
  const stop = legal.find((a) => a.type === "stop");
  if (stop) {
    const info = space(d, view, p.space);
    const draw = { n: info.count, type: typeName(info.type), time: dayWord(info.day) };
    const what = info.monsters ? _("fight the monsters here") : info.kind.city ? (info.quest ? _("the quest here") : _("no encounter: city business"))
      : info.count === 1 ? _("draw 1 encounter token ({type}, {time})", draw) : _("draw {n} encounter tokens ({type}, {time})", draw);
    out.push(button(_("Stop on {space}", { space: info.name }), stop, { cls: "primary", detail: what }));
  }
  const enter = legal.find((a) => a.type === "enter_tower");
  if (enter) out.push(button(_("Enter the tower"), enter, { cls: "danger", detail: _("Z'Mindrik summons {n} monsters; nobody flees", { n: d.tower_draw }) }));
  return out;
}


function city(snap, d, me, legal) {
  const view = snap.view;
  const p = view.players[me];
  const out = [heading(_("{city}: shop or work ({gold} gold)", { city: d.spaces[p.space].name, gold: p.gold }))];
  const find = (type) => legal.find((a) => a.type === type);
  if (find("shop")) out.push(button(_("Shop: draw {n} item cards", { n: 2 }), find("shop"), { cls: "primary", detail: _("then buy one face of each card you like") }));
  if (find("work")) out.push(button(_("Work for {n} gold", { n: view.prices.work[p.level] }), find("work"), { detail: _("instead of shopping") }));
  if (view.shop && view.shop.cards.length) out.push(...shopCards(snap, d, legal));
  if (find("shop_more")) out.push(button(_("Draw another item card"), find("shop_more"), { detail: _("{n} XP (you have {xp})", { n: d.xp.extra_shop_card, xp: p.xp }) }));
  if (find("buy_scroll")) out.push(button(_("Buy a scroll"), find("buy_scroll"), { detail: _("{n} gold, drawn blind: only you will see it", { n: view.prices.scroll }) }));
  const sells = legal.filter((a) => a.type === "sell");
  if (sells.length || (sellScrollAllowed(snap, me) && p.scroll_count)) {
    out.push(el("p", { class: "hint", text: _("Sell items and scrolls from your hero sheet below.") }));
  }
  if (find("done")) out.push(button(_("Leave the city"), find("done"), { detail: _("business done") }));
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
    out.push(heading(_("Your scrolls for this fight")));
    out.push(...plays.map((a) => button(a.token ? _("Play {scroll} on the {monster}", { scroll: name(a), monster: c.monsters.find((m) => m.token === a.token).name })
      : _("Play {scroll}", { scroll: name(a) }), a, { detail: text(a) })));
    const done = legal.find((a) => a.type === "done");
    if (done) out.push(button(_("On to the fight"), done, { cls: "primary", detail: plays.length ? _("play no more scrolls") : _("none of your scrolls helps now") }));
  } else if (view.phase === "pre_roll") {
    const six = legal.find((a) => a.type === "buy_six");
    if (six) out.push(button(_("Pay {n} XP for a 6", { n: d.xp.die_to_six }), six, { detail: _("one die shows 6 without rolling (you have {xp} XP)", { xp: view.players[me].xp }) }));
  } else if (view.phase === "defeat") {
    out.push(heading(_("The monsters win this roll")));
    out.push(...plays.map((a) => {
      const sc = mine.find((s) => s.scroll === a.scroll);
      const label = sc && sc.effect.set_die ? _("Play {scroll}: die {n} ({value}) becomes {face}", { scroll: sc.name, n: a.die + 1, value: c.dice[a.die].value, face: sc.effect.set_die })
        : _("Play {scroll}: roll again", { scroll: name(a) });
      return button(label, a, { cls: "primary", detail: text(a) });
    }));
    out.push(...legal.filter((a) => a.type === "flee").map((a) => {
      const to = { type: typeName(d.spaces[a.to].type) };
      return button(_("Flee to {space}", { space: d.spaces[a.to].name }), a, {
        detail: c.space ? _("{type}; the monsters stay on {space} and your turn ends", { ...to, space: d.spaces[c.space].name })
          : _("{type}; the monsters stay and your turn ends", to) });
    }));
    const die = legal.find((a) => a.type === "die");
    if (die) out.push(button(_("Die"), die, { cls: "danger", detail: _("carried home: items, scrolls and gold are lost, XP kept; resurrected next turn") }));
  }
  // a scroll played in this fight may be taken back until someone else plays one (DT-CARD-7)
  if (c && !c.rolls && ["scrolls_own", "scrolls_others", "pre_roll"].includes(view.phase)) {
    const idx = c.played.map((p) => p.player).lastIndexOf(me);
    if (idx >= 0 && c.played.slice(idx + 1).every((p) => p.player === me)) {
      out.push(button(_("Take back {scroll}", { scroll: c.played[idx].name }), { type: "take_back" }, { detail: _("nobody has played a scroll since") }));
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
    if (side.gold) parts.push(goldText(side.gold));
    for (const card of side.items || []) {
      const held = [...view.players[owner].slots, ...view.players[owner].backpack].find((x) => x && x.card === card);
      parts.push(held ? held.name : card);
    }
    if (Array.isArray(side.scrolls)) {
      if (side.scrolls.length) {
        const own = view.players[owner].scrolls;
        parts.push(scrollsShown && own ? side.scrolls.map((s) => (own.find((x) => x.scroll === s) || { name: _("a scroll") }).name).join(", ") : scrollsText(side.scrolls.length));
      }
    } else if (side.scrolls) parts.push(scrollsText(side.scrolls));
    return parts.join(", ") || _("nothing");
  };
  if (o) {
    if (o.to === me) {
      out.push(heading(_("{player} offers you a trade", { player: o.from })));
      out.push(el("p", {}, el("strong", { text: _("You get:") + " " }), describe(o.give, o.from, false)));
      out.push(el("p", {}, el("strong", { text: _("You give:") + " " }), describe(o.take, me, true)));
      const want = o.take.scrolls;
      const mine = view.players[me].scrolls || [];
      ui.accept = ui.accept.filter((s) => mine.some((x) => x.scroll === s)).slice(0, want);
      if (want) {
        out.push(el("fieldset", { class: "dt-choices" }, el("legend", { text: want === 1 ? _("Choose 1 scroll to hand over") : _("Choose {n} scrolls to hand over", { n: want }) }),
          mine.map((s) => el("label", { class: "dt-choice" }, el("input", { type: "checkbox", value: s.scroll, checked: ui.accept.includes(s.scroll),
            onchange: (e) => { ui.accept = e.target.checked ? [...ui.accept, s.scroll] : ui.accept.filter((x) => x !== s.scroll); } }),
          el("span", {}, el("strong", { text: s.name }), el("small", { text: s.text }))))));
      }
      out.push(el("button", { type: "button", class: "dt-act primary", "data-action": "accept",
        onclick: () => sendAction({ type: "accept", scrolls: ui.accept.slice(0, want) }) }, el("span", { class: "label", text: _("Accept") })));
      out.push(button(_("Decline"), { type: "decline" }, { cls: "danger" }));
    } else if (o.from === me) {
      out.push(el("p", {}, _("Waiting for {player}: you give {give}; you ask for {take}.",
        { player: o.to, give: describe(o.give, me, true), take: describe(o.take, o.to, false) })));
      out.push(button(_("Withdraw the offer"), { type: "decline" }, { cls: "danger" }));
    }
    return out;
  }
  const done = legal.find((a) => a.type === "done");
  if (!done) return out;
  const p = view.players[me];
  const partners = view.order.filter((n) => n !== me && view.players[n].space === p.space && !view.players[n].dead);
  if (!partners.length) return [button(_("Carry on"), done, { cls: "primary" })];
  const f = ui.offer && partners.includes(ui.offer.with) ? ui.offer : (ui.offer = { with: partners[0], giveGold: 0, giveItems: [], giveScrolls: [], takeGold: 0, takeItems: [], takeScrolls: 0 });
  const partner = view.players[f.with];
  const held = (q) => [...q.slots.filter((x) => x && x.card), ...q.backpack];
  const num = (key, max, label) => el("label", {}, label, el("input", { type: "number", min: 0, max, value: f[key], inputmode: "numeric",
    oninput: (e) => { f[key] = Math.max(0, Math.min(max, Math.floor(Number(e.target.value)) || 0)); } }));
  const checks = (key, list, text) => list.map((x) => el("label", { class: "check" }, el("input", { type: "checkbox", checked: f[key].includes(x.id),
    onchange: (e) => { f[key] = e.target.checked ? [...f[key], x.id] : f[key].filter((y) => y !== x.id); } }), el("span", { text: text(x) })));
  out.push(heading(_("Trade with a hero on your space")));
  out.push(el("form", { class: "stack dt-offer", onsubmit: (e) => {
    e.preventDefault();
    sendAction({ type: "offer", with: f.with, give: { gold: f.giveGold, items: f.giveItems, scrolls: f.giveScrolls },
      take: { gold: f.takeGold, items: f.takeItems, scrolls: f.takeScrolls } });
  } },
  el("label", {}, _("With"), el("select", { onchange: (e) => { ui.offer = { ...f, with: e.target.value, takeItems: [], takeScrolls: 0 }; rerender(); } },
    partners.map((n) => el("option", { value: n, selected: n === f.with, text: heroName(view, n) })))),
  el("fieldset", { class: "stack" }, el("legend", { text: _("You give") }), num("giveGold", p.gold, _("Gold")),
    checks("giveItems", held(p).map((x) => ({ id: x.card, name: x.name })), (x) => x.name),
    checks("giveScrolls", (p.scrolls || []).map((x) => ({ id: x.scroll, name: x.name })), (x) => _("{scroll} (scroll)", { scroll: x.name }))),
  el("fieldset", { class: "stack" }, el("legend", { text: _("You ask {player} for", { player: f.with }) }), num("takeGold", partner.gold, _("Gold")),
    checks("takeItems", held(partner).map((x) => ({ id: x.card, name: x.name })), (x) => x.name),
    num("takeScrolls", partner.scroll_count, _("Scrolls (any of their {n}, they choose)", { n: partner.scroll_count }))),
  el("button", { type: "submit", class: "primary", "data-action": "offer" }, _("Make the offer"))));
  out.push(button(_("No trade: carry on"), done));
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
    out.push(heading(_("Resolve these tokens first")));
    out.push(...resolves.map((a) => button(_("Resolve the {token}", { token: d.tokens[a.token].name }), a, { detail: tokenText(d.tokens[a.token]) })));
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
      out.push(heading(_("Discard down to your limits")));
      out.push(...discards.filter((a) => (a.scroll && p.scroll_count > p.limits.scrolls) || (a.card && p.backpack.length > p.limits.backpack && p.backpack.some((x) => x.card === a.card))).map((a) => {
        const what = a.scroll ? p.scrolls.find((s) => s.scroll === a.scroll).name : p.backpack.find((x) => x.card === a.card).name;
        return button(_("Discard {item}", { item: what }), a, { cls: "danger", detail: a.scroll ? _("scroll") : _("from the backpack") });
      }));
    }
  }
  const level = legal.find((a) => a.type === "level_up");
  if (level && view.players[me].character) {
    const high = d.characters[view.players[me].character].high;
    out.push(button(_("Level up"), level, { detail: _("{xp} XP: strength {strength}, movement {movement}", { xp: d.xp.level_up, strength: high.strength, movement: high.movement }) }));
  }
  return out;
}

/** The prompt's main action, for the page's sticky bar: turning the tower ends the turn. */
export function endTurn(snap) {
  const end = (snap.legal || []).find((a) => a.type === "end_turn");
  return end ? [button(_("Turn the tower"), end, { cls: "primary tower", detail: _("ends your turn (so does your seat button, or tapping the tower's sticker)") })] : [];
}

/** In the rivals' windows (scrolls_others before the roll, scrolls_after after a winning one):
 * every other player is asked to play a scroll against the fighter, or to pass. A rival whose
 * scrolls cannot be played now is told so and may pass; the countdown is the same for all. */
export function invite(snap, d, me) {
  const view = snap.view;
  const c = view.combat;
  const after = view.phase === "scrolls_after";
  if (!["scrolls_others", "scrolls_after"].includes(view.phase) || !c || view.active === me || !view.players[me]) return [];
  const legal = (snap.legal || []);
  const who = view.active;
  const t = c.totals;
  const out = [];
  if (after) {
    const sum = c.dice.reduce((a, x) => a + x.value, 0);
    out.push(el("h2", { text: _("Answer {player}'s roll with a scroll?", { player: who }) }),
      el("p", {}, _("{player} rolled {roll}, needing {target}: enough to win, unless a scroll changes the dice.", { player: heroName(view, who), roll: sum, target: t.target })));
  } else {
    out.push(el("h2", { text: _("Play a scroll against {player}?", { player: who }) }),
      el("p", {}, rich(_("{player} has {total} against the monsters' {monsters}: {needs} on two dice.", { player: heroName(view, who), total: t.player, monsters: t.monsters }),
        { needs: el("strong", { text: needsText(t.target) }) })));
  }
  if (c.played.length) out.push(playedList(snap, c));
  const plays = legal.filter((a) => a.type === "play_scroll");
  const pass = legal.find((a) => a.type === "pass");
  const mine = view.players[me].scrolls || [];
  if (pass) {
    out.push(...plays.map((a) => {
      const sc = mine.find((s) => s.scroll === a.scroll) || { name: a.scroll, text: "", effect: {} };
      let label = _("Play {scroll} against {player}", { scroll: sc.name, player: who });
      if (sc.effect.set_die) label = _("Play {scroll}: die {n} ({value}) becomes {face}", { scroll: sc.name, n: a.die + 1, value: c.dice[a.die].value, face: sc.effect.set_die });
      else if (sc.effect.reroll) label = _("Play {scroll}: {player} rolls again", { scroll: sc.name, player: who });
      return button(label, a, { cls: "danger", detail: sc.text });
    }));
    if (!plays.length) out.push(el("p", { class: "hint", text: _("None of your scrolls can be played now.") }));
    out.push(button(_("Pass"), pass, { cls: "primary", detail: plays.length ? _("play nothing now") : _("the window closes sooner when everyone has passed") }));
  } else if (c.passed.includes(me)) {
    out.push(el("p", { class: "sub", text: _("You passed. Waiting for the others.") }));
  } else {
    out.push(el("p", { class: "sub", text: _("You hold no scroll: nothing to play.") }));
  }
  const bar = countdownBar(snap);
  if (bar) out.push(bar);
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
    what = a.why === "wizard" ? _("Z'Mindrik summons: draw a token from the bowl.")
      : a.left > 1 ? _("Draw an encounter token from the bowl ({n} to draw).", { n: a.left }) : _("Draw an encounter token from the bowl.");
    entries = Object.values(d.tokens).sort((x, y) => (y.monster - x.monster) || (x.strength || 0) - (y.strength || 0) || x.name.localeCompare(y.name))
      .map((t) => ({ action: { type: "draw_token", token: t.id }, name: t.name, detail: tokenText(t) }));
  } else if (a.kind === "item") {
    what = { shop: () => _("Draw the top item card: the shop offers both faces."), magic: () => _("Draw an item card: its magic face is yours."),
      equipment: () => _("Draw an item card: its equipment face is yours.") }[a.face]?.() || _("Draw an item card.");
    entries = Object.values(d.items).sort((x, y) => x.equipment.name.localeCompare(y.equipment.name)).map((c) => ({
      action: { type: "draw_item", card: c.id }, name: `${c.equipment.name} / ${c.magic.name}`,
      detail: a.face === "shop" ? `${c.equipment.name} ${goldText(c.equipment.price)} · ${c.magic.name} ${goldText(c.magic.price)}` : faceText(c[a.face] || c.equipment) }));
  } else {
    what = _("Draw a scroll: only you will see which.");
    const seen = new Set();
    entries = Object.values(d.scrolls).sort((x, y) => x.name.localeCompare(y.name)).filter((s) => !seen.has(s.name) && seen.add(s.name))
      .map((s) => ({ action: { type: "draw_scroll", scroll: s.id }, name: s.name, detail: s.text }));
  }
  // a list that scrolls is reachable by keyboard even while its buttons wait for an answer
  const list = el("div", { class: "dt-draw-list", role: "group", tabindex: "0", "aria-label": _("What did you draw?") }, entries.map((e) => button(e.name, e.action, { detail: e.detail })));
  const filter = el("input", { type: "search", placeholder: _("Find it by name"), "aria-label": _("find it by name"), autocomplete: "off",
    oninput: (ev) => {
      const q = ev.target.value.trim().toLowerCase();
      for (const b of list.children) b.hidden = q !== "" && !b.textContent.toLowerCase().includes(q);
    } });
  return [el("h2", { text: _("What did you draw?") }), el("p", { class: "prompt mine", text: what }),
    el("p", { class: "hint", text: _("Tap it on the reader, or pick it here.") }), filter, list];
}

