// The host's device status page: every device, connected or not, its last event and its errors;
// the LED test pattern; the companion's addresses and version. Live over the status stream.
import { _, el, live, post, refusals, replace, time, toast } from "./common.js";

const main = document.getElementById("main");
const list = document.getElementById("devices");
const testButton = document.getElementById("led-test");
const testState = document.getElementById("led-test-state");
const testHelp = testState.textContent;

const MARKS = {
  connected: { symbol: "✓", text: _("Connected"), cls: "on" },
  "not connected": { symbol: "✗", text: _("Not connected"), cls: "off" },
  "no report yet": { symbol: "?", text: _("No report yet"), cls: "unknown" },
  "no report": { symbol: "–", text: _("No report"), cls: "unknown" },
  "not configured": { symbol: "–", text: _("Not configured"), cls: "unknown" },
};
// a die's states, as the dice reader reports them (companion.devices.events.DIE_STATES)
const DIE_STATES = {
  rest: _("rest"), moving: _("moving"), rolling: _("rolling"), crooked: _("crooked"),
  placed: _("placed"), missing: _("missing"),
};

let latest = null;
let receivedAt = 0;
let testing = null; // the local timer of a test this phone started
let testSaid = testHelp; // what the test's line says when no test runs: the help, or "Done"

function mark(state) {
  const m = MARKS[state] || { symbol: "?", text: state, cls: "unknown" };
  return el("span", { class: `status-mark ${m.cls}` }, el("span", { "aria-hidden": "true", text: `${m.symbol} ` }), m.text);
}

function deviceLines(d) {
  const lines = [];
  const error = d.last_error;
  // a device that is not connected says why in its detail, which is its last error too
  if (d.detail && !(error && error.text === d.detail)) lines.push(el("p", { class: "status-detail", text: d.detail }));
  if (d.kind === "dice" && d.power) lines.push(el("p", { class: "status-detail", text: _("Power: {power}", { power: d.power }) }));
  if (d.kind === "dice" && d.dice && d.dice.length) {
    lines.push(el("p", { class: "status-detail", text: d.dice.map((x) => {
      const state = DIE_STATES[x.state] || x.state;
      return x.face ? _("die {n}: {state} {face}", { n: x.die, state, face: x.face }) : _("die {n}: {state}", { n: x.die, state });
    }).join(" · ") }));
  }
  lines.push(el("p", { class: "status-last" }, el("strong", { text: _("Last event:") + " " }),
    d.last ? (d.last_at ? _("{event} at {time}", { event: d.last, time: time(d.last_at) }) : d.last) : _("none yet")));
  const errors = d.errors || 0;
  if (error) {
    lines.push(el("p", { class: "status-errors" }, el("strong", { text: _("Last error:") + " " }),
      error.at ? _("{error} ({time})", { error: error.text, time: time(error.at) }) : error.text));
  }
  if (errors) lines.push(el("p", { class: "status-errors" }, el("strong", { text: errors === 1 ? _("1 error") : _("{n} errors", { n: errors }) }), " " + _("counted since the start")));
  else if (!error) lines.push(el("p", { class: "status-detail", text: _("No errors.") }));
  return lines;
}

function deviceItem(d) {
  const m = MARKS[d.state] || MARKS["no report"];
  return el("li", { class: `status-device ${m.cls}`, "data-device": `${d.kind}:${d.name}`, "data-state": d.state },
    el("div", { class: "status-head" }, el("h3", { class: "status-name", text: d.label }), mark(d.state)),
    deviceLines(d));
}

// Only the devices that changed are redrawn, so a screen reader announces just those.
function renderDevices(devices) {
  const old = new Map([...list.children].map((li) => [li.dataset.device, li]));
  const items = devices.map((d) => {
    const key = `${d.kind}:${d.name}`;
    const sig = JSON.stringify(d);
    const kept = old.get(key);
    if (kept && kept.dataset.sig === sig) return kept;
    const li = deviceItem(d);
    li.dataset.sig = sig;
    return li;
  });
  items.forEach((li, i) => { if (list.children[i] !== li) list.insertBefore(li, list.children[i] || null); });
  while (list.children.length > items.length) list.lastElementChild.remove();
  list.setAttribute("aria-busy", "false");
}

function duration(seconds) {
  if (seconds === null || seconds === undefined) return _("unknown");
  const s = Math.floor(seconds);
  const d = Math.floor(s / 86400), h = Math.floor((s % 86400) / 3600), m = Math.floor((s % 3600) / 60);
  if (d) return _("{d} d {h} h", { d, h });
  if (h) return _("{h} h {m} min", { h, m });
  if (m) return _("{m} min {s} s", { m, s: s % 60 });
  return _("{s} s", { s });
}

function renderUptime() {
  if (!latest || latest.uptime === null) return;
  document.getElementById("uptime").textContent = duration(latest.uptime + (Date.now() - receivedAt) / 1000);
}

function render(status) {
  latest = status;
  receivedAt = Date.now();
  renderDevices(status.devices);
  replace("web-refusals", refusals(status.web_refusals || []));
  const a = status.addresses;
  for (const [id, url] of [["home-url", a.home], ["table-url", a.table]]) {
    const link = document.getElementById(id);
    if (link.getAttribute("href") !== url) { link.href = url; link.textContent = url; }
  }
  document.getElementById("address-note").hidden = a.source !== "request";
  document.getElementById("version").textContent = status.version;
  document.getElementById("mode").textContent = status.mode === "simulated" ? _("simulated (no hardware)") : _("real hardware");
  document.getElementById("seats").textContent = String(status.seats);
  renderUptime();
  const strips = status.devices.filter((d) => d.kind === "leds").length;
  if (!testing) {
    testButton.disabled = !strips || status.led_test.running;
    testState.textContent = !strips ? _("No LED strips are configured.")
      : status.led_test.running ? _("A test pattern is running…") : testSaid;
  }
}

async function runTest() {
  testButton.disabled = true;
  const result = await post(main.dataset.ledTest);
  if (!result.ok) { testButton.disabled = false; return; }
  const colours = (latest && latest.led_test.colours) || ["red", "green", "blue", "white"];
  const names = { red: _("red"), green: _("green"), blue: _("blue"), white: _("white") };
  const step = ((result.seconds || 2) / colours.length) * 1000;
  const started = Date.now();
  clearInterval(testing);
  const tick = () => {
    const i = Math.floor((Date.now() - started) / step);
    if (i < colours.length) {
      testState.textContent = _("Now showing: {colour} ({n} of {total})", { colour: names[colours[i]] || colours[i], n: i + 1, total: colours.length });
      testState.dataset.colour = colours[i];
      return;
    }
    clearInterval(testing);
    testing = null;
    delete testState.dataset.colour;
    testSaid = _("Done: the strips show the game again. Every pixel should have lit red, green, blue and white.");
    testState.textContent = testSaid;
    testButton.disabled = false;
    toast(_("LED test done."));
  };
  testing = setInterval(tick, 100);
  tick();
}

testButton.addEventListener("click", runTest);
setInterval(renderUptime, 1000);
live(main.dataset.stream, render);
