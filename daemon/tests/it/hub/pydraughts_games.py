"""Whole games of `checkerbot hub` driven by pydraughts' HubEngine, for daemon/tests/it/hub.

Usage: pydraughts_games.py ENGINE VARIANT HUB_VARIANT GAMES SEED MAX_PLIES STRENGTH
The engine, at STRENGTH (its `strength` parameter, 1 to 5), plays against a seeded random mover, White in even games and Black in odd ones;
even games give it a move time (`level move-time`), odd ones a clock with an increment
(`level time inc`) that this script keeps. pydraughts refuses any illegal move the engine
sends. A game ends by pydraughts' rules or after MAX_PLIES plies. One JSON line per game.
"""
import json
import random
import sys
import time

import draughts
from draughts.engine import HubEngine

engine_path, variant, hub_variant = sys.argv[1], sys.argv[2], sys.argv[3]
games, seed, max_plies = int(sys.argv[4]), int(sys.argv[5]), int(sys.argv[6])
strength = int(sys.argv[7])

MOVE_TIME = 0.02
CLOCK = 2.0
INCREMENT = 0.02

engine = HubEngine([engine_path, "hub"])
assert hub_variant in engine.variants, engine.variants
assert "strength" in engine.options, engine.options
engine.configure({"variant": hub_variant, "strength": strength})
engine.init()
for game in range(games):
    rng = random.Random(seed * 1000 + game)
    board = draughts.Board(variant=variant)
    engine_side = draughts.WHITE if game % 2 == 0 else draughts.BLACK
    clock = CLOCK
    slowest = 0.0
    engine_moves = 0
    while not board.is_over() and len(board.move_stack) < max_plies:
        if board.turn == engine_side:
            # HubEngine.play, with only the engine's answer timed (not pydraughts' own work).
            fen = board._game.initial_hub_fen
            played = " ".join(move.hub_move for move in board.move_stack)
            started = time.monotonic()
            if game % 2 == 0:
                best, _ = engine.go(fen, moves=played, movetime=MOVE_TIME)
            else:
                best, _ = engine.go(fen, moves=played, my_time=clock, inc=INCREMENT)
            spent = time.monotonic() - started
            slowest = max(slowest, spent)
            if game % 2 == 1:
                clock += INCREMENT - spent
                assert clock > 0, f"game {game}: the engine lost on time"
            # Alpha-beta reports its iterations; a weaker level what it spent.
            reported = "depth" if strength == 5 else "nodes"
            assert reported in engine.info, f"no info line before done: {engine.info}"
            # A move pydraughts cannot find among the legal ones raises here.
            board.push(draughts.Move(board, hub_move=best))
            engine_moves += 1
        else:
            board.push(rng.choice(board.legal_moves()))
    winner = board.winner()
    print(json.dumps({
        "game": game,
        "plies": len(board.move_stack),
        "over": board.is_over(),
        "engine_won": winner == engine_side,
        "engine_lost": winner is not None and winner not in (0, engine_side),
        "engine_moves": engine_moves,
        "slowest": slowest,
        "clock_left": clock,
    }), flush=True)
engine.quit()
engine.p.communicate(timeout=10)
print(json.dumps({"exit": engine.p.returncode}))
