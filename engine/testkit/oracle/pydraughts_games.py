#!/usr/bin/env python3
"""Seeded random games with pydraughts (0.6.7), one JSON line per position reached.

Used by `engine/rules/tests/it/differential_pydraughts.rs` as an independent oracle for legal-move
generation. Each line:

    {"variant": "russian", "game": 0, "ply": 3, "fen": "<pydraughts' FEN>",
     "moves": [{"from": "c3", "to": "e5", "captures": ["d4"]}, ...]}

`fen` is exactly what pydraughts prints for the variant (algebraic for russian/brazilian,
numeric for english/italian/standard). Squares in `moves` are algebraic names of the physical
board as White sees it: a1 bottom-left, files a.. left to right, ranks 1.. bottom to top.
Every position reached is written, including the last one (whose move list may be empty).

pydraughts' square numbers (as found in `steps_move`/`captures`), checked against its printed
boards:
  russian, brazilian  1 = a1, 2 = c1, .., 5 = b2  (from White's bottom-left, row by row)
  english             1 = b8, .., 4 = h8, 5 = a7, .., 29 = a1, 32 = g1  (top-left first)
  italian             turned board (h1 dark): 1 = a8, .., 29 = b1, 32 = h1
  standard (10x10)    1 = b10, .., 5 = j10, 6 = a9, .., 46 = a1, 50 = i1
"""

import argparse
import json
import random
import sys

from draughts import Board, Move

VARIANTS = ("russian", "brazilian", "english", "italian", "standard")


def square_namer(variant):
    """A function from pydraughts' square number to the algebraic name of the physical square."""
    side = 10 if variant == "standard" else 8
    width = side // 2

    if variant in ("russian", "brazilian"):
        # Numbered from the bottom (White's side), left to right; a1 is dark.
        def name(n):
            row = (n - 1) // width  # 0 = rank 1
            col = 2 * ((n - 1) % width) + (row % 2)
            return "abcdefghij"[col] + str(row + 1)
    else:
        # Numbered from the top-left as White sees the board, row by row.
        # a1 dark (english, standard): the top row starts at file b on even-sized boards.
        # italian: the board is turned (h1 dark), so the top row starts at file a.
        turned = variant == "italian"

        def name(n):
            r = (n - 1) // width  # 0 = top row
            rank = side - r  # 1-based rank
            # On an a1-dark board, dark squares of rank k are at files with (file + rank) even
            # (0-based file, 1-based rank): rank 1 -> a, c, ..; rank 8 -> b, d, ..
            first = (rank + 1) % 2 if not turned else rank % 2
            col = 2 * ((n - 1) % width) + first
            return "abcdefghij"[col] + str(rank)

    names = {n: name(n) for n in range(1, side * width + 1)}
    assert len(set(names.values())) == len(names)
    if variant in ("russian", "brazilian"):
        # pydraughts writes these FENs in algebraic names with this very conversion.
        from draughts.convert import _numeric_to_algebraic_square
        assert all(_numeric_to_algebraic_square(str(n), width) == a for n, a in names.items())
    return names.__getitem__


def legal(board):
    """(board moves, captures) as pydraughts' own Board.legal_moves() computes them.

    Board.legal_moves() builds a Move object per move, whose constructor compares every move
    with every other (for PDN disambiguation); that is quadratic and dominates the run time in
    positions with many king captures. We call the same internal function it calls and build a
    Move only for the move we play.
    """
    return board._legal_moves_board()


def play(variant, first_game, games, seed, max_plies, out, check_api):
    name = square_namer(variant)
    positions = 0
    duplicates = 0
    for game in range(first_game, first_game + games):
        # One generator per game, so that a game is the same whichever shard plays it.
        rng = random.Random(seed * 1_000_000 + game)
        board = Board(variant=variant)
        ply = 0
        while True:
            board_moves, captures = legal(board)
            if check_api:
                # The public API must give the same moves.
                api = [(m.steps_move, m.captures or []) for m in board.legal_moves()]
                mine = []
                for bm, cap in zip(board_moves, captures):
                    steps = [bm[0][0]] + [step[1] for step in bm]
                    mine.append((steps, [c for c in cap if c is not None]))
                assert api == mine, (board.fen, api, mine)
            moves = []
            seen = set()
            for bm, cap in zip(board_moves, captures):
                caps = sorted(name(c) for c in cap if c is not None)
                entry = {"from": name(bm[0][0]), "to": name(bm[-1][1]), "captures": caps}
                key = (entry["from"], entry["to"], tuple(caps))
                if key in seen:
                    duplicates += 1
                seen.add(key)
                moves.append(entry)
            out.write(json.dumps({"variant": variant, "game": game, "ply": ply,
                                  "fen": board.fen, "moves": moves}, separators=(",", ":")))
            out.write("\n")
            positions += 1
            if not board_moves or board.is_over() or ply >= max_plies:
                break
            i = rng.randrange(len(board_moves))
            board.push(Move(board_move=board_moves[i], possible_moves=board_moves,
                            possible_captures=captures))
            ply += 1
    out.flush()
    print(f"{variant}: games {first_game}..{first_game + games - 1}, {positions} positions, "
          f"{duplicates} duplicate (from, to, captures) entries", file=sys.stderr)


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--variant", required=True, choices=VARIANTS)
    p.add_argument("--games", type=int, default=500, help="number of games to play")
    p.add_argument("--first-game", type=int, default=0,
                   help="number of the first game (games are seeded by --seed and their number)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--max-plies", type=int, default=150,
                   help="stop a game after this many plies (the position after the last is "
                        "written)")
    p.add_argument("--check-api", action="store_true",
                   help="also compare with Board.legal_moves() at every position (slow)")
    a = p.parse_args()
    play(a.variant, a.first_game, a.games, a.seed, a.max_plies, sys.stdout, a.check_api)


if __name__ == "__main__":
    main()
