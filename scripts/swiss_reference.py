"""Random Swiss tournaments paired by an independent Dutch-system program.

The reference is caissify-pairings (PyPI), whose Dutch engine implements
FIDE C.04.3 as in force from 1 February 2026 and is checked by its authors
against bbpPairings, the FIDE-endorsed program. This script plays random
tournaments through it (random results with draws, forfeits, byes,
withdrawals, late joiners and forbidden pairs) and writes one JSON line per
tournament: the players, every round's comings and goings, the reference's
pairing and the results. `swiss/tests/reference.rs` replays each line
through our tournament state and our pairing, round by round, and compares.

The tournament model below (scores, colours, floats, byes) is the one
docs/tournaments.md describes; the Rust side computes the same things from
the same events on its own.

    python swiss_reference.py FIRST_SEED COUNT > corpus.jsonl
"""

import json
import random
import sys
import time

from caissify_pairings import generate_pairings

# How likely each event is (per tournament, per round or per game).
LATE_JOINERS = 0.4  # a tournament has late joiners at all
FORBIDDEN = 0.35  # a tournament has forbidden pairs at all
WITHDRAW = 0.015  # a present player withdraws before a round
FORFEIT = 0.03  # one player of a game does not show up
DOUBLE_FORFEIT = 0.006  # neither does
REJOIN = 0.5  # an absent player rejoins before a round


class Player:
    def __init__(self, pid, name, rating, joins):
        self.id = pid
        self.name = name
        self.rating = rating
        self.joins = joins
        self.score = 0.0
        self.colours = []  # "white"/"black", games played only
        self.floats = []  # one per round of the tournament so far
        self.byes = 0
        self.forfeit_wins = 0
        self.opponents = set()  # played games only
        self.absent = False
        self.gone = False


def expected(a, b):
    return 1.0 / (1.0 + 10 ** ((b - a) / 400.0))


def valid(out, players, forbidden, last_round, rounds_played):
    """Rules 1-3 of our issue, checked on the reference's own output."""
    byes = [p for p in out if p["black_id"] is None]
    if len(byes) > 1:
        return False
    for p in byes:
        q = players[p["white_id"]]
        if q.byes or q.forfeit_wins:
            return False
    top = rounds_played / 2.0
    for p in out:
        if p["black_id"] is None:
            continue
        w, b = players[p["white_id"]], players[p["black_id"]]
        if b.id in w.opponents or frozenset((w.id, b.id)) in forbidden:
            return False
        if last_round and (w.score > top or b.score > top):
            continue
        for q, colour in ((w, "white"), (b, "black")):
            diff = q.colours.count("white") - q.colours.count("black")
            diff += 1 if colour == "white" else -1
            if abs(diff) > 2 or q.colours[-2:] == [colour, colour]:
                return False
    return True


def tournament(seed):
    rng = random.Random(seed)
    n = rng.randint(8, 60)
    rounds = rng.randint(5, 11)
    initial = rng.choice(["white", "black"])
    # Ratings: some equal (ties are broken by name), some unrated (0).
    pool = [rng.randint(1000, 2600) for _ in range(n)]
    players = {}
    for i in range(1, n + 1):
        rating = rng.choice(pool) if rng.random() < 0.15 else rng.randint(1000, 2600)
        if rng.random() < 0.05:
            rating = 0
        players[i] = Player(i, "p%03d" % rng.randint(0, 999) + "-%d" % i, rating, 1)
    if rng.random() < LATE_JOINERS:
        for _ in range(rng.randint(1, 4)):
            pid = len(players) + 1
            joins = rng.randint(2, max(2, rounds // 2 + 1))
            players[pid] = Player(pid, "late%03d-%d" % (rng.randint(0, 999), pid),
                                  rng.randint(1000, 2600), joins)
    # Forbidden pairs, each from a round on. Not from round 1: the
    # reference pairs round 1 by halves without looking at them.
    forbid_from = {}
    if rng.random() < FORBIDDEN:
        ids = list(players)
        for _ in range(rng.randint(1, 3)):
            a, b = sorted(rng.sample(ids, 2))
            forbid_from.setdefault((a, b), rng.randint(2, rounds))
    forbidden = set()

    record = {
        "seed": seed,
        "rounds": rounds,
        "initial": initial,
        "players": [dict(id=p.id, name=p.name, rating=p.rating, joins=p.joins)
                    for p in players.values()],
        "forbidden": [[a, b, r] for (a, b), r in sorted(forbid_from.items())],
        "events": [],
    }
    for r in range(1, rounds + 1):
        event = {"round": r, "withdraw": [], "rejoin": []}
        forbidden = {frozenset(k) for k, since in forbid_from.items() if since <= r}
        for p in players.values():
            if p.joins == r and r > 1:
                # Half a point, once, for the rounds missed (lichess
                # scores a late joiner's first round ½, the others 0).
                p.score += 0.5
                p.floats = ["down"] * (r - 1)
            if p.joins > r or p.gone:
                continue
            if p.absent and rng.random() < REJOIN:
                p.absent = False
                event["rejoin"].append(p.id)
            elif not p.absent and r > 1 and rng.random() < WITHDRAW:
                p.gone = True
                event["withdraw"].append(p.id)
        present = [p for p in players.values()
                   if p.joins <= r and not p.absent and not p.gone]
        if len(present) < 2:
            break
        # Pairing numbers: rating, highest first; equal ratings by name.
        order = sorted((p for p in players.values() if p.joins <= r),
                       key=lambda p: (-p.rating, p.name))
        number = {p.id: k + 1 for k, p in enumerate(order)}
        given = [dict(id=p.id, name=p.name, rating=p.rating, pairing_number=number[p.id],
                      starting_number=number[p.id], score=p.score,
                      color_hist=list(p.colours), float_history=list(p.floats),
                      bye_count=p.byes, forfeit_win_count=p.forfeit_wins)
                 for p in present]
        met = set()
        for p in present:
            for o in p.opponents:
                met.add((p.id, o))
        for f in forbidden:
            a, b = sorted(f)
            met.add((a, b))
            met.add((b, a))
        out = generate_pairings("dutch", given, met, r, rounds, initial_color=initial)
        ok = valid(out, players, forbidden, r == rounds, r - 1)
        event["pairing"] = [[p["white_id"], p["black_id"]] for p in out if p["black_id"] is not None]
        byes = [p["white_id"] for p in out if p["black_id"] is None]
        event["bye"] = byes[0] if len(byes) == 1 else None
        event["valid"] = ok
        record["events"].append(event)
        if not ok:
            break
        # Results.
        results = []
        played_round = set()
        for w, b in event["pairing"]:
            pw, pb = players[w], players[b]
            x = rng.random()
            if x < DOUBLE_FORFEIT:
                code = "--"
            elif x < DOUBLE_FORFEIT + FORFEIT:
                code = rng.choice(["+-", "-+"])
            else:
                e = expected(pw.rating or 1500, pb.rating or 1500)
                draw = 0.25
                y = rng.random()
                code = "1-0" if y < e * (1 - draw) else "1/2" if y < e * (1 - draw) + draw else "0-1"
            results.append([w, b, code])
            if code in ("1-0", "0-1", "1/2"):
                fw = "down" if pw.score > pb.score else "up" if pw.score < pb.score else "none"
                fb = "down" if pb.score > pw.score else "up" if pb.score < pw.score else "none"
                pw.floats.append(fw)
                pb.floats.append(fb)
                pw.colours.append("white")
                pb.colours.append("black")
                pw.opponents.add(b)
                pb.opponents.add(w)
                points = {"1-0": 1.0, "0-1": 0.0, "1/2": 0.5}[code]
                pw.score += points
                pb.score += 1 - points
                played_round.update((w, b))
            else:
                for q, won in ((pw, code == "+-"), (pb, code == "-+")):
                    q.floats.append("down")
                    if won:
                        q.score += 1
                        q.forfeit_wins += 1
                    else:
                        q.absent = True
                played_round.update((w, b))
        if event["bye"] is not None:
            q = players[event["bye"]]
            q.score += 1
            q.byes += 1
            q.floats.append("down")
            played_round.add(q.id)
        for p in players.values():
            if p.joins <= r and p.id not in played_round:
                p.floats.append("down")
        event["results"] = results
    return record


def main():
    first, count = int(sys.argv[1]), int(sys.argv[2])
    start = time.time()
    for k, seed in enumerate(range(first, first + count)):
        print(json.dumps(tournament(seed), separators=(",", ":")), flush=True)
        if (k + 1) % 10 == 0:
            print(f"swiss reference: {k + 1}/{count} tournaments, {time.time() - start:.0f} s",
                  file=sys.stderr, flush=True)


if __name__ == "__main__":
    main()
