// The declared maze (the `maze` option "declared": a table without the board's data): no map to
// tap, so the mover declares each walk on the phone, how many spaces it takes and the kind of
// space it ends on, from the walks the rules list as legal. Part of the game's page module.
import { _, el } from "/static/js/common.js";
import { button, heading, sendAction } from "./hand.js";
import { placeName } from "./words.js";

const WALKS = ["move", "advance", "push_back"];
const ui = { end: null, steps: null, reductor: false };

/** Whether the game's moves are declared rather than walked on the data set's grid. */
export const declared = (view) => Boolean(view.options && view.options.maze === "declared");

const endKey = (a) => (a.end === "cup" ? `cup:${a.slot}` : a.end === "headstone" ? `headstone:${a.number}` : a.end);

/** The form that declares this viewer's walk now (a move, an advance, a push-back), or nothing. */
export function declareWalk(snap, me) {
  const view = snap.view;
  const walks = (snap.legal || []).filter((a) => WALKS.includes(a.type) && typeof a.steps === "number");
  if (!walks.length) return [];
  const type = walks[0].type;
  const most = Math.max(...walks.map((a) => a.steps));
  const ends = [...new Set(walks.map(endKey))];
  if (!ends.includes(ui.end)) ui.end = ends[0];
  const least = () => (ui.end === "path" ? 0 : 1);
  if (ui.steps === null || ui.steps > most || ui.steps < least()) ui.steps = Math.min(most, Math.max(least(), 1));
  const mine = (view.players[me] && view.players[me].tiles) || [];
  const reductor = type === "move" && !(view.turn_state && view.turn_state.tile_played) ? mine.find((t) => t.kind === "reductor") : null;
  const action = () => {
    const template = walks.find((a) => endKey(a) === ui.end) || walks[0];
    const a = { ...template, steps: ui.steps };
    if (reductor && ui.reductor) a.reductor = reductor.tile;
    return a;
  };
  const steps = el("select", { id: "tw-declare-steps", onchange: (e) => { ui.steps = Number(e.target.value); } },
    Array.from({ length: most + 1 }, (_x, n) => n).map((n) => el("option", { value: n, selected: n === ui.steps, text: String(n) })));
  const end = el("select", { id: "tw-declare-end", onchange: (e) => { ui.end = e.target.value; } },
    ends.map((k) => el("option", { value: k, selected: k === ui.end, text: placeName(k) })));
  const title = {
    move: () => _("Declare your move: up to {n} spaces", { n: most }),
    advance: () => _("Declare your advance: up to {n} spaces", { n: most }),
    push_back: () => _("Declare how far {player} goes back: up to {n} spaces", { player: view.active, n: most }),
  }[type]();
  const go = { move: () => _("Move"), advance: () => _("Advance"), push_back: () => _("Push back") }[type]();
  return [
    heading(title),
    el("p", { class: "hint", text: _("This table has no board data: count the spaces on the board and say where the piece ends.") }),
    el("label", { class: "tw-pick" }, el("span", { text: _("Spaces walked") }), steps),
    el("label", { class: "tw-pick" }, el("span", { text: _("Ends on") }), end),
    reductor ? el("label", { class: "tw-check" }, el("input", { type: "checkbox", id: "tw-declare-reductor", checked: ui.reductor,
      onchange: (e) => { ui.reductor = e.target.checked; } }), _("Through Green Hedge with the Reductor Curse")) : null,
    button(go, { type }, { key: "declare", cls: "primary", run: () => sendAction(action()) }),
  ];
}
