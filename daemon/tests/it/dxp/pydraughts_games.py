"""Whole International games of `checkerbot dxp` driven by pydraughts' DXPEngine, for
daemon/tests/it/dxp.

Usage: pydraughts_games.py PORT GAMES SEED MAX_PLIES
pydraughts connects to the engine listening at 127.0.0.1:PORT as DXP's initiator, one
connection per game, and plays a seeded random mover against it: the engine is White in even
games and Black in odd ones. pydraughts refuses any move the engine sends that is not legal
(its receiver looks each one up among its own legal moves); this script checks the move it
got is legal on its own board too, and that both boards agree. Games 0, 4 and 8 take a move
pair back with a back request, and every game sends a chat. A game ends by pydraughts' rules
or after MAX_PLIES plies, then pydraughts sends its game end. One JSON line per game.
"""
import json
import os
import random
import signal
import sys
import traceback

import draughts
import draughts.engines.dxp_communication.dxp_classes as dxp_classes
from draughts.engine import DXPEngine


class _NoSleep:
    """pydraughts waits 7 s between shutting its socket down and closing it, time an engine
    it started itself may need to read the last message; this engine reads it at once, and ten
    games would spend over a minute waiting."""

    @staticmethod
    def sleep(_seconds):
        pass


dxp_classes.time = _NoSleep
# A game that hangs (a move pydraughts refused and still waits for) fails instead of hanging.
signal.alarm(240)

port, games, seed, max_plies = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])

def play(game):
    rng = random.Random(seed * 1000 + game)
    engine = DXPEngine(None, {"engine-opened": True, "ip": "127.0.0.1", "port": port})
    board = draughts.Board(variant="standard")
    engine_side = draughts.WHITE if game % 2 == 0 else draughts.BLACK
    if engine_side == draughts.BLACK:
        board.push(rng.choice(board.legal_moves()))
    engine_moves = 0
    takebacks = 0
    chatted = False
    while not board.is_over() and len(board.move_stack) < max_plies:
        if board.turn == engine_side:
            result = engine.play(board)
            assert result.move is not None, f"game {game}: no move from the engine"
            legal = [m for m in board.legal_moves()
                     if m.hub_position_move == result.move.hub_position_move]
            # Two legal moves may share their squares and captures (a king's capture by either
            # of two paths); they are one move.
            assert legal, f"game {game}: {result.move.pdn_move} is not legal in {board.fen}"
            board.push(legal[0])
            assert engine.sender.current.pos.fen == board.fen, f"game {game}: the boards differ"
            engine_moves += 1
            continue
        if not chatted and len(board.move_stack) >= 4:
            engine.sender.chat(f"game {game}: good luck")
            chatted = True
        if game % 4 == 0 and takebacks == 0 and len(board.move_stack) >= 12:
            # Back to this side's previous turn: its last move and the engine's answer undone.
            # Only in games the engine plays White: pydraughts takes the engine for the side
            # to move in the game's first position, and after taking moves back it waits for
            # the engine's move when that side is to move.
            target = len(board.move_stack) - 2
            color = draughts.WHITE if target % 2 == 0 else draughts.BLACK
            accepted, new_board, _ = engine.takeback(target // 2 + 1, color)
            assert accepted, f"game {game}: the back request was refused"
            board.pop()
            board.pop()
            assert new_board.fen == board.fen, f"game {game}: {new_board.fen} != {board.fen}"
            takebacks += 1
            continue
        board.push(rng.choice(board.legal_moves()))
    winner = board.winner()
    engine.quit()
    print(json.dumps({
        "game": game,
        "plies": len(board.move_stack),
        "over": board.is_over(),
        "engine_won": winner == engine_side,
        "engine_lost": winner is not None and winner not in (0, engine_side),
        "engine_moves": engine_moves,
        "takebacks": takebacks,
        "engine_name": engine.id.get("name"),
    }), flush=True)


for game in range(games):
    try:
        play(game)
    except BaseException:
        # pydraughts' receiving thread would keep the process alive: leave at once.
        traceback.print_exc()
        sys.stderr.flush()
        os._exit(1)
