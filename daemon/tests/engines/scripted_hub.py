#!/usr/bin/env python3
"""A Hub engine that knows no draughts, for the client's own tests: it greets as Scan does
(without a `variant` parameter with `plain`, so it plays International only) and answers every
`go` by MODE:

  a3-b4    `done move=9-13`, Russian's a3-b4 in Hub numbering: legal at the start only
  no-move  `error message="no position"` and `done`, without a move
  flood    a line of 100000 characters without its end
  exit     exits with status 5 before it answers

Usage: scripted_hub.py MODE [plain]
"""

import sys

mode = sys.argv[1]
plain = len(sys.argv) > 2


def say(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


for line in sys.stdin:
    words = line.split()
    command = words[0] if words else ""
    if command == "hub":
        say('id name=scripted version=1 author="checkerbot tests"')
        if not plain:
            say('param name=variant value=normal type=enum values="normal russian"')
        say("wait")
    elif command == "init":
        say("ready")
    elif command == "ping":
        say("pong")
    elif command == "go":
        if mode == "a3-b4":
            say("info depth=1 score=0.00 nodes=1 time=0.001 nps=0.001 pv=\"9-13\"")
            say("done move=9-13")
        elif mode == "no-move":
            say('error message="no position"')
            say("done")
        elif mode == "flood":
            sys.stdout.write("x" * 100000)
            sys.stdout.flush()
        elif mode == "exit":
            sys.exit(5)
    elif command == "quit":
        break
