#!/usr/bin/env python3
"""Calibration of v: the robot's predicted win probability against what happened.

    python3 training/calibration.py target/measure/level3-*.vlog
    python3 training/calibration.py --fit --raw target/measure/level1-*.vlog
    python3 training/calibration.py --map 2.53,-1.03 target/measure/raw-level1-*.vlog

Reads the JSON lines `checkerbot-lab match --v-log` writes (gzipped when the name ends in `.gz`) (one per move of a `level:N` player:
its v and the game's final score for it, 1 / 0.5 / 0) and prints a Markdown table: moves per
bin of v, the mean v and the mean actual score in the bin. A calibrated v has the two means
close. Below the table: the log loss, the Brier score and the calibration error (the mean over
moves of |mean v - mean result| of the move's bin), lower is better for all three.

`--fit` fits Platt scaling, v' = sigmoid(slope * logit(v) + offset), by maximum likelihood
(the game's score as a soft label, Newton's method from the identity, so the same logs always
give the same numbers) and prints the two parameters, then the table of v' on the same moves.
A v of exactly 0 or 1 (a proven loss or win) is left out of the fit and kept as it is.

`--map SLOPE,OFFSET` applies a given map before making the table: how a map fitted on some
games does on others (held-out games logged without it).

`--raw` reads the raw v the log also holds (the search's v before the level's calibration),
which is what a new map is fitted on: `--fit --raw` refits a level from games of any binary.

`--player PREFIX` keeps only the moves of the players whose name starts with PREFIX: a match
of two levels (level 5 against `handeval:5`) logs both players' moves.

`--swings` also counts, per 100 moves, the changes of v from the robot's previous move in the
game that cross the emotion model's default thresholds (`emotions/src/settings.rs`): a change
of at least 0.25 (surprise), a drop of at least 0.15 to below 0.35 (fear), else a rise or a
drop of at least 0.08 (joy, distress). With `--fit` or `--map`, before and after the map.

Needs only the standard library.
"""

import argparse
import gzip
import json
import math


def read(paths, key="v", player=None):
    """The logged games: for each, its (v, result) in the order of the moves; only the moves of
    players whose name starts with `player` when it is given (a match of two levels logs both)."""
    games = {}
    for path in paths:
        with (gzip.open(path, "rt") if path.endswith(".gz") else open(path)) as f:
            for number, line in enumerate(f, 1):
                try:
                    row = json.loads(line)
                except json.JSONDecodeError as err:
                    raise SystemExit(
                        f"{path}:{number}: not a v log record ({err.msg}; a match still writing its "
                        "log leaves its last line unfinished)"
                    ) from None
                if key not in row:
                    raise SystemExit(f"{path}:{number}: no {key!r} (logs older than the raw v have only 'v')")
                missing = [k for k in ("game", "move", "result") if k not in row]
                if missing:
                    raise SystemExit(f"{path}:{number}: not a v log record (no {', '.join(map(repr, missing))})")
                # The logs kept in training/v-logs/ are cut to one player's moves and drop the
                # name; a match's own log has it, and two players' moves when both are levels.
                if player is not None and "player" not in row:
                    raise SystemExit(f"{path}:{number}: --player needs the 'player' of each record, which this log does not keep")
                if player is not None and not row["player"].startswith(player):
                    continue
                games.setdefault((path, row["game"], row.get("player")), []).append(
                    (row["move"], row[key], row["result"])
                )
    return [[(v, r) for _, v, r in sorted(moves)] for moves in games.values()]


# The emotion model's default thresholds (emotions/src/settings.rs, ExpressionSettings).
SURPRISE = 0.25
FEAR_DROP, FEAR_BELOW = 0.15, 0.35
HAPPY_DELTA = SAD_DELTA = 0.08


def swings(games, title):
    """How often a change of v would make the face react, per 100 changes."""
    counts = {"surprise": 0, "fear": 0, "joy": 0, "distress": 0}
    changes = 0
    for game in games:
        for (before, _), (v, _) in zip(game, game[1:]):
            delta = v - before
            changes += 1
            counts["surprise"] += abs(delta) >= SURPRISE
            if -delta >= FEAR_DROP and v < FEAR_BELOW:
                counts["fear"] += 1
            elif delta >= HAPPY_DELTA:
                counts["joy"] += 1
            elif -delta >= SAD_DELTA:
                counts["distress"] += 1
    per_100 = ", ".join(f"{k} {100 * n / max(changes, 1):.1f}" for k, n in counts.items())
    first = sum(game[0][0] for game in games) / len(games)
    print(f"{title}: mean v at the first move {first:.2f}; per 100 changes of v: {per_100}\n")


def logit(v):
    return math.log(v / (1.0 - v))


def sigmoid(x):
    if x < -700.0:
        return 0.0
    return 1.0 / (1.0 + math.exp(-x))


def platt(slope, offset, v):
    """The map the robot applies (engine/network/src/calibration.rs)."""
    if v <= 0.0 or v >= 1.0:
        return v
    return sigmoid(slope * logit(v) + offset)


def fit(moves):
    """Maximum-likelihood (slope, offset) of Platt scaling over the moves with 0 < v < 1."""
    points = [(logit(v), result) for v, result in moves if 0.0 < v < 1.0]
    if not points:
        raise SystemExit("no move with 0 < v < 1 to fit")
    if len({result for _, result in points}) == 1:
        # Every game ended the same way (a strong level against weak opponents): the likelihood
        # grows without end as the map pushes every v towards that result, so there is no fit.
        outcome = {1.0: "won", 0.5: "drawn", 0.0: "lost"}.get(points[0][1], f"scored {points[0][1]}")
        raise SystemExit(
            f"every game in these logs was {outcome}: nothing to fit a map on; "
            "add games against a stronger opponent"
        )
    slope, offset = 1.0, 0.0
    for _ in range(100):
        g_slope = g_offset = h_ss = h_so = h_oo = 0.0
        for x, result in points:
            p = sigmoid(slope * x + offset)
            error, weight = p - result, p * (1.0 - p)
            g_slope += error * x
            g_offset += error
            h_ss += weight * x * x
            h_so += weight * x
            h_oo += weight
        det = h_ss * h_oo - h_so * h_so
        if det == 0.0:
            raise SystemExit("the fit did not converge: v orders the results perfectly, so no finite map fits")
        step_slope = (h_oo * g_slope - h_so * g_offset) / det
        step_offset = (h_ss * g_offset - h_so * g_slope) / det
        slope -= step_slope
        offset -= step_offset
        if abs(step_slope) + abs(step_offset) < 1e-12:
            break
    return slope, offset


def table(moves, games, title):
    bins = [[0, 0.0, 0.0] for _ in range(10)]
    log_loss = brier = 0.0
    for v, result in moves:
        b = min(int(v * 10), 9)
        bins[b][0] += 1
        bins[b][1] += v
        bins[b][2] += result
        p = min(max(v, 1e-6), 1.0 - 1e-6)
        log_loss -= result * math.log(p) + (1.0 - result) * math.log(1.0 - p)
        brier += (v - result) ** 2
    total = len(moves)
    error = sum(abs(v - r) for n, v, r in bins if n) / total
    print(f"{title}: {total} moves from {games} games\n")
    print("| v bin | moves | mean v | mean result |")
    print("|-------|-------|--------|-------------|")
    for i, (n, v, r) in enumerate(bins):
        if n:
            print(f"| {i / 10:.1f}-{(i + 1) / 10:.1f} | {n} | {v / n:.3f} | {r / n:.3f} |")
        else:
            print(f"| {i / 10:.1f}-{(i + 1) / 10:.1f} | 0 | - | - |")
    print(
        f"\nlog loss {log_loss / total:.4f}, Brier {brier / total:.4f}, "
        f"calibration error {error:.4f}\n"
    )


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("logs", nargs="+", help="v logs of `checkerbot-lab match --v-log`")
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--fit", action="store_true", help="fit Platt scaling and print it")
    mode.add_argument("--map", metavar="SLOPE,OFFSET", help="apply this Platt map first")
    parser.add_argument(
        "--raw",
        action="store_true",
        help="read the raw v (before the level's map) instead of the v the robot reported",
    )
    parser.add_argument(
        "--player",
        metavar="PREFIX",
        help="only the moves of players whose name starts with PREFIX (e.g. level:5)",
    )
    parser.add_argument(
        "--swings", action="store_true", help="count the changes of v the face reacts to"
    )
    args = parser.parse_args()
    if args.map:
        try:
            slope, offset = (float(x) for x in args.map.split(","))
        except ValueError:
            raise SystemExit(f"--map {args.map!r}: expected two numbers, SLOPE,OFFSET")
    games = read(args.logs, "raw" if args.raw else "v", args.player)
    moves = [move for game in games for move in game]
    if not moves:
        whose = f" of a player whose name starts with {args.player!r}" if args.player else ""
        raise SystemExit(f"no moves{whose} in " + " ".join(args.logs))
    if args.map:
        title = f"v mapped with slope {slope}, offset {offset}"
    else:
        table(moves, len(games), "v as logged")
        if args.swings:
            swings(games, "v as logged")
        if not args.fit:
            return
        slope, offset = fit(moves)
        print(f"Platt scaling: slope {slope:.4f}, offset {offset:.4f}")
        print(f"  stamp_calibration.py MODEL --level N --map {slope:.3f},{offset:.3f}\n")
        title = "v' = sigmoid(slope * logit(v) + offset)"
    mapped = [[(platt(slope, offset, v), r) for v, r in game] for game in games]
    table([move for game in mapped for move in game], len(games), title)
    if args.swings:
        swings(mapped, title)


if __name__ == "__main__":
    main()
