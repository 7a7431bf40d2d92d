//! Issue 39, point 1: animated GIF replays. Decoded with the `gif` crate,
//! frame by frame onto one canvas as a viewer does (disposal "keep"), every
//! frame is pixel-identical to the PNG board of its position, the last one
//! included; the timing and looping are lichess's; the sizes stay within
//! Discord's upload limits.

use voidmate_render::{Caption, RenderOptions, Renderer, ReplayFrame, Theme};
use voidmate_rules::{variants, Color, Position, Rules};

/// A game of `plies` moves chosen by a fixed pseudo-random sequence (it may
/// end sooner), as replay frames with the last move and a caption.
fn game(rules: &'static Rules, plies: usize, seed: u64, theme: Theme) -> Vec<ReplayFrame> {
    let mut state = seed;
    let mut next = move || {
        state ^= state >> 12;
        state ^= state << 25;
        state ^= state >> 27;
        state.wrapping_mul(0x2545_f491_4f6c_dd1d)
    };
    let caption = Caption {
        white: "alice".into(),
        black: "Саша🔥".into(),
        status: "replay".into(),
        sides: None,
    };
    let opts = |last, through| RenderOptions {
        theme,
        orientation: Color::White,
        last_move: last,
        through,
        caption: Some(caption.clone()),
        ..Default::default()
    };
    let mut pos = Position::new(rules);
    let mut frames = vec![ReplayFrame {
        pos: pos.clone(),
        opts: opts(None, None),
    }];
    for _ in 0..plies {
        let moves = pos.legal_moves();
        if moves.is_empty() || pos.outcome().is_some() {
            break;
        }
        let mv = moves[(next() % moves.len() as u64) as usize];
        let through = pos.holes_passed(&mv);
        pos.play_unchecked(&mv);
        frames.push(ReplayFrame {
            pos: pos.clone(),
            opts: opts(Some((mv.from, mv.to)), through),
        });
    }
    frames
}

/// Decodes `gif` as a viewer shows it: each frame drawn over the last; the
/// canvas (RGB) after each frame, with the frame's delay.
fn play(gif: &[u8]) -> (Vec<(Vec<u8>, u16)>, u32, u32, gif::Repeat) {
    let mut options = gif::DecodeOptions::new();
    options.set_color_output(gif::ColorOutput::Indexed);
    let mut d = options.read_info(gif).expect("a GIF");
    let (w, h) = (d.width() as usize, d.height() as usize);
    let palette = d.global_palette().expect("one global palette").to_vec();
    let mut canvas = vec![0u8; w * h];
    let mut out = Vec::new();
    while let Some(f) = d.read_next_frame().expect("frames decode") {
        assert!(f.palette.is_none(), "no frame has a palette of its own");
        assert_eq!(f.dispose, gif::DisposalMethod::Keep);
        let (fl, ft, fw) = (f.left as usize, f.top as usize, f.width as usize);
        for (i, &p) in f.buffer.iter().enumerate() {
            if Some(p) == f.transparent {
                continue;
            }
            let (x, y) = (fl + i % fw, ft + i / fw);
            canvas[y * w + x] = p;
        }
        let rgb = canvas
            .iter()
            .flat_map(|&i| palette[i as usize * 3..i as usize * 3 + 3].to_vec())
            .collect();
        out.push((rgb, f.delay));
    }
    let repeat = d.repeat();
    (out, w as u32, h as u32, repeat)
}

fn check(frames: &[ReplayFrame], limit: usize) -> usize {
    let r = Renderer::shared();
    let replay = r.replay(frames).expect("a replay");
    let (shown, w, h, repeat) = play(&replay.gif);
    assert_eq!(shown.len(), frames.len(), "a frame a position");
    assert_eq!(replay.frames, frames.len());
    assert_eq!(repeat, gif::Repeat::Infinite, "it loops");
    for (i, ((rgb, delay), f)) in shown.iter().zip(frames).enumerate() {
        let png = image::load_from_memory(&r.render(&f.pos, &f.opts))
            .unwrap()
            .to_rgb8();
        assert_eq!((png.width(), png.height()), (w, h));
        assert!(
            png.as_raw() == rgb,
            "frame {i} is not the PNG board of its position"
        );
        let want = if i + 1 == frames.len() { 500 } else { 80 };
        assert_eq!(*delay, want, "frame {i}");
    }
    assert!(
        replay.gif.len() < limit,
        "{} bytes, over {limit}",
        replay.gif.len()
    );
    replay.gif.len()
}

#[test]
fn a_void_chess_replay_shows_every_position_as_its_png_board() {
    for theme in [Theme::Classic, Theme::HighContrast] {
        let frames = game(variants::void(), 60, 7, theme);
        assert!(frames.len() > 40, "a long enough game: {}", frames.len());
        // Aim: a 60-ply Void Chess game under 250 KB.
        check(&frames, 250_000);
    }
}

#[test]
fn black_holes_and_a_16x16_game_replay_too() {
    let frames = game(variants::black_holes(), 40, 3, Theme::Classic);
    check(&frames, 250_000);
    // Aim: a 100-ply 16x16 game under 8 MB (Discord's smallest upload
    // limit).
    let frames = game(variants::super16(), 100, 11, Theme::Classic);
    assert!(frames.len() > 60, "{}", frames.len());
    check(&frames, 8_000_000);
}

#[test]
fn a_replay_of_one_position_is_one_long_frame() {
    let frames = game(variants::standard(), 0, 1, Theme::Classic);
    assert_eq!(frames.len(), 1);
    let replay = Renderer::shared().replay(&frames).unwrap();
    let (shown, ..) = play(&replay.gif);
    assert_eq!(shown.len(), 1);
    assert_eq!(shown[0].1, 500);
    assert!(Renderer::shared().replay(&[]).is_none());
}
