"""The accessibility audit of the browser tests: axe-core (vendored, see vendor/axe-core/README.md)
checks every page state the tests reach against WCAG 2.1 A and AA, in the light and the dark theme.

A phone's page (conftest's ``phone``) is audited before each thing a test does with it (a click, a
fill, a wait...) and when the test ends, so every state a test goes through is looked at once it is
drawn. A state is told apart by its page's address and the skeleton of its document (elements,
classes, roles, ARIA and hidden/disabled attributes, not the texts and numbers in it): a game's
hundred turns that look alike are audited once. Each new state is audited in the light and the
dark theme (``prefers-color-scheme`` emulated), then left in the theme it was in.

Violations are collected per test and the test fails at its end, listing each rule, the elements it
found (their CSS selectors) and what axe says to fix.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

AXE = Path(__file__).resolve().parent / "vendor" / "axe-core" / "axe.min.js"
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]

# The document's skeleton: what changes the page's structure and looks, never its texts.
SKELETON = """() => {
  // a run of alike siblings (five stones, twelve events) counts as one
  const walk = (node, depth) => {
    if (depth > 40) return "";
    let out = "", last = null;
    for (const child of node.children) {
      let line = child.tagName;
      for (const attr of child.attributes) {
        const n = attr.name;
        if (n === "class" || n === "role" || n === "hidden" || n === "disabled" || n === "open"
            || n === "type" || n.startsWith("aria-") && n !== "aria-label" && n !== "aria-valuenow")
          line += ` ${n}=${n === "class" ? attr.value.split(/\\s+/).sort().join(".") : attr.value}`;
      }
      const part = `${depth}${line}\\n${walk(child, depth + 1)}`;
      if (part !== last) out += part;
      last = part;
    }
    return out;
  };
  if (document.contentType !== "text/html" || !document.body) return "";
  const scheme = matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light";
  return `${location.pathname}\\n${document.documentElement.lang}${scheme}\\n${walk(document.body, 0)}`;
}"""

RUN = """async (tags) => {
  const result = await axe.run(document, { runOnly: { type: "tag", values: tags },
    resultTypes: ["violations"] });
  return result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.map((n) => ({ target: n.target.join(" "), summary: n.failureSummary })) }));
}"""


class Audit:
    """The audits of one test: which page states were seen and what axe found in them."""

    def __init__(self) -> None:
        self.seen: set[str] = set()
        self.states = 0
        self.violations: list[str] = []

    def page(self, page, where: str = "") -> None:
        """Audit ``page`` as it is now, if this state was not audited yet (light and dark)."""
        if page.is_closed():
            return
        try:
            skeleton = page.evaluate(SKELETON)
        except Exception:  # the page is navigating: its next state is audited at the next step
            return
        if not skeleton:  # not a page (a stylesheet, a JSON answer): nothing to audit
            return
        key = hashlib.sha256(skeleton.encode()).hexdigest()
        if key in self.seen:
            return
        self.seen.add(key)
        self.states += 1
        lang, dark = page.evaluate(
            "[document.documentElement.lang, matchMedia('(prefers-color-scheme: dark)').matches]"
        )
        where = f" {lang}{where}"
        for scheme in ("light", "dark"):
            page.emulate_media(color_scheme=scheme)
            try:
                found = page.evaluate(RUN, TAGS)
            except Exception:  # the document was replaced under axe: audited at the next step
                continue
            for v in found:
                targets = "\n".join(f"      {n['target']}: {n['summary']}" for n in v["nodes"][:6])
                self.violations.append(
                    f"{v['id']} ({v['impact']}) on {page.url} [{scheme}{where}]: {v['help']}\n"
                    f"{targets}"
                )
        page.emulate_media(color_scheme="dark" if dark else "light")

    def report(self) -> str:
        unique = list(dict.fromkeys(self.violations))
        return f"{len(unique)} WCAG 2.1 A/AA violations in {self.states} page states:\n" + (
            "\n".join(unique)
        )


# What a test does with a page, after which the page is audited before the next thing is done.
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
    "wait_for_selector",
    "wait_for_url",
    "wait_for_function",
    "screenshot",
    "inner_text",
    "get_attribute",
)


def watch(page, audit: Audit) -> None:
    """Audit ``page`` before each of its methods in ``WATCHED`` is run (its state as the test found
    it), and again after a navigation or a wait (the state the test waited for). axe-core is put
    in each of its documents from the vendored file, as the document starts."""
    page.add_init_script(path=str(AXE))
    for name in WATCHED:
        original = getattr(page, name)

        def watched(*args, _original=original, _name=name, **kwargs):
            audit.page(page)
            result = _original(*args, **kwargs)
            if _name.startswith(("goto", "reload", "wait_for")):
                audit.page(page)
            return result

        setattr(page, name, watched)
