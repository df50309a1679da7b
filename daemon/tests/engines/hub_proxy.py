#!/usr/bin/env python3
"""A misbehaving Hub engine for tests: relays a real engine (the command after MODE and N)
line by line, and misbehaves at the N-th `go` it is sent:

  crash    exits with status 3, as a crashing engine does
  silent   never answers that search (nor anything after it)
  illegal  answers `done move=1-2`, a move on no board, instead of the engine's

Usage: hub_proxy.py MODE N COMMAND ARGS...
"""

import subprocess
import sys
import threading

mode, n, command = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
engine = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)


def relay_output():
    for line in engine.stdout:
        sys.stdout.write(line)
        sys.stdout.flush()


threading.Thread(target=relay_output, daemon=True).start()
searches = 0
silent = False
for line in sys.stdin:
    if silent:
        continue
    if line.split()[:1] == ["go"]:
        searches += 1
        if searches == n:
            if mode == "crash":
                engine.kill()
                sys.exit(3)
            if mode == "silent":
                silent = True
                continue
            if mode == "illegal":
                sys.stdout.write("done move=1-2\n")
                sys.stdout.flush()
                continue
    engine.stdin.write(line)
    engine.stdin.flush()
engine.stdin.close()
engine.wait()
