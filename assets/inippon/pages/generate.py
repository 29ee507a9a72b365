#!/usr/bin/env python3
"""Draws the ten page backgrounds of the iNippon pages built-ins at @1x (320x367), @2x and @3x.

Each motif is drawn at each size from the same shapes (not scaled from one bitmap), anti-aliased by
coverage of signed distances, and written as an 8-bit RGB PNG. Run from this folder:
python3 generate.py (needs numpy). The output is deterministic."""
import struct, zlib
import numpy as np

W, H = 320, 367

def png(path, rgb):
    h, w, _ = rgb.shape
    raw = b"".join(b"\x00" + rgb[y].tobytes() for y in range(h))
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0))
                + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))

class Canvas:
    def __init__(self, scale):
        self.w, self.h = W * scale, H * scale
        self.px = 1.0 / scale  # one pixel in points
        ys, xs = np.mgrid[0:self.h, 0:self.w]
        self.x = (xs + 0.5) / scale  # pixel centres in points
        self.y = (ys + 0.5) / scale
        self.img = np.zeros((self.h, self.w, 3))

    def fill(self, coverage, color):
        c = np.clip(coverage, 0, 1)[..., None]
        self.img = self.img * (1 - c) + np.array(color, dtype=float)[None, None, :] / 255 * c

    def sdf(self, d):  # coverage of the inside (d < 0) with a one-pixel ramp
        return np.clip(0.5 - d / self.px, 0, 1)

    def gradient(self, top, bottom, y0=0, y1=H):
        t = np.clip((self.y - y0) / (y1 - y0), 0, 1)[..., None]
        self.img = (np.array(top)[None, None, :] * (1 - t) + np.array(bottom)[None, None, :] * t) / 255

    def circle(self, cx, cy, r, color, alpha=1.0):
        self.fill(self.sdf(np.hypot(self.x - cx, self.y - cy) - r) * alpha, color)

    def rect(self, x0, y0, x1, y1, color, alpha=1.0):
        d = np.maximum(np.maximum(x0 - self.x, self.x - x1), np.maximum(y0 - self.y, self.y - y1))
        self.fill(self.sdf(d) * alpha, color)

    def below(self, curve, color, alpha=1.0):  # everything below y = curve(x)
        self.fill(self.sdf(curve(self.x) - self.y) * alpha, color)

    def polygon(self, pts, color, alpha=1.0):  # convex, clockwise in screen coordinates
        d = np.full(self.x.shape, -1e9)
        n = len(pts)
        for i in range(n):
            (ax, ay), (bx, by) = pts[i], pts[(i + 1) % n]
            ex, ey = bx - ax, by - ay
            length = np.hypot(ex, ey)
            d = np.maximum(d, ((self.x - ax) * ey - (self.y - ay) * ex) / length)
        self.fill(self.sdf(d) * alpha, color)

def fuji(c):
    c.gradient((96, 150, 210), (232, 238, 246), 0, 260)
    c.circle(240, 80, 34, (214, 48, 49))
    c.polygon([(160, 120), (330, 330), (-10, 330)], (58, 74, 110))
    c.polygon([(160, 120), (196, 165), (178, 158), (165, 172), (150, 160), (136, 170), (124, 165)], (246, 248, 252))
    c.below(lambda x: 310 + 6 * np.sin(x / 23), (70, 110, 80))

def torii(c):
    c.gradient((250, 200, 150), (250, 232, 210), 0, 220)
    c.below(lambda x: 230 + 0 * x, (70, 120, 170))
    for k in range(6):
        c.rect(0, 250 + 18 * k, W, 251 + 18 * k, (230, 240, 250), 0.35)
    c.rect(92, 90, 108, 300, (200, 50, 40)); c.rect(212, 90, 228, 300, (200, 50, 40))
    c.rect(70, 80, 250, 96, (40, 30, 30)); c.rect(80, 120, 240, 132, (200, 50, 40)); c.rect(154, 96, 166, 120, (200, 50, 40))

def sakura(c):
    c.gradient((252, 228, 236), (255, 245, 248))
    for (x0, y0, x1, y1) in [(-10, 60, 200, 140), (120, 110, 330, 60), (60, 120, 140, 250)]:
        t = np.clip(((c.x - x0) * (x1 - x0) + (c.y - y0) * (y1 - y0)) / ((x1 - x0) ** 2 + (y1 - y0) ** 2), 0, 1)
        d = np.hypot(c.x - (x0 + t * (x1 - x0)), c.y - (y0 + t * (y1 - y0))) - 5
        c.fill(c.sdf(d), (90, 60, 60))
    rng = np.random.default_rng(7)
    for _ in range(40):
        c.circle(rng.uniform(0, W), rng.uniform(40, 260), rng.uniform(6, 13), (246, 170, 190), 0.9)

def waves(c):
    c.gradient((235, 230, 210), (235, 230, 210))
    for k, color in enumerate([(30, 60, 110), (40, 90, 150), (70, 130, 180), (150, 190, 215)]):
        c.below(lambda x, k=k: 150 + 50 * k + 22 * np.sin(x / (30 + 8 * k) + k), color)
    c.circle(250, 70, 26, (240, 240, 240))

def pagoda(c):
    c.gradient((250, 160, 90), (120, 70, 130), 0, H)
    for k in range(5):
        y = 90 + 45 * k
        half = 34 + 12 * k
        c.polygon([(160 - half * 0.5, y), (160 + half * 0.5, y), (160 + half, y + 18), (160 - half, y + 18)], (40, 25, 40))
        c.rect(160 - half * 0.45, y + 18, 160 + half * 0.45, y + 45, (40, 25, 40))
    c.rect(157, 50, 163, 92, (40, 25, 40))

def bamboo(c):
    c.gradient((20, 30, 70), (60, 80, 120))
    c.circle(210, 90, 40, (250, 240, 200))
    for i, x in enumerate([20, 60, 100, 250, 290]):
        c.rect(x, -5, x + 14, H + 5, (40, 110, 60))
        for y in range(30 + 17 * i % 50, H, 70):
            c.rect(x - 1, y, x + 15, y + 3, (25, 80, 40))

def sunrise(c):
    c.gradient((255, 250, 240), (255, 236, 220))
    c.circle(160, 170, 80, (200, 30, 45))
    c.below(lambda x: 300 + 0 * x, (220, 210, 200))

def maple(c):
    c.gradient((250, 220, 150), (240, 150, 80))
    rng = np.random.default_rng(11)
    for _ in range(28):
        x, y, r = rng.uniform(0, W), rng.uniform(0, H), rng.uniform(8, 18)
        color = [(200, 40, 30), (230, 110, 30), (180, 30, 50)][int(rng.integers(0, 3))]
        c.polygon([(x, y - r), (x + r * 0.95, y - r * 0.3), (x + r * 0.6, y + r * 0.8), (x - r * 0.6, y + r * 0.8), (x - r * 0.95, y - r * 0.3)], color, 0.9)

def snow(c):
    c.gradient((150, 165, 190), (220, 228, 238))
    c.below(lambda x: 250 - 40 * np.exp(-((x - 90) / 70) ** 2), (245, 247, 250))
    c.below(lambda x: 300 - 30 * np.exp(-((x - 240) / 60) ** 2), (232, 236, 244))
    rng = np.random.default_rng(3)
    for _ in range(60):
        c.circle(rng.uniform(0, W), rng.uniform(0, H), rng.uniform(1.2, 2.8), (255, 255, 255), 0.9)

def terraces(c):
    c.gradient((170, 210, 240), (230, 240, 245), 0, 140)
    for k, color in enumerate([(120, 170, 80), (100, 155, 70), (85, 140, 60), (70, 125, 55), (60, 110, 50)]):
        c.below(lambda x, k=k: 130 + 48 * k + 14 * np.sin(x / 50 + k * 1.3), color)

MOTIFS = [fuji, torii, sakura, waves, pagoda, bamboo, sunrise, maple, snow, terraces]

if __name__ == "__main__":
    for i, motif in enumerate(MOTIFS):
        for scale in (1, 2, 3):
            c = Canvas(scale)
            motif(c)
            rgb = (np.clip(c.img, 0, 1) * 255 + 0.5).astype(np.uint8)
            suffix = "" if scale == 1 else f"@{scale}x"
            png(f"page{i}{suffix}.png", rgb)
