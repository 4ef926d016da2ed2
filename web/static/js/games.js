// The games' page modules: each game draws its own part of every page with the module in its
// package, served at /games/<id>/static/page.js (docs/pages.md). A page loads it, with the
// stylesheets it names, the first time a snapshot names that game; the generic parts of the page
// (the prompt, refusals, events, dice, joins, pause...) never wait for it.
import { el, useGame } from "./common.js";

const loaded = new Map(); // game id -> { module: the module once it is there, waiting: callbacks }

// The page module of the game `id`: null when there is no game or while the module loads (then
// `ready` is called once it is there); {} for a game without a page module.
export function gamePage(id, ready) {
  useGame(id);  // its own catalog's texts win while the page shows it
  if (!id) return null;
  let entry = loaded.get(id);
  if (!entry) {
    entry = { module: null, waiting: new Set() };
    loaded.set(id, entry);
    load(id).then((module) => {
      entry.module = module;
      entry.waiting.forEach((callback) => callback());
      entry.waiting.clear();
    });
  }
  if (!entry.module) entry.waiting.add(ready);
  return entry.module;
}

async function load(id) {
  const folder = `/games/${encodeURIComponent(id)}/static/`;
  let module;
  try {
    module = await import(`${folder}page.js`);
  } catch (err) {
    console.warn(`companion: the game ${id} has no page module:`, err);
    return {};
  }
  // its stylesheets, before the page is drawn with them
  await Promise.all((module.styles || []).map((name) => new Promise((done) => {
    document.head.append(el("link", { rel: "stylesheet", href: folder + name, onload: done, onerror: done }));
  })));
  return module;
}
