#!/usr/bin/env python3
"""Draws images through perspective matrices, and blurred shapes, with Skia (skia-python), for
PerspectiveReferenceTests.

Reads a JSON list of cases from the file named by the first argument; each case has `image` (a PNG,
straight alpha), `matrix` (nine numbers, row by row, points as row vectors: (X, Y, W) = (x, y, 1)·M from
the image's pixels to the canvas's), `width`, `height` (the canvas, transparent) and `out` (the PNG to
write).

Each canvas pixel is the mean of the pixel's square: Skia draws the image (`SkCanvas::drawImage` under the
matrix, anti-aliased, bilinear) on a canvas 8 times finer in each direction, and every 8 x 8 block of
premultiplied pixels is averaged. (Skia's own filtering of a minified image at 1x, mipmaps, shows moiré
on fine stripes turned steeply; the box filter is the reference a per-pixel filter is measured by.)

A case with `"kind": "blur"` is a shadow's shape instead: the rounded rectangle `rect` ([x, y, width,
height]) with corner radius `radius`, filled opaque black through Skia's normal blur mask filter of
standard deviation `sigma` pixels, anti-aliased, at 1x.
"""
import json
import sys

import numpy
import skia

FINE = 8


def main():
    with open(sys.argv[1]) as f:
        cases = json.load(f)
    for case in cases:
        if case.get("kind") == "blur":
            blur(case)
            continue
        m = case["matrix"]
        # Skia's matrices act on column vectors: the transpose of the row-vector layout.
        matrix = skia.Matrix.MakeAll(m[0], m[3], m[6], m[1], m[4], m[7], m[2], m[5], m[8])
        image = skia.Image.open(case["image"])
        width, height = case["width"], case["height"]
        info = skia.ImageInfo.Make(width * FINE, height * FINE, skia.kRGBA_8888_ColorType, skia.kPremul_AlphaType)
        surface = skia.Surface.MakeRaster(info)
        canvas = surface.getCanvas()
        canvas.clear(skia.ColorTRANSPARENT)
        canvas.scale(FINE, FINE)
        canvas.concat(matrix)
        paint = skia.Paint(AntiAlias=True)
        sampling = skia.SamplingOptions(skia.FilterMode.kLinear, skia.MipmapMode.kNone)
        canvas.drawImage(image, 0, 0, sampling, paint)
        fine = surface.makeImageSnapshot().toarray(colorType=skia.kRGBA_8888_ColorType, alphaType=skia.kPremul_AlphaType)
        mean = fine.astype(numpy.float64).reshape(height, FINE, width, FINE, 4).mean(axis=(1, 3))
        pixels = numpy.ascontiguousarray(numpy.clip(numpy.rint(mean), 0, 255).astype(numpy.uint8))
        skia.Image.fromarray(pixels, colorType=skia.kRGBA_8888_ColorType, alphaType=skia.kPremul_AlphaType).save(case["out"], skia.kPNG)


def blur(case):
    surface = skia.Surface(case["width"], case["height"])
    canvas = surface.getCanvas()
    canvas.clear(skia.ColorTRANSPARENT)
    x, y, w, h = case["rect"]
    paint = skia.Paint(AntiAlias=True, Color=skia.ColorBLACK,
                       MaskFilter=skia.MaskFilter.MakeBlur(skia.kNormal_BlurStyle, case["sigma"]))
    canvas.drawRRect(skia.RRect.MakeRectXY(skia.Rect.MakeXYWH(x, y, w, h), case["radius"], case["radius"]), paint)
    surface.makeImageSnapshot().save(case["out"], skia.kPNG)


if __name__ == "__main__":
    main()
