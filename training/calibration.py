#!/usr/bin/env python3
"""Calibration of v: the robot's predicted win probability against what happened.

    python3 training/calibration.py target/measure/level3-*.vlog

Reads the JSON lines `checkerbot match --v-log` writes (one per move of a `level:N` player:
its v and the game's final score for it, 1 / 0.5 / 0) and prints a Markdown table: moves per
bin of v, the mean v and the mean actual score in the bin. A calibrated v has the two means
close. Needs only the standard library.
"""

import json
import sys


def main():
    bins = [[0, 0.0, 0.0] for _ in range(10)]
    games = set()
    for path in sys.argv[1:]:
        with open(path) as f:
            for line in f:
                row = json.loads(line)
                games.add((path, row["game"]))
                b = min(int(row["v"] * 10), 9)
                bins[b][0] += 1
                bins[b][1] += row["v"]
                bins[b][2] += row["result"]
    total = sum(b[0] for b in bins)
    print(f"{total} moves from {len(games)} games\n")
    print("| v bin | moves | mean v | mean result |")
    print("|-------|-------|--------|-------------|")
    for i, (n, v, r) in enumerate(bins):
        if n:
            print(f"| {i / 10:.1f}-{(i + 1) / 10:.1f} | {n} | {v / n:.3f} | {r / n:.3f} |")
        else:
            print(f"| {i / 10:.1f}-{(i + 1) / 10:.1f} | 0 | - | - |")


if __name__ == "__main__":
    main()
