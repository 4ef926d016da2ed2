// The new-game wizard on the host's phone: the game, the players, where they sit (clockwise,
// drawn as a table seen from above), their colours (colour-blind-safe, no two alike), the
// variants the rules core offers (each told in the game's own words, set by a control: never
// typed), and a last look before the start, in words.
import { _, el, post, replace, toast } from "./common.js";
import { MARKS } from "./seats.js"; // the same shapes as the game pages

const STEPS = ["game", "players", "seats", "colours", "options", "review"];
const SVG = "http://www.w3.org/2000/svg";

// `start(body)` posts the new game (the host page asks first when a game is running); the
// wizard opens at its first step every time, never on its start button.
export function wizard({ setup, base, seats, onStarted, start = (body) => post(`${base}/api/new_game`, body) }) {
  const form = document.getElementById("new-game");
  const state = { step: 0, game: setup.games[0], players: [], colours: [], options: {} };
  const palette = Object.keys(setup.palette);

  function game() { return state.game; }
  function maxPlayers() { return Math.min(game().max_players, seats, palette.length); }

  function chooseGame(g) {
    state.game = g;
    document.getElementById("game").value = g.id;
    const count = Math.min(Math.max(state.players.length || 3, g.min_players), maxPlayers());
    resize(count);
    state.options = {};
    for (const o of g.options) state.options[o.name] = proposed(o);
    render();
    form.dispatchEvent(new CustomEvent("gamechange", { bubbles: true }));
  }

  // What the table proposes for an option: the table's own default (how its sensors work),
  // else the rulebook's.
  function proposed(o) { return o.name in game().table_defaults ? game().table_defaults[o.name] : o.default; }

  // New seats start without a name: the players type their own.
  function resize(count) {
    while (state.players.length < count) state.players.push("");
    state.players.length = count;
    const taken = new Set();
    state.colours = state.players.map((player, i) => {
      let c = state.colours[i];
      if (!c || taken.has(c)) c = palette.find((p) => !taken.has(p));
      taken.add(c);
      return c;
    });
  }

  // -- the steps ------------------------------------------------------------------------------

  function renderGames() {
    replace("game", setup.games.map((g) => el("option", { value: g.id, text: g.title, selected: g === game() })));
    replace("games", setup.games.map((g) => el("button", {
      type: "button", role: "radio", class: `choice${g === game() ? " chosen" : ""}`, "aria-checked": String(g === game()),
      "data-choose-game": g.id, onclick: () => chooseGame(g),
    }, el("strong", { text: g.title }), el("span", { class: "hint", text: _("{min}–{max} players", { min: g.min_players, max: Math.min(g.max_players, seats) }) }),
    (g.game_max_players || 0) > Math.min(g.max_players, seats)
      ? el("span", { class: "hint", "data-seat-limit": "", text: _("up to {n} with more seats: this table has {seats} (devices.seats)", { n: g.game_max_players, seats: Math.min(g.max_players, seats) }) }) : null)));
  }

  function renderPlayers() {
    document.getElementById("player-count").textContent = _("{n} players", { n: state.players.length });
    document.getElementById("remove-player").disabled = state.players.length <= game().min_players;
    document.getElementById("add-player").disabled = state.players.length >= maxPlayers();
    const field = document.getElementById("players-field");
    const legend = field.querySelector("legend");
    field.replaceChildren(legend, ...state.players.map((name, i) => el("label", {}, _("Seat {n}", { n: i + 1 }),
      el("input", { name: "player", value: name, required: true, maxlength: 24, autocomplete: "off", enterkeyhint: "next",
        placeholder: _("Name of who sits here"), "aria-label": _("player at seat {n}", { n: i + 1 }),
        oninput: (e) => { state.players[i] = e.target.value; } }))));
  }

  function move(i, by) {
    const j = (i + by + state.players.length) % state.players.length;
    for (const list of [state.players, state.colours]) [list[i], list[j]] = [list[j], list[i]];
    renderSeats();
  }

  // The table seen from above: the seats clockwise from the top, each with its name, colour and
  // shape; the first seat's marker shows where the clockwise order starts.
  function picture() {
    const n = state.players.length;
    const svg = document.createElementNS(SVG, "svg");
    svg.setAttribute("viewBox", "-30 -32 260 264");  // room for the names above and below
    svg.setAttribute("role", "img");
    svg.setAttribute("aria-label", _("The table from above, clockwise: {seats}",
      { seats: state.players.map((p, i) => _("seat {n} {player}", { n: i + 1, player: p })).join(", ") }));
    const add = (tag, attrs, text) => {
      const node = document.createElementNS(SVG, tag);
      for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
      if (text !== undefined) node.textContent = text;
      svg.append(node);
      return node;
    };
    add("circle", { cx: 100, cy: 100, r: 52, class: "table-top" });
    add("path", { d: "M 100 62 A 38 38 0 0 1 138 100", class: "clockwise", "marker-end": "" });
    add("text", { x: 100, y: 104, class: "table-label", "text-anchor": "middle" }, _("clockwise"));
    state.players.forEach((name, i) => {
      const angle = (2 * Math.PI * i) / n;
      const x = 100 + 78 * Math.sin(angle);
      const y = 100 - 78 * Math.cos(angle);
      add("circle", { cx: x, cy: y, r: 15, fill: setup.palette[state.colours[i]], class: "seat-dot" });
      add("text", { x, y: y + 5, "text-anchor": "middle", class: "seat-mark" }, MARKS[i % MARKS.length]);
      add("text", { x, y: y + (y > 100 ? 29 : -20), "text-anchor": "middle", class: "seat-name" }, `${i + 1} ${name.slice(0, 10)}`);
    });
    return svg;
  }

  function renderSeats() {
    replace("seat-picture", picture());
    replace("seat-order", state.players.map((name, i) => el("li", { "data-seat-player": name },
      el("span", { class: `seat c-${state.colours[i].replace(/ /g, "-")}` },
        el("span", { class: "mark", "aria-hidden": "true", text: MARKS[i % MARKS.length] }), name),
      el("span", { class: "row" },
        el("button", { type: "button", "aria-label": _("move {player} counter-clockwise", { player: name }), "data-move-ccw": name, onclick: () => move(i, -1) }, "↺"),
        el("button", { type: "button", "aria-label": _("move {player} clockwise", { player: name }), "data-move-cw": name, onclick: () => move(i, 1) }, "↻")))));
  }

  function renderColours() {
    replace("colours", state.players.map((name, i) => el("fieldset", { class: "colour-row" },
      el("legend", {}, el("span", { class: "mark-plain", "aria-hidden": "true", text: `${MARKS[i % MARKS.length]} ` }), name),
      el("div", { class: "swatches", role: "radiogroup", "aria-label": _("{player}'s colour", { player: name }) }, palette.map((c) => {
        const takenBy = state.colours.findIndex((x, j) => x === c && j !== i);
        return el("button", {
          type: "button", role: "radio", class: `swatch${state.colours[i] === c ? " chosen" : ""}`,
          style: { background: setup.palette[c] }, "aria-checked": String(state.colours[i] === c),
          "aria-label": takenBy >= 0 ? _("{colour}, taken by {player}", { colour: c, player: state.players[takenBy] }) : c, title: c,
          disabled: takenBy >= 0, "data-colour": c, "data-player": name,
          onclick: () => { state.colours[i] = c; renderColours(); },
        });
      })))));
  }

  // An option as a sentence with its effect, the rule it comes from as a small reference, and the
  // control the game names for it: a checkbox, its values in words as radio buttons, checkboxes
  // for a list, a select of numbers or of the data sets. An option no control sets is not shown.
  function about(o, id) {
    return el("span", { class: "hint option-about", id }, o.sentence, " ",
      el("small", { class: "rule-ref", text: _("rule {rule}", { rule: o.rule }) }));
  }

  function numbers(o) {
    const list = [];
    for (let n = o.low; n <= o.high; n += 1) list.push({ value: n, label: String(n) });
    return list;
  }

  function select(o, values, id) {
    const value = state.options[o.name];
    return el("select", { name: o.name, "aria-describedby": id,
      onchange: (e) => { state.options[o.name] = values.find((v) => String(v.value) === e.target.value).value; } },
    values.map((v) => el("option", { value: String(v.value), text: v.label, selected: v.value === value })));
  }

  function optionField(o) {
    const id = `about-${o.name}`;
    if (o.control === "switch") {
      return el("label", { class: "check option" }, el("input", { type: "checkbox", name: o.name, checked: state.options[o.name],
        "aria-describedby": id, onchange: (e) => { state.options[o.name] = e.target.checked; } }),
      el("span", {}, el("strong", { text: o.label }), " ", about(o, id)));
    }
    if (o.control === "several") {
      const chosen = new Set(state.options[o.name]);
      return el("fieldset", { class: "option several", "aria-describedby": id }, el("legend", { text: o.label }), about(o, id),
        el("div", { class: "row" }, o.values.map((v) => el("label", { class: "check" },
          el("input", { type: "checkbox", name: o.name, value: String(v.value), checked: chosen.has(v.value),
            onchange: () => { state.options[o.name] = o.values.filter((w) => form.querySelector(`#options [name="${o.name}"][value="${String(w.value)}"]`).checked).map((w) => w.value); } }),
          el("span", { text: v.label })))));
    }
    if (o.control === "choice") {  // a few values, each told in words: all of them in sight
      return el("fieldset", { class: "option choice-list", "aria-describedby": id }, el("legend", { text: o.label }), about(o, id),
        o.values.map((v) => el("label", { class: "check" },
          el("input", { type: "radio", name: o.name, value: String(v.value), checked: v.value === state.options[o.name],
            onchange: () => { state.options[o.name] = v.value; } }),
          el("span", { text: v.label }))));
    }
    const values = o.control === "number" ? numbers(o) : o.values;
    return el("label", { class: "option" }, el("strong", { text: o.label }), about(o, id), select(o, values, id));
  }

  function offered() { return game().options.filter((o) => o.control !== "none"); }

  function renderOptions() {
    const field = document.getElementById("options");
    const legend = field.querySelector("legend");
    const fields = offered().map(optionField);
    field.replaceChildren(legend, ...(fields.length ? fields : [el("p", { class: "hint", text: _("This game has no options.") })]));
  }

  // An option's value in words, as its control shows it.
  function said(o, value) {
    if (o.control === "switch") return value ? _("yes") : _("no");
    if (o.control === "several") return o.values.filter((v) => value.includes(v.value)).map((v) => v.label).join(", ");
    const found = o.values.find((v) => v.value === value);
    return found ? found.label : String(value);
  }

  function renderReview() {
    const changed = offered().filter((o) => JSON.stringify(state.options[o.name]) !== JSON.stringify(proposed(o)));
    replace("review",
      el("p", {}, el("strong", { text: game().title }), " · " + _("{n} players", { n: state.players.length })),
      el("ol", { class: "seat-order" }, state.players.map((name, i) => el("li", {},
        el("span", { class: `seat c-${state.colours[i].replace(/ /g, "-")}` },
          el("span", { class: "mark", "aria-hidden": "true", text: MARKS[i % MARKS.length] }), name)))),
      changed.length
        ? [el("p", { class: "hint", text: _("Changed from the usual rules:") }),
          el("ul", { class: "changed-options" }, changed.map((o) => el("li", {}, el("strong", { text: o.label }), ": ", said(o, state.options[o.name]))))]
        : el("p", { class: "hint", text: _("The rulebook's rules, no variants.") }));
  }

  // -- moving between the steps ---------------------------------------------------------------

  function problem(step) {
    if (step === "players") {
      const names = state.players.map((p) => p.trim());
      const empty = names.findIndex((n) => !n);
      if (empty >= 0) {
        form.querySelectorAll("#players-field input")[empty]?.focus();
        return _("Seat {n} has no name yet: type the name of who sits there.", { n: empty + 1 });
      }
      if (new Set(names.map((n) => n.toLowerCase())).size !== names.length) return _("Two players have the same name.");
    }
    if (step === "options") {
      const none = offered().find((o) => o.control === "several" && !state.options[o.name].length);
      if (none) return _("{option}: choose at least one.", { option: none.label });
    }
    return null;
  }

  function render() {
    const name = STEPS[state.step];
    for (const section of form.querySelectorAll(".step")) section.hidden = section.dataset.step !== name;
    document.getElementById("wizard-progress").textContent = _("Step {n} of {total}", { n: state.step + 1, total: STEPS.length });
    document.getElementById("wizard-back").disabled = state.step === 0;
    document.getElementById("wizard-next").hidden = state.step === STEPS.length - 1;
    ({ game: renderGames, players: renderPlayers, seats: renderSeats, colours: renderColours,
      options: renderOptions, review: renderReview })[name]();
  }

  function go(by) {
    const why = by > 0 ? problem(STEPS[state.step]) : null;
    if (why) { toast(why, true); return; }
    state.step = Math.min(Math.max(state.step + by, 0), STEPS.length - 1);
    render();
    form.querySelector(".step:not([hidden]) h3")?.focus?.();
  }

  document.getElementById("wizard-next").addEventListener("click", () => go(1));
  document.getElementById("wizard-back").addEventListener("click", () => go(-1));
  document.getElementById("add-player").addEventListener("click", () => { resize(Math.min(state.players.length + 1, maxPlayers())); renderPlayers(); });
  document.getElementById("remove-player").addEventListener("click", () => { resize(Math.max(state.players.length - 1, game().min_players)); renderPlayers(); });
  document.getElementById("game").addEventListener("change", (e) => chooseGame(setup.games.find((g) => g.id === e.target.value)));
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    for (const step of STEPS) {
      const why = problem(step);
      if (why) { toast(why, true); return; }
    }
    const result = await start({ game: game().id, players: state.players.map((p) => p.trim()),
      colours: state.colours, options: state.options });
    if (result.ok) {
      toast(_("The game has started."));
      state.step = 0;
      render();
      onStarted();
    }
  });

  document.getElementById("new-game-card")?.addEventListener("toggle", (e) => {
    if (e.target.open && state.step !== 0) { state.step = 0; render(); }
  });

  chooseGame(state.game);
  return { game };
}
