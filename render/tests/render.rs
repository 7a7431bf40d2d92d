//! Decode the PNG and check what a player must see.

use image::RgbImage;
use voidmate_render::{demo, Caption, Layout, PieceColour, RenderOptions, Renderer, Theme};
use voidmate_rules::{variants, Color, Position, Square};

mod common;
use common::simulate;

fn sq(s: &str) -> Square {
    Square::parse(s).unwrap()
}

fn void_pos(fen: &str) -> Position {
    Position::from_fen(variants::void(), fen).unwrap()
}

fn draw(pos: &Position, opts: &RenderOptions) -> (RgbImage, Layout) {
    let r = Renderer::shared();
    let png = r.render(pos, opts);
    let img = image::load_from_memory(&png)
        .expect("a valid PNG")
        .to_rgb8();
    (img, r.layout(pos, opts))
}

/// The pixels of one square.
fn square(img: &RgbImage, layout: &Layout, s: Square) -> Vec<[u8; 3]> {
    let (x0, y0) = layout.origin(s);
    let mut v = Vec::new();
    for y in y0..y0 + layout.square {
        for x in x0..x0 + layout.square {
            v.push(img.get_pixel(x, y).0);
        }
    }
    v
}

fn luma(p: [u8; 3]) -> f32 {
    0.299 * p[0] as f32 + 0.587 * p[1] as f32 + 0.114 * p[2] as f32
}

fn mean_luma(px: &[[u8; 3]]) -> f32 {
    px.iter().map(|&p| luma(p)).sum::<f32>() / px.len() as f32
}

/// Fraction of pixels that differ between two squares.
fn difference(a: &[[u8; 3]], b: &[[u8; 3]]) -> f32 {
    let n = a.iter().zip(b).filter(|(x, y)| {
        (0..3)
            .map(|i| (x[i] as i32 - y[i] as i32).abs())
            .sum::<i32>()
            > 30
    });
    n.count() as f32 / a.len() as f32
}

const EMPTY9: &str = "4k4/9/9/9/9/9/9/9/4K4 w - - 0 1";

#[test]
fn image_size_follows_the_board() {
    let (img, layout) = draw(&Position::new(variants::void()), &RenderOptions::default());
    assert_eq!(
        (img.width(), img.height()),
        (9 * 64 + 2 * 28, 9 * 64 + 2 * 28)
    );
    assert_eq!((layout.width, layout.height), (img.width(), img.height()));
    let (big, _) = draw(
        &Position::new(demo::showcase_16x16()),
        &RenderOptions::default(),
    );
    assert_eq!(
        (big.width(), big.height()),
        (16 * 48 + 2 * 30, 16 * 48 + 2 * 30)
    );
    let (small, _) = draw(
        &Position::new(demo::narrow_5x8()),
        &RenderOptions::default(),
    );
    assert_eq!((small.width(), small.height()), (5 * 64 + 56, 8 * 64 + 56));
    let captioned = RenderOptions {
        caption: Some(Caption {
            white: "a".into(),
            black: "b".into(),
            status: "x".into(),
            sides: None,
        }),
        ..Default::default()
    };
    let (c, _) = draw(&Position::new(variants::void()), &captioned);
    assert_eq!(c.height(), img.height() + 48);
}

#[test]
fn a_void_square_looks_like_a_hole_not_a_dark_square() {
    // e5 is a dark square; d5 a light one; f5 would be dark as well.
    let (img, layout) = draw(
        &void_pos(&format!("{EMPTY9} void:e5")),
        &RenderOptions::default(),
    );
    let hole = square(&img, &layout, sq("e5"));
    let dark = square(&img, &layout, sq("c5"));
    let light = square(&img, &layout, sq("d5"));
    assert!(
        mean_luma(&hole) < 45.0,
        "a void is near black: {}",
        mean_luma(&hole)
    );
    assert!(mean_luma(&dark) > 100.0);
    assert!(difference(&hole, &dark) > 0.8 && difference(&hole, &light) > 0.8);
    // The star pattern: bright specks inside the hole, a cue beyond colour.
    assert!(hole.iter().filter(|&&p| luma(p) > 150.0).count() > 10);
}

#[test]
fn an_unstable_tile_glows_red_with_a_hatch_and_an_owner_badge() {
    let plain = void_pos("4k4/9/9/9/4R4/9/9/9/4K4 b - - 0 1");
    let tiled = void_pos("4k4/9/9/9/4R4/9/9/9/4K4 b - - 0 1 unstable:e5w1");
    let (a, layout) = draw(&plain, &RenderOptions::default());
    let (b, _) = draw(&tiled, &RenderOptions::default());
    let before = square(&a, &layout, sq("e5"));
    let after = square(&b, &layout, sq("e5"));
    assert!(difference(&before, &after) > 0.3);
    let side = layout.square as usize;
    // The edge glows red.
    let edge = after[side * (side / 2) + 1];
    assert!(edge[0] as i32 > edge[1] as i32 + 80, "edge pixel {edge:?}");
    // The badge in the top-left corner holds the owner's (White's) colour
    // beside its hourglass.
    let badge = after[side * (side * 17 / 100) + side * 8 / 100];
    assert!(luma(badge) > 200.0, "badge {badge:?}");
    // Hatching: along a row below the piece, red stripes alternate with plain floor.
    let row = &after[side * (side * 96 / 100)..side * (side * 96 / 100 + 1)];
    let redness: Vec<i32> = row.iter().map(|p| p[0] as i32 - p[1] as i32).collect();
    let steps = redness
        .windows(2)
        .filter(|w| (w[1] - w[0]).abs() > 15)
        .count();
    assert!(
        steps >= 4,
        "stripes across the row: {steps} steps in {redness:?}"
    );
    // Every other square is untouched.
    assert!(
        difference(
            &square(&a, &layout, sq("d4")),
            &square(&b, &layout, sq("d4"))
        ) == 0.0
    );
}

#[test]
fn the_last_move_is_highlighted() {
    let pos = Position::new(variants::standard());
    let (a, layout) = draw(&pos, &RenderOptions::default());
    let opts = RenderOptions {
        last_move: Some((sq("e2"), sq("e4"))),
        ..Default::default()
    };
    let (b, _) = draw(&pos, &opts);
    for s in ["e2", "e4"] {
        let (x, y) = layout.origin(sq(s));
        assert_ne!(a.get_pixel(x + 2, y + 2), b.get_pixel(x + 2, y + 2), "{s}");
    }
    let (x, y) = layout.origin(sq("d4"));
    assert_eq!(a.get_pixel(x + 2, y + 2), b.get_pixel(x + 2, y + 2));
}

#[test]
fn a_flipped_board_puts_a1_in_the_top_right_corner() {
    let pos = void_pos("4k4/9/9/9/9/9/9/9/R3K4 w - - 0 1");
    let opts = RenderOptions {
        orientation: Color::Black,
        ..Default::default()
    };
    let (img, layout) = draw(&pos, &opts);
    let (x, y) = layout.origin(sq("a1"));
    assert_eq!((x, y), (layout.margin + 8 * layout.square, layout.margin));
    // The rook is drawn there: the square is not plain.
    let rook = square(&img, &layout, sq("a1"));
    let plain = square(&img, &layout, sq("c1"));
    assert!(difference(&rook, &plain) > 0.15);
    // And the unflipped board has it bottom-left.
    let (_, normal) = draw(&pos, &RenderOptions::default());
    assert_eq!(
        normal.origin(sq("a1")),
        (normal.margin, normal.margin + 8 * normal.square)
    );
}

#[test]
fn legal_move_markers_show_dots_for_quiet_moves_and_rings_for_captures() {
    let pos =
        Position::from_fen(variants::standard(), "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1").unwrap();
    let opts = RenderOptions {
        select: Some(sq("e4")),
        ..Default::default()
    };
    let (img, layout) = draw(&pos, &opts);
    let (base, _) = draw(&pos, &RenderOptions::default());
    let center = |img: &RgbImage, s: &str| {
        let (x, y) = layout.center(sq(s));
        img.get_pixel(x as u32, y as u32).0
    };
    // e5: quiet move, a dot in the middle.
    assert!(luma(center(&img, "e5")) < luma(center(&base, "e5")) - 30.0);
    // d5: capture, a ring at the edge and the pawn still visible in the middle.
    let (x, y) = layout.origin(sq("d5"));
    let edge_mid = (x + layout.square / 2, y + 1);
    assert_ne!(
        img.get_pixel(edge_mid.0, edge_mid.1),
        base.get_pixel(edge_mid.0, edge_mid.1)
    );
    assert_eq!(center(&img, "d5"), center(&base, "d5"));
}

#[test]
fn a_king_in_check_is_marked() {
    let pos = Position::from_fen(variants::standard(), "4k3/8/8/8/8/8/8/4K2r w - - 0 1").unwrap();
    assert!(pos.is_check());
    let (img, layout) = draw(&pos, &RenderOptions::default());
    let calm = Position::from_fen(variants::standard(), "4k3/8/8/8/8/8/8/4K3 w - - 0 1").unwrap();
    let (base, _) = draw(&calm, &RenderOptions::default());
    let (x, y) = layout.origin(sq("e1"));
    let p = img.get_pixel(x + 4, y + layout.square / 2).0;
    // A light ring with the check colour's red in it (and dark edges, so
    // that it shows by lightness too; see the colour-blindness test).
    assert!(
        p[0] as i32 > p[1] as i32 + 40 && p[0] > 180,
        "a light reddish ring at the edge: {p:?}"
    );
    assert_ne!(
        img.get_pixel(x + 4, y + layout.square / 2),
        base.get_pixel(x + 4, y + layout.square / 2)
    );
}

#[test]
fn the_two_themes_differ_and_arrows_and_captions_draw() {
    let pos = Position::new(variants::void());
    let (classic, layout) = draw(&pos, &RenderOptions::default());
    let (hc, _) = draw(
        &pos,
        &RenderOptions {
            theme: Theme::HighContrast,
            ..Default::default()
        },
    );
    let (x, y) = layout.origin(sq("e5"));
    assert_ne!(classic.get_pixel(x + 2, y + 2), hc.get_pixel(x + 2, y + 2));

    let arrow = RenderOptions {
        arrows: vec![(sq("e2"), sq("e5"))],
        ..Default::default()
    };
    let (a, _) = draw(&pos, &arrow);
    let (cx, cy) = layout.center(sq("e4"));
    assert_ne!(
        a.get_pixel(cx as u32, cy as u32),
        classic.get_pixel(cx as u32, cy as u32)
    );

    let captioned = RenderOptions {
        caption: Some(Caption {
            white: "alice".into(),
            black: "bob".into(),
            status: "White to move".into(),
            sides: None,
        }),
        ..Default::default()
    };
    let (c, cl) = draw(&pos, &captioned);
    let strip: Vec<f32> = (0..cl.caption)
        .flat_map(|y| (0..cl.width).map(move |x| (x, y)))
        .map(|(x, y)| luma(c.get_pixel(x, y).0))
        .collect();
    assert!(
        strip.iter().filter(|&&l| l > 180.0).count() > 200,
        "text in the caption strip"
    );
}

#[test]
fn every_piece_has_its_own_silhouette() {
    // Back rank of the showcase: R N B H U I S Q K A M F G F O R.
    let pos = Position::new(demo::showcase_16x16());
    let (img, layout) = draw(&pos, &RenderOptions::default());
    let files = [0u8, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 14];
    let masks: Vec<Vec<bool>> = files
        .iter()
        .map(|&f| {
            let s = Square::new(f, 0);
            let base = if s.is_light() {
                [0xec, 0xda, 0xb9]
            } else {
                [0xae, 0x8a, 0x68]
            };
            square(&img, &layout, s)
                .into_iter()
                .map(|p| (luma(p) - luma(base)).abs() > 25.0)
                .collect()
        })
        .collect();
    for i in 0..masks.len() {
        for j in i + 1..masks.len() {
            let both = masks[i]
                .iter()
                .zip(&masks[j])
                .filter(|(a, b)| **a && **b)
                .count();
            let either = masks[i]
                .iter()
                .zip(&masks[j])
                .filter(|(a, b)| **a || **b)
                .count();
            let overlap = both as f32 / either as f32;
            assert!(
                overlap < 0.85,
                "files {} and {} look alike ({overlap:.2})",
                files[i],
                files[j]
            );
        }
    }
}

#[test]
fn rendering_is_repeatable_and_cached_results_match_a_fresh_renderer() {
    let pos = void_pos(&format!("{EMPTY9} void:e5"));
    let opts = RenderOptions {
        last_move: Some((sq("e1"), sq("e2"))),
        ..Default::default()
    };
    let shared = Renderer::shared().render(&pos, &opts);
    let again = Renderer::shared().render(&pos, &opts);
    let fresh = Renderer::new().render(&pos, &opts);
    assert_eq!(shared, again);
    assert_eq!(shared, fresh);
}

#[test]
fn chosen_piece_colours_paint_the_pieces_and_the_caption_names_the_sides() {
    let pos = Position::new(variants::super16());
    let plain = RenderOptions::default();
    let coloured = RenderOptions {
        colours: Some([PieceColour::Red, PieceColour::Blue]),
        ..Default::default()
    };
    let (a, layout) = draw(&pos, &plain);
    let (b, _) = draw(&pos, &coloured);
    // A white pawn on c3 turns red, a black one on c14 blue; empty squares
    // stay as they were.
    let share = |img: &RgbImage, s: &str, pick: fn(&[u8; 3]) -> bool| {
        let px = square(img, &layout, sq(s));
        px.iter().filter(|p| pick(p)).count() as f32 / px.len() as f32
    };
    let reddish: fn(&[u8; 3]) -> bool =
        |p| p[0] as i32 > p[1] as i32 + 80 && p[0] as i32 > p[2] as i32 + 80;
    let bluish: fn(&[u8; 3]) -> bool = |p| p[2] as i32 > p[0] as i32 + 80;
    assert!(
        share(&b, "c3", reddish) > 0.1,
        "{}",
        share(&b, "c3", reddish)
    );
    assert!(share(&a, "c3", reddish) < 0.01);
    assert!(share(&b, "c14", bluish) > 0.1);
    assert!(share(&a, "c14", bluish) < 0.01);
    assert!(
        difference(
            &square(&a, &layout, sq("h8")),
            &square(&b, &layout, sq("h8"))
        ) < 0.5
    );
    // Names read back from the palette: every colour is known by name.
    for c in PieceColour::ALL {
        assert_eq!(PieceColour::from_name(c.name()), Some(c));
    }
    assert_eq!(PieceColour::from_name("Grey"), Some(PieceColour::Silver));
    assert_eq!(PieceColour::from_name("plaid"), None);
    // The caption's side names.
    let caption = |sides| RenderOptions {
        caption: Some(Caption {
            white: "alice".into(),
            black: "bob".into(),
            status: "alice to move".into(),
            sides,
        }),
        ..Default::default()
    };
    let (c1, _) = draw(&pos, &caption(None));
    let (c2, _) = draw(&pos, &caption(Some(["Player 1".into(), "Player 2".into()])));
    assert_ne!(c1.as_raw(), c2.as_raw());
}

/// Issue 20, point 1: a void that appears with the move, and the unstable
/// tile a capture lands on, stay visible under the last-move mark, which
/// shows too (as a frame round the tile), in both themes.
#[test]
fn tiles_stay_visible_under_the_last_move() {
    // After e4 d6 e5 dxe5 d4 exd4 in Void Chess: e5 has just become a void,
    // and d4 (where the pawn took) is Black's unstable tile.
    let mut pos = Position::new(variants::void());
    for m in ["e4", "d6", "e5", "dxe5", "d4", "exd4"] {
        pos.play_text(m).unwrap();
    }
    assert!(pos.fen().contains("void:e5"), "{}", pos.fen());
    assert!(pos.fen().contains("unstable:d4b"), "{}", pos.fen());
    for theme in [Theme::Classic, Theme::HighContrast] {
        let plain = RenderOptions {
            theme,
            ..Default::default()
        };
        let marked = RenderOptions {
            theme,
            last_move: Some((sq("e5"), sq("d4"))),
            ..Default::default()
        };
        let (a, layout) = draw(&pos, &plain);
        let (b, _) = draw(&pos, &marked);
        let side = layout.square as usize;
        let inner = |px: &[[u8; 3]]| -> Vec<[u8; 3]> {
            (side / 4..side * 3 / 4)
                .flat_map(|y| (side / 4..side * 3 / 4).map(move |x| y * side + x))
                .map(|i| px[i])
                .collect()
        };
        for s in ["e5", "d4"] {
            let before = square(&a, &layout, sq(s));
            let after = square(&b, &layout, sq(s));
            // The middle of the tile is as it was: the tile is not hidden.
            assert!(
                difference(&inner(&before), &inner(&after)) < 0.05,
                "{theme:?} {s}: the tile changed under the mark"
            );
            // The edge carries the last-move mark.
            let edge: Vec<[u8; 3]> = (0..side).map(|x| after[side + x]).collect();
            let edge_before: Vec<[u8; 3]> = (0..side).map(|x| before[side + x]).collect();
            assert!(
                difference(&edge, &edge_before) > 0.5,
                "{theme:?} {s}: no last-move mark on the edge"
            );
        }
        // The void still reads as a hole.
        assert!(mean_luma(&inner(&square(&b, &layout, sq("e5")))) < 60.0);
    }
}

/// Issue 20, point 4, as issue 42 point 2 changed it: the caption fits. On
/// a narrow board, with long names or long Matrix ids, the status moves to
/// a line of its own, then each name; a name is shortened with an ellipsis
/// only when it does not fit on a line of its own; neither player is ever
/// dropped, and no line is wider than the picture.
#[test]
fn captions_fit_narrow_boards_and_long_names() {
    let r = Renderer::shared();
    let caption = |white: &str, black: &str, status: &str| RenderOptions {
        caption: Some(Caption {
            white: white.into(),
            black: black.into(),
            status: status.into(),
            sides: None,
        }),
        ..Default::default()
    };
    let narrow = Position::new(variants::black_holes());
    let standard = Position::new(variants::standard());
    let long_id = "@averyveryverylongname:matrix.example.org";
    for (pos, opts) in [
        (&narrow, caption("alice", "bob", "alice to move")),
        (
            &narrow,
            caption(
                "Alexandra-Katharina",
                "Bartholomew",
                "Alexandra-Katharina to move; clocks 4:52, 5:00",
            ),
        ),
        (&standard, caption(long_id, "bob", "bob to move")),
        (
            &standard,
            caption(long_id, long_id, "1-0 the enemy king was lost to the void"),
        ),
    ] {
        let layout = r.layout(pos, &opts);
        let lines = r.caption_lines(pos, &opts);
        let c = opts.caption.as_ref().unwrap();
        let players = lines[..lines.len().max(2) - 1].concat();
        for name in [&c.white, &c.black] {
            let first: String = name.chars().take(1).collect();
            assert!(players.contains(&first), "{name} is shown: {lines:?}");
        }
        assert!(
            players.contains("(White)") && players.contains("(Black)"),
            "{lines:?}"
        );
        assert_eq!(layout.caption_lines, lines.len() as u32);
        if lines.len() > 1 {
            // The status whole, or with a long name in it cut (issue 53:
            // what follows the name, the verb, stays whole), or cut at
            // its end.
            let status = lines.last().unwrap();
            let tail = [&c.white, &c.black]
                .iter()
                .filter_map(|n| c.status.rsplit_once(n.as_str()).map(|(_, t)| t))
                .min_by_key(|t| t.len())
                .unwrap_or(&c.status);
            assert!(
                status.ends_with(tail) || c.status.starts_with(status.trim_end_matches('…')),
                "{lines:?}"
            );
        }
        // Drawn, the text stays inside the picture: the caption strip's
        // rightmost column is untouched background.
        let (img, l) = draw(pos, &opts);
        assert_eq!(l, layout);
        let bg = *img.get_pixel(l.width - 1, 0);
        for y in 0..l.caption {
            assert_eq!(*img.get_pixel(l.width - 1, y), bg, "{lines:?}");
        }
    }
    // Short names on a wide board keep one line.
    let opts = caption("alice", "bob", "alice to move");
    assert_eq!(r.layout(&standard, &opts).caption_lines, 1);
    assert_eq!(r.caption_lines(&standard, &opts).len(), 1);
    // Too long for one line on 5x8: a line each, the longer name cut only
    // because it does not fit on its own line.
    let opts = caption(
        "Alexandra-Katharina",
        "Bartholomew",
        "Alexandra-Katharina to move",
    );
    let lines = r.caption_lines(&narrow, &opts);
    assert_eq!(lines.len(), 3, "{lines:?}");
    assert!(lines[0].contains('…'), "{lines:?}");
    assert_eq!(lines[1], "Bartholomew (Black)");
}

/// Issue 20, point 2: check must not rest on colour. A king in check on its
/// own unstable tile (red glow and stripes under a red check mark) must look
/// different from the same king out of check, for eyes that do not tell red
/// from green: the check mark's ring differs in lightness from what lies
/// under it, in both themes.
#[test]
fn check_on_an_unstable_tile_is_seen_in_colour_blindness() {
    // White's king on e5, its own unstable tile; a black rook on e9 checks
    // it, or stands on a9 and does not.
    let checked = "r3k4/9/9/9/4K4/9/9/9/9 w - - 0 5 unstable:e5w4";
    let quiet = "r3k4/9/9/9/4K4/9/9/9/9 w - - 0 5 unstable:e5w4";
    let checked = checked.replacen("r3k4", "4r3k", 1);
    for theme in [Theme::Classic, Theme::HighContrast] {
        let opts = RenderOptions {
            theme,
            ..Default::default()
        };
        let a = Position::from_fen(variants::void(), &checked).unwrap();
        let b = Position::from_fen(variants::void(), quiet).unwrap();
        assert!(a.is_check() && !b.is_check());
        let (ia, layout) = draw(&a, &opts);
        let (ib, _) = draw(&b, &opts);
        let e5 = Square::parse("e5").unwrap();
        let (x0, y0) = layout.origin(e5);
        let w = layout.square as f32;
        for protan in [false, true] {
            // Pixels of the ring's band, away from the king's figure.
            let (mut band, mut differ) = (0, 0);
            for y in 0..layout.square {
                for x in 0..layout.square {
                    let d = ((x as f32 + 0.5 - w / 2.0).powi(2)
                        + (y as f32 + 0.5 - w / 2.0).powi(2))
                    .sqrt();
                    if d < w * 0.44 || d > w * 0.48 {
                        continue;
                    }
                    band += 1;
                    let pa = simulate(ia.get_pixel(x0 + x, y0 + y).0, protan);
                    let pb = simulate(ib.get_pixel(x0 + x, y0 + y).0, protan);
                    let lum = |p: [f32; 3]| 0.2126 * p[0] + 0.7152 * p[1] + 0.0722 * p[2];
                    if (lum(pa) - lum(pb)).abs() > 0.08 {
                        differ += 1;
                    }
                }
            }
            assert!(
                differ * 10 >= band * 7,
                "{theme:?}, {}: the check ring differs in lightness at {differ} of {band} pixels",
                if protan { "protanopia" } else { "deuteranopia" }
            );
        }
    }
}

/// Issue 20, point 3 (in part): on a 16x16 board shown 400 px wide, as chat
/// shows it, the coordinates and the move dots stay big enough to read.
#[test]
fn coordinates_and_dots_stay_readable_on_big_boards_at_chat_size() {
    let pos = Position::new(demo::showcase_16x16());
    let knight = pos
        .legal_moves()
        .iter()
        .find(|m| {
            pos.board()
                .piece_at(m.from)
                .is_some_and(|p| p.role == voidmate_rules::Role::Knight)
        })
        .map(|m| m.from)
        .expect("a knight can move");
    let opts = RenderOptions {
        select: Some(knight),
        ..Default::default()
    };
    let (img, layout) = draw(&pos, &opts);
    let (plain, _) = draw(&pos, &RenderOptions::default());
    let scale = 400.0 / layout.width as f32;
    // Ink rows of the rank labels in the left margin.
    let bg = *img.get_pixel(1, 1);
    let tallest = (0..layout.size.ranks())
        .map(|rank| {
            let (_, cy) = layout.center(Square::new(0, rank));
            let half = layout.square as i32 / 2;
            (cy as i32 - half..cy as i32 + half)
                .filter(|&y| (0..layout.margin).any(|x| *img.get_pixel(x, y as u32) != bg))
                .count()
        })
        .max()
        .unwrap();
    assert!(
        tallest as f32 * scale >= 7.5,
        "labels {tallest} px tall, {:.1} at 400 px",
        tallest as f32 * scale
    );
    // The widest run of dot pixels on a target square.
    let target = pos
        .legal_moves()
        .iter()
        .find(|m| m.from == knight)
        .map(|m| m.to)
        .unwrap();
    let (x0, y0) = layout.origin(target);
    let mid = y0 + layout.square / 2;
    let dot = (x0..x0 + layout.square)
        .filter(|&x| img.get_pixel(x, mid) != plain.get_pixel(x, mid))
        .count();
    assert!(
        dot as f32 * scale >= 8.0,
        "a dot {dot} px wide, {:.1} at 400 px",
        dot as f32 * scale
    );
}

/// Issue 53: on a 16x16 board the rank numbers 10 to 16 keep the margins
/// that 1 to 9 have: every number fits inside its margin, none touches the
/// picture's edge, and each stands at one distance from the board.
#[test]
fn rank_numbers_of_two_digits_keep_the_margins_of_one() {
    let pos = Position::new(variants::super16());
    let (img, layout) = draw(&pos, &RenderOptions::default());
    let bg = luma(img.get_pixel(0, layout.height - 1).0);
    let m = layout.margin;
    // The columns of ink in the margin beside rank `rank`, on the left
    // (x from 0) or the right (x from the board's right edge).
    let ink = |rank: u8, right: bool| -> Vec<u32> {
        let (_, y0) = layout.origin(Square::new(0, rank));
        let x0 = if right { layout.width - m } else { 0 };
        (x0..x0 + m)
            .filter(|&x| {
                (y0..y0 + layout.square).any(|y| (luma(img.get_pixel(x, y).0) - bg).abs() > 60.0)
            })
            .collect()
    };
    let mut gaps_left = Vec::new();
    let mut gaps_right = Vec::new();
    for rank in 0..16u8 {
        let left = ink(rank, false);
        let right = ink(rank, true);
        assert!(
            !left.is_empty() && !right.is_empty(),
            "rank {} has its numbers",
            rank + 1
        );
        // Inside the picture with room to spare on its outer side.
        assert!(
            left[0] >= 2,
            "rank {}: the left number touches the edge ({left:?})",
            rank + 1
        );
        assert!(
            *right.last().unwrap() <= layout.width - 3,
            "rank {}: the right number touches the edge ({right:?})",
            rank + 1
        );
        gaps_left.push(m - 1 - left.last().unwrap());
        gaps_right.push(right[0] - (layout.width - m));
    }
    // One gap to the board for every number, one digit or two.
    for gaps in [&gaps_left, &gaps_right] {
        let (lo, hi) = (gaps.iter().min().unwrap(), gaps.iter().max().unwrap());
        assert!(hi - lo <= 2, "gaps to the board differ: {gaps:?}");
        assert!(*lo >= 2, "numbers touch the board: {gaps:?}");
    }
}
