"""The host's dice pages over a simulated companion (Flask's test client): the list, a die's page
with its counts, chart, test and verdict in English and Italian, placed and virtual rolls apart,
an unknown die (404), another role refused, and a die rolled on the simulated reader end to end."""

from __future__ import annotations

import random
import re
from html import unescape

import pytest
from support import post, wait_until

from companion.table.dice_fairness import chi_square
from companion.table.dice_store import PLACED, READ, VIRTUAL, Roll

D6 = ("1", "2", "3", "4", "5", "6")


@pytest.fixture
def client(server):
    return server.companion.app.test_client()


def page(client, server, path: str, lang: str = "en"):
    client.set_cookie("companion_lang", lang)
    response = client.get(f"/host/{server.companion.host_token}/dice{path}")
    return response.status_code, response.get_data(as_text=True)


def keep(server, faces: list[str], kind: str = READ, reader: str = "dice", die: int = 0):
    server.table.store.keep_rolls(
        [Roll(reader, die, "d6", D6, face, kind, None) for face in faces], "2026-11-29T06:00:00"
    )


def text(html: str, element_id: str) -> str:
    """The text of the element with ``element_id`` (tags dropped, spaces squeezed)."""
    found = re.search(rf'<(\w+)[^>]*\sid="{element_id}"[^>]*>(.*?)</\1>', html, re.S)
    assert found, element_id
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", found.group(2))).split())


def test_no_die_yet(client, server):
    status, html = page(client, server, "")
    assert status == 200
    assert "No die has been read yet" in text(html, "no-dice")
    status, html = page(client, server, "", "it")
    assert "Nessun dado è stato ancora letto" in text(html, "no-dice")


def test_a_loaded_die_is_suspicious_in_both_languages(client, server):
    # 300 rolls: the six comes up 90 times (a fair die: 50)
    faces = ["6"] * 90 + [f for f in D6[:5] for _ in range(42)]
    keep(server, faces)
    keep(server, ["3", "3"], PLACED)
    [die] = server.table.store.dice()
    test = chi_square(die.counts[READ], die.weights())
    assert test.rolls == 300 and test.p < 1e-4

    status, html = page(client, server, f"/{die.id}")
    assert status == 200
    assert text(html, "verdict").startswith("Suspicious: a fair die gives counts this uneven")
    assert "(p < 0.0001, 300 read rolls)" in text(html, "verdict")
    assert text(html, "test-rolls") == "300"
    assert text(html, "test-statistic") == f"{test.statistic:.2f}" == "38.40"
    assert text(html, "test-df") == "5"
    assert text(html, "test-p") == "< 0.0001"
    assert text(html, "test-alpha") == "1 %"
    rows = re.findall(r'<th scope="row">(\w+)</th><td>(\d+)</td><td>([\d.]+)</td>', html)
    assert rows == [(f, "42", "50.0") for f in D6[:5]] + [("6", "90", "50.0")]
    assert 'role="img"' in html and "<title id=" in html and 'stroke-dasharray="6 3"' in html
    assert html.count("<rect ") == 6
    placed = re.findall(r'<th scope="row">(\w+)</th><td>(\d+)</td></tr>', html)
    assert placed == [("1", "0"), ("2", "0"), ("3", "2"), ("4", "0"), ("5", "0"), ("6", "0")]
    assert "None: the table chose no face at random" in text(html, "virtual")

    status, html = page(client, server, f"/{die.id}", "it")
    assert status == 200 and 'lang="it"' in html
    assert text(html, "verdict").startswith("Sospetto: un dado equo dà conteggi così irregolari")
    assert text(html, "test-statistic") == "38,40"  # a decimal comma
    assert text(html, "test-p") == "< 0,0001"
    assert "Posato a mano" in html and "Lanci letti per faccia" in html

    status, html = page(client, server, "")
    assert "suspicious" in text(html, "dice") and "300 read rolls" in text(html, "dice")
    status, html = page(client, server, "", "it")
    assert "sospetto" in text(html, "dice") and "300 lanci letti" in text(html, "dice")


def test_a_fair_die_needs_its_rolls_then_looks_fair(client, server):
    rng = random.Random(5)
    keep(server, [rng.choice(D6) for _ in range(100)])
    [die] = server.table.store.dice()
    _, html = page(client, server, f"/{die.id}")
    assert text(html, "verdict").startswith("Needs more rolls: nothing suspicious in 100 read")
    assert "only after 247; 147 to go" in text(html, "verdict")
    keep(server, [rng.choice(D6) for _ in range(200)])
    _, html = page(client, server, f"/{die.id}")
    assert text(html, "verdict").startswith("Looks fair: 300 read rolls")
    assert "(p = 0.0848)" in text(html, "verdict")  # four decimals below 0.1
    _, html = page(client, server, f"/{die.id}", "it")
    assert text(html, "verdict").startswith("Sembra equo: 300 lanci letti")


def test_too_few_rolls_say_nothing(client, server):
    keep(server, ["6"] * 20)
    [die] = server.table.store.dice()
    _, html = page(client, server, f"/{die.id}")
    assert text(html, "verdict").startswith("Needs more rolls: 20 read so far")
    assert "at least 30" in text(html, "verdict")


def test_virtual_dice_are_listed_apart_and_not_tested(client, server):
    keep(server, ["2"])
    keep(server, ["5", "5", "1"], VIRTUAL, reader="virtual")
    physical, virtual = server.table.store.dice()
    _, html = page(client, server, "")
    assert "die 0 of reader dice" in text(html, "dice")
    assert "virtual die 0" in text(html, "virtual-dice")
    assert "3 virtual rolls" in text(html, "virtual-dice")
    _, html = page(client, server, f"/{virtual.id}")
    assert text(html, "verdict").startswith("3 virtual rolls: faces the table chose at random")
    assert 'id="test"' not in html
    _, html = page(client, server, f"/{physical.id}")
    assert "3 virtual rolls for this die's place and profile" in text(html, "virtual")
    _, html = page(client, server, f"/{physical.id}", "it")
    assert "3 lanci virtuali per il posto e il profilo di questo dado" in text(html, "virtual")


def test_an_unknown_die_is_a_404_page(client, server):
    for path, lang, words in (("/99", "en", "No such die"), ("/0", "it", "Dado inesistente")):
        status, html = page(client, server, path, lang)
        assert status == 404 and words in html
    status, _ = page(client, server, f"/{2**63}")  # more than SQLite's integers hold
    assert status == 404
    status, _ = page(client, server, "/-1")
    assert status == 404
    status, _ = page(client, server, "/abc")
    assert status == 404


def test_only_the_host_may_look(client, server):
    keep(server, ["1"])
    [die] = server.table.store.dice()
    for path in ("/host/not-a-token/dice", f"/host/not-a-token/dice/{die.id}"):
        assert client.get(path).status_code == 403


def test_the_host_page_links_to_the_dice(client, server):
    html = client.get(f"/host/{server.companion.host_token}").get_data(as_text=True)
    assert f'href="/host/{server.companion.host_token}/dice"' in html


def test_a_die_rolled_on_the_simulated_reader_is_on_its_page(client, server):
    """End to end: the simulated hands throw die 0 on the simulated reader (the firmware's own
    logic reads it); no game asks for a roll, so it is refused, and kept."""
    wait_until(lambda: server.table.dice_connected())
    status, answer = post(f"{server.host}/sim/roll", {"die": 0, "face": 5})
    assert status == 200, answer
    wait_until(lambda: server.table.store.dice())
    [die] = server.table.store.dice()
    assert (die.reader, die.die, die.profile, die.counts) == ("dice", 0, "d6", {READ: {"5": 1}})
    _, html = page(client, server, "")
    assert "die 0 of reader dice" in text(html, "dice") and "1 read roll" in html
