// The Plays list (the host's and the table display's): every game set up at this table, newest
// first, filtered by game and by player, a page at a time; each opens to be stepped through, and a
// finished one has its BG Stats link (docs/plays.md).
import { _, el, replace } from "./common.js";
import { facts, result, scoreList } from "./play_facts.js";

const main = document.getElementById("main");
const gameSelect = document.getElementById("plays-game");
const playerSelect = document.getElementById("plays-player");
let page = 1;

function item(play) {
  return el("li", { class: "card", "data-play": play.id, "data-finished": play.finished ? "yes" : "no" },
    el("h3", {}, el("a", { href: play.link, text: _("{game} · play {id}", { game: play.title, id: play.id }) })),
    el("p", { class: "hint", text: facts(play) }),
    el("p", { class: "plays-result", text: result(play) }),
    scoreList(play),
    el("p", { class: "row" },
      el("a", { class: "button", href: play.link, text: _("Step through it") }),
      play.bgstats ? el("a", { class: "button", href: play.bgstats, "data-bgstats": play.id, rel: "noopener", text: _("Log in BG Stats") }) : null));
}

function options(select, values, chosen) {
  const first = select.options[0];
  select.replaceChildren(first, ...values.map(([value, label]) => el("option", { value, selected: value === chosen ? true : null, text: label })));
}

async function load() {
  const query = new URLSearchParams();
  if (gameSelect.value) query.set("game", gameSelect.value);
  if (playerSelect.value) query.set("player", playerSelect.value);
  query.set("page", String(page));
  const response = await fetch(`${main.dataset.api}?${query}`, { headers: { Accept: "application/json" } });
  const data = await response.json();
  if (!data.ok) { document.getElementById("plays-count").textContent = data.reason || _("The plays cannot be read."); return; }
  options(gameSelect, data.games.map((g) => [g.id, g.title]), data.filter.game || "");
  options(playerSelect, data.players.map((p) => [p, p]), data.filter.player || "");
  document.getElementById("plays-count").textContent = data.total === 0 ? _("No play matches.")
    : _("{total} plays · page {page} of {pages}", { total: data.total, page: data.page, pages: data.pages });
  replace("plays", data.plays.map(item));
  document.getElementById("plays-newer").hidden = data.page <= 1;
  document.getElementById("plays-older").hidden = data.page >= data.pages;
}

gameSelect.addEventListener("change", () => { page = 1; load(); });
playerSelect.addEventListener("change", () => { page = 1; load(); });
document.getElementById("plays-newer").addEventListener("click", () => { page -= 1; load(); });
document.getElementById("plays-older").addEventListener("click", () => { page += 1; load(); });
document.getElementById("plays-filter").addEventListener("submit", (e) => e.preventDefault());
load();
