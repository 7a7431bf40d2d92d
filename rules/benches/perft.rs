//! Perft speed in nodes per second: our engine on standard chess and Void
//! Chess, and shakmaty (a specialised 8x8 bitboard generator) on the same
//! standard positions, measured in the same run; and games defined in a
//! file (issue 50) beside built-in games of the same size: standard chess
//! read from its file, antichess (built in, 8x8, on the same general route
//! as every defined game), Capablanca Chess (10x8) and Chess 99 (9x9); our
//! Void Chess and Super Chess read from their files (with their hooks)
//! beside the built-in games; Shako (10x10, cannons: hoppers).
//!
//! `cargo bench -p voidmate-rules --bench perft`; figures go to
//! `docs/performance.md`.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use shakmaty::{fen::Fen, CastlingMode, Chess};
use voidmate_rules::{variants, Position};

const STANDARD: &[(&str, &str, u32)] = &[
    (
        "start",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        4,
    ),
    (
        "kiwipete",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        3,
    ),
];

const VOID: &[(&str, &str, u32)] = &[
    ("start", "rnbqkbmnr/ppppppppp/9/9/9/9/9/PPPPPPPPP/RNBQKBMNR w KQkq - 0 1", 4),
    (
        "midgame",
        "1q2kbm1r/2pp2p2/bpn2p2p/4p4/9/1P1P1P3/P3PMP1n/2P4P1/RNB1K2NR w KQ - 0 21 void:a6,h8;unstable:i3b20",
        3,
    ),
];

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("perft");
    group.sample_size(20);
    for &(name, fen, depth) in STANDARD {
        let ours = Position::from_fen(variants::standard(), fen).unwrap();
        let theirs: Chess = fen
            .parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap();
        let nodes = ours.perft(depth);
        assert_eq!(nodes, shakmaty::perft(&theirs, depth));
        group.throughput(Throughput::Elements(nodes));
        group.bench_function(format!("standard/{name}/d{depth}/voidmate"), |b| {
            b.iter(|| ours.perft(depth))
        });
        group.bench_function(format!("standard/{name}/d{depth}/shakmaty"), |b| {
            b.iter(|| shakmaty::perft(&theirs, depth))
        });
    }
    for &(name, fen, depth) in VOID {
        let pos = Position::from_fen(variants::void(), fen).unwrap();
        group.throughput(Throughput::Elements(pos.perft(depth)));
        group.bench_function(format!("void/{name}/d{depth}/voidmate"), |b| {
            b.iter(|| pos.perft(depth))
        });
    }
    // Games defined in a file, and built-in games of the same size.
    let defined_standard = voidmate_rules::defined::twin("standard").unwrap();
    let twin = |name: &str| voidmate_rules::defined::twin(name).unwrap();
    let cases: [(&str, &'static voidmate_rules::Rules, u32); 10] = [
        ("standard-from-file/start", defined_standard, 4),
        ("void-from-file/start", twin("void"), 4),
        (
            "void-built-in/start",
            voidmate_rules::GameKind::Void.rules(),
            4,
        ),
        ("super16-from-file/start", twin("super16"), 3),
        (
            "super16-built-in/start",
            voidmate_rules::GameKind::Super16.rules(),
            3,
        ),
        (
            "shako-from-file/start",
            variants::by_name("shako").unwrap(),
            3,
        ),
        ("standard-built-in/start", variants::standard(), 4),
        ("antichess-built-in/start", variants::antichess(), 4),
        (
            "capablanca-from-file/start",
            variants::by_name("capablanca").unwrap(),
            4,
        ),
        ("chess99-built-in/start", variants::chess99(), 4),
    ];
    for (name, rules, depth) in cases {
        let pos = Position::new(rules);
        group.throughput(Throughput::Elements(pos.perft(depth)));
        group.bench_function(format!("defined/{name}/d{depth}"), |b| {
            b.iter(|| pos.perft(depth))
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
