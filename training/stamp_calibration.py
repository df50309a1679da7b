#!/usr/bin/env python3
"""Write, show or remove the v calibration maps a network carries in its ONNX metadata.

    python3 training/stamp_calibration.py models/russian-gen3.onnx --level 3 --map 1.140,0.528
    python3 training/stamp_calibration.py models/russian-gen3.onnx --remove 3
    python3 training/stamp_calibration.py models/russian-gen3.onnx

A map is Platt scaling, v' = sigmoid(slope * logit(v) + offset), fitted by
`calibration.py --fit --raw` on the v logs of one difficulty level playing this network. It is
kept in the model, under `checkerbot.calibration` as `level=slope,offset;...`, because it fits
that network at that level and nothing else; the robot reports the raw v at a level the model
has no map for. Re-exporting a network writes a model without maps: fit them again.

Only the graph's metadata changes (the file is rewritten in place through a temporary file);
the weights, and so the play, stay the same. Prints the maps the model holds afterwards.

Needs the `onnx` package (the training environment has it).
"""

import argparse
import math
import os

import onnx

KEY = "checkerbot.calibration"


def parse(text):
    """The maps of a metadata text, {level: (slope, offset)}, as the robot reads them."""
    maps = {}
    for part in filter(None, (p.strip() for p in text.split(";"))):
        level, _, pair = part.partition("=")
        slope, _, offset = pair.partition(",")
        try:
            level, slope, offset = int(level), float(slope), float(offset)
        except ValueError:
            raise SystemExit(f"{KEY}: `{part}` is not level=slope,offset")
        maps[level] = check(level, slope, offset)
    return maps


def check(level, slope, offset):
    if not 1 <= level <= 255:
        raise SystemExit(f"level {level}: levels are 1 to 255")
    if not (math.isfinite(slope) and slope > 0 and math.isfinite(offset)):
        raise SystemExit(f"level {level}: ({slope}, {offset}) needs a positive slope and a finite offset")
    return slope, offset


def text(maps):
    return ";".join(f"{level}={slope:g},{offset:g}" for level, (slope, offset) in sorted(maps.items()))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("model", help="an ONNX model made by export.py")
    parser.add_argument("--level", type=int, help="the level the map is for")
    parser.add_argument("--map", metavar="SLOPE,OFFSET", help="the map calibration.py --fit printed")
    parser.add_argument("--remove", type=int, metavar="LEVEL", help="drop this level's map")
    args = parser.parse_args()
    if (args.level is None) != (args.map is None):
        parser.error("--level and --map go together")

    model = onnx.load(args.model)
    props = {p.key: p.value for p in model.metadata_props}
    if "checkerbot.variant" not in props:
        raise SystemExit(f"{args.model}: no checkerbot.variant in its metadata; not a checkerbot network")
    maps = parse(props.get(KEY, ""))
    changed = False
    if args.map is not None:
        try:
            slope, offset = (float(x) for x in args.map.split(","))
        except ValueError:
            parser.error(f"--map {args.map}: expected SLOPE,OFFSET")
        maps[args.level] = check(args.level, slope, offset)
        changed = True
    if args.remove is not None:
        if maps.pop(args.remove, None) is None:
            raise SystemExit(f"{args.model}: no map for level {args.remove}")
        changed = True
    if changed:
        if maps:
            props[KEY] = text(maps)
        else:
            props.pop(KEY, None)
        del model.metadata_props[:]
        onnx.helper.set_model_props(model, props)
        onnx.checker.check_model(model)
        part = args.model + ".part"
        onnx.save(model, part)
        os.replace(part, args.model)
    print(f"{args.model}: {props['checkerbot.variant']}, {KEY} = {text(maps) or '<none>'}")


if __name__ == "__main__":
    main()
