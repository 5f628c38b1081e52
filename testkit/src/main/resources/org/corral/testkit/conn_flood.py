#!/usr/bin/env python3
"""Connection-exhaustion attack, for the tests and bench/: opens many connections to a server
and holds them, idle or sending a frame one byte at a time (slow loris).

usage: conn_flood.py unix:PATH|tcp:HOST:PORT COUNT HOLD_SECONDS idle|loris|big

big: each connection announces a 60 MiB frame and sends as fast as the server reads.

Prints "opened=N failed=F" once every connection was tried, then, after HOLD_SECONDS (or when
stdin closes), "open=X closed=Y" (closed: the server hung up or refused it) and exits.
"""
import select
import socket
import sys
import time


def connect(target):
    if target.startswith("unix:"):
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.settimeout(2)
        s.connect(target[5:])
    else:
        host, port = target[4:].rsplit(":", 1)
        s = socket.create_connection((host, int(port)), timeout=2)
    s.setblocking(False)
    return s


def still_open(s):
    try:
        data = s.recv(1, socket.MSG_PEEK)
        return False  # the end, or a refusal before it: hung up on
    except BlockingIOError:
        return True
    except OSError:
        return False


def main():
    target, count, hold, mode = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), sys.argv[4]
    conns, failed = [], 0
    for _ in range(count):
        try:
            conns.append(connect(target))
        except OSError:
            failed += 1
    print(f"opened={len(conns)} failed={failed}", flush=True)
    # A frame header announcing 50 bytes, then the bytes, one a second: never a whole frame.
    loris = bytes([0, 0, 0, 50]) + bytes(50)
    end = time.monotonic() + hold
    sent = 0
    if mode == "big":  # a header for 60 MiB, an envelope's first bytes, then filler
        for s in conns:
            try:
                s.send(bytes([0x03, 0xC0, 0, 0, 0, 1, 0x08, 0x01, 0x12]) + bytes(4096))
            except OSError:
                pass
    chunk = bytes(65536)
    while time.monotonic() < end:
        ready, _, _ = select.select([sys.stdin], [], [], 0.05 if mode == "big" else 1.0)
        if mode == "big":
            for s in conns:
                try:
                    s.send(chunk)
                except OSError:
                    pass
        if ready and sys.stdin.readline() == "":
            break
        if mode == "loris" and sent < len(loris):
            for s in conns:
                try:
                    s.send(loris[sent:sent + 1])
                except OSError:
                    pass
            sent += 1
    open_now = sum(1 for s in conns if still_open(s))
    print(f"open={open_now} closed={len(conns) - open_now}", flush=True)
    for s in conns:
        s.close()


if __name__ == "__main__":
    main()
