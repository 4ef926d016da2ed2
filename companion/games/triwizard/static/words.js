// The Triwizard Maze Game's words on a page: the sheet's names for its components (in Italian the
// sheet's own terms), the colours, the tiles and what each does, the Cup Tiles, and a few helpers
// shared by the other parts. Part of the game's page module (page.js).
import { _, el } from "/static/js/common.js";

// the four colours of the cards, each with a letter besides its hue (colour-blind safe)
const COLOUR_NAMES = {
  red: () => _("red"), blue: () => _("blue"), orange: () => _("orange"), green: () => _("green"),
};
export const colourName = (c) => (COLOUR_NAMES[c] ? COLOUR_NAMES[c]() : c);

/** A colour block: the colour as a swatch with its name written in it. */
export function colourBlock(colour) {
  return el("span", { class: `tw-colour k-${colour}` }, colourName(colour));
}

const TILE_NAMES = {
  dumbledore: () => _("Albus Dumbledore"),
  double_die: () => _("Double Die"),
  four_point: () => _("Four Point Spell"),
  cloak: () => _("Invisibility Cloak"),
  red_sparks: () => _("Red Sparks"),
  reductor: () => _("Reductor Curse"),
  summon_hedge: () => _("Summon Hedge"),
  veritaserum: () => _("Veritaserum"),
};
export const tileName = (kind) => (TILE_NAMES[kind] ? TILE_NAMES[kind]() : kind);

const TILE_EFFECTS = {
  dumbledore: () => _("Take the Cloak off a piece and send that piece to the nearest empty Penalty Space; or cancel one played against you."),
  double_die: () => _("In a battle, after a roll that fell short: roll again and add it."),
  four_point: () => _("Look secretly at one face-down Cup Tile."),
  cloak: () => _("Put the Invisibility Cloak on any piece on the board, yours too."),
  red_sparks: () => _("Draw one Resource Tile blind from another player."),
  reductor: () => _("After your roll: cross Green Hedge in a straight line, 1 space each; you cannot stop on it."),
  summon_hedge: () => _("Move the Wandering Hedge to an open Path space."),
  veritaserum: () => _("An opponent shows you their tiles: take one."),
};
export const tileEffect = (kind) => (TILE_EFFECTS[kind] ? TILE_EFFECTS[kind]() : "");

const FEATURES = {
  entrance: () => _("Maze Entrance"),
  obstacle: () => _("Obstacle Space"),
  gold_mist: () => _("Gold Mist Space"),
  penalty: () => _("Penalty Space"),
  hedge_home: () => _("the Wandering Hedge's starting space"),
  portkey: () => _("Portkey Space"),
  headstone: () => _("Headstone Space"),
  cup_slot: () => _("Cup Tile Space"),
};

/** A space's feature in words ("Portkey Space A", "Headstone Space 2"), or null. */
export function featureName(sp) {
  if (!sp || !sp.feature) return null;
  const name = FEATURES[sp.feature] ? FEATURES[sp.feature]() : sp.feature;
  if (sp.feature === "portkey") return `${name} ${sp.pair}`;
  if (sp.feature === "headstone" || sp.feature === "cup_slot") return `${name} ${sp.number}`;
  return name;
}

/** A Cup Tile's identity in words. */
export function cupName(identity) {
  if (identity === "cup") return _("the Triwizard Cup");
  const m = /^headstone-(\d)$/.exec(identity || "");
  return m ? _("Headstone Tile {n}", { n: m[1] }) : identity;
}

/** A place of the declared maze ("path", "gold_mist", "cup:2", "headstone:1") in words. */
export function placeName(label) {
  const [kind, number] = String(label).split(":");
  if (kind === "path") return _("Path");
  if (kind === "cup") return featureName({ feature: "cup_slot", number });
  if (kind === "headstone") return featureName({ feature: "headstone", number });
  return FEATURES[kind] ? FEATURES[kind]() : label;
}

/** A space's name for people: its feature, else "Path x,y" (the data set's id when it names it);
 * a place of the declared maze in words. */
export function spaceName(d, id) {
  const sp = d && d.board.spaces[id];
  if (!sp) return placeName(id);
  const where = /^\d+,\d+$/.test(id) ? `${sp.x + 1},${sp.y + 1}` : id;
  const kind = sp.kind === "green_hedge" ? _("Green Hedge") : _("Path");
  const feat = featureName(sp);
  return feat ? `${feat} (${where})` : `${kind} ${where}`;
}

/** A die face in words: a number, or the Cloak. */
export const faceText = (f) => (f === "cloak" ? _("Cloak") : String(f));

/** "a, b and c". */
export const joinAnd = (list) => (list.length ? list.map(String).reduce((a, b) => _("{a} and {b}", { a, b })) : "");

/** A translated sentence with elements in it: each placeholder named in `nodes` is replaced by
 * that element, the others are left as text. */
export function rich(text, nodes) {
  const out = [];
  let last = 0;
  text.replace(/\{(\w+)\}/g, (whole, key, at) => {
    if (!(key in nodes)) return whole;
    if (at > last) out.push(text.slice(last, at));
    out.push(nodes[key]);
    last = at + whole.length;
    return whole;
  });
  if (last < text.length) out.push(text.slice(last));
  return out;
}

/** The legal actions of this viewer of a type (snap.legal holds only the viewer's). */
export const legalOf = (snap, type) => (snap.legal || []).filter((a) => a.type === type);

/** The data set's name as the view gives it (a name, or an object with one). */
export const setName = (view) => (view.data_set && typeof view.data_set === "object" ? view.data_set.name : view.data_set);
