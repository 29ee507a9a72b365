#!/usr/bin/env python3
"""Draws the Vesper scene's note images (procedural, so the repository needs no photographs).

Run from this folder: python3 generate_images.py  (needs numpy). Writes 8-bit RGB PNGs of each
picture at @1x, @2x and @3x (name.png, name@2x.png, name@3x.png), 240x180 points, as an app ships them.
"""
import struct
import zlib

import numpy as np

POINTS = (240, 180)


def write_png(path, rgb):
    h, w, _ = rgb.shape
    raw = b"".join(b"\x00" + rgb[y].astype(np.uint8).tobytes() for y in range(h))
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0))
    png += chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b"")
    with open(path, "wb") as f:
        f.write(png)


def mix(a, b, t):
    t = np.clip(t, 0, 1)[..., None]
    return np.asarray(a, float) * (1 - t) + np.asarray(b, float) * t


def coverage(d):
    """Anti-aliased coverage of a signed distance (negative inside), one pixel wide edge."""
    return np.clip(0.5 - d, 0, 1)


def draw(scale):
    """Every picture at `scale` pixels per point; shapes are laid out at @2x and scaled."""
    global W, H
    W, H = POINTS[0] * scale, POINTS[1] * scale
    suffix = "" if scale == 1 else f"@{scale}x"
    k = scale / 2  # pixels per @2x unit: shapes are laid out on a 480x360 grid

    def cov(d):
        return coverage(d * k)  # distances in layout units, edges one pixel wide

    ys, xs = (np.mgrid[0:H, 0:W].astype(float) + 0.5) / k

    # Harbor at dusk: sky gradient, sun, sea with stripes, a pier.
    sky = mix([250, 190, 140], [70, 90, 160], ys / (360 * 0.6))
    sun = cov(np.hypot(xs - 330, ys - 150) - 42)
    img = mix(sky, [255, 236, 190], sun)
    sea = cov(200 - ys)  # below y = 200
    water = mix([40, 70, 120], [20, 40, 80], (ys - 200) / 160) + 18 * np.sin(ys * 0.9 + xs * 0.02)[..., None]
    img = mix(img, water, sea)
    pier = cov(np.maximum(np.abs(xs - 120) - 70, np.abs(ys - 214) - 6))
    img = mix(img, [50, 35, 30], pier)
    write_png(f"harbor{suffix}.png", img)

    # Coffee cup from above: saucer, cup, crema swirl on a wooden table.
    wood = mix([160, 110, 70], [120, 80, 50], 0.5 + 0.5 * np.sin(xs * 0.05 + np.sin(ys * 0.02) * 3))
    r = np.hypot(xs - 240, ys - 180)
    img = mix(wood, [240, 240, 236], cov(r - 150))
    img = mix(img, [250, 250, 248], cov(r - 105))
    img = mix(img, [90, 50, 25], cov(r - 88))
    angle = np.arctan2(ys - 180, xs - 240)
    img = mix(img, [200, 150, 100], cov(np.abs(r - 40 - 12 * np.sin(angle * 2)) - 6) * cov(r - 80))
    write_png(f"coffee{suffix}.png", img)

    # Notebook: ruled lines, a margin, a pencil.
    img = mix([252, 250, 240], [240, 236, 220], ys / 360)
    for y in range(40, 360, 28):
        img = mix(img, [160, 190, 220], cov(np.abs(ys - y) - 0.8))
    img = mix(img, [220, 120, 120], cov(np.abs(xs - 70) - 1.0))
    pencil = cov(np.abs((ys - 300) + (xs - 200) * 0.35) - 9) * cov(np.abs(xs - 300) - 140)
    img = mix(img, [240, 190, 60], pencil)
    write_png(f"notebook{suffix}.png", img)


for s in (1, 2, 3):
    draw(s)
