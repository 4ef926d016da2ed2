"""The pages in the phone's own language: each phone chooses (the ``companion_lang`` cookie set by
``/lang/<code>``), else its browser's Accept-Language decides, else English. The game's texts
(prompts, events, refusals) come to each phone in its language from the same table; the pages
embed their scripts' catalog; the catalogs are complete and their compiled files current."""

from __future__ import annotations

import http.client
import json
import re
from typing import Any
from urllib.parse import quote, urlsplit

import pytest
from support import claimed_headers, csrf_for, request

from companion.i18n.catalogs import compiled, po_files, untranslated

ITALIAN = {"Cookie": "companion_lang=it"}
ENGLISH = {"Cookie": "companion_lang=en"}


def page(url: str, headers: dict[str, str] | None = None) -> str:
    status, html, _ = request(url, headers=headers)
    assert status == 200, (url, status)
    return html


def html_lang(html: str) -> str:
    match = re.search(r'<html lang="([^"]*)">', html)
    assert match, "the page has no <html lang>"
    return match.group(1)


def js_catalog(html: str) -> dict[str, str]:
    match = re.search(r'<script type="application/json" id="i18n">(.*?)</script>', html, re.S)
    assert match, "the page does not embed the js catalog"
    return json.loads(match.group(1))


def state(url: str, headers: dict[str, str]) -> dict[str, Any]:
    status, snap, _ = request(f"{url}/api/state", headers=headers)
    assert status == 200, snap
    return snap


def first_snapshot(url: str, headers: dict[str, str]) -> dict[str, Any]:
    """The first snapshot a phone's stream sends, with that phone's headers."""
    parts = urlsplit(url)
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=10)
    try:
        conn.request(
            "GET",
            parts.path,
            headers=claimed_headers(parts.path, {"Accept": "text/event-stream", **headers}),
        )
        response = conn.getresponse()
        assert response.status == 200
        event, data = None, []
        while True:
            line = response.readline().decode().rstrip("\r\n")
            if line.startswith("event:"):
                event = line[6:].strip()
            elif line.startswith("data:"):
                data.append(line[5:].lstrip())
            elif line == "" and data:
                if event == "snapshot":
                    return json.loads("\n".join(data))
                event, data = None, []
    finally:
        conn.close()


def act(url: str, action: dict, headers: dict[str, str]) -> tuple[int, Any]:
    status, answer, _ = request(
        f"{url}/api/action", "POST", action, headers={"X-CSRF-Token": csrf_for(url), **headers}
    )
    return status, answer


# -- choosing the language ------------------------------------------------------------------------


def test_a_phone_chooses_its_language_with_a_cookie(server):
    status, _, headers = request(f"{server.base}/lang/it?next={quote('/table')}")
    assert status == 302 and headers["Location"] == "/table"
    cookie = headers["Set-Cookie"]
    assert cookie.startswith("companion_lang=it;") and "SameSite=Lax" in cookie
    html = page(f"{server.base}/table", {"Cookie": cookie.split(";")[0]})
    assert html_lang(html) == "it"
    assert html_lang(page(f"{server.base}/table")) == "en"  # another phone: still English
    status, _, headers = request(f"{server.base}/lang/en?next=/")
    assert status == 302 and headers["Set-Cookie"].startswith("companion_lang=en;")


@pytest.mark.parametrize(
    "target",
    [
        "https://evil.example/",
        "//evil.example/x",
        "/\\evil.example",
        "evil.example",
        "javascript:alert(1)",
    ],
)
def test_the_language_link_never_leaves_the_site(server, target):
    status, _, headers = request(f"{server.base}/lang/it?next={quote(target)}")
    assert status == 302 and headers["Location"] == "/"


def test_an_unknown_language_sets_nothing(server):
    status, _, headers = request(f"{server.base}/lang/xx?next=/table")
    assert status == 302 and headers["Location"] == "/table"
    assert "Set-Cookie" not in headers


def test_else_the_browser_language_else_english(server):
    table = f"{server.base}/table"
    assert html_lang(page(table, {"Accept-Language": "it-IT,it;q=0.9,en;q=0.5"})) == "it"
    assert html_lang(page(table, {"Accept-Language": "de-DE,fr;q=0.8"})) == "en"
    assert html_lang(page(table, {"Accept-Language": "de-DE,it;q=0.3"})) == "it"
    assert html_lang(page(table)) == "en"
    # the phone's own choice wins over its browser's
    assert html_lang(page(table, {"Accept-Language": "it", **ENGLISH})) == "en"
    assert html_lang(page(table, {"Accept-Language": "en", **ITALIAN})) == "it"


def test_a_page_embeds_the_js_catalog_of_its_language(server, game):
    italian = js_catalog(page(game["Elena"], ITALIAN))
    assert italian["messages"]["Ancient Dragon"] == "Drago Antico"
    assert italian["games"]["abracadawhat"]["End turn"] == "Termina il turno"
    english = js_catalog(page(game["Elena"], ENGLISH))  # English needs no catalog
    assert english["messages"] == {} and not any(english["games"].values())
    html = page(game["Elena"], ITALIAN)
    assert html_lang(html) == "it" and "Connessione al tavolo…" in html  # the template too


# -- the game's texts in each phone's language ----------------------------------------------------


def test_the_prompt_and_events_come_in_each_phones_language(server, game):
    elena = state(game["Elena"], ITALIAN)
    denise = state(game["Denise"], ENGLISH)
    assert elena["view"]["prompt"] == "Elena: dichiara un incantesimo."
    assert denise["view"]["prompt"] == "Elena: declare a spell."
    assert [e["text"] for e in elena["events"]][-2:] == [
        "Le pietre del round 1 sono distribuite.",
        "Elena inizia il round 1.",
    ]
    assert [e["text"] for e in denise["events"]][-2:] == [
        "Round 1 is dealt.",
        "Elena begins round 1.",
    ]
    # a spell named inside a sentence is translated too
    status, answer = act(game["Elena"], {"type": "cast", "spell": 8}, ITALIAN)
    assert status == 200 and answer["ok"], answer
    elena = state(game["Elena"], ITALIAN)
    denise = state(game["Denise"], {"Accept-Language": "en-GB"})
    assert "Elena dichiara 8 Pozione Magica." in [e["text"] for e in elena["events"]]
    assert "Elena declares 8 Magic Potion." in [e["text"] for e in denise["events"]]
    for key in ("phase", "active", "last_cast", "successes"):  # the data is not translated
        assert elena["view"][key] == denise["view"][key]
    for snap in (elena, denise):
        assert not re.search(r"\{\w+\}", json.dumps(snap["view"]) + json.dumps(snap["events"]))


def test_the_streams_speak_each_phones_language(server, game):
    elena = first_snapshot(f"{game['Elena']}/stream", ITALIAN)
    marta = first_snapshot(f"{game['Marta']}/stream", {"Accept-Language": "en"})
    table_it = first_snapshot(f"{server.base}/api/table/stream", {"Accept-Language": "it"})
    assert elena["view"]["prompt"] == "Elena: dichiara un incantesimo."
    assert table_it["view"]["prompt"] == "Elena: dichiara un incantesimo."
    assert marta["view"]["prompt"] == "Elena: declare a spell."
    assert elena["events"][-1]["text"] == "Elena inizia il round 1."
    assert marta["events"][-1]["text"] == "Elena begins round 1."


def test_a_refusal_comes_back_in_the_phones_language(server, game):
    status, answer = act(game["Elena"], {"type": "end_turn"}, ITALIAN)
    assert status == 409 and answer["rule"] == "ABR-ENDT-1"
    assert answer["reason"] == (
        "Il turno si può terminare solo dopo un incantesimo riuscito; dichiara un incantesimo."
    )
    status, answer = act(game["Denise"], {"type": "cast", "spell": 3}, ENGLISH)
    assert status == 409 and answer["rule"] == "ABR-TURN-1"
    assert answer["reason"] == "It is Elena's turn; only the active player can declare a spell."
    status, answer = act(game["Denise"], {"type": "cast", "spell": 3}, ITALIAN)
    assert answer["reason"] == (
        "È il turno di Elena; solo il giocatore di turno può dichiarare un incantesimo."
    )
    # the table's own refusals too (not the rules'): a sensor action sent from a phone
    status, answer = act(game["Elena"], {"type": "roll", "value": 3}, ITALIAN)
    assert status == 403
    assert answer["reason"] == "Quell'azione arriva dai sensori del tavolo, non da un telefono."
    # the refusals a snapshot lists are in the phone's language too
    reasons = [r["reason"] for r in state(game["Marta"], ITALIAN)["refusals"]]
    assert "Quell'azione arriva dai sensori del tavolo, non da un telefono." in reasons
    assert not any(r.startswith("It is Elena's turn") for r in reasons)
    reasons = [r["reason"] for r in state(game["Marta"], ENGLISH)["refusals"]]
    assert "It is Elena's turn; only the active player can declare a spell." in reasons


def test_the_status_page_in_italian(server):
    html = page(f"{server.host}/status", ITALIAN)
    assert html_lang(html) == "it" and "Prova i LED" in html
    assert "Test the LEDs" in page(f"{server.host}/status", ENGLISH)
    status, body, _ = request(f"{server.host}/status/api", headers=ITALIAN)
    assert status == 200
    dice = next(d for d in body["devices"] if d["kind"] == "dice")
    assert dice["label"] == "Lettore di dadi" and dice["state"] in ("connected", "no report yet")
    status, body, _ = request(f"{server.host}/status/api", headers=ENGLISH)
    assert next(d for d in body["devices"] if d["kind"] == "dice")["label"] == "Dice reader"


# -- the catalogs ---------------------------------------------------------------------------------


def test_every_catalog_is_translated():
    """``python -m companion.i18n check`` finds nothing untranslated."""
    missing = untranslated("it")
    assert missing and all(not ids for ids in missing.values()), {
        domain: ids[:5] for domain, ids in missing.items() if ids
    }


def test_the_compiled_catalogs_are_current():
    """The checked-in ``.mo`` files are exactly what ``compile`` makes of the ``.po`` files."""
    catalogs = po_files()
    assert {po.stem for po in catalogs} >= {"messages", "abracadawhat", "js"}
    for po in catalogs:
        mo = po.with_suffix(".mo")
        assert mo.exists(), f"{mo.name} is missing: run python -m companion.i18n compile"
        assert mo.read_bytes() == compiled(po), (
            f"{po.parent.parent.name}/{mo.name} is stale: run python -m companion.i18n compile"
        )


def test_a_games_own_translations_win_where_two_games_translate_a_text_apart():
    """Two games may translate one English text differently ("On the board": Abracada's board,
    Dork Tower's map): each game's texts come from its own catalogs first, on its pages (the
    page catalogs keep each game's apart) and in its snapshots (the server's catalogs)."""
    from companion.web.common import _own, catalog

    clashes = {}
    for kind in ("pages", "server"):
        own = {game: _own_messages(kind, game) for game in ("abracadawhat", "dorktower")}
        shared = set(own["abracadawhat"]) & set(own["dorktower"])
        differ = [m for m in shared if own["abracadawhat"][m] != own["dorktower"][m]]
        clashes[kind] = differ
        for msgid in differ:
            for game in own:
                assert catalog("it", kind, game).gettext(msgid) == own[game][msgid], (kind, msgid)
    assert "On the board" in clashes["pages"]
    assert _own("it", "abracadawhat").gettext("On the board") == "Sulla plancia"
    assert _own("it", "dorktower").gettext("On the board") == "Sul tabellone"


def _own_messages(kind: str, game: str) -> dict[str, str]:
    from babel.support import Translations

    from companion.i18n.catalogs import catalogs

    found: dict[str, str] = {}
    for known in catalogs(kind):
        if known.game == game:
            loaded = Translations.load(str(known.folder), ["it"], known.domain)
            found.update({k: v for k, v in loaded._catalog.items() if isinstance(k, str) and k})
    return found
