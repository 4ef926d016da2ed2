// The host page: new game, pause, undo, end, seats and their codes, stickers, the PIN, and the
// simulated table's controls.
import { el, events, live, post, refusals, replace, toast } from "./common.js";
import * as abr from "./games/abracadawhat.js";
import * as dt from "./games/dorktower.js";

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

function currentGame() {
  return setup.games.find((g) => g.id === document.getElementById("game").value) || setup.games[0];
}

function renderForm() {
  const select = document.getElementById("game");
  select.replaceChildren(...setup.games.map((g) => el("option", { value: g.id, text: g.title })));
  const field = document.getElementById("players-field");
  const legend = field.querySelector("legend");
  const defaults = ["Elena", "Denise", "Marta"];
  field.replaceChildren(legend, ...defaults.map((name, i) => playerInput(i, name)));
  renderOptions();
  renderComponents();
}

function playerInput(i, value = "") {
  return el("label", {}, `Seat ${i + 1}`, el("input", { name: "player", value, required: true, autocomplete: "off", "aria-label": `player at seat ${i + 1}` }));
}

function renderOptions() {
  const game = currentGame();
  const field = document.getElementById("options");
  const legend = field.querySelector("legend");
  const inputs = game.options.map((o) => {
    const initial = o.name in game.table_defaults ? game.table_defaults[o.name] : o.default;
    const help = el("span", { class: "hint", text: `${o.doc} (${o.rule})` });
    if (typeof o.default === "boolean") {
      return el("label", { class: "check" }, el("input", { type: "checkbox", name: o.name, checked: initial }), el("span", {}, o.name.replace(/_/g, " "), " ", help));
    }
    if (o.choices.length) {
      return el("label", {}, o.name.replace(/_/g, " "), el("select", { name: o.name }, o.choices.map((c) => el("option", { value: c, text: c, selected: c === initial }))), help);
    }
    return el("label", {}, o.name.replace(/_/g, " "), el("input", { name: o.name, value: JSON.stringify(initial), "data-json": "yes" }), help);
  });
  field.replaceChildren(legend, ...inputs);
}

function renderComponents() {
  const game = currentGame();
  replace("component", Object.keys(game.components).map((c) => el("option", { value: c, text: c })));
}

function renderJoin() {
  document.getElementById("host-pin").textContent = setup.pin;
}

// The seats: who has joined, the codes of the seats no phone has taken, and hand-over.
function renderSeats(snap) {
  const players = snap.game ? snap.game.players : [];
  const open = new Map((snap.joins || []).map((j) => [j.player, j]));
  document.getElementById("join-card").hidden = players.length === 0;
  replace("seats", players.map((player, i) => el("li", { "data-seat": player },
    el("span", { class: `seat c-${snap.game.colours[player]}` }, el("span", { class: "mark", "aria-hidden": "true", text: String(i + 1) }), player), " ",
    el("span", { class: open.has(player) ? "hint" : "ok", text: open.has(player) ? "waiting for a phone" : "joined" }), " ",
    el("button", { type: "button", "data-hand-over": player, onclick: () => handOver(player) }, "Hand over"))));
  replace("join", [...open.values()].map((j) => {
    const url = `${location.origin}/join/${encodeURIComponent(j.code)}`;
    return el("figure", {},
      el("img", { src: `/join/${encodeURIComponent(j.code)}.svg`, alt: `QR code to join as ${j.player}`, width: 200, height: 200 }),
      el("figcaption", {}, el("strong", { text: j.player }), el("br"), el("a", { href: url, target: "_blank", rel: "noopener", "data-join": j.player, text: "join link" })));
  }));
}

async function handOver(player) {
  if (!confirm(`Give ${player}'s seat to another phone? The phone that has it now loses it.`)) return;
  const result = await post(`${base}/api/hand_over`, { player });
  if (result.ok) toast(`${player}'s seat has a new code.`);
}

function renderTags() {
  const counts = setup.tags[currentGame().id] || {};
  const total = Object.values(counts).reduce((a, b) => a + b, 0);
  const box = Object.values(currentGame().components).reduce((a, b) => a + b, 0);
  document.getElementById("tag-counts").textContent = `${total} of ${box} stickers enrolled: ` +
    Object.entries(counts).map(([c, n]) => `${c} ×${n}`).join(", ");
}

document.getElementById("game")?.addEventListener("change", () => { renderOptions(); renderComponents(); renderTags(); });
document.getElementById("add-player").addEventListener("click", () => {
  const field = document.getElementById("players-field");
  const count = field.querySelectorAll("input").length;
  if (count < currentGame().max_players) field.append(playerInput(count));
});
document.getElementById("remove-player").addEventListener("click", () => {
  const labels = document.getElementById("players-field").querySelectorAll("label");
  if (labels.length > currentGame().min_players) labels[labels.length - 1].remove();
});

document.getElementById("new-game").addEventListener("submit", async (e) => {
  e.preventDefault();
  const players = [...document.querySelectorAll("#players-field input")].map((i) => i.value.trim());
  const options = {};
  for (const input of document.querySelectorAll("#options input, #options select")) {
    if (input.type === "checkbox") options[input.name] = input.checked;
    else if (input.dataset.json) {
      try { options[input.name] = JSON.parse(input.value); } catch (err) { toast(`${input.name}: not valid JSON`, true); return; }
    } else options[input.name] = input.value;
  }
  const result = await post(`${base}/api/new_game`, { game: currentGame().id, players, options });
  if (result.ok) { toast("The game has started."); await loadSetup(); }
});

document.getElementById("undo").addEventListener("click", async () => {
  const result = await post(`${base}/api/undo`);
  if (result.ok) toast("Undone.");
});
document.getElementById("pause").addEventListener("click", () => post(`${base}/api/pause`));
document.getElementById("resume").addEventListener("click", () => post(`${base}/api/resume`));
document.getElementById("end-game").addEventListener("click", async () => {
  if (!confirm("End the game? It is kept in the log, but it cannot be played on.")) return;
  const result = await post(`${base}/api/end_game`);
  if (result.ok) { toast("The game has ended."); document.getElementById("new-game-card").open = true; }
});
document.getElementById("new-pin").addEventListener("click", async () => {
  const result = await post(`${base}/api/new_pin`);
  if (result.ok) { toast("The PIN has changed."); loadSetup(); }
});
document.getElementById("sign-out").addEventListener("click", async () => {
  const result = await post(`${base}/api/sign_out`);
  if (result.ok) location.assign("/");
});

document.getElementById("enrol").addEventListener("submit", async (e) => {
  e.preventDefault();
  const result = await post(`${base}/api/enrol`, { game: currentGame().id, component: document.getElementById("component").value });
  if (result.ok) toast("Now tap the sticker on the reader.");
});

document.getElementById("import-tags").addEventListener("change", async (e) => {
  const file = e.target.files[0];
  if (!file) return;
  let data;
  try { data = JSON.parse(await file.text()); } catch (err) { toast("That file is not JSON.", true); return; }
  const result = await post(`${base}/api/tags`, { data });
  if (result.ok) { toast(`${result.count} stickers imported.`); loadSetup(); }
});

// Each device: connected or not, what it last said, what it last sensed, its errors.
function devices(list) {
  const items = Object.entries(list).sort(([a], [b]) => a.localeCompare(b)).map(([name, d]) => {
    const dice = Object.entries(d.dice || {}).map(([n, s]) => `die ${Number(n) + 1}: ${s.state}${s.face ? ` ${s.face}` : ""}`);
    return el("li", { "data-device": name },
      el("strong", { text: name }), " ",
      el("span", { class: d.connected === false ? "bad" : "ok", text: d.connected === false ? "not connected" : "connected" }),
      d.detail ? ` · ${d.detail}` : "", d.power ? ` · power ${d.power}` : "",
      el("div", { class: "hint", text: [d.last ? `last: ${d.last}` : null, dice.length ? dice.join(", ") : null, d.errors ? `${d.errors} errors` : null].filter(Boolean).join(" · ") }));
  });
  return items.length ? items : [el("li", { class: "muted", text: "No device has reported yet." })];
}

function render(snap) {
  replace("devices", devices(snap.devices || {}));
  replace("refusals", refusals(snap.refusals));
  replace("events", events(snap.events));
  const enrolling = snap.enrolling;
  document.getElementById("enrolling").textContent = enrolling ? `Waiting for a sticker to enrol as ${enrolling.component}…` : "";
  document.getElementById("undo").disabled = !(snap.game && snap.game.undoable);
  const paused = Boolean(snap.game && snap.game.paused);
  document.getElementById("paused").hidden = !paused;
  document.getElementById("pause").hidden = !snap.game || paused;
  document.getElementById("resume").hidden = !paused;
  document.getElementById("end-game").hidden = !snap.game;
  renderSeats(snap);
  if (snap.game && snap.game.id !== lastGameId) {
    lastGameId = snap.game.id;
    if (setup) loadSetup();
    document.getElementById("new-game-card").open = false;  // a game runs: the form steps aside
  }
  document.getElementById("sim")?.toggleAttribute("hidden", !snap.view);
  if (snap.game) document.body.dataset.game = snap.game.game;
  else delete document.body.dataset.game;
  if (!snap.view) {
    document.getElementById("prompt").textContent = "No game yet: set one up below.";
  } else {
    document.getElementById("prompt").textContent = snap.view.prompt;
    const progress = snap.game.game === "dorktower" ? dt.subline(snap) : `round ${snap.view.round}`;
    document.getElementById("sub").textContent = `${snap.game.title} · ${progress} · ${snap.view.order.join(", ")}`;
  }
  if (simulated) refreshWorld(snap);
  if (setup && snap.events.some((e) => e.type === "tag_enrolled" || e.type === "tags_imported")) loadSetup();
}

// -- the simulated table -------------------------------------------------------------------

async function sim(act, body = {}) {
  const result = await post(`${base}/sim/${act}`, body);
  if (result.ok === false && !result.rule) toast("Nothing to do for that now.", true);
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

function stoneButton(stone, label) {
  return el("button", { type: "button", class: "stone", "data-uid": stone.uid, "data-stone": stone.stone,
    title: `tap ${label}`, "aria-label": `tap ${label}`, onclick: () => sim("tap", { uid: stone.uid }) }, String(stone.stone));
}

// Dork Tower's box: the awaited draw, and any sticker of the box to tap by hand.
let dtComponent = "";
function dorkTowerWorld(world) {
  const a = world.awaiting;
  const waiting = a ? `Waiting for ${a.player || "someone"} to draw ${a.kind === "token" ? "an encounter token" : a.kind === "item" ? `an item card (${a.face} face)` : "a scroll"} (${a.why}).`
    : "No token or card is being drawn.";
  const names = Object.keys(world.stickers).sort();
  if (!names.includes(dtComponent)) dtComponent = names.find((n) => n.startsWith("token ")) || names[0] || "";
  const select = el("select", { id: "sim-component", "aria-label": "sticker to tap", onchange: (e) => { dtComponent = e.target.value; } },
    ["tower", "space", "token", "item", "scroll"].map((kind) => el("optgroup", { label: kind },
      names.filter((n) => n.split(" ")[0] === kind).map((n) => el("option", { value: n, selected: n === dtComponent,
        text: `${n} (${world.stickers[n].length})` })))));
  return [
    el("div", { class: "place" }, el("span", { text: waiting })),
    el("div", { class: "place" }, el("span", { text: "Tap a chosen sticker on the reader" }),
      el("div", { class: "row" }, select, el("button", { type: "button", id: "sim-tap-component",
        onclick: () => sim("tap_component", { component: document.getElementById("sim-component").value }) }, "Tap it"))),
  ];
}

function renderWorld(world, snap) {
  if (world.game === "dorktower") {
    replace("world", dorkTowerWorld(world));
    renderDice(snap);
    return;
  }
  const places = [];
  const order = snap.view ? snap.view.order : [];
  places.push(el("div", { class: "place" }, el("span", { text: `Face-down pile: ${world.places.pile.length} stones` })));
  for (const name of order) {
    const rack = world.places[`rack:${name}`] || [];
    const acquired = world.places[`acquired:${name}`] || [];
    places.push(el("div", { class: "place" }, el("span", {}, abr.seatLabel(snap, name, "'s rack")),
      el("div", { class: "stones" }, rack.map((s) => stoneButton(s, `${name}'s ${s.stone}`)),
        acquired.map((s) => el("span", { class: "stone secret", title: "acquired secret stone", text: s.stone })))));
  }
  places.push(el("div", { class: "place" }, el("span", { text: "Secret stones on the board" }),
    el("div", { class: "stones" }, world.secret.map((s, i) => s ? el("button", { type: "button", class: "stone back", "data-secret": i, "aria-label": `secret stone ${i + 1}`, onclick: () => sim("take_secret", { slot: i }) }, "?") : null))));
  const board = [...world.places.board, ...world.places.removed];
  places.push(el("div", { class: "place" }, el("span", { text: "On the board" }), el("div", { class: "stones" }, board.map((s) => el("span", { class: "stone", text: s.stone })))));
  replace("world", places);
  renderDice(snap);
}

// The dice's faces to roll by hand; several dice awaited together get a row each.
function renderDice(snap) {
  const awaited = snap.dice && snap.dice.awaited;
  const faces = awaited ? [...new Set(awaited.faces)] : [1, 2, 3, 4, 5, 6];
  const count = awaited ? awaited.dice : 1;
  if (count <= 1) {
    replace("sim-faces", faces.map((f) => el("button", { type: "button", "data-face": f, onclick: () => sim("roll", { face: f }) }, `Roll ${f}`)));
  } else {
    const rolled = snap.dice.rolled || {};
    replace("sim-faces", [...Array(count).keys()].map((die) => el("span", { class: "row", "data-die-row": die },
      el("span", { class: "hint", text: `Die ${die + 1}${rolled[die] ? ` (shows ${rolled[die]})` : ""}:` }),
      faces.map((f) => el("button", { type: "button", "data-face": f, "data-die": die, onclick: () => sim("roll", { face: f, die }) }, `${f}`)))));
  }
  const seats = snap.view ? snap.view.order : [];
  replace("sim-buttons", seats.map((name, i) => el("span", { class: "row" },
    el("button", { type: "button", "data-press": i, onclick: () => sim("press", { seat: i }) }, abr.seatLabel(snap, name, "'s button")),
    el("button", { type: "button", "data-long-press": i, onclick: () => sim("press", { seat: i, long: true }) }, "hold"))));
}

if (simulated) {
  document.querySelectorAll("[data-sim]").forEach((b) => b.addEventListener("click", () => sim(b.dataset.sim)));
  const leds = document.getElementById("leds");
  const stream = new EventSource(leds.dataset.stream);
  // The tower strip is a ring round the tower's base: 8 wedges, wedge 0 at the top, its pixels
  // clockwise from the counter-clockwise edge of wedge 0. Every other strip is a row.
  const ringPixel = (i, n) => {
    const angle = 2 * Math.PI * ((i + 0.5) / n - 1 / 16);  // clockwise from the top
    return { left: `${50 + 42 * Math.sin(angle)}%`, top: `${50 - 42 * Math.cos(angle)}%` };
  };
  stream.addEventListener("frame", (e) => {
    const frames = JSON.parse(e.data);
    leds.replaceChildren(...Object.entries(frames).map(([name, pixels]) => el("div", {},
      el("span", { class: "hint", text: name }),
      name === "tower"
        ? el("div", { class: "strip ring", "data-strip": name }, pixels.map((c, i) =>
          el("i", { style: { background: c, color: c, ...ringPixel(i, pixels.length) }, title: `${name} ${i}` })))
        : el("div", { class: "strip", "data-strip": name }, pixels.map((c, i) => [
          name === "table" && i > 0 && i % 7 === 0 ? el("span", { class: "gap" }) : null,
          el("i", { style: { background: c, color: c }, title: `${name} ${i}` })])))));
  });
}

await loadSetup();
renderForm();
live(main.dataset.stream, render);
