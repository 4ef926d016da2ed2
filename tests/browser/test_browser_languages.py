"""Every page of every game, in English and in Italian, on a small phone (360 px) and a common one
(390 px): no page is wider than the screen, and no text is left in the other language (the
issue's check). One browser, one phone per language and role, each page opened once per game and
looked at in both widths.

A text "left in the other language" is a visible text (a text node, or an input's placeholder)
that the gettext catalogs say belongs to the other language: on an Italian page, an English
message that has an Italian translation of its own; on an English page, an Italian translation.
Messages with values (``{player} rolls``) are matched as patterns when they have words enough to
tell. Italian times never say AM or PM."""

from __future__ import annotations

import functools
import re

import pytest
from accessibility import watch
from babel.messages.pofile import read_po
from browser_support import hold_claim
from support import Server, claim, get, post

from companion.games import GAME_IDS
from companion.i18n.catalogs import po_files

WIDTHS = (360, 390)
LANGS = ("en", "it")
PLAYERS = ["Ann", "Bo", "Cyd"]
STEPS = ["game", "players", "seats", "colours", "options", "review"]

#: every element wider than the screen, unless an ancestor inside the screen clips or scrolls it
#: (the phone's width is given: a phone's browser zooms a page that is too wide out, and then its
#: innerWidth is the page's width, not the screen's)
OVERFLOW = """(width) => {
  const found = [];
  const root = document.documentElement;
  const wide = Math.max(root.scrollWidth, window.innerWidth);
  if (wide > width) found.push(`the page is ${wide} px wide`);
  for (const e of document.querySelectorAll("body *")) {
    const r = e.getBoundingClientRect();
    if (!r.width || !r.height || (r.right <= width + 1 && r.left >= -1)) continue;
    if (!e.checkVisibility({ visibilityProperty: true })) continue;
    let clipped = false;
    for (let a = e.parentElement; a && a !== document.body; a = a.parentElement) {
      if (getComputedStyle(a).overflowX === "visible") continue;
      const ar = a.getBoundingClientRect();
      if (ar.right <= width + 1 && ar.left >= -1) { clipped = true; break; }
    }
    if (clipped) continue;
    const name = e.tagName.toLowerCase() + (e.id ? "#" + e.id : "") +
      (e.className && typeof e.className === "string" ? "." + e.className.trim().split(/\\s+/).join(".") : "");
    found.push(`${name} from ${Math.round(r.left)} to ${Math.round(r.right)} px: ` +
      JSON.stringify((e.textContent || "").trim().slice(0, 40)));
  }
  return found.slice(0, 8);
}"""

#: the texts a person sees: text nodes of visible elements, and the placeholders of fields
TEXTS = """() => {
  const texts = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const text = n.textContent.replace(/\\s+/g, " ").trim();
    const parent = n.parentElement;
    if (!text || !parent || parent.closest("script, style, template, noscript")) continue;
    if (parent.checkVisibility({ visibilityProperty: true })) texts.push(text);
  }
  for (const field of document.querySelectorAll("[placeholder]")) {
    if (field.checkVisibility({ visibilityProperty: true })) texts.push(field.placeholder.trim());
  }
  return texts;
}"""


class Catalogs:
    """The English messages and their Italian translations, every catalog's, as exact texts and
    as patterns (a message with values)."""

    def __init__(self) -> None:
        pairs = []
        for po in po_files():
            if po.parts[-3] != "it":
                continue
            with po.open("rb") as f:
                for message in read_po(f):
                    if message.id and isinstance(message.id, str) and message.string:
                        if message.string != message.id and "fuzzy" not in message.flags:
                            pairs.append((message.id.strip(), message.string.strip()))
        english = {en for en, _ in pairs}
        italian = {it for _, it in pairs}
        # a text both languages use (a word spelt alike) tells nothing
        self.english = {en: it for en, it in pairs if en not in italian}
        self.italian = {it: en for en, it in pairs if it not in english}
        self.english_patterns = self._patterns(self.english)
        self.italian_patterns = self._patterns(self.italian)

    @staticmethod
    def _patterns(texts: dict[str, str]) -> list[tuple[str, re.Pattern, str]]:
        patterns = []
        for text in texts:
            if "{" not in text:
                continue
            words = re.sub(r"\{\w+\}", "", text)
            if len(re.findall(r"[^\W\d_]{3,}", words)) < 2:  # too few words to tell
                continue
            parts = re.split(r"\{\w+\}", text)
            pattern = re.compile(".+?".join(map(re.escape, parts)) + r"\Z")
            patterns.append((max(parts, key=len), pattern, text))  # its longest words first
        return patterns

    @functools.lru_cache(maxsize=None)  # the same texts on many pages
    def foreign(self, lang: str, text: str) -> str | None:
        """The catalog's message that ``text`` is in the other language than ``lang``; None if
        it is not one."""
        exact, patterns = (
            (self.english, self.english_patterns)
            if lang == "it"
            else (self.italian, self.italian_patterns)
        )
        if text in exact:
            return text
        for words, pattern, message in patterns:
            if words in text and pattern.match(text):
                return message
        if lang == "it" and re.search(r"\d\s?(AM|PM)\b", text):
            return "a time in English (AM/PM)"
        return None


@pytest.fixture(scope="module")
def catalogs():
    return Catalogs()


@pytest.fixture
def server(tmp_path):
    s = Server.start(tmp_path)
    yield s
    s.stop()


def start(server: Server, game: str) -> dict:
    """A game of ``game`` for three players: two seats claimed (their pages), the third's join
    link left for the join page; a sticker nobody enrolled tapped (a refusal on the pages)."""
    if server.table.history is not None:
        post(f"{server.host}/api/end_game", {"confirm": True})
    status, answer = post(
        f"{server.host}/api/new_game",
        {"game": game, "players": PLAYERS, "options": {}, "seed": 3, "confirm": True},
    )
    assert status == 200 and answer["ok"], answer
    links = get(f"{server.host}/api/setup")["links"]
    pages = {name: claim(links[name]["url"]) for name in PLAYERS[:2]}
    if game == "abracadawhat":
        status, answer = post(f"{server.host}/sim/draw_all")
        assert status == 200 and answer["ok"], answer
    post(f"{server.host}/sim/tap_unknown")
    return {"players": pages, "join": links[PLAYERS[2]]["url"]}


class Looker:
    """Looks at pages in both widths and keeps what is wrong, by page."""

    def __init__(self, catalogs: Catalogs, shots) -> None:
        self.catalogs = catalogs
        self.shots = shots
        self.problems: list[str] = []
        self.looked = 0

    def look(self, page, lang: str, where: str, shot: str | None = None) -> None:
        width = page.viewport_size["width"]
        self.looked += 1
        for problem in page.evaluate(OVERFLOW, width):
            self.problems.append(f"{lang} {width} px {where}: too wide: {problem}")
        for text in page.evaluate(TEXTS):
            message = self.catalogs.foreign(lang, text)
            if message is not None:
                self.problems.append(
                    f"{lang} {width} px {where}: {text!r} is not in {lang} ({message!r})"
                )
        if shot is not None and width == 390:
            self.shots(page, f"languages-{lang}-{shot}", full=False)

    def widths(self, page, lang: str, where: str, shot: str | None = None) -> None:
        for width in WIDTHS:
            page.set_viewport_size({"width": width, "height": 844})
            self.look(page, lang, where, shot)


def phone(browser, server: Server, lang: str, audit):
    """A phone in ``lang`` whose every page state is audited (accessibility.py)."""
    context = browser.new_context(
        viewport={"width": WIDTHS[0], "height": 844},
        device_scale_factor=1,
        is_mobile=True,
        has_touch=True,
        locale="en-US",  # the phone's own locale never decides the page's language
    )
    context.add_cookies([{"name": "companion_lang", "value": lang, "url": server.base}])
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    watch(page, audit)
    return context, page


def live(page, url: str) -> None:
    page.goto(url)
    page.wait_for_selector("#conn:not(.stale)")
    page.wait_for_timeout(150)  # the first snapshot drawn


def wizard(page, lang: str, game: str, looker: Looker) -> None:
    """Every step of the new-game wizard, in both widths (not started)."""
    if page.locator("#new-game-card:not([open]) > summary").count():
        page.click("#new-game-card > summary")
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 844})
        while page.is_enabled("#wizard-back"):
            page.click("#wizard-back")
        page.click(f"[data-choose-game='{game}']")
        for n, step in enumerate(STEPS):
            page.wait_for_selector(f".step[data-step='{step}']:not([hidden])")
            if step == "players":
                for field in page.locator("#players-field input").all():
                    field.fill("")
                looker.look(page, lang, f"{game} wizard: empty names", f"{game}-wizard-2-empty")
                page.click("#wizard-next")
                page.wait_for_selector("#toast:not([hidden])")
                looker.look(
                    page, lang, f"{game} wizard: a name missing", f"{game}-wizard-2-missing"
                )
                for i, name in enumerate(PLAYERS[: page.locator("#players-field input").count()]):
                    page.fill(f"#players-field label:nth-of-type({i + 1}) input", name)
            looker.look(page, lang, f"{game} wizard: {step}", f"{game}-wizard-{n + 1}-{step}")
            if step == "options":  # a changed option or two to review
                for box in page.locator("#options input[type=checkbox]").all()[:2]:
                    box.set_checked(not box.is_checked())
            if step != "review":
                page.click("#wizard-next")


def test_the_check_tells_a_text_of_the_other_language(catalogs):
    assert catalogs.foreign("it", "Start the game") == "Start the game"
    assert catalogs.foreign("en", "Inizia la partita") == "Inizia la partita"
    assert catalogs.foreign("it", "Inizia la partita") is None
    assert catalogs.foreign("en", "Start the game") is None
    said = "Seat 2 has no name yet: type the name of who sits there."
    assert (
        catalogs.foreign("it", said) == "Seat {n} has no name yet: type the name of who sits there."
    )
    assert catalogs.foreign("it", "lettore del tavolo · 05:51:20 PM") == "a time in English (AM/PM)"
    assert catalogs.foreign("it", "Ann") is None and catalogs.foreign("en", "Ann") is None


@pytest.mark.browser
@pytest.mark.slow
@pytest.mark.parametrize("game", GAME_IDS)
def test_every_page_fits_a_small_phone_and_speaks_one_language(
    game, server, browser, catalogs, shots, audit
):
    """One game's pages (one test per game, so that the games' pages are looked at side by
    side); the pages that name no game (the landing page, the sign-in) with the first game."""
    looker = Looker(catalogs, shots)
    phones = {}
    for lang in LANGS:
        phones[lang] = {
            "host": phone(browser, server, lang, audit),
            "visitor": phone(browser, server, lang, audit),
        }
    try:
        seats = start(server, game)
        for lang in LANGS:
            _, visitor = phones[lang]["visitor"]
            host_context, host = phones[lang]["host"]
            if game == GAME_IDS[0]:
                visitor.goto(f"{server.base}/")
                looker.widths(visitor, lang, "landing", "landing")
                visitor.goto(f"{server.base}/host")
                visitor.wait_for_selector("#pin")
                looker.widths(visitor, lang, "sign-in", "signin")
            visitor.goto(seats["join"])
            visitor.wait_for_selector("#join-go")
            looker.widths(visitor, lang, f"{game} join", f"{game}-join")

            live(host, server.host)
            looker.widths(host, lang, f"{game} host", f"{game}-host")
            host.evaluate("document.querySelectorAll('details').forEach((d) => { d.open = true; })")
            looker.widths(host, lang, f"{game} host, every panel open")
            wizard(host, lang, game, looker)
            live(host, f"{server.host}/status")
            looker.widths(host, lang, f"{game} status", f"{game}-status")
            live(host, f"{server.base}/table/{server.companion.access.display_key}")
            looker.widths(host, lang, f"{game} table display", f"{game}-table")
            assert "TABLE-TAG-1" in host.evaluate(TEXTS)  # the refusal, its reason read too
            for player, url in seats["players"].items():
                hold_claim(host_context, url)
                live(host, url)
                looker.widths(host, lang, f"{game} {player}'s page", f"{game}-player")
        # the game paused, then ended: the table display and a player's page say so
        for act in ("pause", "end_game"):
            status, answer = post(f"{server.host}/api/{act}", {"confirm": True})
            assert status == 200 and answer["ok"], answer
            for lang in LANGS:
                host_context, host = phones[lang]["host"]
                live(host, f"{server.base}/table")
                looker.widths(
                    host, lang, f"{game} table display after {act}", f"{game}-table-{act}"
                )
                host.goto(seats["players"][PLAYERS[0]])
                host.wait_for_timeout(400)  # an ended game's page has no stream to wait for
                looker.widths(
                    host, lang, f"{game} player's page after {act}", f"{game}-player-{act}"
                )
        for lang in LANGS:
            for _, page in phones[lang].values():
                assert not page.errors, page.errors
    finally:
        for lang in LANGS:
            for context, _ in phones[lang].values():
                context.close()
    assert looker.looked >= 2 * 2 * 12
    assert not looker.problems, "\n".join(dict.fromkeys(looker.problems))
