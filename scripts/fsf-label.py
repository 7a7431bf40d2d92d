#!/usr/bin/env python3
"""Scores the positions of a tuning file with Fairy-Stockfish.

`voidmate tune-data` writes each quiet position of its self-play games as
`RESULT FEN ; SCORE`, SCORE being what our own search said (White's
centipawns). This script keeps the result and the FEN and writes
Fairy-Stockfish's score instead, searched to a fixed number of nodes, so that
`voidmate tune --lambda L` can fit our weights partly to a stronger engine's
judgement of the same positions (a mate is written as +-3000, as tune-data
writes it). The positions are our own games'; only the judge changes.

Usage: python3 scripts/fsf-label.py IN OUT [--nodes N] [--variant chess] [--jobs J]
                                    [--every K]
  --nodes    Fairy-Stockfish's nodes a position (default 10000)
  --jobs     how many Fairy-Stockfish processes at once (default 1)
  --every    keep one position in K (default 1: all)
Progress goes to stderr every 5,000 positions.
"""

import argparse
import importlib.util
import os
import sys
import time
from multiprocessing import Pool

FSF = "/usr/games/fairy-stockfish"
MATE = 3000

# The UCI conversation is fsf-match.py's (its name has a hyphen, so it is
# loaded by path rather than imported).
_spec = importlib.util.spec_from_file_location(
    "fsf_match", os.path.join(os.path.dirname(os.path.abspath(__file__)), "fsf-match.py")
)
fsf_match = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(fsf_match)


class Engine(fsf_match.Fsf):
    """Fairy-Stockfish at full strength, one thread (its default), asked for scores."""

    def __init__(self, variant):
        super().__init__(FSF, variant)

    def score(self, fen, nodes):
        """White's score of `fen`, in centipawns (a mate is +-MATE)."""
        self.send("ucinewgame")
        self.send(f"position fen {fen}")
        self.send(f"go nodes {nodes}")
        last = None
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise RuntimeError("Fairy-Stockfish stopped")
            if line.startswith("info") and " score " in line:
                last = line
            elif line.startswith("bestmove"):
                break
        if last is None:
            raise RuntimeError(f"no score for {fen}")
        words = last.split()
        kind, value = words[words.index("score") + 1], int(words[words.index("score") + 2])
        if kind == "mate":
            own = MATE if value > 0 else -MATE
        else:
            own = max(-MATE, min(MATE, value))
        white_to_move = fen.split()[1] == "w"
        return own if white_to_move else -own


engine = None


def start(variant):
    global engine
    engine = Engine(variant)


def label(args):
    line, nodes = args
    head = line.split(" ; ")[0]
    result, fen = head.split(" ", 1)
    return f"{result} {fen} ; {engine.score(fen, nodes)}"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("inp")
    ap.add_argument("out")
    ap.add_argument("--nodes", type=int, default=10000)
    ap.add_argument("--variant", default="chess")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--every", type=int, default=1)
    a = ap.parse_args()
    if a.every < 1 or a.nodes < 1 or a.jobs < 1:
        sys.exit("fsf-label: --every, --nodes and --jobs must be at least 1")
    if not os.access(FSF, os.X_OK):
        sys.exit(f"fsf-label: {FSF} is missing: apt-get install fairy-stockfish")
    lines = []
    with open(a.inp) as f:
        for number, l in enumerate(f, 1):
            l = l.rstrip("\n")
            if not l.strip() or l.startswith("#"):
                continue
            fields = l.split(" ; ")[0].split()
            # RESULT, then a FEN: its board and the side to move at least (a
            # partly written last line fails here).
            if len(fields) < 3 or fields[0] not in ("1", "0", "0.5") or fields[2] not in ("w", "b"):
                sys.exit(f"fsf-label: {a.inp}, line {number}: not `RESULT FEN ; SCORE`: {l[:80]!r}")
            lines.append(l)
    lines = lines[:: a.every]
    started = time.time()
    with Pool(a.jobs, initializer=start, initargs=(a.variant,)) as pool, open(a.out, "w") as out:
        for i, done in enumerate(pool.imap(label, ((l, a.nodes) for l in lines), chunksize=64), 1):
            out.write(done + "\n")
            if i % 5000 == 0:
                rate = i / (time.time() - started)
                print(f"{i} of {len(lines)} positions, {rate:.0f} a second", file=sys.stderr, flush=True)
    print(f"{len(lines)} positions scored at {a.nodes} nodes in {time.time() - started:.0f} s", file=sys.stderr)


if __name__ == "__main__":
    main()
