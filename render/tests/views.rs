//! Issue 42, points 3 to 5: boards at chat size (16x16 pieces shrunk to
//! 400 px, a closer look), marks that show there (a king that must leave
//! its tile, a relativistic move's path), and what a player may ask to see
//! (the moves of a piece of the side not to move).

use image::imageops::FilterType;
use image::RgbImage;
use voidmate_render::{demo, Layout, RenderOptions, Renderer, Theme};
use voidmate_rules::{variants, Color, Position, Role, Square};

mod common;
use common::simulate;

fn sq(s: &str) -> Square {
    Square::parse(s).unwrap()
}

fn draw(pos: &Position, opts: &RenderOptions) -> (RgbImage, Layout) {
    let r = Renderer::shared();
    let png = r.render(pos, opts);
    let img = image::load_from_memory(&png)
        .expect("a valid PNG")
        .to_rgb8();
    (img, r.layout(pos, opts))
}

/// The image as chat shows it: `width` px wide, smoothly shrunk.
fn shrink(img: &RgbImage, width: u32) -> RgbImage {
    let height = img.height() * width / img.width();
    image::imageops::resize(img, width, height, FilterType::Triangle)
}

fn luma(p: [u8; 3]) -> f32 {
    0.299 * p[0] as f32 + 0.587 * p[1] as f32 + 0.114 * p[2] as f32
}

/// Which pixels of a square show the piece: those whose lightness is more
/// than 25 of 255 away from the floor's.
fn silhouette(px: &[[u8; 3]], light: bool) -> Vec<bool> {
    // The classic theme's light and dark squares.
    let floor = if light {
        [0xec, 0xda, 0xb9]
    } else {
        [0xae, 0x8a, 0x68]
    };
    px.iter()
        .map(|&p| (luma(p) - luma(floor)).abs() > 25.0)
        .collect()
}

/// The share of a square's pixels where two silhouettes disagree.
fn disagreement(a: &[bool], b: &[bool]) -> f32 {
    a.iter().zip(b).filter(|(x, y)| x != y).count() as f32 / a.len() as f32
}

/// The pixels of a square of the full-size layout, read from `img` shrunk
/// by `scale` (the inner 90%, so neighbours do not bleed in).
fn square_at(img: &RgbImage, layout: &Layout, s: Square, scale: f32) -> Vec<[u8; 3]> {
    let (x0, y0) = layout.origin(s);
    let side = layout.square as f32 * scale;
    let (x0, y0) = (x0 as f32 * scale, y0 as f32 * scale);
    let inset = side * 0.05;
    let n = (side - 2.0 * inset).floor() as u32;
    let mut v = Vec::new();
    for y in 0..n {
        for x in 0..n {
            let px = (x0 + inset) as u32 + x;
            let py = (y0 + inset) as u32 + y;
            v.push(img.get_pixel(px, py).0);
        }
    }
    v
}

/// Point 3: a 16x16 board shown 400 px wide (25 px squares): every pair of
/// its pieces differs in at least 15% of the square's pixels (the closest
/// pair, bishop and pawn, measured 19%), so each keeps its own silhouette
/// in chat.
#[test]
fn every_pair_of_16x16_pieces_differs_at_400_px() {
    let roles = [
        Role::King,
        Role::Prince,
        Role::Queen,
        Role::Princess,
        Role::Archbishop,
        Role::SuperKnight,
        Role::Fortress,
        Role::Rook,
        Role::Bishop,
        Role::Knight,
        Role::Pawn,
        Role::Minister,
        Role::Paladin,
        Role::Programmable,
    ];
    let start = Position::new(demo::showcase_16x16());
    let (full, layout) = draw(&start, &RenderOptions::default());
    let scale = 400.0 / layout.width as f32;
    let shown = shrink(&full, 400);
    assert!(layout.square as f32 * scale <= 25.0, "squares of chat size");
    let mut looks: Vec<(Role, Vec<bool>)> = Vec::new();
    for role in roles {
        let found = start.rules().size().squares().find(|&q| {
            start
                .piece_at(q)
                .is_some_and(|p| p.role == role && p.color == Color::White)
        });
        if let Some(at) = found {
            let px = square_at(&shown, &layout, at, scale);
            looks.push((role, silhouette(&px, at.is_light())));
        }
    }
    assert!(
        looks.len() >= 11,
        "the showcase has the pieces: {:?}",
        looks.iter().map(|l| l.0).collect::<Vec<_>>()
    );
    let mut worst = (1.0f32, String::new());
    for i in 0..looks.len() {
        for j in i + 1..looks.len() {
            let d = disagreement(&looks[i].1, &looks[j].1);
            if d < worst.0 {
                worst = (d, format!("{} and {}", looks[i].0, looks[j].0));
            }
        }
    }
    assert!(
        worst.0 >= 0.15,
        "{} differ in only {:.1}% of their pixels at 400 px",
        worst.1,
        worst.0 * 100.0
    );
}

/// Relative luminance of a colour as seen with deuteranopia or protanopia.
fn seen(rgb: [u8; 3], protan: bool) -> f32 {
    let o = simulate(rgb, protan);
    0.2126 * o[0] + 0.7152 * o[1] + 0.0722 * o[2]
}

/// Point 4: a king on its own unstable tile (it must leave at once) gets a
/// mark of its own shape, hazard tape round the square and a warning sign,
/// that shows at 400 px for eyes that do not tell red from green: against
/// a rook on the same tile (not marked), half the pixels along the square's
/// edges or more differ in lightness, in both themes.
#[test]
fn a_king_that_must_leave_its_tile_is_marked_for_every_colour_vision() {
    // An unstable tile belongs to the piece on it: a king there must leave
    // (the tile falls after its side's next move); a rook may stay and be
    // lost. The rook's square is the plain unstable tile.
    let must = "r7k/9/9/9/4K4/9/9/9/9 w - - 0 5 unstable:e5w4";
    let calm = "r7k/9/9/9/4R4/9/9/9/4K4 w - - 0 5 unstable:e5w4";
    let e5 = sq("e5");
    for theme in [Theme::Classic, Theme::HighContrast] {
        let opts = RenderOptions {
            theme,
            ..Default::default()
        };
        let a = Position::from_fen(variants::void(), must).unwrap();
        let b = Position::from_fen(variants::void(), calm).unwrap();
        let (ia, layout) = draw(&a, &opts);
        let (ib, _) = draw(&b, &opts);
        let scale = 400.0 / layout.width as f32;
        let (ia, ib) = (shrink(&ia, 400), shrink(&ib, 400));
        let (x0, y0) = layout.origin(e5);
        let side = layout.square as f32 * scale;
        let (x0, y0) = (x0 as f32 * scale, y0 as f32 * scale);
        for protan in [false, true] {
            // The band along the bottom and right edges (the owner's badge
            // sits top left), a tenth of the square wide.
            let (mut band, mut differ) = (0, 0);
            let n = side.floor() as u32;
            for y in 1..n - 1 {
                for x in 1..n - 1 {
                    let edge = (n - 1 - x).min(n - 1 - y) as f32;
                    if edge >= side * 0.09 {
                        continue;
                    }
                    band += 1;
                    let (px, py) = (x0 as u32 + x, y0 as u32 + y);
                    let la = seen(ia.get_pixel(px, py).0, protan);
                    let lb = seen(ib.get_pixel(px, py).0, protan);
                    if (la - lb).abs() > 0.1 {
                        differ += 1;
                    }
                }
            }
            // The tape's light stripes (two thirds of it) stand out; its
            // dark ones lie on the tile's dark glow.
            assert!(
                band > 20 && differ * 100 >= band * 50,
                "{theme:?}, {}: the mark differs in lightness at {differ} of {band} edge pixels",
                if protan { "protanopia" } else { "deuteranopia" }
            );
        }
    }
}

/// Point 4: a relativistic Black Holes move draws its path, an arrow in two
/// legs: from its start into the black hole, and out of the white hole to
/// its end.
#[test]
fn a_relativistic_move_draws_its_path_through_the_holes() {
    let before = Position::from_fen(
        variants::black_holes(),
        "rn1qk/p1ppp/Bphh1/3hH/HP3/3N1/PBPPP/RH1QK w - - 0 1",
    )
    .unwrap();
    let mv = before.parse_move("Ra1-b1-a4xb4").unwrap();
    let through = before.holes_passed(&mv);
    assert_eq!(through, Some((sq("b1"), sq("a4"))));
    let mut after = before.clone();
    after.play_unchecked(&mv);
    let plain = RenderOptions {
        last_move: Some((mv.from, mv.to)),
        ..Default::default()
    };
    let path = RenderOptions {
        through,
        ..plain.clone()
    };
    let (ia, layout) = draw(&after, &path);
    let (ib, _) = draw(&after, &plain);
    // Halfway along each leg, and at the head of each.
    let mid = |a: &str, b: &str, t: f32| {
        let (ax, ay) = layout.center(sq(a));
        let (bx, by) = layout.center(sq(b));
        ((ax + (bx - ax) * t) as u32, (ay + (by - ay) * t) as u32)
    };
    for (a, b) in [("a1", "b1"), ("a4", "b4")] {
        for t in [0.3, 0.5, 0.8] {
            let (x, y) = mid(a, b, t);
            assert_ne!(
                ia.get_pixel(x, y),
                ib.get_pixel(x, y),
                "the leg {a}-{b} at {t}"
            );
        }
    }
    // No straight arrow from the start to the end: between a1 and b4,
    // away from both legs, nothing is drawn.
    let (x, y) = mid("a1", "b4", 0.5);
    assert_eq!(ia.get_pixel(x, y), ib.get_pixel(x, y));
}

/// Point 3: `zoom` draws an 8x8 window of a big board around a square, at
/// full size (64 px squares against 48), with its own coordinates; the
/// window keeps inside the board at its edges.
#[test]
fn zoom_draws_an_8x8_window_at_full_size() {
    let r = Renderer::shared();
    let pos = Position::new(demo::showcase_16x16());
    let whole = r.layout(&pos, &RenderOptions::default());
    for (at, first) in [
        ("h9", (4, 5)),
        ("a1", (0, 0)),
        ("p16", (8, 8)),
        ("b15", (0, 8)),
    ] {
        let opts = RenderOptions {
            zoom: Some(sq(at)),
            ..Default::default()
        };
        let layout = r.layout(&pos, &opts);
        assert_eq!(layout.shown, (8, 8), "{at}");
        assert_eq!(layout.first, first, "{at}");
        assert!(layout.contains(sq(at)));
        assert!(layout.square > whole.square, "{at}: bigger squares");
        let (img, l) = draw(&pos, &opts);
        assert_eq!((img.width(), img.height()), (l.width, l.height));
        assert!(l.width < whole.width);
    }
    // The window shows the same pieces as the whole board: a pawn's square
    // differs from an empty one, in the window too.
    let opts = RenderOptions {
        zoom: Some(sq("a1")),
        ..Default::default()
    };
    let (img, layout) = draw(&pos, &opts);
    let (x, y) = layout.center(sq("a2"));
    let (ex, ey) = layout.center(sq("a5"));
    assert_ne!(
        img.get_pixel(x as u32, y as u32),
        img.get_pixel(ex as u32, ey as u32)
    );
    // Coordinates: the window's first file letter is in the margin.
    let (x, _) = layout.center(sq("a1"));
    let bg = *img.get_pixel(1, 1);
    assert!(
        (0..layout.margin).any(|y| *img.get_pixel(x as u32, y) != bg),
        "a file letter above the window"
    );
}

/// Point 5: `select` on a piece of the side not to move marks the moves it
/// will have on its next turn: Black's knight on g8 with White to move
/// shows f6 and h6, as it does once Black is to move.
#[test]
fn selecting_a_piece_of_the_side_not_to_move_shows_its_next_moves() {
    let start = Position::new(variants::standard());
    let mut after = start.clone();
    after.play_text("e4").unwrap();
    let select = |s: &str| RenderOptions {
        select: Some(sq(s)),
        ..Default::default()
    };
    let (plain, layout) = draw(&start, &RenderOptions::default());
    let (waiting, _) = draw(&start, &select("g8"));
    let (to_move, _) = draw(&after, &select("g8"));
    for target in ["f6", "h6"] {
        let (x, y) = layout.center(sq(target));
        let (x, y) = (x as u32, y as u32);
        assert_ne!(
            waiting.get_pixel(x, y),
            plain.get_pixel(x, y),
            "{target} marked"
        );
        assert_eq!(
            waiting.get_pixel(x, y),
            to_move.get_pixel(x, y),
            "{target} as on Black's turn"
        );
    }
    let (x, y) = layout.center(sq("g6"));
    assert_eq!(
        waiting.get_pixel(x as u32, y as u32),
        plain.get_pixel(x as u32, y as u32)
    );
}
