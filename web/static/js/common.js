// Shared by every page: a live stream with reconnection, small DOM helpers, requests, messages.

// The page's language: the server puts the catalogs of this phone's language in the page (the
// "js" gettext catalog and the games' page catalogs, merged, and each game's own apart: two games
// may translate one English text differently); _("{n} stones", { n }) looks the message up, the
// shown game's own catalog first (useGame), and fills in its values.
const CATALOGS = (() => {
  try { return JSON.parse(document.getElementById("i18n")?.textContent || "{}"); } catch (err) { return {}; }
})();
const MESSAGES = CATALOGS.messages || {};
const GAME_MESSAGES = CATALOGS.games || {};
let shownGame = null;
export function useGame(id) { shownGame = id || null; }
export function _(msgid, params = {}) {
  const own = shownGame && GAME_MESSAGES[shownGame];
  const template = (own && own[msgid]) || MESSAGES[msgid] || msgid;
  return template.replace(/\{(\w+)\}/g, (whole, key) => (key in params ? String(params[key]) : whole));
}

export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else if (key === "style" && typeof value === "object") Object.assign(node.style, value);
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

const LIVE = "[aria-live], [role=status], [role=alert], output";

// Draw `children` in the element `id` instead of what it holds. In or around a live region, the
// same content drawn again is left as it is: a screen reader would read it out again.
export function replace(id, ...children) {
  const node = document.getElementById(id);
  if (!node) return node;
  const list = children.flat(Infinity).filter((c) => c !== null && c !== undefined && c !== false);
  if (node.closest(LIVE) || node.querySelector(LIVE)) {
    const html = list.map((c) => (c instanceof Node ? (c.outerHTML ?? c.textContent) : String(c))).join("");
    const now = [...node.childNodes].map((c) => c.outerHTML ?? c.textContent).join("");
    if (html === now) return node;
  }
  node.replaceChildren(...list);
  return node;
}

// A text written again unchanged is not written: the pages set their prompts, counts and marks on
// every snapshot, and a live region whose text is replaced, even by the same text, is read out
// again by a screen reader.
const TEXT = Object.getOwnPropertyDescriptor(Node.prototype, "textContent");
Object.defineProperty(Node.prototype, "textContent", {
  configurable: true,
  enumerable: TEXT.enumerable,
  get() { return TEXT.get.call(this); },
  set(value) {
    const text = value === null || value === undefined ? "" : String(value);
    const only = this.childNodes.length === 1 ? this.firstChild : null;
    if (this.nodeType === Node.ELEMENT_NODE
      && (only ? only.nodeType === Node.TEXT_NODE && only.data === text : this.childNodes.length === 0 && text === "")) return;
    TEXT.set.call(this, value);
  },
});

// Focus stays where it was across redraws: the pages redraw from each snapshot, replacing the
// focused button by a new one. When the focused element leaves the page while focus falls to the
// body, the element drawn in its place (the same id, or the same tag and data-, name and ARIA
// attributes and text, in the same part of the page) is focused again.
let focused = null;
function focusKey(node) {
  if (node.id) return { selector: `#${CSS.escape(node.id)}` };
  const attrs = [...node.attributes].filter((a) => a.name.startsWith("data-") || ["name", "aria-label", "value", "type"].includes(a.name))
    .map((a) => `[${a.name}="${CSS.escape(a.value)}"]`).join("");
  const scope = node.parentElement && node.parentElement.closest("[id]");
  return { selector: node.tagName.toLowerCase() + attrs, scope: scope ? scope.id : null, text: node.textContent };
}
document.addEventListener("focusin", (e) => {
  focused = e.target instanceof Element && e.target !== document.body ? { node: e.target, key: focusKey(e.target) } : null;
});
document.addEventListener("focusout", (e) => {
  const left = e.target;
  // a focus given up by the person (a tap elsewhere) is not given back
  queueMicrotask(() => { if (focused && focused.node === left && left.isConnected && document.activeElement !== left) focused = null; });
});
new MutationObserver(() => {
  if (!focused || focused.node.isConnected) return;
  const active = document.activeElement;
  if (active && active !== document.body) return;
  const { selector, scope, text } = focused.key;
  const root = (scope && document.getElementById(scope)) || document;
  const found = [...root.querySelectorAll(selector)];
  const match = found.find((n) => text === undefined || n.textContent === text) || (found.length === 1 ? found[0] : null);
  if (match && !match.disabled) {
    match.focus({ preventScroll: true });
    focused = { node: match, key: focused.key };
  }
}).observe(document.documentElement, { childList: true, subtree: true });

let toastTimer = null;
export function toast(message, bad = false) {
  const node = document.getElementById("toast");
  if (!node) return;
  node.textContent = message;
  node.classList.toggle("bad", bad);
  node.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { node.hidden = true; }, bad ? 6000 : 2500);
}

// The page's CSRF token: every POST carries it, or the server refuses the request.
export function csrf() {
  const meta = document.querySelector('meta[name="csrf-token"]');
  return meta ? meta.content : "";
}

// POST JSON; a refusal is shown with its rule ID and reason and returned, never thrown (with
// `quiet`, the caller shows it where the person looks, and the toast stays away).
export async function post(url, body = {}, { quiet = false } = {}) {
  let response;
  try {
    response = await fetch(url, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf() },
      body: JSON.stringify(body),
    });
  } catch (err) {
    const error = _("The table cannot be reached; check the Wi-Fi.");
    if (!quiet) toast(error, true);
    return { ok: false, error, reason: String(err) };
  }
  let data = {};
  try { data = await response.json(); } catch (err) { data = { ok: false, reason: response.statusText }; }
  if (!data.ok && !quiet) toast(refusalText(data), true);
  return data;
}

// A refusal in one line: its rule ID and reason.
export function refusalText(data) {
  return data.rule ? `${data.rule}: ${data.reason || data.error}` : (data.error || data.reason || _("Refused."));
}

// A Server-Sent Events stream of snapshots. EventSource reconnects by itself; while it is down the
// page says so and keeps showing the last state, marked stale. A phone waking up reconnects at once.
// A stream that says "gone" (the page's seat is no seat of the game at the table any more) stays
// closed: the page is not offline, and onGone says what happened instead of "Reconnecting…".
export function live(url, onSnapshot, { onGone } = {}) {
  let source = null;
  let lastAt = null;
  let gone = false;
  const conn = document.getElementById("conn");
  const staleAt = document.getElementById("stale-at");

  function setStale(stale) {
    document.body.classList.toggle("stale", stale);
    if (conn) {
      conn.classList.toggle("stale", stale);
      conn.textContent = stale ? _("Offline") : _("Live");
    }
    if (staleAt && lastAt) staleAt.textContent = clock(lastAt);
  }

  function open() {
    if (gone) return;
    if (source) source.close();
    source = new EventSource(url);
    source.addEventListener("snapshot", (e) => {
      lastAt = new Date();
      setStale(false);
      const snap = JSON.parse(e.data);
      storageBanner(snap.storage);
      onSnapshot(snap);
    });
    source.addEventListener("gone", () => {
      source.close();
      if (!onGone) { setStale(true); return; }
      gone = true;
      document.body.classList.remove("stale");
      document.body.classList.add("gone");
      if (conn) { conn.classList.add("stale"); conn.textContent = _("Not at the table"); }
      onGone();
    });
    source.addEventListener("bye", () => setStale(true));
    // A newer stream of this seat (another tab) or of this phone took over: stay quiet until this
    // page is looked at again (then it reconnects, taking over in turn).
    source.addEventListener("closed", () => { source.close(); setStale(true); });
    source.onerror = () => {
      setStale(true);
      if (source.readyState === EventSource.CLOSED) setTimeout(open, 2000);
    };
  }

  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible" && (!source || source.readyState === EventSource.CLOSED)) open();
  });
  window.addEventListener("online", () => { if (!source || source.readyState !== EventSource.OPEN) open(); });
  // Losing the Wi-Fi does not end an open stream by itself: say so at once ("online" reopens it).
  window.addEventListener("offline", () => { if (source) source.close(); setStale(true); });
  // A stream can also die without a word (the table switched off, the phone out of reach), and its
  // keep-alives are invisible to scripts: after 20 s without news, ask the table whether it is there.
  let checked = Date.now();
  setInterval(async () => {
    if (document.visibilityState !== "visible" || Date.now() - Math.max(checked, lastAt || 0) < 20000) return;
    checked = Date.now();
    try {
      if ((await fetch("/healthz", { cache: "no-store", signal: AbortSignal.timeout(5000) })).ok) return;
    } catch (err) { /* no answer */ }
    setStale(true);
    open();
  }, 5000);
  open();
  return { close: () => source && source.close() };
}

// While the table cannot record (its storage is full or failing), every page says so.
function storageBanner(storage) {
  const banner = document.getElementById("storage-banner");
  if (!banner) return;
  banner.hidden = !storage;
  banner.textContent = storage ? (storage.problem || storage.text) : "";
}

const seenRefusals = new Set();
// The most recent refusals, newest first, the fresh ones highlighted.
export function refusals(list) {
  const items = [...list].reverse().slice(0, 5).map((r) => {
    const key = `${r.at}|${r.rule}|${r.source}`;
    const fresh = !seenRefusals.has(key);
    seenRefusals.add(key);
    return el("li", { class: fresh ? "fresh" : "" },
      el("code", { text: r.rule }), " ", r.reason, r.count > 1 ? el("strong", { text: ` ×${r.count}` }) : null,
      el("div", { class: "hint", text: `${sourceName(r.source)} · ${time(r.at)}` }));
  });
  return items.length ? items : [el("li", { class: "muted", text: _("Nothing refused yet.") })];
}

export function sourceName(source) {
  if (!source) return "";
  const at = source.indexOf(":");
  const [kind, rest] = at < 0 ? [source, ""] : [source.slice(0, at), source.slice(at + 1)];
  return ({ phone: () => _("{player}'s phone", { player: rest }), nfc: () => readerName(rest),
    button: () => _("seat button {n}", { n: Number(rest) + 1 }), dice: () => _("dice reader"),
    device: () => deviceName(rest), host: () => _("host"), web: () => _("a web request") })[kind]?.() || source;
}

// A tag reader by its place: the one everyone uses ("board") or a seat's own ("seat2").
function readerName(name) {
  if (name === "board") return _("table reader");
  const seat = /^seat(\d+)$/.exec(name);
  return seat ? _("seat {n}'s reader", { n: seat[1] }) : _("reader {name}", { name });
}

// A device by its configured name ("dice", "nfc:board", "buttons").
export function deviceName(name) {
  if (name.startsWith("nfc:")) return readerName(name.slice(4));
  return ({ dice: () => _("dice reader"), buttons: () => _("seat buttons"), leds: () => _("LEDs") })[name]?.()
    || _("{name} reader", { name });
}

// Dates and times in the page's language: the phone's own locale when it speaks that language
// (an English phone set to 24 hours keeps them), else the language itself; never the browser's
// default when the page is in another language.
export function pageLocale() {
  const lang = document.documentElement.lang || "en";
  return (navigator.languages || []).find((l) => l.toLowerCase().split("-")[0] === lang) || lang;
}

export function clock(date) {
  try {
    return new Intl.DateTimeFormat(pageLocale(), { hour: "2-digit", minute: "2-digit", second: "2-digit" }).format(date);
  } catch (e) { return ""; }
}

export function time(iso) { return clock(new Date(iso)); }

// A stored moment as the page's language writes a date and time ("29 Nov 2026, 07:25");
// `fallback` when it cannot be read.
export function dateTime(iso, fallback = "") {
  try {
    return new Intl.DateTimeFormat(pageLocale(), { dateStyle: "medium", timeStyle: "short" }).format(new Date(iso));
  } catch (err) { return fallback; }
}

// The events, newest first; `note` (the game page module's eventNote) says what only this viewer
// saw of an event ("(you saw a 3)").
export function events(list, count = 12, note = null) {
  const items = [...list].reverse().slice(0, count).map((e) => {
    const seen = note ? note(e) : null;
    return el("li", {}, e.text, seen ? el("strong", { text: " " + seen }) : null);
  });
  return items.length ? items : [el("li", { class: "muted", text: _("Nothing has happened yet.") })];
}

// What an undo asks the players to put back by hand, while it is the newest event (or "").
export function putBack(list) {
  const newest = list.length ? list[list.length - 1] : null;
  return newest && newest.type === "undone" && newest.put_back ? newest.text : "";
}

// How a step of the checklist is confirmed, in words.
function stepStatus(step) {
  if (step.done) return _("done");
  if (!step.confirm) return _("by hand");
  return step.confirm.seat
    ? _("tap it on {player}'s reader", { player: step.confirm.seat })
    : _("tap it on the board's reader");
}

// What an undo asks to put back (the snapshot's `put_back`, alike for every viewer): the
// undone action in words and a checklist of its steps, ticked off as their taps confirm them;
// without a checklist, the undo's sentence while it is the newest event. `dismiss`: the host's
// button that sets the checklist aside. Fills the element #put-back and shows or hides it.
export function showPutBack(snap, dismiss = null) {
  const box = document.getElementById("put-back");
  const list = snap.view ? snap.put_back : null;
  if (!list) {
    const back = snap.view ? putBack(snap.events) : "";
    replace("put-back", back ? el("p", { text: back }) : null);
    box.hidden = !back;
    return;
  }
  const waiting = list.steps.filter((s) => !s.done).length;
  const items = list.steps.map((s) => el("li", { class: s.done ? "done" : "", "data-step": s.n },
    el("span", { class: "mark", "aria-hidden": "true", text: s.done ? "☑" : "☐" }), " ", s.text,
    el("span", { class: "how", text: ` (${stepStatus(s)})` })));
  replace("put-back",
    el("p", { text: list.undone }),
    el("p", { class: "put-back-head", text: waiting
      ? _("Still to put back: {n} of {total}.", { n: waiting, total: list.steps.length })
      : _("Everything is put back.") }),
    el("ol", { class: "put-back-steps" }, ...items),
    list.more ? el("p", { class: "hint", text: _("{n} more steps: see the sentence above.", { n: list.more }) }) : null,
    dismiss ? el("div", { class: "row" }, el("button", { type: "button", onclick: dismiss, text: _("Dismiss the list") })) : null);
  box.hidden = false;
}
