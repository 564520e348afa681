"""Draw the installable app's PNG icons (static/icons/) from the site's mark, the brand SVG in
templates/base.html: a cream tile, two points (rust and green) and two checkers (black, white).

    .venv/bin/python tools/make_app_icons.py

"any" icons are the tile with rounded corners on transparency; "maskable" ones fill the square
with the tile's colour and keep the mark inside the central 80% circle that every platform's
mask leaves visible. Each is drawn four times larger and scaled down, for smooth edges.
"""

from __future__ import annotations

from pathlib import Path

from PIL import Image, ImageDraw

OUT = Path(__file__).resolve().parent.parent / "static" / "icons"
TILE, RUST, GREEN, BLACK, WHITE = "#f4ead5", "#a4502a", "#2f6b4f", "#1b1b1b", "#ffffff"
SUPERSAMPLE = 4


def _mark(draw: ImageDraw.ImageDraw, offset: float, scale: float) -> None:
    """The SVG's shapes (a 32-unit viewBox) at ``scale`` pixels a unit."""

    def at(x: float, y: float) -> tuple[float, float]:
        return offset + x * scale, offset + y * scale

    draw.polygon([at(4, 4), at(9, 18), at(14, 4)], fill=RUST)
    draw.polygon([at(18, 4), at(23, 18), at(28, 4)], fill=GREEN)
    for cx, fill in ((11, BLACK), (21, WHITE)):
        (x0, y0), (x1, y1) = at(cx - 4, 21), at(cx + 4, 29)
        draw.ellipse([x0, y0, x1, y1], fill=fill, outline=BLACK, width=max(1, round(1.5 * scale)))


def icon(size: int, *, maskable: bool) -> Image.Image:
    big = size * SUPERSAMPLE
    image = Image.new("RGBA", (big, big), TILE if maskable else (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    if maskable:
        # The mark's 30-unit tile inside the safe zone: a circle of 80% of the width.
        scale = big * 0.8 / (30 * 1.4142) * 1.05
        _mark(draw, (big - 32 * scale) / 2, scale)
    else:
        scale = big / 32
        draw.rounded_rectangle([scale, scale, 31 * scale, 31 * scale], radius=6 * scale, fill=TILE)
        _mark(draw, 0, scale)
    return image.resize((size, size), Image.Resampling.LANCZOS)


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for size in (192, 512):
        icon(size, maskable=False).save(OUT / f"icon-{size}.png", optimize=True)
        icon(size, maskable=True).save(OUT / f"maskable-{size}.png", optimize=True)
    print(f"wrote {sorted(path.name for path in OUT.glob('*.png'))}")


if __name__ == "__main__":
    main()
