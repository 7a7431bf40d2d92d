//! Our piece drawings and the font, built into the binary.

use crate::theme::{PieceColors, Rgb};
use image::RgbaImage;
use resvg::{tiny_skia, usvg};
use voidmate_rules::Role;

/// The SVG source of a role's drawing (see `assets/pieces/README.md`).
pub(crate) fn svg(role: Role) -> &'static str {
    match role {
        Role::Pawn => include_str!("../assets/pieces/pawn.svg"),
        Role::Knight => include_str!("../assets/pieces/knight.svg"),
        Role::Bishop => include_str!("../assets/pieces/bishop.svg"),
        Role::Rook => include_str!("../assets/pieces/rook.svg"),
        Role::Queen => include_str!("../assets/pieces/queen.svg"),
        Role::King => include_str!("../assets/pieces/king.svg"),
        Role::Minister => include_str!("../assets/pieces/minister.svg"),
        Role::Paladin => include_str!("../assets/pieces/paladin.svg"),
        Role::Prince => include_str!("../assets/pieces/prince.svg"),
        Role::Princess => include_str!("../assets/pieces/princess.svg"),
        Role::Archbishop => include_str!("../assets/pieces/archbishop.svg"),
        Role::SuperKnight => include_str!("../assets/pieces/superknight.svg"),
        Role::Fortress => include_str!("../assets/pieces/fortress.svg"),
        Role::Programmable => include_str!("../assets/pieces/programmable.svg"),
        Role::Hole => include_str!("../assets/pieces/hole.svg"),
    }
}

fn hex(c: Rgb) -> String {
    format!("#{:02x}{:02x}{:02x}", c[0], c[1], c[2])
}

/// A piece rasterised at `px` x `px`, premultiplied alpha.
pub(crate) fn sprite(colors: &PieceColors, role: Role, px: u32) -> RgbaImage {
    let source = svg(role)
        .replace("FILL", &hex(colors.fill))
        .replace("LINE", &hex(colors.line))
        .replace("DETAIL", &hex(colors.detail));
    let tree = usvg::Tree::from_str(&source, &usvg::Options::default())
        .unwrap_or_else(|e| panic!("piece art for {role} does not parse: {e}"));
    let mut pixmap = tiny_skia::Pixmap::new(px, px).expect("non-zero sprite size");
    let scale = px as f32 / 100.0;
    resvg::render(
        &tree,
        tiny_skia::Transform::from_scale(scale, scale),
        &mut pixmap.as_mut(),
    );
    RgbaImage::from_raw(px, px, pixmap.take()).expect("sprite buffer size")
}

/// The font for coordinates and captions: DejaVu Sans Bold, embedded by the
/// `dejavu` crate.
pub(crate) fn font() -> ab_glyph::FontRef<'static> {
    ab_glyph::FontRef::try_from_slice(dejavu::sans::bold()).expect("DejaVu Sans Bold loads")
}
