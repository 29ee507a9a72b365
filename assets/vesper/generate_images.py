#!/usr/bin/env python3
"""Draws the Vesper scene's note images (procedural, so the repository needs no photographs).

Run from this folder: python3 generate_images.py  (needs numpy). Writes 8-bit RGB PNGs at @2x.
"""
import struct
import zlib

import numpy as np

W, H = 480, 360  # pixels; shown at 240x180 pt in the detail view (@2x)


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


ys, xs = np.mgrid[0:H, 0:W].astype(float) + 0.5

# Harbor at dusk: sky gradient, sun, sea with stripes, a pier.
sky = mix([250, 190, 140], [70, 90, 160], ys / (H * 0.6))
sun = coverage(np.hypot(xs - 330, ys - 150) - 42)
img = mix(sky, [255, 236, 190], sun)
sea = coverage(200 - ys)  # below y = 200
water = mix([40, 70, 120], [20, 40, 80], (ys - 200) / 160) + 18 * np.sin(ys * 0.9 + xs * 0.02)[..., None]
img = mix(img, water, sea)
pier = coverage(np.maximum(np.abs(xs - 120) - 70, np.abs(ys - 214) - 6))
img = mix(img, [50, 35, 30], pier)
write_png("harbor.png", img)

# Coffee cup from above: saucer, cup, crema swirl on a wooden table.
wood = mix([160, 110, 70], [120, 80, 50], 0.5 + 0.5 * np.sin(xs * 0.05 + np.sin(ys * 0.02) * 3))
r = np.hypot(xs - W / 2, ys - H / 2)
img = mix(wood, [240, 240, 236], coverage(r - 150))
img = mix(img, [250, 250, 248], coverage(r - 105))
img = mix(img, [90, 50, 25], coverage(r - 88))
angle = np.arctan2(ys - H / 2, xs - W / 2)
img = mix(img, [200, 150, 100], coverage(np.abs(r - 40 - 12 * np.sin(angle * 2)) - 6) * coverage(r - 80))
write_png("coffee.png", img)

# Notebook: ruled lines, a margin, a pencil.
img = mix([252, 250, 240], [240, 236, 220], ys / H)
for y in range(40, H, 28):
    img = mix(img, [160, 190, 220], coverage(np.abs(ys - y) - 0.8))
img = mix(img, [220, 120, 120], coverage(np.abs(xs - 70) - 1.0))
pencil = coverage(np.abs((ys - 300) + (xs - 200) * 0.35) - 9) * coverage(np.abs(xs - 300) - 140)
img = mix(img, [240, 190, 60], pencil)
write_png("notebook.png", img)
