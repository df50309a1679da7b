"""Positions and legal moves as pydraughts' HubEngine writes them, for daemon/tests/it/hub.

Usage: pydraughts_positions.py VARIANT GAMES PLIES SEED
Plays GAMES seeded random games of pydraughts' VARIANT ('standard', 'russian', ...), and
writes one JSON line per position: the Hub position string pydraughts would send (`pos`)
and the Hub text of every legal move, as pydraughts would send or read it.
"""
import json
import random
import sys

import draughts

variant, games, plies, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
rng = random.Random(seed)
for _ in range(games):
    board = draughts.Board(variant=variant)
    for _ in range(plies):
        moves = board.legal_moves()
        if not moves or board.is_over():
            break
        print(json.dumps({
            "position": board._game.get_fen(),
            "moves": sorted({move.hub_move for move in moves}),
        }))
        board.push(rng.choice(moves))
