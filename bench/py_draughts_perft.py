#!/usr/bin/env python3
"""Perft with py-draughts (PyPI ``py-draughts``, imported as ``draughts``).

Helper of ``bench/perft-vs-py-draughts``; run it with the interpreter of the venv
that script sets up. Prints one JSON object on stdout:
``{"leaves": N, "seconds": S, "api": "...", "version": "..."}``.

py-draughts has no public perft function for the 8x8 variants; its own tests
(``test/test_move_generation_perf.py``) count leaves with ``Board.legal_moves`` +
``push``/``pop``. That is the path used here, made as fast as the public API
allows: bulk counting (``len(board.legal_moves)`` one ply above the leaves, no
push/pop of the last ply) and bound methods hoisted out of the loop. For
International draughts the package ships a real perft with bulk counting,
``draughts.engines.turbo.perft_from_board``, and that is used instead.
Single thread, no caching, no transposition tricks.
"""

from __future__ import annotations

import argparse
import json
import sys
import time

import draughts
from draughts import BrazilianBoard, RussianBoard, StandardBoard

# checkerbot variant name -> py-draughts board class. Only variants whose rules
# agree between the two are listed (py-draughts' AmericanBoard treats captures
# as optional, so it is not English/American checkers as checkerbot plays it).
BOARDS = {
    "russian": RussianBoard,
    "brazilian": BrazilianBoard,
    "international": StandardBoard,
}


def perft_board(board, depth: int) -> int:
    """Leaf count through the public Board API, bulk-counted at the last ply."""
    if depth == 0:
        return 1
    if depth == 1:
        return len(board.legal_moves)
    push, pop = board.push, board.pop
    total = 0
    for move in board.legal_moves:
        push(move)
        total += perft_board(board, depth - 1)
        pop()
    return total


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="russian", choices=sorted(BOARDS))
    parser.add_argument("--depth", type=int, default=9)
    parser.add_argument("--fen", default=None, help="start position (PDN FEN)")
    parser.add_argument(
        "--api",
        choices=("auto", "board", "turbo"),
        default="auto",
        help="board: Board.legal_moves/push/pop; turbo: engines.turbo.perft "
        "(international only); auto: turbo for international, else board",
    )
    args = parser.parse_args()
    if args.depth < 0:
        parser.error("--depth must be >= 0")

    cls = BOARDS[args.variant]
    board = cls.from_fen(args.fen) if args.fen else cls()

    api = args.api
    if api == "auto":
        api = "turbo" if args.variant == "international" else "board"
    if api == "turbo" and args.variant != "international":
        parser.error("--api turbo only supports --variant international")

    if api == "turbo":
        from draughts.engines.turbo import perft_from_board

        name = "draughts.engines.turbo.perft_from_board (bulk-counted)"
        started = time.perf_counter()
        leaves = perft_from_board(board, args.depth)
        seconds = time.perf_counter() - started
    else:
        name = f"{cls.__module__}.Board.legal_moves + push/pop (bulk-counted at last ply)"
        started = time.perf_counter()
        leaves = perft_board(board, args.depth)
        seconds = time.perf_counter() - started

    json.dump(
        {
            "leaves": leaves,
            "seconds": seconds,
            "api": name,
            "version": getattr(draughts, "__version__", "?"),
            "python": sys.version.split()[0],
        },
        sys.stdout,
    )
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
