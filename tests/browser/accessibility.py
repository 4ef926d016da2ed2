"""The accessibility audit of the browser tests: axe-core (vendored, see vendor/axe-core/README.md)
checks every page state the tests reach against WCAG 2.1 A and AA, in the light and the dark theme.

A test's phones (conftest's ``phone``) are all audited before each thing the test does with any of
them (a click, a fill, a screenshot...) and when the test ends, so every state a test goes through
is looked at once it is drawn. A page is looked at part by part (the header, each card, each
banner, and each element directly in it: a player's card, a list): a part's skeleton is its elements, classes, roles, ARIA and hidden attributes, not the
texts and numbers in it, and alike siblings count once, in whatever order they come. The first
page of each kind (``/p``, ``/host``, ``/table``...) in each language is audited whole; after
that, axe audits the parts that look unlike any seen before, so a game's hundred turns that look
alike are audited once. Each audit is done in the light and the dark theme
(``prefers-color-scheme`` emulated), and the page is then left in the theme it was in.

Violations are collected per test and the test fails at its end, listing each rule, the elements it
found (their CSS selectors) and what axe says to fix.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

AXE = Path(__file__).resolve().parent / "vendor" / "axe-core" / "axe.min.js"
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
#: the rules of TAGS whose outcome depends on colours: the only ones the dark theme can change
#: (the light theme is audited with every rule, the dark one with these)
COLOUR_RULES = ["color-contrast", "link-in-text-block"]

# The document's skeleton, part by part (the header, each card, each banner...): what changes a
# part's structure and looks, never its texts. A button disabled while its answer is awaited is the
# same state (axe leaves disabled controls aside). The parts are kept in the page for RUN.
SKELETON = """() => {
  const DEPTH = 5;
  if (document.contentType !== "text/html" || !document.body) return null;
  const line = (node) => {
    let out = node.tagName;
    for (const attr of node.attributes) {
      const n = attr.name;
      if (n === "class" || n === "role" || n === "hidden" || n === "open"
          || n === "type" || n.startsWith("aria-") && n !== "aria-label" && n !== "aria-valuenow")
        out += ` ${n}=${n === "class" ? attr.value.split(/\\s+/).sort().join(".") : attr.value}`;
    }
    return out;
  };
  // alike siblings (five stones, twelve events) count as one, in whatever order they come
  const walk = (node, depth) => {
    if (depth > 40) return "";
    const kinds = new Set();
    for (const child of node.children) kinds.add(`${depth}${line(child)}\\n${walk(child, depth + 1)}`);
    return [...kinds].sort().join("");
  };
  // A part is a card, a banner, the header, and within them each element that holds more than
  // one (a list, a row, a player's card), down to DEPTH: a holder counts by its own tag, each
  // element in it by what it holds, so a list whose items change one by one is audited for the
  // item that looks new only.
  const parts = [], keys = [];
  const add = (node, path, depth) => {
    const kids = node.children;
    parts.push(node);
    if (depth < DEPTH && kids.length > 1) {
      keys.push(`${path}${line(node)}`);
      for (const kid of kids) add(kid, `${path}${line(node)} > `, depth + 1);
    } else {
      keys.push(`${path}${line(node)}\n${walk(node, 1)}`);
    }
  };
  const collect = (node) => {
    for (const child of node.children) {
      if (child.tagName === "MAIN" || child.classList.contains("contents")) collect(child);
      else add(child, "", 0);
    }
  };
  collect(document.body);
  window.auditParts = parts;
  const main = document.querySelector("main");
  const scheme = matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light";
  return { page: [location.pathname.split("/")[1], document.documentElement.lang, scheme,
      line(document.body), main ? line(main) : ""].join(" "),
    parts: keys };
}"""

# axe on the whole document (`parts` null: a page seen for the first time), or on some of its parts.
RUN = """async ([tags, parts, rules]) => {
  const nodes = parts && parts.map((i) => window.auditParts[i]).filter((n) => n.isConnected);
  const context = parts ? { include: nodes.length ? nodes : [document.body] } : document;
  const only = rules ? { type: "rule", values: rules } : { type: "tag", values: tags };
  const result = await axe.run(context, { runOnly: only, resultTypes: ["violations"] });
  return result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.map((n) => ({ target: n.target.join(" "), summary: n.failureSummary })) }));
}"""


def digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


class Audit:
    """The audits of one test: which page states were seen and what axe found in them."""

    def __init__(self) -> None:
        self.pages: list = []  # the test's pages, each audited at every step of the test
        self.seen: set[str] = set()
        self.states = 0
        self.violations: list[str] = []

    def page(self, page, where: str = "") -> None:
        """Audit ``page`` as it is now, if this state was not audited yet (light and dark): the
        whole document the first time its kind of page is seen in its language, then the parts of
        it (cards, banners, the header) that look unlike any seen before."""
        if page.is_closed():
            return
        try:
            skeleton = page.evaluate(SKELETON)
        except Exception:  # the page is navigating: its next state is audited at the next step
            return
        if not skeleton:  # not a page (a stylesheet, a JSON answer): nothing to audit
            return
        whole = digest(skeleton["page"])
        keys = [digest(skeleton["page"] + "\n" + part) for part in skeleton["parts"]]
        new = [i for i, key in enumerate(keys) if key not in self.seen]
        if whole in self.seen and not new:
            return
        parts = new if whole in self.seen else None
        self.seen.update([whole, *keys])
        self.states += 1
        lang, dark = page.evaluate(
            "[document.documentElement.lang, matchMedia('(prefers-color-scheme: dark)').matches]"
        )
        where = f" {lang}{where}"
        for scheme, rules in (("light", None), ("dark", COLOUR_RULES)):
            page.emulate_media(color_scheme=scheme)
            try:
                found = page.evaluate(RUN, [TAGS, parts, rules])
            except Exception:  # the document was replaced under axe: audited at the next step
                continue
            for v in found:
                targets = "\n".join(f"      {n['target']}: {n['summary']}" for n in v["nodes"][:6])
                self.violations.append(
                    f"{v['id']} ({v['impact']}) on {page.url} [{scheme}{where}]: {v['help']}\n"
                    f"{targets}"
                )
        page.emulate_media(color_scheme="dark" if dark else "light")

    def everything(self, where: str = "") -> None:
        """Audit each of the test's pages as it is now (the states not audited yet)."""
        for page in self.pages:
            self.page(page, where)

    def report(self) -> str:
        unique = list(dict.fromkeys(self.violations))
        return f"{len(unique)} WCAG 2.1 A/AA violations in {self.states} page states:\n" + (
            "\n".join(unique)
        )


# What a test does with a page: the page is audited before each (the state the test found it in,
# and acted on) and after a navigation (the page it came to). Waits are not watched: a test may wait
# for a state that lasts half a second (the LED test's colours), and an audit in between would make
# it miss that state; a state waited for is audited at the next step, or at the test's end.
WATCHED = (
    "click",
    "fill",
    "goto",
    "reload",
    "select_option",
    "set_checked",
    "check",
    "uncheck",
    "press",
    "tap",
    "screenshot",
    "inner_text",
    "get_attribute",
)


def watch(page, audit: Audit) -> None:
    """Audit the test's pages before each of ``page``'s methods in ``WATCHED`` is run (a step of
    the test: every phone is looked at, not only the one acted on), and ``page`` after a
    navigation. axe-core is put in each of its documents from the vendored file, as the document
    starts."""
    audit.pages.append(page)
    page.add_init_script(path=str(AXE))
    for name in WATCHED:
        original = getattr(page, name)

        def watched(*args, _original=original, _name=name, **kwargs):
            audit.everything()
            result = _original(*args, **kwargs)
            if _name in ("goto", "reload"):
                audit.page(page)
            return result

        setattr(page, name, watched)
