#!/usr/bin/env python3
"""Plays a whole Swiss in the console and prints the transcript.

    python3 scripts/console-tournament.py [PLAYERS] [ROUNDS] [--bin PATH]

Runs `voidmate console` in a fresh directory (its own SQLite database),
speaks as each player in turn (`as NAME`), and plays every game of every
round to a result: White and Black each make a move, then a result drawn
from a fixed seed (a resignation either way, or a draw agreed). The
organiser (alice) creates and starts the tournament; the rounds after the
first are paired by the bot as soon as the last game of a round ends. The
output is what a reader of docs/tournaments.md sees: every line typed
(after `> `) and every line the bot printed.
"""

import os
import queue
import random
import re
import subprocess
import sys
import tempfile
import threading
import time

NAMES = ["anna", "ben", "cara", "dan", "eve", "finn", "gwen", "hugo", "ivy",
         "jack", "kim", "leo", "mia", "ned", "ola", "pia"]
GAME = re.compile(r"game #(\d+), @(\w+) \(White\) vs @(\w+) \(Black\)")


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    players = int(args[0]) if args else 9
    rounds = int(args[1]) if len(args) > 1 else 5
    binary = "target/debug/voidmate"
    if "--bin" in sys.argv:
        binary = sys.argv[sys.argv.index("--bin") + 1]
    binary = os.path.abspath(binary)
    rng = random.Random(48)
    work = tempfile.mkdtemp(prefix="voidmate-tournament-")
    proc = subprocess.Popen([binary, "console"], cwd=work, stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, bufsize=1)
    lines = queue.Queue()
    threading.Thread(target=lambda: [lines.put(l.rstrip("\n")) for l in proc.stdout],
                     daemon=True).start()
    speaker = ["alice"]
    transcript = []

    def drain(quiet=0.4, until=None, limit=15.0):
        """What the bot printed until it is quiet (or `until` appears)."""
        out, start = [], time.time()
        while time.time() - start < limit:
            try:
                line = lines.get(timeout=quiet)
            except queue.Empty:
                if until is None or any(until in l for l in out):
                    break
                continue
            if line.startswith("(now speaking as"):
                continue
            out.append(line)
            transcript.append(line)
        return out

    def say(who, text, **wait):
        if speaker[0] != who:
            proc.stdin.write(f"as {who}\n")
            proc.stdin.flush()
            speaker[0] = who
        transcript.append(f"> [{who}] {text}")
        proc.stdin.write(text + "\n")
        proc.stdin.flush()
        return drain(**wait)

    drain()
    say("alice", f"tournament create swiss standard 10+5 rounds {rounds}")
    for name in NAMES[:players]:
        say(name, "tournament join")
    mark = len(transcript)
    say("alice", "tournament start", until="round 1 of")
    for rnd in range(1, rounds + 1):
        out = transcript[mark:]
        games = [GAME.search(l) for l in out]
        games = [(int(m[1]), m[2], m[3]) for m in games if m]
        if not games:
            sys.exit(f"round {rnd}: no pairing in {out}")
        for number, white, black in games:
            say(white, f"e4 #{number}")
            say(black, f"e5 #{number}")
            roll = rng.random()
            if roll < 0.4:
                say(black, f"resign #{number}")
            elif roll < 0.75:
                say(white, f"resign #{number}")
            else:
                say(white, f"draw #{number}")
                say(black, f"draw #{number}")
        if rnd < rounds:
            # The bot pairs the next round by itself, as the last game of
            # this one ends (or at its periodic check).
            mark = next(i for i in range(mark, len(transcript) + 1)
                        if i == len(transcript) or f"round {rnd} of" in transcript[i]) + 1
            deadline = time.time() + 20
            while not any(f"round {rnd + 1} of" in l for l in transcript[mark:]):
                if time.time() > deadline:
                    sys.exit(f"round {rnd + 1} was not paired: {transcript[mark:]}")
                drain(quiet=0.5, limit=1.0)
            mark = next(i for i in range(mark, len(transcript))
                        if f"round {rnd + 1} of" in transcript[i])
    drain(quiet=1.5)
    say("ben", "tournament standings")
    say("ben", "tournament history @anna")
    proc.stdin.write("quit\n")
    proc.stdin.flush()
    proc.wait(timeout=10)
    print("\n".join(transcript))


if __name__ == "__main__":
    main()
