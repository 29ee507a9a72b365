#!/usr/bin/env python3
"""Strokes and fills paths with Skia (skia-python), for StrokeReferenceTests.

Reads a JSON list of cases from the file named by the first argument. Each case has `width`, `height`
(the canvas, transparent, 1 pixel per unit), `out` (the PNG to write), `transform` ([a, b, c, d, tx,
ty]: x' = a·x + c·y + tx, y' = b·x + d·y + ty), `color` ([r, g, b, a], 0…1), `path` (a list of elements:
["M", x, y], ["L", x, y], ["Q", cx, cy, x, y], ["C", c1x, c1y, c2x, c2y, x, y], ["Z"]) and either
`fill` ("nonzero" or "evenodd") or `stroke`: {width, cap (butt, round, square), join (miter, round,
bevel), miter, dashes (a list, may be empty), phase, start, end}. A fill with `blur` (σ in pixels) is
drawn through Skia's normal blur mask filter at 1x instead (a shadow's shape). `start`/`end` trim the stroke to that
part of the path's whole length (Skia's trim path effect); dashes are Skia's dash path effect.

Each canvas pixel is the mean of the pixel's square: Skia draws anti-aliased on a canvas 8 times finer in
each direction and every 8 x 8 block of premultiplied pixels is averaged, so the reference is the exact
area coverage a per-pixel renderer aims at.
"""
import json
import sys

import numpy
import skia

FINE = 8
CAPS = {"butt": skia.Paint.kButt_Cap, "round": skia.Paint.kRound_Cap, "square": skia.Paint.kSquare_Cap}
JOINS = {"miter": skia.Paint.kMiter_Join, "round": skia.Paint.kRound_Join, "bevel": skia.Paint.kBevel_Join}


def build(elements):
    path = skia.Path()
    for e in elements:
        if e[0] == "M":
            path.moveTo(e[1], e[2])
        elif e[0] == "L":
            path.lineTo(e[1], e[2])
        elif e[0] == "Q":
            path.quadTo(e[1], e[2], e[3], e[4])
        elif e[0] == "C":
            path.cubicTo(e[1], e[2], e[3], e[4], e[5], e[6])
        elif e[0] == "Z":
            path.close()
    return path


def main():
    with open(sys.argv[1]) as f:
        cases = json.load(f)
    for case in cases:
        width, height = case["width"], case["height"]
        if "blur" in case:
            blurred(case)
            continue
        info = skia.ImageInfo.Make(width * FINE, height * FINE, skia.kRGBA_8888_ColorType, skia.kPremul_AlphaType)
        surface = skia.Surface.MakeRaster(info)
        canvas = surface.getCanvas()
        canvas.clear(skia.ColorTRANSPARENT)
        canvas.scale(FINE, FINE)
        a, b, c, d, tx, ty = case["transform"]
        canvas.concat(skia.Matrix.MakeAll(a, c, tx, b, d, ty, 0, 0, 1))
        r, g, bl, al = case["color"]
        paint = skia.Paint(AntiAlias=True, Color4f=skia.Color4f(r, g, bl, al))
        path = build(case["path"])
        if "fill" in case:
            path.setFillType(skia.PathFillType.kEvenOdd if case["fill"] == "evenodd" else skia.PathFillType.kWinding)
        else:
            s = case["stroke"]
            paint.setStyle(skia.Paint.kStroke_Style)
            paint.setStrokeWidth(s["width"])
            paint.setStrokeCap(CAPS[s["cap"]])
            paint.setStrokeJoin(JOINS[s["join"]])
            paint.setStrokeMiter(s["miter"])
            if s["dashes"]:
                paint.setPathEffect(skia.DashPathEffect.Make(s["dashes"], s["phase"]))
            elif s["start"] > 0 or s["end"] < 1:
                paint.setPathEffect(skia.TrimPathEffect.Make(s["start"], s["end"], skia.TrimPathEffect.Mode.kNormal))
        canvas.drawPath(path, paint)
        fine = surface.makeImageSnapshot().toarray(colorType=skia.kRGBA_8888_ColorType, alphaType=skia.kPremul_AlphaType)
        mean = fine.astype(numpy.float64).reshape(height, FINE, width, FINE, 4).mean(axis=(1, 3))
        pixels = numpy.ascontiguousarray(numpy.clip(numpy.rint(mean), 0, 255).astype(numpy.uint8))
        skia.Image.fromarray(pixels, colorType=skia.kRGBA_8888_ColorType, alphaType=skia.kPremul_AlphaType).save(case["out"], skia.kPNG)


def blurred(case):
    surface = skia.Surface(case["width"], case["height"])
    canvas = surface.getCanvas()
    canvas.clear(skia.ColorTRANSPARENT)
    a, b, c, d, tx, ty = case["transform"]
    canvas.concat(skia.Matrix.MakeAll(a, c, tx, b, d, ty, 0, 0, 1))
    r, g, bl, al = case["color"]
    paint = skia.Paint(AntiAlias=True, Color4f=skia.Color4f(r, g, bl, al),
                       MaskFilter=skia.MaskFilter.MakeBlur(skia.kNormal_BlurStyle, case["blur"]))
    canvas.drawPath(build(case["path"]), paint)
    surface.makeImageSnapshot().save(case["out"], skia.kPNG)


if __name__ == "__main__":
    main()
