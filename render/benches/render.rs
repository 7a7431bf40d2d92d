//! Position to PNG bytes, per board size, with the caches warm (as in a
//! running bot). `cargo bench -p voidmate-render --bench render`.

use criterion::{criterion_group, criterion_main, Criterion};
use voidmate_render::{demo, RenderOptions, Renderer};
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
    let mut group = c.benchmark_group("render");
    for (name, pos, opts) in &cases {
        let png = renderer.render(pos, opts);
        println!("{name}: {} bytes", png.len());
        group.bench_function(*name, |b| b.iter(|| renderer.render(pos, opts)));
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
