//! Position to PNG bytes, per board size, with the caches warm (as in a
//! running bot). `cargo bench -p voidmate-render --bench render`.

use criterion::{criterion_group, criterion_main, Criterion};
use voidmate_render::{demo, Caption, RenderOptions, Renderer, ReplayFrame};
use voidmate_rules::{variants, Position, Square};

fn bench(c: &mut Criterion) {
    let renderer = Renderer::new();
    let mid = "1q2kbm1r/2pp2p2/bpn2p2p/4p4/9/1P1P1P3/P3PMP1n/2P4P1/RNB1K2NR w KQ - 0 21 void:a6,h8,c3;unstable:i3b20";
    let cases = [
        (
            "5x8-start",
            Position::new(demo::narrow_5x8()),
            RenderOptions::default(),
        ),
        (
            "8x8-start",
            Position::new(variants::standard()),
            RenderOptions::default(),
        ),
        (
            "9x9-start",
            Position::new(variants::void()),
            RenderOptions::default(),
        ),
        (
            "9x9-void-middlegame",
            Position::from_fen(variants::void(), mid).unwrap(),
            RenderOptions {
                last_move: Some((Square::parse("f2").unwrap(), Square::parse("f3").unwrap())),
                select: Some(Square::parse("f3").unwrap()),
                ..Default::default()
            },
        ),
        (
            "16x16-start",
            Position::new(demo::showcase_16x16()),
            RenderOptions::default(),
        ),
    ];
    // Captions as chat names are: shaped scripts, emoji, a status line.
    let caption = |white: &str, black: &str, status: &str| RenderOptions {
        caption: Some(Caption {
            white: white.into(),
            black: black.into(),
            status: status.into(),
            sides: None,
        }),
        ..Default::default()
    };
    let cases = cases
        .into_iter()
        .chain([
            (
                "9x9-caption-latin",
                Position::new(variants::void()),
                caption("alice", "bob", "alice to move"),
            ),
            (
                "9x9-caption-scripts",
                Position::new(variants::void()),
                caption("Саша🔥", "@محمد", "Саша🔥 to move"),
            ),
            (
                "16x16-caption-scripts",
                Position::new(demo::showcase_16x16()),
                caption("名前 👍🏽", "नमस्ते", "Player 1 to move"),
            ),
            (
                "5x8-caption-three-lines",
                Position::new(demo::narrow_5x8()),
                caption("alice", "voidmate", "alice to move"),
            ),
        ])
        .collect::<Vec<_>>();
    let mut group = c.benchmark_group("render");
    for (name, pos, opts) in &cases {
        let png = renderer.render(pos, opts);
        println!("{name}: {} bytes", png.len());
        group.bench_function(*name, |b| b.iter(|| renderer.render(pos, opts)));
    }
    group.finish();

    // Replays (issue 39): a game of pseudo-random legal moves, every
    // position a frame, as `replay` posts it.
    let mut group = c.benchmark_group("replay");
    group.sample_size(10);
    for (name, rules, plies) in [
        ("void-60-plies", variants::void(), 60),
        ("super16-100-plies", variants::super16(), 100),
    ] {
        let frames = replay_frames(rules, plies);
        let gif = renderer.replay(&frames).expect("a replay");
        println!(
            "{name}: {} frames, {} bytes ({:.1} KiB)",
            gif.frames,
            gif.gif.len(),
            gif.gif.len() as f64 / 1024.0
        );
        group.bench_function(name, |b| b.iter(|| renderer.replay(&frames)));
    }
    group.finish();
}

/// `plies` moves chosen by a fixed pseudo-random sequence, as replay
/// frames with the last move and a caption.
fn replay_frames(rules: &'static voidmate_rules::Rules, plies: usize) -> Vec<ReplayFrame> {
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    let mut pos = Position::new(rules);
    let opts = |last| RenderOptions {
        last_move: last,
        caption: Some(Caption {
            white: "alice".into(),
            black: "bob".into(),
            status: "replay".into(),
            sides: None,
        }),
        ..Default::default()
    };
    let mut frames = vec![ReplayFrame {
        pos: pos.clone(),
        opts: opts(None),
    }];
    for _ in 0..plies {
        let moves = pos.legal_moves();
        if moves.is_empty() || pos.outcome().is_some() {
            break;
        }
        state ^= state >> 12;
        state ^= state << 25;
        state ^= state >> 27;
        let mv = moves[(state.wrapping_mul(0x2545_f491_4f6c_dd1d) % moves.len() as u64) as usize];
        pos.play_unchecked(&mv);
        frames.push(ReplayFrame {
            pos: pos.clone(),
            opts: opts(Some((mv.from, mv.to))),
        });
    }
    frames
}

criterion_group!(benches, bench);
criterion_main!(benches);
