#!/usr/bin/env python3
"""Lays frames of a render folder side by side: the strips in docs/images.

    python3 docs/images/strip.py OUT.png --frames FOLDER 0 0.3 end [--frames FOLDER2 0.4 …]
                                 [--crop X Y W H] [--height PX] [--gap PX]

Each --frames names a folder `smokescreen render` wrote and times in it (seconds, or `end` for the last
frame); a time picks the last frame at or before it from FOLDER/manifest.json (frame i is at
t = i / fps). Tiles are laid left to right in the order given. --crop keeps a
rectangle of each frame, in the frame's pixels; --height scales every tile to that many pixels
(bilinear); --gap puts white columns of that many pixels between tiles. Needs Pillow
(`python3 -m pip install pillow`, or Debian's `python3-pil`).
"""
import argparse
import json
import os
import sys

from PIL import Image


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("out")
    parser.add_argument("--frames", nargs="+", action="append", required=True, metavar="FOLDER T")
    parser.add_argument("--crop", nargs=4, type=int, metavar=("X", "Y", "W", "H"))
    parser.add_argument("--height", type=int)
    parser.add_argument("--gap", type=int, default=0)
    args = parser.parse_args()

    picks = []
    for folder, *times in args.frames:
        if not times:
            sys.exit(f"strip.py: --frames {folder}: give at least one time")
        with open(os.path.join(folder, "manifest.json")) as f:
            frames = json.load(f)["frames"]
        picks += [(folder, frames, spec) for spec in times]
    tiles = []
    for folder, frames, spec in picks:
        if spec == "end":
            frame = frames[-1]
        else:
            t = float(spec)
            # The last frame at or before t (times are exact multiples of 1/fps; allow rounding).
            candidates = [fr for fr in frames if fr["time"] <= t + 1e-6]
            if not candidates:
                sys.exit(f"strip.py: no frame at or before {t} s in {folder}")
            frame = candidates[-1]
        image = Image.open(os.path.join(folder, frame["file"])).convert("RGB")
        if args.crop:
            x, y, w, h = args.crop
            image = image.crop((x, y, x + w, y + h))
        if args.height:
            width = round(image.width * args.height / image.height)
            image = image.resize((width, args.height), Image.BILINEAR)
        tiles.append(image)
    width = sum(tile.width for tile in tiles) + args.gap * (len(tiles) - 1)
    height = max(tile.height for tile in tiles)
    strip = Image.new("RGB", (width, height), "white")
    x = 0
    for tile in tiles:
        strip.paste(tile, (x, 0))
        x += tile.width + args.gap
    strip.save(args.out, optimize=True)


if __name__ == "__main__":
    main()
