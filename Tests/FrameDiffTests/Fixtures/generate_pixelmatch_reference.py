#!/usr/bin/env python3
"""Makes the pixelmatch reference fixtures for FrameDiff's perceptual mode.

What it does
  1. Draws a handful of small deterministic image pairs (anti-aliased shapes by 8x8 supersampling, shifted
     edges, alpha gradients, noise, differences on the border) and writes them as 8-bit RGBA PNGs:
     pixelmatch/<case>.a.png and pixelmatch/<case>.b.png.
  2. Reads those PNG files back and runs the PyPI `pixelmatch` package (a Python port of mapbox/pixelmatch
     5.x: blending onto white, the same `antialiased`/`hasManySiblings` logic; it has no diffColorAlt)
     on them for a grid of thresholds and includeAA, and writes a few of its diff images:
     pixelmatch/<case>.<variant>.diff.png.
  3. Prints the counts as a Swift table, to paste into PixelmatchReferenceTests.swift (the tests hard-code
     them; they do not run Python).

Alpha: a Bitmap is premultiplied, and Smokescreen's PNG writer un-premultiplies with rounding to nearest.
A semi-transparent straight colour only survives PNG -> Bitmap -> straight unchanged if it is one that
the writer itself could have produced, so every pixel is first put through premultiply + un-premultiply
exactly as RasterCore/PNGIO do it (asserted below). The straight bytes pixelmatch reads from the files
are then exactly the ones FrameDiff compares.

How to regenerate (from the package root):
    python3 -m venv /tmp/pm && /tmp/pm/bin/pip install pixelmatch==0.4.0 pypng==0.20220715.0
    /tmp/pm/bin/python Tests/FrameDiffTests/Fixtures/generate_pixelmatch_reference.py
then paste the printed table into Tests/FrameDiffTests/PixelmatchReferenceTests.swift and run `swift test`.
The output is deterministic: running it again rewrites identical files.
"""

import math
import os
import sys

import png  # pypng
from pixelmatch import pixelmatch

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "pixelmatch")
SIZE = 40

THRESHOLDS = [0.0, 0.05, 0.1, 0.2, 0.5]


# --- pixels as Smokescreen stores them ------------------------------------------------------------------

def premultiply(c, a):
    """PNGIO's premultiply: round(c * a / 255) through the div-255 identity."""
    t = c * a + 128
    return (t + (t >> 8)) >> 8


def unpremultiply(p, a):
    """PremultipliedRGBA8.unpremultiplied / PNGIO's writer: min(255, (p * 255 + a / 2) / a)."""
    return min(255, (p * 255 + a // 2) // a)


def canonical(r, g, b, a):
    """The straight colour a Bitmap holding (r, g, b, a) writes to PNG."""
    if a == 0:
        return (0, 0, 0, 0)
    if a == 255:
        return (r, g, b, 255)
    out = []
    for c in (r, g, b):
        p = premultiply(c, a)
        s = unpremultiply(p, a)
        assert premultiply(s, a) == p, "premultiplied value must survive the PNG round trip"
        out.append(s)
    return (out[0], out[1], out[2], a)


class Image:
    def __init__(self, fill=(255, 255, 255, 255)):
        self.px = [[fill for _ in range(SIZE)] for _ in range(SIZE)]

    def set(self, x, y, rgba):
        if 0 <= x < SIZE and 0 <= y < SIZE:
            self.px[y][x] = tuple(int(v) for v in rgba)

    def over(self, x, y, rgb, coverage):
        """Source-over of an opaque colour with the given coverage (0...1), in straight 8-bit."""
        if coverage <= 0 or not (0 <= x < SIZE and 0 <= y < SIZE):
            return
        r, g, b, a = self.px[y][x]
        k = min(1.0, coverage)
        na = k * 255 + a * (1 - k)
        if na <= 0:
            return
        mix = [(s * k * 255 + d * a * (1 - k)) / na for s, d in zip(rgb, (r, g, b))]
        self.px[y][x] = (round(mix[0]), round(mix[1]), round(mix[2]), round(na))

    def rows(self):
        return [[v for p in row for v in canonical(*p)] for row in self.px]


def coverage(inside, x, y, n=8):
    """Fraction of pixel (x, y) covered by the shape, by n x n supersampling."""
    hits = 0
    for j in range(n):
        for i in range(n):
            if inside(x + (i + 0.5) / n, y + (j + 0.5) / n):
                hits += 1
    return hits / (n * n)


def draw(img, inside, rgb):
    for y in range(SIZE):
        for x in range(SIZE):
            img.over(x, y, rgb, coverage(inside, x, y))


def disc(cx, cy, r):
    return lambda x, y: (x - cx) ** 2 + (y - cy) ** 2 <= r * r


def thick_line(x0, y0, x1, y1, half_width):
    dx, dy = x1 - x0, y1 - y0
    length = math.hypot(dx, dy)

    def inside(x, y):
        t = ((x - x0) * dx + (y - y0) * dy) / (length * length)
        if t < 0 or t > 1:
            return False
        return abs((x - x0) * dy - (y - y0) * dx) / length <= half_width
    return inside


class LCG:
    """A tiny deterministic generator (the same numbers on every machine and Python version)."""

    def __init__(self, seed):
        self.state = seed

    def next(self, bound):
        self.state = (self.state * 6364136223846793005 + 1442695040888963407) % (1 << 64)
        return (self.state >> 33) % bound


# --- the cases ---------------------------------------------------------------------------------------------

def case_disc_shift():
    """A blue disc moved by (0.6, 0.4) px: the rim changes, the inside does not."""
    a, b = Image(), Image()
    draw(a, disc(19.5, 20.0, 11.0), (30, 60, 200))
    draw(b, disc(20.1, 20.4, 11.0), (30, 60, 200))
    return a, b


def case_lines_and_block():
    """Two anti-aliased lines, one moved by half a pixel; a solid block added; one pixel changed slightly."""
    a, b = Image(), Image()
    for img, shift in ((a, 0.0), (b, 0.5)):
        draw(img, thick_line(3, 5, 36, 30, 0.9), (0, 0, 0))
        draw(img, thick_line(5 + shift, 35, 35 + shift, 8, 0.6), (200, 40, 40))
    for y in range(30, 34):
        for x in range(26, 33):
            b.set(x, y, (20, 160, 60, 255))
    r, g, bl, al = b.px[2][2]
    b.set(2, 2, (r - 6, g - 6, bl - 6, al))
    return a, b


def case_alpha():
    """Transparent background with alpha gradients; alpha-only and colour-only changes of several sizes."""
    a, b = Image((0, 0, 0, 0)), Image((0, 0, 0, 0))
    for y in range(SIZE):
        for x in range(SIZE):
            alpha = (x * 255) // (SIZE - 1)
            a.set(x, y, (40, 90, 220, alpha) if y < 20 else (250, 250, 250, alpha))
            b.set(x, y, (40, 90, 220, alpha) if y < 20 else (250, 250, 250, alpha))
    for x in range(SIZE):  # alpha up by 12 on row 5, by 60 on row 10
        for y, step in ((5, 12), (10, 60)):
            _, _, _, al = a.px[y][x]
            b.set(x, y, (40, 90, 220, min(255, al + step)))
    for x in range(0, SIZE, 3):  # transparent vs faint black / faint white
        a.set(x, 30, (0, 0, 0, 0))
        b.set(x, 30, (0, 0, 0, 10 + x))
        a.set(x, 33, (0, 0, 0, 0))
        b.set(x, 33, (255, 255, 255, 10 + x))
    for x in range(SIZE):  # the same alpha, colours apart
        _, _, _, al = a.px[25][x]
        b.set(x, 25, (10, 10, 10, al))
    return a, b


def case_noise():
    """Opaque noise, and the same noise with every channel moved by up to +-60."""
    rng = LCG(2024)
    a, b = Image(), Image()
    for y in range(SIZE):
        for x in range(SIZE):
            p = (rng.next(256), rng.next(256), rng.next(256), 255)
            a.set(x, y, p)
            q = tuple(max(0, min(255, c + rng.next(121) - 60)) for c in p[:3]) + (255,)
            b.set(x, y, q if rng.next(4) == 0 else p)
    return a, b


def case_border():
    """Soft vertical and horizontal edges that touch the image border, shifted by one pixel in b."""
    a, b = Image(), Image()
    for img, s in ((a, 0), (b, 1)):
        for y in range(SIZE):
            for x in range(SIZE):
                if x <= 2 + s:
                    img.set(x, y, (0, 0, 0, 255))
                elif x == 3 + s:
                    img.set(x, y, (128, 128, 128, 255))
                if y >= SIZE - 3 - s:
                    img.set(x, y, (0, 0, 120, 255))
                elif y == SIZE - 4 - s:
                    img.set(x, y, (128, 128, 188, 255))
        img.set(SIZE - 1, 0, (255, 0, 0, 255) if s else (255, 255, 255, 255))
    return a, b


CASES = [
    ("disc-shift", case_disc_shift),
    ("lines-and-block", case_lines_and_block),
    ("alpha", case_alpha),
    ("noise", case_noise),
    ("border", case_border),
]

# Diff images to keep: (case, variant name, options for pixelmatch).
DIFF_VARIANTS = [
    ("disc-shift", "default", {}),
    ("lines-and-block", "default", {}),
    ("lines-and-block", "styled", {"alpha": 0.5, "aa_color": (0, 255, 255), "diff_color": (0, 0, 255)}),
    ("lines-and-block", "mask", {"diff_mask": True}),
    ("alpha", "default", {}),
    ("alpha", "include-aa", {"includeAA": True, "threshold": 0.05}),
    ("noise", "default", {}),
    ("border", "default", {}),
]


def write_png(path, rows):
    with open(path, "wb") as f:
        png.Writer(SIZE, SIZE, greyscale=False, alpha=True, bitdepth=8, compression=9).write(f, rows)


def read_png(path):
    width, height, rows, info = png.Reader(filename=path).asRGBA8()
    assert (width, height) == (SIZE, SIZE)
    return [v for row in rows for v in row]


def main():
    os.makedirs(OUT, exist_ok=True)
    lines = []
    for name, make in CASES:
        a, b = make()
        pa, pb = os.path.join(OUT, name + ".a.png"), os.path.join(OUT, name + ".b.png")
        write_png(pa, a.rows())
        write_png(pb, b.rows())
        img1, img2 = read_png(pa), read_png(pb)
        for include_aa in (False, True):
            counts = [pixelmatch(img1, img2, SIZE, SIZE, None, threshold=t, includeAA=include_aa) for t in THRESHOLDS]
            lines.append('        ("%s", %s, [%s]),' % (name, "true" if include_aa else "false", ", ".join(map(str, counts))))
    for name, variant, options in DIFF_VARIANTS:
        img1 = read_png(os.path.join(OUT, name + ".a.png"))
        img2 = read_png(os.path.join(OUT, name + ".b.png"))
        output = [0] * (SIZE * SIZE * 4)
        count = pixelmatch(img1, img2, SIZE, SIZE, output, **options)
        rows = [output[y * SIZE * 4:(y + 1) * SIZE * 4] for y in range(SIZE)]
        write_png(os.path.join(OUT, "%s.%s.diff.png" % (name, variant)), rows)
        lines.append('        // diff image %s.%s: %d pixels, options %s' % (name, variant, count, options))
    print("    // Generated by Fixtures/generate_pixelmatch_reference.py (pixelmatch %s on PyPI); thresholds %s"
          % (pixelmatch_version(), THRESHOLDS))
    print("\n".join(lines))


def pixelmatch_version():
    try:
        from importlib.metadata import version
        return version("pixelmatch")
    except Exception:  # pragma: no cover - only for the printed note
        return "?"


if __name__ == "__main__":
    sys.exit(main())
