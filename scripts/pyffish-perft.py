#!/usr/bin/env python3
"""Fairy-Stockfish's perft counts for a game it reads from a variants.ini, through
pyffish (Fairy-Stockfish's own Python build, newer than Debian's 11.1, which
crashes here on any custom piece): the reference for the Betza our files read
that 11.1's built-in games do not use (hoppers, move- and capture-only pieces).

    pyffish-perft.py record INI VARIANT OUT     the start to depth 4 and two positions
                                               after seeded random moves to depth 3,
                                               written as a perft file
    pyffish-perft.py count INI VARIANT DEPTH    a count for each FEN read on stdin, one
                                               per line

Run it with scripts/pyffish.sh, which installs pyffish into its own environment.
"""
import random, sys
import pyffish as sf


def perft(variant, fen, moves, depth):
    legal = sf.legal_moves(variant, fen, moves)
    if depth == 1:
        return len(legal)
    return sum(perft(variant, fen, moves + [m], depth - 1) for m in legal)


def record(ini, variant, out):
    start = sf.start_fen(variant)
    lines = [
        f"# Fairy-Stockfish's perft counts for `{variant}` as {ini.split('/')[-1]} defines it,",
        f"# through pyffish {'.'.join(map(str, sf.version()))} ({sf.info().split(' by ')[0]}),",
        "# recorded by scripts/pyffish-perft.py: the start, and two positions after random moves.",
        f"{start} " + " ".join(f";D{d} {perft(variant, start, [], d)}" for d in range(1, 5)),
    ]
    rng = random.Random(variant)
    for plies in (14, 22):
        moves = []
        for _ in range(plies):
            legal = sf.legal_moves(variant, start, moves)
            if not legal:
                break
            moves.append(rng.choice(sorted(legal)))
        fen = sf.get_fen(variant, start, moves)
        lines.append(f"{fen} " + " ".join(f";D{d} {perft(variant, fen, [], d)}" for d in range(1, 4)))
    open(out, "w").write("\n".join(lines) + "\n")


def main():
    command, ini, variant = sys.argv[1:4]
    sf.load_variant_config(open(ini).read())
    if variant not in sf.variants():
        sys.exit(f"{ini} defines no game `{variant}`")
    if command == "record":
        record(ini, variant, sys.argv[4])
    elif command == "count":
        depth = int(sys.argv[4])
        for fen in sys.stdin:
            fen = fen.strip()
            if fen:
                print(perft(variant, fen, [], depth), flush=True)
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
