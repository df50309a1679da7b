#!/usr/bin/env python3
"""Reads a PDN file with pydraughts (0.6.7) and replays every game under its rules.

Used by `engine/rules/tests/it/pdn_pydraughts.rs` and `daemon/tests/sim.rs`: PDN written by checkerbot must be readable by an
independent reader. One JSON line per game:

    {"game": 0, "variant": "russian", "plies": 57, "result": "1-0", "over": true,
     "winner": "white", "error": null}

`plies` counts the moves pydraughts replayed (each must be legal for it); `error` names the
first move it could not take; `winner` is pydraughts' own verdict on the final position
("white", "black", "draw", or null while the game goes on).
"""

import json
import sys

from draughts import BLACK, WHITE, Board, Move
from draughts.PDN import PDNReader


def replay(index, game):
    board = Board(variant=game.variant)
    entry = {"game": index, "variant": game.variant, "plies": 0,
             "result": game.game_ending, "over": False, "winner": None, "error": None}
    for text in game.moves:
        try:
            board.push(Move(board, pdn_move=text))
        except Exception as err:  # pydraughts raises bare KeyErrors and ValueErrors
            entry["error"] = f"move {entry['plies'] + 1} {text!r}: {err!r}"
            return entry
        entry["plies"] += 1
    entry["over"] = board.is_over()
    if entry["over"]:
        winner = board.winner()
        entry["winner"] = {WHITE: "white", BLACK: "black"}.get(winner, "draw")
    return entry


def main():
    games = PDNReader(filename=sys.argv[1]).games
    for index, game in enumerate(games):
        print(json.dumps(replay(index, game)))


if __name__ == "__main__":
    main()
