// The host page: new game, pause, undo, end, the kept games (kept_games.js), seats and their
// codes, stickers, the PIN, and the simulated table's controls. The game's own part of the simulation panel is drawn by its page
// module (games.js, docs/pages.md).
import { _, deviceName, el, events, live, post, refusals, replace, showPutBack, toast } from "./common.js";
import { confirmed, loadGames, withConfirmation } from "./kept_games.js";
import { gamePage } from "./games.js";
import { endLink } from "./play_end.js";
import { seatLabel, seatText } from "./seats.js";
import { wizard } from "./wizard.js";

const main = document.getElementById("main");
const base = main.dataset.base;
const simulated = main.dataset.simulated === "yes";
let setup = null;
let lastGameId = null;

async function loadSetup() {
  const response = await fetch(`${base}/api/setup`);
  setup = await response.json();
  renderJoin();
  renderTags();
}

// The game whose stickers the Stickers card is about.
function tagGame() {
  return setup.games.find((g) => g.id === document.getElementById("tag-game").value) || setup.games[0];
}

function renderTagGames() {
  replace("tag-game", setup.games.map((g) => el("option", { value: g.id, text: g.title })));
  renderComponents();
}

function renderComponents() {
  replace("component", Object.keys(tagGame().components).map((c) => el("option", { value: c, text: c })));
}

function renderJoin() {
  document.getElementById("host-pin").textContent = setup.pin;
  document.getElementById("display-link").href = setup.display;
  document.getElementById("new-pin").hidden = setup.pin_configured;
  document.getElementById("brightness").value = String(setup.brightness);
  document.getElementById("brightness-value").textContent = `${Math.round(setup.brightness * 100)} %`;
}

// The seats: who has joined, the codes of the seats no phone has taken, and hand-over.
function renderSeats(snap) {
  const players = snap.game ? snap.game.players : [];
  const open = new Map((snap.joins || []).map((j) => [j.player, j]));
  document.getElementById("join-card").hidden = players.length === 0;
  replace("seats", players.map((player) => el("li", { "data-seat": player },
    seatLabel(snap, player), " ",
    el("span", { class: open.has(player) ? "hint" : "ok", text: open.has(player) ? _("waiting for a phone") : _("joined") }), " ",
    el("button", { type: "button", "data-hand-over": player, onclick: () => handOver(player) }, _("Hand over")))));
  replace("join", [...open.values()].map((j) => {
    const url = `${location.origin}/join/${encodeURIComponent(j.code)}`;
    return el("figure", {},
      el("img", { src: `/join/${encodeURIComponent(j.code)}.svg`, alt: _("QR code to join as {player}", { player: j.player }), width: 200, height: 200 }),
      el("figcaption", {}, el("strong", { text: j.player }), el("br"), el("a", { href: url, target: "_blank", rel: "noopener", "data-join": j.player, text: _("join link") })));
  }));
}

async function handOver(player) {
  if (!confirm(_("Give {player}'s seat to another phone? The phone that has it now loses it.", { player }))) return;
  const result = await post(`${base}/api/hand_over`, { player });
  if (result.ok) toast(_("{player}'s seat has a new code.", { player }));
}

function renderTags() {
  const counts = setup.tags[tagGame().id] || {};
  const box = tagGame().components;
  const total = Object.values(box).reduce((a, b) => a + b, 0);
  const done = Object.entries(box).reduce((a, [c, n]) => a + Math.min(counts[c] || 0, n), 0);
  const counted = { done, total, game: tagGame().title };
  document.getElementById("tag-counts").textContent = done && done < total
    ? _("{done} of {total} stickers of {game} enrolled: the guide goes on with the first one missing.", counted)
    : done === total ? _("{done} of {total} stickers of {game} enrolled: all of them.", counted)
      : _("{done} of {total} stickers of {game} enrolled.", counted);
  const bar = document.getElementById("tag-progress");
  bar.setAttribute("aria-valuenow", String(Math.round((100 * done) / (total || 1))));
  document.getElementById("tag-progress-bar").style.width = `${(100 * done) / (total || 1)}%`;
  document.getElementById("guide-start").textContent = done === 0 ? _("Enrol the stickers") : done < total ? _("Go on enrolling") : _("All enrolled");
  document.getElementById("guide-start").disabled = done === total;
}

// The guide: what the table waits for, with its progress ("tap a stone 2: 1 of 2 enrolled").
function renderGuide(enrolling) {
  const guided = Boolean(enrolling && enrolling.guide);
  document.getElementById("guide").hidden = !enrolling;
  document.getElementById("guide-stop").hidden = !enrolling;
  document.getElementById("guide-start").hidden = guided;
  document.getElementById("sim-box-tap")?.toggleAttribute("hidden", !enrolling);
  document.getElementById("enrolling").textContent = enrolling && !guided ? _("Waiting for a sticker to enrol as {component}…", { component: enrolling.component }) : "";
  if (!enrolling) return;
  const many = enrolling.component_total > 1;
  const component = enrolling.component;
  document.getElementById("guide-ask").textContent = many
    ? _("Tap a {component} on the reader", { component }) : _("Tap {component} on the reader", { component });
  document.getElementById("guide-sub").textContent = _("{component}: {component_done} of {component_total} enrolled · " +
    "{done} of {total} in all. A sticker that is already enrolled is refused.", { component,
    component_done: enrolling.component_done, component_total: enrolling.component_total, done: enrolling.done, total: enrolling.total });
  const bar = document.getElementById("tag-progress");
  if (enrolling.game === tagGame().id) {
    bar.setAttribute("aria-valuenow", String(Math.round((100 * enrolling.done) / enrolling.total)));
    document.getElementById("tag-progress-bar").style.width = `${(100 * enrolling.done) / enrolling.total}%`;
  }
}

document.getElementById("tag-game").addEventListener("change", () => { renderComponents(); renderTags(); });
document.getElementById("guide-start").addEventListener("click", () => post(`${base}/api/enrol/guide`, { game: tagGame().id }));
document.getElementById("guide-stop").addEventListener("click", () => post(`${base}/api/enrol/cancel`));
document.getElementById("forget-game-tags").addEventListener("click", async () => {
  if (!confirm(_("Forget every sticker of {game}? They must then be enrolled again.", { game: tagGame().title }))) return;
  const result = await post(`${base}/api/tags/forget_game`, { game: tagGame().id });
  if (result.ok) { toast(_("{n} stickers forgotten.", { n: result.count })); loadSetup(); }
});

document.getElementById("undo").addEventListener("click", async () => {
  await post(`${base}/api/undo`); // what was undone, and what goes back by hand, shows under the prompt
});
document.getElementById("pause").addEventListener("click", () => post(`${base}/api/pause`));
document.getElementById("resume").addEventListener("click", () => post(`${base}/api/resume`));
document.getElementById("end-game").addEventListener("click", async () => {
  const game = lastSnap && lastSnap.game;
  if (!game) return;
  const text = game.finished
    ? _("End the game of {game}? It is over: it stays in the list of finished games.", { game: game.title })
    : _("End the game of {game} ({progress})? It is kept: you can resume it from the list of games.", { game: game.title, progress: game.progress || "—" });
  if (!(await confirmed(text, _("End the game")))) return;
  const result = await post(`${base}/api/end_game`);
  if (result.ok) { toast(_("The game has ended.")); document.getElementById("new-game-card").open = true; }
});
document.getElementById("brightness").addEventListener("input", (e) => {
  document.getElementById("brightness-value").textContent = `${Math.round(Number(e.target.value) * 100)} %`;
});
document.getElementById("brightness").addEventListener("change", async (e) => {
  const result = await post(`${base}/api/settings`, { brightness: Number(e.target.value) });
  if (result.ok) toast(_("The LEDs' brightness is set."));
});
document.getElementById("new-pin").addEventListener("click", async () => {
  const result = await post(`${base}/api/new_pin`);
  if (result.ok) { toast(_("The PIN has changed.")); loadSetup(); }
});
document.getElementById("sign-out").addEventListener("click", async () => {
  const result = await post(`${base}/api/sign_out`);
  if (result.ok) location.assign("/");
});

document.getElementById("enrol").addEventListener("submit", async (e) => {
  e.preventDefault();
  const result = await post(`${base}/api/enrol`, { game: tagGame().id, component: document.getElementById("component").value });
  if (result.ok) toast(_("Now tap the sticker on the reader."));
});

document.getElementById("import-tags").addEventListener("change", async (e) => {
  const file = e.target.files[0];
  if (!file) return;
  let data;
  try { data = JSON.parse(await file.text()); } catch (err) { toast(_("That file is not JSON."), true); return; }
  const result = await post(`${base}/api/tags`, { data });
  if (result.ok) { toast(_("{n} stickers imported.", { n: result.count })); loadSetup(); }
});

// Each device: connected or not, and the noise it sent (what it sensed and said is on the
// device status page, which only the host opens).
function devices(list) {
  const items = Object.entries(list).sort(([a], [b]) => a.localeCompare(b)).map(([name, d]) => el("li", { "data-device": name },
    el("strong", { text: deviceName(name) }), " ",
    el("span", { class: d.connected === false ? "bad" : "ok", text: d.connected === false ? _("not connected") : _("connected") }),
    d.noise ? el("div", { class: "hint", text: _("{n} errors", { n: d.noise }) }) : null));
  return items.length ? items : [el("li", { class: "muted", text: _("No device has reported yet.") })];
}

let lastSnap = null;
let lastListed = null; // the game at the table when the list of games was last read
const redraw = () => render(lastSnap);

function render(snap) {
  lastSnap = snap;
  const page = gamePage(snap.game && snap.game.game, redraw);
  replace("devices", devices(snap.devices || {}));
  replace("refusals", refusals(snap.refusals));
  replace("events", events(snap.events, 12, page && page.eventNote));
  renderGuide(snap.enrolling);
  document.getElementById("undo").disabled = !(snap.game && snap.game.undoable);
  const paused = Boolean(snap.game && snap.game.paused);
  document.getElementById("paused").hidden = !paused;
  document.getElementById("pause").hidden = !snap.game || paused;
  document.getElementById("resume").hidden = !paused;
  document.getElementById("end-game").hidden = !snap.game;
  renderSeats(snap);
  const listed = snap.game ? `${snap.game.id}:${snap.game.finished}` : "";
  if (listed !== lastListed) { lastListed = listed; loadGames(base, () => lastSnap && lastSnap.game); }
  if (snap.game && snap.game.id !== lastGameId) {
    lastGameId = snap.game.id;
    if (setup) loadSetup();
    document.getElementById("new-game-card").open = false;  // a game runs: the form steps aside
  }
  document.getElementById("sim")?.toggleAttribute("hidden", !snap.view);
  if (snap.game) document.body.dataset.game = snap.game.game;
  else delete document.body.dataset.game;
  if (!snap.view) {
    document.getElementById("prompt").textContent = _("No game at the table: set one up below, or resume a kept one.");
  } else {
    document.getElementById("prompt").textContent = snap.view.prompt;
    const progress = page && page.progress ? page.progress(snap) : snap.game.progress;
    document.getElementById("sub").textContent = [snap.game.title, progress, snap.view.order.join(", ")].filter(Boolean).join(" · ");
  }
  showPutBack(snap, () => post(`${base}/api/put_back/dismiss`));
  endLink(snap.game, `${base}/plays`);
  if (simulated) refreshWorld(snap);
  if (setup && snap.events.some((e) => ["tag_enrolled", "tags_imported", "tags_forgotten", "tags_complete"].includes(e.type))) loadSetup();
}

// -- the simulated table -------------------------------------------------------------------

async function sim(act, body = {}) {
  const result = await post(`${base}/sim/${act}`, body);
  if (result.ok === false && !result.rule) toast(_("Nothing to do for that now."), true);
  return result;
}

let worldBusy = false;
let worldNext = null; // a snapshot that came while the world was being fetched: drawn after
async function refreshWorld(snap) {
  if (worldBusy) { worldNext = snap; return; }
  worldBusy = true;
  try {
    const world = await (await fetch(`${base}/sim/world`)).json();
    renderWorld(world, snap);
  } finally { worldBusy = false; }
  if (worldNext) {
    const next = worldNext;
    worldNext = null;
    refreshWorld(next);
  }
}

// The game's own controls (the server names them and their labels), one button each.
let controlsShown = null;
function renderControls(controls) {
  const key = JSON.stringify(controls);
  if (key === controlsShown) return; // the same buttons: left as they are
  controlsShown = key;
  replace("sim-controls", controls.map((c) => el("button", { type: "button", id: `sim-${c.act.replace(/_/g, "-")}`, "data-sim": c.act,
    class: c.primary ? "primary" : null, onclick: () => sim(c.act) }, c.label)));
}

// What the game's page module draws the simulation panel's world with.
const panel = { sim, redraw };

// "I play as": the seat this host plays, for which the server sends the panel blind. A phone that
// holds the seat (it joined with its code while signed in as host) cannot choose another.
let playsShown = null;
function renderPlays(world) {
  const plays = world.plays || { player: null, held: false };
  const seats = world.seats || [];
  const key = JSON.stringify([plays, seats]);
  if (key === playsShown) return;
  playsShown = key;
  const select = document.getElementById("sim-plays");
  select.replaceChildren(el("option", { value: "", text: _("nobody: I only host (every stone shown)") }),
    ...seats.map((name) => el("option", { value: name, text: name })));
  select.value = plays.player || "";
  select.disabled = plays.held;
  const badge = document.getElementById("sim-blind-badge");
  badge.hidden = !plays.player;
  badge.textContent = plays.player ? _("blind for {player}", { player: plays.player }) : "";
  document.getElementById("sim-plays-hint").textContent = plays.held
    ? _("This phone holds {player}'s seat: the panel hides what {player} may not see, for as long as it does.", { player: plays.player })
    : plays.player ? _("The panel hides what {player} may not see.", { player: plays.player })
      : _("Do you play too? Choose your seat, and your own pieces are never shown here.");
}

async function choosePlays(e) {
  const player = e.target.value || null;
  if (!player && !confirm(_("Show every stone, your own included? Only if you do not play."))) {
    playsShown = null;
    refreshWorld(lastSnap);
    return;
  }
  await post(`${base}/sim/plays`, { player });
  playsShown = null;
  refreshWorld(lastSnap);
}

let ledLegend = {};

function renderWorld(world, snap) {
  renderPlays(world);
  renderControls(world.controls || []);
  const legendKey = JSON.stringify(world.leds || {});
  if (legendKey !== JSON.stringify(ledLegend)) {
    ledLegend = world.leds || {};
    if (lastFrames) renderLeds(lastFrames);
  }
  const page = gamePage(world.game, redraw);
  replace("world", page && page.simulation ? page.simulation(world, snap, panel) : []);
  renderDice(snap);
}

// The dice's faces to roll by hand; several dice awaited together get a row each.
function renderDice(snap) {
  const awaited = snap.dice && snap.dice.awaited;
  const faces = awaited ? [...new Set(awaited.faces)] : [1, 2, 3, 4, 5, 6];
  const count = awaited ? awaited.dice : 1;
  if (count <= 1) {
    replace("sim-faces", faces.map((f) => el("button", { type: "button", "data-face": f, onclick: () => sim("roll", { face: f }) }, _("Roll {face}", { face: f }))));
  } else {
    const rolled = snap.dice.rolled || {};
    replace("sim-faces", [...Array(count).keys()].map((die) => el("span", { class: "row", "data-die-row": die },
      el("span", { class: "hint", text: rolled[die] ? _("Die {n} (shows {face}):", { n: die + 1, face: rolled[die] }) : _("Die {n}:", { n: die + 1 }) }),
      faces.map((f) => el("button", { type: "button", "data-face": f, "data-die": die, onclick: () => sim("roll", { face: f, die }) }, `${f}`)))));
  }
  const seats = snap.view ? snap.view.order : [];
  replace("sim-buttons", seats.map((name, i) => el("span", { class: "row" },
    el("button", { type: "button", "data-press": i, onclick: () => sim("press", { seat: i }) }, seatText(snap, name, _("{player}'s button", { player: name }))),
    el("button", { type: "button", "data-long-press": i, onclick: () => sim("press", { seat: i, long: true }) }, _("hold")))));
}

// -- the LED strips, as the table shows them, with their legend -------------------------------

// The tower strip is a ring round the tower's base: 8 wedges, wedge 0 at the top, its pixels
// clockwise from the counter-clockwise edge of wedge 0. Every other strip is a row.
const ringPixel = (i, n) => {
  const angle = 2 * Math.PI * ((i + 0.5) / n - 1 / 16);  // clockwise from the top
  return { left: `${50 + 42 * Math.sin(angle)}%`, top: `${50 - 42 * Math.cos(angle)}%` };
};

// The legend part a pixel belongs to (within a seat's segment for a strip that repeats per seat).
const partOf = (legend, k) => legend.parts.find((p) => k >= p.first && k < p.first + p.count);
const pixel = (c, part, title) => el("i", { class: `px ${part ? part.kind : ""}`, style: { background: c, color: c }, title });

function strip(name, pixels, legend) {
  if (legend.parts.some((p) => p.kind === "ring")) {
    return el("div", { class: "strip ring", "data-strip": name }, pixels.map((c, i) =>
      el("i", { class: "px", style: { background: c, color: c, ...ringPixel(i, pixels.length) }, title: `${name} ${i}` })));
  }
  if (!legend.per_seat) {
    return el("div", { class: "strip", "data-strip": name }, pixels.map((c, i) => pixel(c, partOf(legend, i), `${name} ${i + 1}`)));
  }
  // One segment per seat that is played, its status light set apart by a gap and its own shape.
  const order = lastSnap && lastSnap.view ? lastSnap.view.order : [];
  return el("div", { class: "strip seats", "data-strip": name }, order.map((player, seatNo) => {
    const base = seatNo * legend.per_seat;
    const lights = [];
    for (let k = 0; k < legend.per_seat && base + k < pixels.length; k++) {
      const part = partOf(legend, k);
      lights.push(pixel(pixels[base + k], part, `${player}: ${k + 1}`));
      if (part && part.kind === "status") lights.push(el("span", { class: "gap" }));
    }
    return el("div", { class: "segment", "data-seat": seatNo }, el("span", { class: "seat-name" }, seatText(lastSnap, player, player)), el("span", { class: "lights" }, lights));
  }));
}

function legendList(legend) {
  return el("ul", { class: "led-legend" }, legend.parts.map((p) =>
    el("li", { "data-kind": p.kind }, el("i", { class: `px ${p.kind} sample`, "aria-hidden": "true" }), el("span", { text: p.label }))));
}

let lastFrames = null;
function renderLeds(frames) {
  lastFrames = frames;
  // Only the strips the game being played uses, each with what its lights mean.
  const used = Object.entries(frames).filter(([name]) => ledLegend[name]);
  replace("leds", used.length ? used.map(([name, pixels]) => el("figure", { class: "led-strip", "data-led-strip": name },
    strip(name, pixels, ledLegend[name]), el("figcaption", {}, legendList(ledLegend[name]))))
    : [el("p", { class: "hint", text: _("No game: the LEDs are dark.") })]);
}

if (simulated) {
  document.querySelectorAll("[data-sim]").forEach((b) => b.addEventListener("click", () => sim(b.dataset.sim)));
  document.getElementById("sim-plays").addEventListener("change", choosePlays);
  const stream = new EventSource(document.getElementById("leds").dataset.stream);
  stream.addEventListener("frame", (e) => renderLeds(JSON.parse(e.data)));
}

await loadSetup();
renderTagGames();
renderTags();
wizard({ setup, base, seats: Number(main.dataset.seats), onStarted: () => loadSetup(),
  start: (body) => withConfirmation(`${base}/api/new_game`, body, _("Set it aside and start"), lastSnap && lastSnap.game) });
live(main.dataset.stream, render);
