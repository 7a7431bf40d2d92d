//! Writes the images in `docs/images/`:
//! `cargo run --release -p voidmate-render --example gallery`.
//!
//! The 16x16 board is the showcase roster of every piece we draw
//! ([`voidmate_render::demo`]), since no 16x16 game is playable yet.

use voidmate_render::{demo, Caption, RenderOptions, Renderer, Theme};
use voidmate_rules::{variants, Color, Position, Rules, Square};

fn write(name: &str, pos: &Position, opts: &RenderOptions) {
    let png = Renderer::shared().render(pos, opts);
    let path = format!("{}/../docs/images/{name}.png", env!("CARGO_MANIFEST_DIR"));
    std::fs::write(&path, &png).unwrap();
    println!("{path}: {} bytes", png.len());
}

fn played(
    rules: &'static Rules,
    fen: Option<&str>,
    moves: &str,
) -> (Position, Option<(Square, Square)>) {
    let mut pos = match fen {
        Some(f) => Position::from_fen(rules, f).unwrap(),
        None => Position::new(rules),
    };
    let mut last = None;
    for m in moves.split_whitespace() {
        let (mv, _) = pos.play_text(m).unwrap_or_else(|e| panic!("{e}"));
        last = Some((mv.from, mv.to));
    }
    (pos, last)
}

fn main() {
    let caption = |status: &str| Caption {
        white: "alice".into(),
        black: "bob".into(),
        status: status.into(),
        sides: None,
    };
    for rules in variants::all() {
        let pos = Position::new(rules);
        write(
            &format!("{}-start", rules.name()),
            &pos,
            &RenderOptions {
                caption: Some(caption("White to move")),
                ..Default::default()
            },
        );
    }
    let mid = "1q2kbm1r/2pp2p2/bpn2p2p/4p4/9/1P1P1P3/P3PMP1n/2P4P1/RNB1K2NR w KQ - 0 21 void:a6,h8,c3;unstable:i3b20";
    let (pos, last) = played(variants::void(), Some(mid), "Mh3");
    for theme in Theme::ALL {
        write(
            &format!("void-middlegame-{}", theme.name()),
            &pos,
            &RenderOptions {
                theme,
                last_move: last,
                select: Some(Square::parse("c7").unwrap()),
                arrows: vec![(Square::parse("b9").unwrap(), Square::parse("f5").unwrap())],
                caption: Some(caption("Black to move")),
                ..Default::default()
            },
        );
    }
    let pos = Position::new(demo::showcase_16x16());
    write("every-piece-16x16", &pos, &RenderOptions::default());
    write(
        "every-piece-16x16-black-high-contrast",
        &pos,
        &RenderOptions {
            orientation: Color::Black,
            theme: Theme::HighContrast,
            ..Default::default()
        },
    );
}
