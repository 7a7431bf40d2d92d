#!/usr/bin/env python3
"""Voidmate's engine against Fairy-Stockfish, both at the same fixed depth,
or both at the same time a move (`--movetime`), Fairy-Stockfish optionally
held to a rating (`--fsf-elo`, its UCI_LimitStrength and UCI_Elo).

Fairy-Stockfish is the engine (Debian's `fairy-stockfish` package, spoken to
over UCI); the pyffish package is only its move generator and cannot search,
so it is not enough for a match. Voidmate plays as one `voidmate uci`
process, which keeps its transposition table from move to move as
Fairy-Stockfish does (`--protocol analyse`: a fresh `voidmate analyse` per
move, the way earlier figures were measured). Colours alternate; both
engines hear `ucinewgame` before each game.

    python3 scripts/fsf-match.py --variant standard --depth 3 --games 10
    python3 scripts/fsf-match.py --movetime 150 --fsf-elo 1850 --games 12
"""
import argparse
import math
import subprocess
import sys


def ours(binary, variant, moves, depth, movetime=None):
    limit = ["--time-ms", str(movetime)] if movetime else ["--depth", str(depth)]
    out = subprocess.run(
        [binary, "analyse", "--variant", variant, *limit, "--moves", " ".join(moves)],
        capture_output=True, text=True)
    if out.returncode != 0:
        return None, out.stderr.strip()
    best = [l for l in out.stdout.splitlines() if l.startswith("best ")][0]
    return best.split("(")[1].rstrip(")"), None


class Fsf:
    """A UCI engine: Fairy-Stockfish, or `voidmate uci` (`args` after the path)."""

    def __init__(self, path, variant, elo=None, args=()):
        self.p = subprocess.Popen([path, *args], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                                  bufsize=1)
        self.send("uci")
        self.wait("uciok")
        self.send(f"setoption name UCI_Variant value {variant}")
        if elo:
            self.send("setoption name UCI_LimitStrength value true")
            self.send(f"setoption name UCI_Elo value {elo}")
        self.send("isready")
        self.wait("readyok")

    def send(self, line):
        self.p.stdin.write(line + "\n")

    def wait(self, prefix):
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise RuntimeError("fairy-stockfish stopped")
            if line.startswith(prefix):
                return line.strip()

    def new_game(self):
        self.send("ucinewgame")
        self.send("isready")
        self.wait("readyok")

    def move(self, moves, depth, movetime=None):
        self.send("position startpos moves " + " ".join(moves))
        self.send(f"go movetime {movetime}" if movetime else f"go depth {depth}")
        best = self.wait("bestmove").split()[1]
        return None if best == "(none)" else best


def result(binary, variant, moves):
    out = subprocess.run([binary, "analyse", "--variant", variant, "--depth", "1", "--moves", " ".join(moves)],
                         capture_output=True, text=True)
    return out.stderr.strip() if out.returncode != 0 else None


def main():
    a = argparse.ArgumentParser()
    a.add_argument("--variant", default="standard")
    a.add_argument("--fsf-variant", default=None, help="Fairy-Stockfish's name for it (default: the same)")
    a.add_argument("--depth", type=int, default=3)
    a.add_argument("--movetime", type=int, default=None, help="milliseconds a move for both, instead of a depth")
    a.add_argument("--fsf-elo", type=int, default=None, help="hold Fairy-Stockfish to this UCI_Elo")
    a.add_argument("--games", type=int, default=10)
    a.add_argument("--max-plies", type=int, default=200)
    a.add_argument("--voidmate", default="target/release/voidmate")
    a.add_argument("--fsf", default="/usr/games/fairy-stockfish")
    a.add_argument("--protocol", choices=["uci", "analyse"], default="uci",
                   help="how voidmate plays: one `voidmate uci` process (default) or `voidmate analyse` per move")
    a.add_argument("--games-out", default=None,
                   help="append each game here, one line: its number, voidmate's colour, the result and the "
                        "moves (coordinates), to study the games afterwards (`voidmate analyse --moves`)")
    args = a.parse_args()
    fsf = Fsf(args.fsf, args.fsf_variant or args.variant, args.fsf_elo)
    engine = Fsf(args.voidmate, args.variant, args=["uci"]) if args.protocol == "uci" else None
    score = 0.0
    points = []
    tally = {"win": 0, "draw": 0, "loss": 0}
    for g in range(args.games):
        voidmate_white = g % 2 == 0
        moves, end = [], None
        fsf.new_game()
        if engine:
            engine.new_game()
        for ply in range(args.max_plies):
            white_to_move = ply % 2 == 0
            if white_to_move == voidmate_white:
                if engine:
                    end = result(args.voidmate, args.variant, moves)
                    mv = None if end else engine.move(moves, args.depth, args.movetime)
                else:
                    mv, end = ours(args.voidmate, args.variant, moves, args.depth, args.movetime)
            else:
                end = result(args.voidmate, args.variant, moves)
                mv = None if end else fsf.move(moves, args.depth, args.movetime)
            if mv is None:
                break
            moves.append(mv)
        end = end or result(args.voidmate, args.variant, moves) or "unfinished: draw"
        if "White wins" in end or "Black wins" in end:
            white_won = "White wins" in end
            won = white_won == voidmate_white
            tally["win" if won else "loss"] += 1
            score += 1 if won else 0
            points.append(1.0 if won else 0.0)
        else:
            tally["draw"] += 1
            score += 0.5
            points.append(0.5)
        colour = 'White' if voidmate_white else 'Black'
        print(f"game {g + 1} (voidmate {colour}): {end.split(': ', 1)[-1]}", flush=True)
        if args.games_out:
            with open(args.games_out, "a") as f:
                f.write(f"{g + 1}\t{colour}\t{end.split(': ', 1)[-1]}\t{' '.join(moves)}\n")
    setting = f"{args.movetime} ms a move" if args.movetime else f"depth {args.depth}"
    if args.fsf_elo:
        setting += f", UCI_Elo {args.fsf_elo}"
    n = len(points)
    mean = score / n
    var = sum((p - mean) ** 2 for p in points) / max(n - 1, 1)
    margin = 1.96 * (var / n) ** 0.5

    def elo(s):
        s = min(max(s, 0.001), 0.999)
        return -400 * math.log10(1 / s - 1)

    print(f"{args.variant} {setting}: voidmate +{tally['win']} ={tally['draw']} -{tally['loss']} "
          f"against Fairy-Stockfish, score {100 * mean:.1f}% ± {100 * margin:.1f}%, "
          f"Elo {elo(mean):+.0f} [{elo(mean - margin):+.0f}, {elo(mean + margin):+.0f}]")


if __name__ == "__main__":
    sys.exit(main())
