"""The pages' colours (web/static/app.css's custom properties, light and dark) meet WCAG 2.1 AA:
texts at 4.5:1 on the backgrounds they are drawn on, and the life and XP pips (a filled disc or
square in --ink, an empty ring in --muted) at 3:1 against the card (1.4.11), in both themes."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
APP_CSS = ROOT / "web" / "static" / "app.css"
PIP_STYLES = [
    ROOT / "companion" / "games" / "abracadawhat" / "static" / "page.css",
    ROOT / "companion" / "games" / "dorktower" / "static" / "page.css",
]


def palettes() -> dict[str, dict[str, str]]:
    """The custom properties of :root, and the dark theme's (light ones it does not change)."""
    css = APP_CSS.read_text(encoding="utf-8")
    light_block = re.search(r":root\s*\{(.*?)\}", css, re.S).group(1)
    dark_block = re.search(
        r"@media \(prefers-color-scheme: dark\)\s*\{\s*:root\s*\{(.*?)\}", css, re.S
    ).group(1)

    def props(block: str) -> dict[str, str]:
        return dict(re.findall(r"(--[\w-]+)\s*:\s*(#[0-9a-fA-F]{6})", block))

    light = props(light_block)
    return {"light": light, "dark": {**light, **props(dark_block)}}


def luminance(colour: str) -> float:
    channels = [int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(a: str, b: str) -> float:
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def test_contrast_is_computed_as_wcag_defines_it():
    assert contrast("#000000", "#ffffff") == pytest.approx(21.0)
    assert contrast("#f0e442", "#ffffff") == pytest.approx(1.32, abs=0.01)  # the yellow pip's


@pytest.mark.parametrize("theme", ["light", "dark"])
@pytest.mark.parametrize(
    "fg, bg",
    [
        ("--ink", "--bg"),
        ("--ink", "--card"),
        ("--muted", "--bg"),
        ("--muted", "--card"),
        ("--good", "--card"),
        ("--ok", "--card"),  # the host's "connected" (was undefined: 2.41:1 in the dark)
        ("--bad", "--card"),
        ("--accent", "--card"),
        ("--ink", "--warn-bg"),
    ],
)
def test_texts_are_at_least_4_5_to_1(theme, fg, bg):
    colours = palettes()[theme]
    assert fg in colours and bg in colours, (theme, fg, bg)
    assert contrast(colours[fg], colours[bg]) >= 4.5, (theme, fg, bg)


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_pips_are_told_apart_by_shape_at_3_to_1(theme):
    colours = palettes()[theme]
    for style in PIP_STYLES:
        css = style.read_text(encoding="utf-8")
        empty = re.search(r"\.(?:life|xp-pips) i \{([^}]*)\}", css).group(1)
        filled = re.search(r"\.(?:life|xp-pips) i\.on \{([^}]*)\}", css).group(1)
        # never the seat's colour (--c): a filled pip and an empty ring in the palette's colours
        assert "--c" not in empty + filled, style.name
        ring = re.search(r"border: 2px solid var\((--[\w-]+)\)", empty).group(1)
        fill = re.search(r"background: var\((--[\w-]+)\)", filled).group(1)
        assert contrast(colours[ring], colours["--card"]) >= 3, (style.name, theme, ring)
        assert contrast(colours[fill], colours["--card"]) >= 3, (style.name, theme, fill)
