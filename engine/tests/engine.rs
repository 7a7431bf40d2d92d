//! The engine in every variant: it finds mates in one and two, plays only
//! legal moves, and stops when its time is up.

use std::time::Duration;
use voidmate_engine::{choose, greedy, search, Features, Level, Limits, Table};
use voidmate_rules::{variants, Color, GameKind, Position};

fn pos(variant: &str, fen: &str) -> Position {
    Position::from_fen(variants::by_name(variant).unwrap(), fen).unwrap()
}

/// Does `us` win within `plies`, whatever the other side does? (An
/// independent brute-force check of the engine's mates.)
fn wins_within(p: &Position, us: Color, plies: u32) -> bool {
    if let Some(o) = p.outcome() {
        return o.winner() == Some(us);
    }
    if plies == 0 {
        return false;
    }
    let mut next = p.legal_moves().into_iter().map(|m| p.after(&m));
    if p.turn() == us {
        next.any(|q| wins_within(&q, us, plies - 1))
    } else {
        next.all(|q| wins_within(&q, us, plies - 1))
    }
}

/// Mate in one and in two (moves of the winner) for each variant: for
/// giveaway games the "mate" is giving the last piece away, in Chess 99
/// taking the king.
const MATES: &[(&str, &str, i32)] = &[
    ("standard", "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", 1),
    ("standard", "k7/8/2K5/8/8/8/8/7R w - - 0 1", 2),
    ("void", "8k/9/7K1/9/9/9/9/9/R8 w - - 0 1", 1),
    ("void", "8k/9/6K2/9/9/9/9/9/R8 w - - 0 1", 2),
    ("antichess", "8/8/8/8/8/8/1p6/R7 w - - 0 1", 1),
    ("antichess", "8/8/8/8/8/2p5/8/R7 w - - 0 1", 2),
    ("suicide-void", "8/8/8/8/8/8/1p6/R7 w - - 0 1 void:h8", 1),
    ("suicide-void", "8/8/8/8/8/2p5/8/R7 w - - 0 1 void:h8", 2),
    ("suicide-void-pw", "8/8/8/8/8/8/1p6/R7 w - - 0 1 void:h8", 1),
    ("chess99", "k8/9/9/9/9/9/9/9/R3K4 w - - 0 1", 1),
    ("chess99", "k8/pp7/9/9/9/9/9/9/2R1K4 w - - 0 1", 2),
    ("black-holes", "k4/4Q/1K3/5/5/5/5/5 w - - 0 1", 1),
    ("black-holes", "k4/5/1K3/5/5/5/5/4Q w - - 0 1", 2),
    (
        "super16",
        "k15/4Q11/1K14/16/16/16/16/16/16/16/16/16/16/16/16/16 w - - 0 1",
        1,
    ),
    (
        "super16",
        "k15/16/2K13/16/16/16/16/16/16/16/16/16/16/16/16/15R w - - 0 1",
        2,
    ),
];

#[test]
fn it_finds_mate_in_one_and_two_in_every_variant() {
    let mut covered: Vec<&str> = Vec::new();
    for &(variant, fen, n) in MATES {
        let p = pos(variant, fen);
        let r = search(&p, &Limits::depth(4), &mut Table::new(1 << 16)).unwrap();
        assert_eq!(r.mate_in(), Some(n), "{variant} {fen}: {}", p.san(&r.best));
        let us = p.turn();
        assert!(
            wins_within(&p.after(&r.best), us, 2 * n as u32 - 1),
            "{variant} {fen}: {} does not force the win",
            p.san(&r.best)
        );
        // And no faster win was missed.
        if n == 2 {
            assert!(
                !wins_within(&p, us, 1)
                    && !p
                        .legal_moves()
                        .iter()
                        .any(|m| wins_within(&p.after(m), us, 1))
            );
        }
        covered.push(variant);
    }
    for rules in variants::all() {
        assert!(
            covered.contains(&rules.name()),
            "no mate test for {}",
            rules.name()
        );
    }
}

#[test]
fn it_plays_only_legal_moves_in_every_variant() {
    for rules in variants::all() {
        for game in 0..3u64 {
            let mut p = Position::new(rules);
            let mut state = 0x2545_f491_4f6c_dd1d ^ game;
            for ply in 0..60 {
                if p.outcome().is_some() {
                    break;
                }
                let mv = if ply % 2 == (game % 2) as usize {
                    let limits = Limits {
                        time: Some(Duration::from_millis(20)),
                        ..Limits::default()
                    };
                    choose(&p, Level::new(1 + (game as u8 % 5)).unwrap(), limits, state)
                        .unwrap()
                        .best
                } else {
                    state ^= state << 13;
                    state ^= state >> 7;
                    state ^= state << 17;
                    let legal = p.legal_moves();
                    legal[(state % legal.len() as u64) as usize]
                };
                assert!(p.is_legal(&mv), "{}: {mv:?} in {}", rules.name(), p.fen());
                p.play_unchecked(&mv);
            }
        }
    }
}

#[test]
fn it_stops_when_its_time_is_up() {
    // Behaviour, not speed (speed is measured in docs/performance.md): the
    // clock is read every 1024 nodes, so with its time up before it starts
    // the search stops at the first reading, whatever the machine, and
    // still plays a legal move; with time to spare, it ends by itself (this
    // test would hang otherwise) with a legal move.
    for rules in variants::all() {
        let p = Position::new(rules);
        let r = search(&p, &Limits::time(Duration::ZERO), &mut Table::new(1 << 16)).unwrap();
        assert!(r.nodes <= 1024 + 64, "{}: {} nodes", rules.name(), r.nodes);
        assert!(p.is_legal(&r.best), "{}", rules.name());
        let r = search(
            &p,
            &Limits::time(Duration::from_millis(100)),
            &mut Table::new(1 << 16),
        )
        .unwrap();
        assert!(p.is_legal(&r.best));
    }
    // The smallest budget still plays a move from a finished iteration,
    // on every board (the big one has over a hundred moves to look at).
    for rules in variants::all() {
        let p = Position::new(rules);
        let r = search(&p, &Limits::nodes(1), &mut Table::new(1 << 16)).unwrap();
        assert_eq!(r.depth, 1, "{}", rules.name());
        assert!(r.nodes > 1 && p.is_legal(&r.best));
    }
}

#[test]
fn the_greedy_player_takes_what_it_can() {
    let p = pos("standard", "4k3/8/8/3q4/8/8/8/3QK3 w - - 0 1");
    assert_eq!(p.san(&greedy(&p).unwrap()), "Qxd5");
}

#[test]
fn in_void_chess_it_takes_a_piece_off_its_cracking_tile() {
    // White's rook stands on White's own unstable tile: unless it moves now,
    // the tile turns void under it at the end of this move.
    let p = pos("void", "k8/9/9/9/4R4/9/9/9/4K4 w - - 0 2 unstable:e5w1");
    let r = search(&p, &Limits::depth(2), &mut Table::new(1 << 16)).unwrap();
    assert_eq!(
        r.best.from,
        voidmate_rules::Square::parse("e5").unwrap(),
        "{}",
        p.san(&r.best)
    );
}

/// Each part of the search on its own, and the whole search without it,
/// still finds every mate above at its true distance: no part prunes a
/// forced win away (null-move pruning is off in the giveaway games, where
/// passing would be a gift the rules never give).
#[test]
fn every_part_alone_and_every_part_left_out_still_finds_the_mates() {
    for name in Features::NAMES {
        for spec in [format!("none+{name}"), format!("all-{name}")] {
            let features = Features::parse(&spec).unwrap();
            for &(variant, fen, n) in MATES {
                let p = pos(variant, fen);
                let limits = Limits {
                    features,
                    ..Limits::depth(4)
                };
                let r = search(&p, &limits, &mut Table::new(1 << 16)).unwrap();
                assert_eq!(
                    r.mate_in(),
                    Some(n),
                    "{spec}, {variant} {fen}: {}",
                    p.san(&r.best)
                );
            }
        }
    }
}

/// A node budget stops the search (matches at equal effort rely on it).
#[test]
fn a_node_budget_stops_the_search() {
    let p = Position::new(variants::standard());
    for budget in [1_000, 30_000] {
        let r = search(&p, &Limits::nodes(budget), &mut Table::new(1 << 16)).unwrap();
        assert!(r.nodes <= budget, "{} nodes for {budget}", r.nodes);
        assert!(r.nodes >= budget * 9 / 10, "stopped early: {}", r.nodes);
        assert!(p.is_legal(&r.best));
    }
}

/// For the same nodes the full search looks deeper than plain alpha-beta
/// (the point of its parts), in quiet middlegames of standard and Void Chess.
#[test]
fn for_the_same_nodes_the_full_search_looks_deeper() {
    let positions = [
        (
            "standard",
            "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N2N2/PP2BPPP/R2QKB1R w KQ - 0 9",
        ),
        (
            "standard",
            "r2q1rk1/1b1nbppp/p2ppn2/1p6/3NP3/1BN1BP2/PPPQ2PP/2KR3R w - - 0 12",
        ),
    ];
    let void_start = Position::new(variants::void());
    for (variant, fen) in positions {
        let p = pos(variant, fen);
        deeper(&p, fen);
    }
    deeper(&void_start, "Void Chess start");
    // In Chess 99 a king may be left attacked, so checks come in long runs:
    // a check extension there once kept the first iterations from ending
    // (and lost 36 of 40 games to plain alpha-beta).
    let fen = "rn2k1bnr/pppb1pppp/4p4/3p2a2/8q/1P1P4P/5P1P1/P1P1P1PA1/RNBQK1BNR w - - 1 8";
    deeper(&pos("chess99", fen), fen);
}

fn deeper(p: &Position, what: &str) {
    let depth = |features| {
        let limits = Limits {
            features,
            ..Limits::nodes(200_000)
        };
        search(p, &limits, &mut Table::new(1 << 18)).unwrap().depth
    };
    let (all, none) = (depth(Features::ALL), depth(Features::NONE));
    assert!(
        all > none,
        "{what}: depth {all} with every part, {none} without"
    );
}

/// Futility and late-move pruning trust the static score, which means
/// little where captures are forced: the giveaway games search exactly as
/// without them (they lost 100 to 240 Elo there when tried), while in
/// standard chess they save nodes.
#[test]
fn pruning_on_the_static_score_stays_out_of_the_giveaway_games() {
    let nodes = |rules, features| {
        let limits = Limits {
            features,
            ..Limits::depth(5)
        };
        let p = Position::new(rules);
        search(&p, &limits, &mut Table::new(1 << 18)).unwrap().nodes
    };
    let without = Features::parse("all-futility-late-move-pruning").unwrap();
    let giveaway: Vec<_> = GameKind::ALL
        .into_iter()
        .filter(|k| k.is_giveaway())
        .collect();
    assert_eq!(giveaway.len(), 3);
    for kind in giveaway {
        let rules = kind.rules();
        assert_eq!(nodes(rules, Features::ALL), nodes(rules, without), "{kind}");
    }
    let standard = variants::by_name("standard").unwrap();
    let (with, plain) = (nodes(standard, Features::ALL), nodes(standard, without));
    assert!(
        with < plain,
        "standard: {with} nodes with the pruning, {plain} without"
    );
}

#[test]
fn a_side_far_behind_steers_into_a_position_the_game_has_had() {
    // White, a queen up, walked its king out and back; Black can bring the
    // position of the start back with Ke8. The search plays moves without
    // the game's history, so it must take the earlier positions from the
    // game: a repetition is its only way to hold a draw (score 0).
    let mut p = pos("standard", "4k3/8/8/8/8/8/8/Q3K3 w - - 0 1");
    for m in ["Kf1", "Kd8", "Ke1"] {
        let mv = p.parse_move(m).unwrap();
        p.play(&mv).unwrap();
    }
    let r = search(&p, &Limits::depth(4), &mut Table::new(1 << 16)).unwrap();
    assert_eq!(p.san(&r.best), "Ke8");
    assert_eq!(r.score, 0);
    // From the same position without that past, Ke8 repeats nothing and
    // Black is simply lost.
    let fresh = pos("standard", &p.fen());
    let r = search(&fresh, &Limits::depth(4), &mut Table::new(1 << 16)).unwrap();
    assert!(r.score < -500, "{}", r.score);
}

/// On a clock, a move every other of which loses clearly (here the
/// recapture of a rook that has just taken a pawn on a2 and now attacks
/// White's: anything else loses a rook) is
/// judged forced and played without the rest of its time; a quiet
/// middlegame move is not. The depth bound keeps the test the same on any
/// machine: the clock (an hour) never runs out first.
#[test]
fn on_a_clock_a_forced_recapture_is_judged_forced_and_a_quiet_move_is_not() {
    use voidmate_engine::Clock;
    let clock = Clock::new(Duration::from_secs(3600), Duration::ZERO);
    let limits = Limits {
        depth: Some(7),
        clock: Some(clock),
        ..Limits::clock(clock)
    };
    let recapture = pos("standard", "6k1/5ppp/8/8/8/7P/r4PP1/R5K1 w - - 0 30");
    let r = search(&recapture, &limits, &mut Table::new(1 << 16)).unwrap();
    assert_eq!(recapture.coordinate(&r.best), "a1a2");
    assert!(r.forced, "{r:?}");
    let quiet = pos(
        "standard",
        "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 9",
    );
    let r = search(&quiet, &limits, &mut Table::new(1 << 16)).unwrap();
    assert!(!r.forced, "{r:?}");
    // Without a clock the question is never asked.
    let fixed = Limits {
        depth: Some(7),
        ..Limits::time(Duration::from_secs(3600))
    };
    assert!(
        !search(&recapture, &fixed, &mut Table::new(1 << 16))
            .unwrap()
            .forced
    );
}

/// A search on a clock that is nearly out plans a short move and answers
/// with a legal one in every kind of board. (How long it took is not
/// asserted: speed and time are measured by matches, `docs/performance.md`.)
#[test]
fn on_a_nearly_empty_clock_the_search_keeps_within_it() {
    use voidmate_engine::{Clock, Plan};
    for variant in ["standard", "void", "super16", "black-holes"] {
        let p = Position::new(variants::by_name(variant).unwrap());
        let clock = Clock::new(Duration::from_millis(3000), Duration::ZERO);
        let plan = Plan::new(&clock, &p);
        let r = search(&p, &Limits::clock(clock), &mut Table::new(1 << 16)).unwrap();
        assert!(p.is_legal(&r.best), "{variant}");
        assert!(
            plan.maximum < Duration::from_millis(1000),
            "{variant}: {plan:?}"
        );
    }
}
