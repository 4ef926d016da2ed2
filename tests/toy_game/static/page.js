// Race to Ten on the pages (a toy game of the tests): the track on the table display and on each
// player's page, the end-turn choice on the active player's phone, and the bonus card in the
// simulation panel. Written against docs/pages.md only.
import { _, el, replace } from "/static/js/common.js";
import { seatLabel } from "/static/js/seats.js";

function track(snap) {
  const view = snap.view;
  return el("ol", { class: "toy-track", id: "toy-track" }, view.order.map((name) =>
    el("li", { "data-player": name }, seatLabel(snap, name),
      el("span", { class: "toy-position", text: _("{n} of {goal}", { n: view.players[name].position, goal: view.goal }) }))));
}

function cards(ctx) {
  if (!ctx.area.hasChildNodes()) {
    ctx.area.append(el("section", { class: "card wide", id: "toy-card" },
      el("h2", { text: _("The race") }), el("div", { id: "toy-race" })));
  }
}

export function table(snap, ctx) {
  cards(ctx);
  replace("toy-race", track(snap));
  return snap.view.bonus ? _("The bonus card is played.") : "";
}

export function player(snap, ctx) {
  cards(ctx);
  const mine = snap.legal.map((action) => el("button", { type: "button", "data-action": action.type, class: "primary",
    onclick: () => ctx.send({ type: action.type }) }, _("End my turn")));
  replace("toy-race", [track(snap), el("div", { class: "row", id: "toy-choices" }, mine)]);
  return "";
}

export function progress(snap) {
  return _("goal {goal}", { goal: snap.view.goal });
}

export function simulation(world) {
  return [el("div", { class: "place" }, el("span", { text: _("Bonus card stickers: {n}", { n: world.bonus.length }) }))];
}
