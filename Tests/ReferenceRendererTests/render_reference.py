#!/usr/bin/env python3
"""Draws a Smokescreen frame from its render tree with cairo: the independent reference renderer.

Usage: render_reference.py TREE.json IMAGES_FOLDER OUT.png [TREE2.json IMAGES2 OUT2.png ...]

OUT may end in .rgba instead of .png: then the surface's own bytes are written as they are, premultiplied
ARGB32 words in the machine's byte order, rows without padding (what the test reads: no compression to
pay for, and no round trip through straight alpha).

TREE.json is a `DrawnTree` (what `smokescreen inspect NAME --json --time T --render-tree FOLDER` prints
under "render" → "tree", or what the reference-renderer test writes): nodes with the affine from their
bounds (points) to frame pixels, backgrounds, rounded corners, clips, borders, group opacity, images
with the affine from their pixels to frame pixels, custom drawings as filled shapes, and label text
boxes (text is not drawn: the test masks those boxes, as another engine lays out and hints text
differently).

Why cairo: its image backend rasterizes by area coverage (non-zero winding), composites source-over on
premultiplied 8-bit pixels in sRGB-encoded space without any linearization, as Smokescreen does, and
samples images bilinearly at pixel centres (FILTER_BILINEAR, EXTEND_PAD clamps at the edges); it shares
no code with Smokescreen's rasterizer. It is Debian's libcairo2 through pycairo.

Several triples may be given at once, so one interpreter start serves many frames.
"""
import json
import math
import sys

import cairo


def fitted(radii, w, h):
    """CSS rule: radii along a side scaled down together until they fit it (as CALayer's do)."""
    tl, tr, br, bl = (max(0.0, r) for r in radii)
    w, h = abs(w), abs(h)
    f = 1.0
    for s, side in ((tl + tr, w), (bl + br, w), (tl + bl, h), (tr + br, h)):
        if s > side:
            f = min(f, side / s)
    return tl * f, tr * f, br * f, bl * f


def rounded_rect(ctx, x, y, w, h, radii, reverse=False):
    """A rectangle with circular-arc corners (cairo arcs: independent of Smokescreen's Béziers)."""
    tl, tr, br, bl = fitted(radii, w, h)
    if w < 0:
        x, w = x + w, -w
    if h < 0:
        y, h = y + h, -h
    ctx.new_sub_path()
    if tl == tr == br == bl == 0:
        if reverse:
            ctx.move_to(x, y)
            ctx.line_to(x, y + h)
            ctx.line_to(x + w, y + h)
            ctx.line_to(x + w, y)
            ctx.close_path()
        else:
            ctx.rectangle(x, y, w, h)
        return
    corners = [  # centre, radius, start angle: clockwise on a y-down screen from the top-left corner
        (x + tl, y + tl, tl, math.pi),
        (x + w - tr, y + tr, tr, 1.5 * math.pi),
        (x + w - br, y + h - br, br, 0.0),
        (x + bl, y + h - bl, bl, 0.5 * math.pi),
    ]
    if not reverse:
        for cx, cy, r, a in corners:
            if r > 0:
                ctx.arc(cx, cy, r, a, a + 0.5 * math.pi)
            else:
                ctx.line_to(*corner_point(cx, cy, a))
    else:
        for cx, cy, r, a in reversed(corners):
            if r > 0:
                ctx.arc_negative(cx, cy, r, a + 0.5 * math.pi, a)
            else:
                ctx.line_to(*corner_point(cx, cy, a))
    ctx.close_path()


def corner_point(cx, cy, angle):
    # A square corner: the centre of the zero-radius arc is the corner itself.
    return cx, cy


def concat(t, m):
    """CGAffineTransform's t.concatenating(m): t first, then m."""
    a, b, c, d, tx, ty = t
    ma, mb, mc, md, mtx, mty = m
    return [a * ma + b * mc, a * mb + b * md, c * ma + d * mc, c * mb + d * md,
            tx * ma + ty * mc + mtx, tx * mb + ty * md + mty]


def set_matrix(ctx, t):
    a, b, c, d, tx, ty = t
    ctx.set_matrix(cairo.Matrix(a, b, c, d, tx, ty))


def set_color(ctx, rgba, opacity):
    r, g, b, a = rgba
    ctx.set_source_rgba(r, g, b, a * opacity)


def path_data(ctx, data):
    tokens = data.split()
    i = 0
    cur = (0.0, 0.0)
    while i < len(tokens):
        op = tokens[i]
        i += 1
        if op == "M":
            cur = (float(tokens[i]), float(tokens[i + 1]))
            ctx.move_to(*cur)
            i += 2
        elif op == "L":
            cur = (float(tokens[i]), float(tokens[i + 1]))
            ctx.line_to(*cur)
            i += 2
        elif op == "Q":
            cx, cy, x, y = (float(v) for v in tokens[i:i + 4])
            x0, y0 = cur
            ctx.curve_to(x0 + 2 / 3 * (cx - x0), y0 + 2 / 3 * (cy - y0), x + 2 / 3 * (cx - x), y + 2 / 3 * (cy - y), x, y)
            cur = (x, y)
            i += 4
        elif op == "C":
            v = [float(t) for t in tokens[i:i + 6]]
            ctx.curve_to(*v)
            cur = (v[4], v[5])
            i += 6
        elif op == "Z":
            ctx.close_path()
        else:
            raise ValueError("unknown path operation %r" % op)


# Decoded images by path, shared by the frames one run draws (a scene's frames share their images).
IMAGES = {}


class Renderer:
    def __init__(self, tree, folder):
        self.tree = tree
        self.folder = folder
        self.surface = cairo.ImageSurface(cairo.FORMAT_ARGB32, tree["width"], tree["height"])
        self.ctx = cairo.Context(self.surface)
        self.ctx.set_antialias(cairo.ANTIALIAS_GRAY)
        self.ctx.set_fill_rule(cairo.FILL_RULE_WINDING)

    def image(self, name):
        path = self.folder + "/" + name
        if path not in IMAGES:
            IMAGES[path] = cairo.ImageSurface.create_from_png(path)
        return IMAGES[path]

    def render(self):
        root = self.tree.get("root")
        if root is not None:
            self.body(root, 1.0)
        self.surface.flush()
        return self.surface

    def node(self, n, opacity):
        ctx = self.ctx
        ctx.save()
        if n["group"]:
            if n.get("groupClip"):
                x, y, w, h = n["groupClip"]
                ctx.identity_matrix()
                ctx.rectangle(x, y, w, h)
                ctx.clip()
            ctx.push_group()
            self.body(n, 1.0)
            ctx.pop_group_to_source()
            ctx.identity_matrix()
            ctx.paint_with_alpha(opacity * n["alpha"])
        else:
            self.body(n, opacity * n["alpha"])
        ctx.restore()

    def body(self, n, opacity):
        ctx = self.ctx
        x, y, w, h = n["bounds"]
        radius = n["cornerRadius"]
        radii = [radius] * 4
        if n.get("background"):
            set_matrix(ctx, n["transform"])
            ctx.new_path()
            rounded_rect(ctx, x, y, w, h, radii)
            set_color(ctx, n["background"], opacity)
            ctx.fill()
        content, children = n.get("content"), n["children"]
        if content or children:
            ctx.save()
            if n["clipsToBounds"]:
                set_matrix(ctx, n["transform"])
                ctx.new_path()
                rounded_rect(ctx, x, y, w, h, radii)
                ctx.clip()
            if content:
                self.content(n, content, opacity)
            for child in children:
                self.node(child, opacity)
            ctx.restore()
        border = n.get("border")
        if border:
            bw = border["width"]
            set_matrix(ctx, n["transform"])
            ctx.new_path()
            rounded_rect(ctx, x, y, w, h, radii)
            fr = fitted(radii, w, h)
            if w - 2 * bw > 0 and h - 2 * bw > 0:
                rounded_rect(ctx, x + bw, y + bw, w - 2 * bw, h - 2 * bw, [max(0.0, r - bw) for r in fr], reverse=True)
            set_color(ctx, border["color"], opacity)
            ctx.fill()

    def content(self, n, content, opacity):
        ctx = self.ctx
        kind = content["kind"]
        if kind == "text":
            return  # masked by the test
        if kind in ("image", "raster"):
            if content.get("filter", "bilinear") != "bilinear":
                raise ValueError("unknown image filter %r" % content["filter"])
            self.paint_image(self.image(content["image"]), content["imageTransform"], opacity)
            return
        if kind == "operations" and content.get("backingStore"):
            # The drawing on its own pixel grid, offscreen, then placed as an image (a layer's backing
            # store: what a view drawn between device pixels shows).
            store = content["backingStore"]
            surface = cairo.ImageSurface(cairo.FORMAT_ARGB32, store["width"], store["height"])
            outer = self.ctx
            self.ctx = cairo.Context(surface)
            self.ctx.set_antialias(cairo.ANTIALIAS_GRAY)
            self.ctx.set_fill_rule(cairo.FILL_RULE_WINDING)
            try:
                self.operations(store["transform"], content["operations"], 1.0)
            finally:
                self.ctx = outer
            surface.flush()
            self.paint_image(surface, store["imageTransform"], opacity)
            return
        if kind == "operations":
            self.operations(n["transform"], content["operations"], opacity)
            return
        raise ValueError("unknown content kind %r" % kind)

    def paint_image(self, surface, transform, opacity):
        """An image through `transform` (its pixels to frame pixels), bilinear, clamped at its edges,
        its outline anti-aliased."""
        ctx = self.ctx
        ctx.save()
        set_matrix(ctx, transform)
        ctx.set_source_surface(surface, 0, 0)
        pattern = ctx.get_source()
        pattern.set_filter(cairo.FILTER_BILINEAR)
        pattern.set_extend(cairo.EXTEND_PAD)
        ctx.new_path()
        ctx.rectangle(0, 0, surface.get_width(), surface.get_height())
        ctx.clip()
        ctx.paint_with_alpha(opacity)
        ctx.restore()

    def operations(self, transform, operations, opacity):
        """A custom drawing's display list, in the node's bounds coordinates (see DrawnOperation)."""
        ctx = self.ctx
        for op in operations:
            kind = op["op"]
            set_matrix(ctx, transform)
            ctx.new_path()
            if kind in ("rect", "roundedRect", "path"):
                if kind == "rect":
                    x, y, w, h = op["rect"]
                    ctx.rectangle(x, y, w, h)
                elif kind == "roundedRect":
                    x, y, w, h = op["rect"]
                    rounded_rect(ctx, x, y, w, h, op["radii"])
                else:
                    path_data(ctx, op["path"])
                set_color(ctx, op["color"], opacity)
                ctx.fill()
            elif kind == "image":
                surface = self.image(op["image"])
                x, y, w, h = op["rect"]
                if w == 0 or h == 0:
                    continue
                ctx.save()
                ctx.translate(x, y)
                ctx.scale(w / surface.get_width(), h / surface.get_height())
                ctx.set_source_surface(surface, 0, 0)
                pattern = ctx.get_source()
                pattern.set_filter(cairo.FILTER_BILINEAR)
                pattern.set_extend(cairo.EXTEND_PAD)
                ctx.rectangle(0, 0, surface.get_width(), surface.get_height())
                ctx.clip()
                ctx.paint_with_alpha(opacity)
                ctx.restore()
            elif kind in ("clipRect", "clipPath"):
                ctx.save()
                if kind == "clipRect":
                    x, y, w, h = op["rect"]
                    ctx.rectangle(x, y, w, h)
                else:
                    path_data(ctx, op["path"])
                ctx.clip()
                self.operations(transform, op["operations"], opacity)
                ctx.restore()
            elif kind == "imageTransform":
                self.paint_image(self.image(op["image"]), concat(op["transform"], transform), opacity)
            elif kind == "transform":
                self.operations(concat(op["transform"], transform), op["operations"], opacity)
            elif kind == "layer":
                # One group, composited once through the clip around it: inside, the clip's edge is not
                # applied to each operation (Smokescreen applies a clip's mask once, to the layer).
                ctx.push_group()
                ctx.reset_clip()
                self.operations(transform, op["operations"], 1.0)
                ctx.pop_group_to_source()
                ctx.identity_matrix()
                ctx.paint_with_alpha(opacity)
            elif kind == "fade":
                if op["alpha"] > 0:
                    self.operations(transform, op["operations"], opacity * min(1.0, op["alpha"]))
            else:
                raise ValueError("unknown operation %r" % kind)


def main(argv):
    if len(argv) < 4 or (len(argv) - 1) % 3 != 0:
        sys.stderr.write(__doc__)
        return 64
    for i in range(1, len(argv), 3):
        with open(argv[i]) as f:
            tree = json.load(f)
        if "render" in tree:  # the whole `inspect --json --render-tree` document
            tree = tree["render"]["tree"]
        surface = Renderer(tree, argv[i + 1]).render()
        if argv[i + 2].endswith(".rgba"):
            surface.flush()
            width, height, stride = surface.get_width(), surface.get_height(), surface.get_stride()
            data = surface.get_data()
            with open(argv[i + 2], "wb") as f:
                for y in range(height):
                    f.write(data[y * stride:y * stride + width * 4])
        else:
            surface.write_to_png(argv[i + 2])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
