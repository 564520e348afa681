"""Named board themes (the wood, felt and point colours) and the WCAG contrast arithmetic that
keeps checkers visible on every one of them. Pure data: nothing here imports Django.

Checker colours are chosen separately (accounts.CheckerColours, drawn by backgammon.game_page);
every checker carries a light halo and a dark rim, so it stands out on dark and light surfaces
alike. tests/site/test_board_themes.py checks every theme against every checker scheme.

>>> theme_named("ocean").label
'Ocean'
>>> theme_named("no-such-theme") is CLASSIC
True
>>> round(contrast("#000000", "#ffffff"), 1)
21.0
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["CLASSIC", "HALO", "THEMES", "Theme", "contrast", "theme_named"]

HALO = "#fffdf6"
"""The light ring drawn round every checker, outside its rim."""


@dataclass(frozen=True, slots=True)
class Theme:
    """A board's colours: the wooden frame (a three-stop gradient), the playing field (two stops,
    centre to edge), the bar, the bear-off trays and the two point colours."""

    key: str
    label: str
    frame: tuple[str, str, str]
    field: tuple[str, str]
    bar: str
    tray: str
    point_dark: str
    point_light: str

    def surfaces(self) -> tuple[str, ...]:
        """Every colour a checker can stand on: points, field (both stops) and the bar."""
        return (self.point_dark, self.point_light, *self.field, self.bar)


CLASSIC = Theme("classic", "Classic wood", ("#7a4a24", "#5c3417", "#6e4220"), ("#2f7a55", "#1d5239"),
                "#4a2a12", "#3a210e", "#a8322a", "#efe3c4")

THEMES: dict[str, Theme] = {theme.key: theme for theme in (
    CLASSIC,
    Theme("tournament", "Tournament green", ("#27332b", "#18211b", "#212c24"), ("#3f8f57", "#2b6e3f"),
          "#16201a", "#101712", "#123f24", "#ece6cf"),
    Theme("ocean", "Ocean", ("#24507a", "#163450", "#1e4468"), ("#6aaed3", "#3f80ab"),
          "#10263b", "#0b1b2b", "#0d3b66", "#e8f2f9"),
    Theme("contrast", "High contrast", ("#000000", "#000000", "#000000"), ("#ffffff", "#ffffff"),
          "#000000", "#1a1a1a", "#000000", "#a6a6a6"),
    # Okabe and Ito's palette for colour-blind viewers: blue and yellow points that differ
    # in lightness too, never red against green.
    Theme("colourblind", "Colour-blind safe (blue and yellow)", ("#4d4d4d", "#333333", "#444444"),
          ("#d9d9d9", "#bfbfbf"), "#2b2b2b", "#222222", "#0072b2", "#f0e442"),
)}


def theme_named(key: str) -> Theme:
    """The theme called ``key``; the classic board for anything unknown (an old or tampered value)."""
    return THEMES.get(key, CLASSIC)


def _luminance(colour: str) -> float:
    """WCAG 2 relative luminance of ``#rrggbb`` or ``#rgb``."""
    hex_digits = colour.lstrip("#")
    if len(hex_digits) == 3:
        hex_digits = "".join(digit * 2 for digit in hex_digits)
    channels = [int(hex_digits[i:i + 2], 16) / 255 for i in (0, 2, 4)]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(first: str, second: str) -> float:
    """WCAG 2 contrast ratio of two colours, 1 (the same) to 21 (black on white)."""
    high, low = sorted((_luminance(first), _luminance(second)), reverse=True)
    return (high + 0.05) / (low + 0.05)
