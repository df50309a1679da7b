#!/usr/bin/env python3
"""A misbehaving DXP engine for tests: listens on a free loopback port (its first line on
stdout: `dxp_proxy: listening on 127.0.0.1:PORT`), and for each connection relays DXP
messages (each ended by a NUL byte) to and from a real engine listening at UPSTREAM_PORT on
127.0.0.1 (`checkerbot dxp --listen`), misbehaving at the N-th move the engine sends or at
the N-th game request, counted over all connections:

  close    closes the connection instead of sending that move
  silent   never sends that move, nor anything after it on that connection
  illegal  sends `M0000010200` (from 1 to 2, a move on no board) instead of that move
  refuse   answers that game request itself, refusing it with code 2
  relay    only relays (N is not used)

Usage: dxp_proxy.py MODE N UPSTREAM_PORT
"""

import socket
import sys
import threading

mode, n, upstream_port = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
counts = {"move": 0, "request": 0}
lock = threading.Lock()


def counted(kind):
    """Counts one more of `kind`; true when it is the N-th, the one to misbehave at."""
    with lock:
        counts[kind] += 1
        return counts[kind] == n


def messages(sock):
    """The messages read from `sock`, without their NULs, until it closes."""
    pending = b""
    while True:
        try:
            data = sock.recv(4096)
        except OSError:
            return
        if not data:
            return
        pending += data
        while b"\0" in pending:
            message, pending = pending.split(b"\0", 1)
            yield message


def send(sock, message):
    try:
        sock.sendall(message + b"\0")
    except OSError:
        pass


def close(*socks):
    for sock in socks:
        try:
            sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        sock.close()


def from_engine(client, engine):
    silent = False
    for message in messages(engine):
        if silent:
            continue
        if message.startswith(b"M") and mode in ("close", "silent", "illegal") and counted("move"):
            if mode == "close":
                close(client, engine)
                return
            if mode == "silent":
                silent = True
                continue
            message = b"M0000010200"
        send(client, message)
    close(client)


def serve(client):
    engine = socket.create_connection(("127.0.0.1", upstream_port))
    threading.Thread(target=from_engine, args=(client, engine), daemon=True).start()
    for message in messages(client):
        if message.startswith(b"R") and mode == "refuse" and counted("request"):
            send(client, b"A" + b"dxp_proxy".ljust(32) + b"2")
            continue
        send(engine, message)
    close(engine)


listener = socket.socket()
listener.bind(("127.0.0.1", 0))
listener.listen()
print(f"dxp_proxy: listening on 127.0.0.1:{listener.getsockname()[1]}", flush=True)
while True:
    connection, _ = listener.accept()
    threading.Thread(target=serve, args=(connection,), daemon=True).start()
