#!/usr/bin/env python3
"""Writes the pydraughts PDN test data for engine/rules/tests/it/pdn.rs.

Run with the Python that has pydraughts 0.6.7 installed, from this folder:

    /tmp/oracles/pyd/bin/python generate.py

For each variant it plays a few random games with pydraughts (seeded, so the output is
reproducible), writes them with draughts.PDN.PDNWriter into VARIANT.pdn and writes the final
position of each game, as pydraughts' own FEN, one line per game, into VARIANT.final-fen.
The last game of each file starts from a FEN position that pydraughts reached by random play,
so the file has a FEN tag that is not the initial position.
"""

import random

from draughts import Board
from draughts.PDN import PDNWriter

# pydraughts names -> file names used by the Rust test.
VARIANTS = {
    "russian": "russian",
    "brazilian": "brazilian",
    "english": "english",
    "italian": "italian",
    "standard": "international",
}
GAMES_FROM_START = 3
MAX_PLIES = 300
WHITE, BLACK = 2, 1  # pydraughts' player numbers


def random_game(board, rng, max_plies):
    """Plays random legal moves until the game ends or max_plies were played."""
    plies = 0
    while not board.is_over() and plies < max_plies:
        board.push(rng.choice(board.legal_moves()))
        plies += 1
    return board


def ending(board, style):
    """The PDN result token; style 1 uses the 2-0 / 1-1 / 0-2 scoring."""
    winner = board.winner() if board.is_over() else None
    if winner == WHITE:
        return "2-0" if style else "1-0"
    if winner == BLACK:
        return "0-2" if style else "0-1"
    if winner == 0:
        return "1-1" if style else "1/2-1/2"
    return "*"


def main():
    for variant, name in VARIANTS.items():
        pdn_path = f"{name}.pdn"
        open(pdn_path, "w").close()
        finals = []
        for seed in range(1, GAMES_FROM_START + 2):
            rng = random.Random(f"{variant}-{seed}")
            if seed <= GAMES_FROM_START:
                board = Board(variant)
            else:
                # A start position from the middle of another random game, with the
                # second player to move (an odd number of plies from the start).
                setup = random_game(Board(variant), rng, 21)
                board = Board(variant, setup.fen)
            random_game(board, rng, MAX_PLIES)
            tags = {
                "Event": f"pydraughts random game {seed}",
                "Site": "generate.py",
                "Round": str(seed),
                "White": "random",
                "Black": "random",
            }
            PDNWriter(pdn_path, board=board, tags=tags, game_ending=ending(board, seed % 2 == 0))
            finals.append(board.fen)
        with open(f"{name}.final-fen", "w") as out:
            out.write("".join(fen + "\n" for fen in finals))


if __name__ == "__main__":
    main()
