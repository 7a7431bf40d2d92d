#!/usr/bin/env python3
"""Records Fairy-Stockfish's perft counts for the fairy games our variant files
define, as the reference our own move generation is compared with
(rules/tests/data/fsf/<variant>.perft, in the format of rules/tests/data/*.perft).

    python3 scripts/fsf-perft.py [VARIANT...]      (default: every game below)

Each file holds the start position and two middlegame positions (reached by
moves picked from the legal ones with a fixed seed), each counted to depth 3
(the start to 4). Fairy-Stockfish 11.1 (Debian's `fairy-stockfish`, in
/usr/games) is the reference; the engine is not ours and was not written by us.
"""
import random, subprocess, sys, pathlib

FSF = "/usr/games/fairy-stockfish"
GAMES = ["capablanca", "gothic", "embassy", "chancellor", "knightmate", "shatranj",
         "courier", "makruk", "grand", "shako"]
OUT = pathlib.Path(__file__).resolve().parent.parent / "rules/tests/data/fsf"

def ask(variant, fen, moves, command):
    pos = f"position fen {fen}" if fen else "position startpos"
    if moves:
        pos += " moves " + " ".join(moves)
    script = f"uci\nsetoption name UCI_Variant value {variant}\n{pos}\n{command}\nquit\n"
    out = subprocess.run([FSF], input=script, capture_output=True, text=True, timeout=600).stdout
    return out.splitlines()

def perft(variant, fen, depth):
    lines = ask(variant, fen, [], f"go perft {depth}")
    total = [l for l in lines if l.startswith("Nodes searched")]
    moves = [l.split(":")[0] for l in lines if ":" in l and not l.startswith(("info", "Nodes", "option", "id "))]
    return int(total[0].split(":")[1]), moves

def fen_after(variant, moves):
    for l in ask(variant, None, moves, "d"):
        if l.startswith("Fen:"):
            return l.split(":", 1)[1].strip()
    raise SystemExit(f"{variant}: no FEN")

def record(variant):
    start = fen_after(variant, [])
    rng = random.Random(variant)
    positions = [(start, 4)]
    for plies in (10, 17):
        moves = []
        for _ in range(plies):
            _, legal = perft(variant, fen_after(variant, moves), 1)
            if not legal:
                break
            moves.append(rng.choice(sorted(legal)))
        positions.append((fen_after(variant, moves), 3))
    lines = [f"# Fairy-Stockfish 11.1's perft counts for `{variant}` (UCI_Variant {variant}),",
             "# recorded by scripts/fsf-perft.py: the start, and two positions after moves picked at random."]
    for fen, depth in positions:
        counts = [perft(variant, fen, d)[0] for d in range(1, depth + 1)]
        lines.append(fen + " " + " ".join(f";D{d} {n}" for d, n in enumerate(counts, 1)))
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / f"{variant}.perft").write_text("\n".join(lines) + "\n")
    print(variant, "done")

for v in sys.argv[1:] or GAMES:
    record(v)
