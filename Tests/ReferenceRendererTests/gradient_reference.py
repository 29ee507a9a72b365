#!/usr/bin/env python3
"""Draws gradients with Skia (skia-python), for GradientReferenceTests.

Reads a JSON list of cases from the file named by the first argument. Each case has `width`, `height`
(the canvas, 1 pixel per unit, transparent), `out` (the PNG to write), `kind` ("axial", "radial" or
"conic"), `start` and `end` (unit coordinates of the canvas, as CAGradientLayer's `startPoint` and
`endPoint`), `colors` (a list of [r, g, b, a] in 0…255) and `locations` (0…1, from 0 to 1, increasing).

Everything is drawn in the unit square, scaled to the canvas, as Core Animation draws a gradient layer
(so on a canvas that is not square a diagonal gradient's lines of one colour run corner to corner, not
square to the axis). Axial: a linear gradient from start to end. Radial: a circle of radius 1 about
start, stretched to the ellipse whose radii are |end − start| along x and y. Conic: a sweep round start
beginning in the direction of end (Skia's sweep runs clockwise on a y-down canvas from +x; the direction
is a rotation). Colours are interpolated unpremultiplied (Skia's default), without dithering.
"""
import json
import math
import sys

import skia


def main():
    with open(sys.argv[1]) as f:
        cases = json.load(f)
    for case in cases:
        w, h = case["width"], case["height"]
        surface = skia.Surface(w, h)
        canvas = surface.getCanvas()
        canvas.clear(skia.ColorTRANSPARENT)
        colors = [skia.ColorSetARGB(c[3], c[0], c[1], c[2]) for c in case["colors"]]
        positions = case["locations"]
        canvas.scale(w, h)
        sx, sy = case["start"]
        ex, ey = case["end"]
        if case["kind"] == "axial":
            shader = skia.GradientShader.MakeLinear([skia.Point(sx, sy), skia.Point(ex, ey)], colors, positions)
        elif case["kind"] == "radial":
            matrix = skia.Matrix.MakeAll(abs(ex - sx), 0, sx, 0, abs(ey - sy), sy, 0, 0, 1)
            shader = skia.GradientShader.MakeRadial(skia.Point(0, 0), 1, colors, positions, skia.TileMode.kClamp, 0, matrix)
        else:
            degrees = math.degrees(math.atan2(ey - sy, ex - sx))
            matrix = skia.Matrix.RotateDeg(degrees, skia.Point(sx, sy))
            shader = skia.GradientShader.MakeSweep(sx, sy, colors, positions, skia.TileMode.kClamp, 0, 360, 0, matrix)
        paint = skia.Paint(Shader=shader, Dither=False)
        canvas.drawRect(skia.Rect.MakeWH(1, 1), paint)
        surface.makeImageSnapshot().save(case["out"], skia.kPNG)


if __name__ == "__main__":
    main()
