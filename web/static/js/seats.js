// The seats on every page: each player's colour and shape (so no one depends on hue alone), the
// same for the generic pages and the games' page modules (which import it as /static/js/seats.js).
import { el } from "./common.js";

// The shapes of the seats, in seat order (the new-game wizard draws them too).
export const MARKS = ["●", "▲", "■", "◆", "★", "✚", "⬟"];

// A seat's colour class ("c-bluish-green"), shape and colour name.
export function seat(snap, name) {
  const colour = (snap.game.colours[name] || "").replace(/ /g, "-");
  const index = snap.game.players.indexOf(name);
  return { cls: `c-${colour}`, mark: MARKS[index % MARKS.length], colour: snap.game.colours[name] };
}

// A player's name with their seat's colour and shape ("● Elena"), and an optional suffix.
export function seatLabel(snap, name, suffix = "") {
  return seatText(snap, name, name + suffix);
}

// A seat's colour and shape with a text of its own about that player ("Elena's rack").
export function seatText(snap, name, text) {
  const s = seat(snap, name);
  return el("span", { class: `seat ${s.cls}` },
    el("span", { class: "mark", "aria-hidden": "true", text: s.mark }), text);
}
