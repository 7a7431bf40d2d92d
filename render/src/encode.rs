//! PNG encoding of a board's palette indices.
//!
//! The `png` crate filters and compresses row by row through `flate2`,
//! which zero-fills its 32 KB output buffer on every write: two writes a
//! row, some 40 MB of `memset` for one 632x632 board, about a third of
//! a move's CPU in the bot (measured with `perf`, docs/performance.md).
//! So the rows are filtered here (the same adaptive choice as the crate's:
//! the filter whose bytes, read as signed, sum smallest) and compressed in
//! one call of `miniz_oxide` (the crate's own deflate, level 1), and the
//! `png` crate writes the chunks around them.

/// The PNG filter types (PNG specification, 9.2).
const SUB: u8 = 1;
const UP: u8 = 2;
const AVG: u8 = 3;
const PAETH: u8 = 4;

/// Encodes palette indices (`width` a row) as an 8-bit indexed PNG with
/// the palette `plte` (RGB triples).
pub(crate) fn encode(pixels: &[u8], width: u32, height: u32, plte: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(32 * 1024);
    let mut enc = png::Encoder::new(&mut out, width, height);
    enc.set_color(png::ColorType::Indexed);
    enc.set_depth(png::BitDepth::Eight);
    enc.set_palette(plte);
    let mut writer = enc.write_header().expect("PNG header into memory");
    let data = miniz_oxide::deflate::compress_to_vec_zlib(&filtered(pixels, width as usize), 1);
    writer
        .write_chunk(png::chunk::IDAT, &data)
        .expect("PNG data into memory");
    writer.finish().expect("PNG end into memory");
    out
}

/// The image's rows, each its filter type and its filtered bytes (one
/// byte a pixel): the filter whose bytes sum smallest as signed numbers, a
/// tie going to the later of Up, Sub, Average, Paeth (as the `png` crate's
/// adaptive filter chooses).
fn filtered(pixels: &[u8], width: usize) -> Vec<u8> {
    let width = width.max(1);
    let mut data = Vec::with_capacity(pixels.len() + pixels.len() / width);
    let zeros = vec![0u8; width];
    let mut prev: &[u8] = &zeros;
    let (mut trial, mut best) = (vec![0u8; width], vec![0u8; width]);
    for row in pixels.chunks_exact(width) {
        let mut chosen = (u32::MAX, UP);
        for kind in [UP, SUB, AVG, PAETH] {
            apply(kind, prev, row, &mut trial);
            let cost = cost(&trial);
            if cost <= chosen.0 {
                chosen = (cost, kind);
                std::mem::swap(&mut best, &mut trial);
                if cost == 0 {
                    break;
                }
            }
        }
        data.push(chosen.1);
        data.extend_from_slice(&best);
        prev = row;
    }
    data
}

/// `row` filtered by `kind`, `prev` the row above (zeros for the first).
/// One loop a filter, over whole slices, so that each vectorises.
fn apply(kind: u8, prev: &[u8], row: &[u8], out: &mut [u8]) {
    let n = row.len();
    if n == 0 {
        return;
    }
    match kind {
        UP => {
            for ((o, &x), &b) in out.iter_mut().zip(row).zip(prev) {
                *o = x.wrapping_sub(b);
            }
        }
        SUB => {
            out[0] = row[0];
            for ((o, &x), &a) in out[1..].iter_mut().zip(&row[1..]).zip(&row[..n - 1]) {
                *o = x.wrapping_sub(a);
            }
        }
        AVG => {
            out[0] = row[0].wrapping_sub(prev[0] / 2);
            for (((o, &x), &a), &b) in out[1..]
                .iter_mut()
                .zip(&row[1..])
                .zip(&row[..n - 1])
                .zip(&prev[1..])
            {
                // (a + b) / 2 without overflow.
                *o = x.wrapping_sub((a & b) + ((a ^ b) >> 1));
            }
        }
        _ => {
            out[0] = row[0].wrapping_sub(prev[0]);
            for ((((o, &x), &a), &b), &c) in out[1..]
                .iter_mut()
                .zip(&row[1..])
                .zip(&row[..n - 1])
                .zip(&prev[1..])
                .zip(&prev[..n - 1])
            {
                *o = x.wrapping_sub(paeth(a, b, c));
            }
        }
    }
}

/// The sum of `bytes` read as signed numbers, without their signs: the
/// adaptive filter's cost of a row.
fn cost(bytes: &[u8]) -> u32 {
    bytes
        .iter()
        .map(|&b| u32::from((b as i8).unsigned_abs()))
        .sum()
}

/// The Paeth predictor (PNG specification, 9.4): of the left, upper and
/// upper-left neighbours, the one nearest to left + upper - upper-left.
fn paeth(a: u8, b: u8, c: u8) -> u8 {
    let (a16, b16, c16) = (i16::from(a), i16::from(b), i16::from(c));
    let pa = (b16 - c16).abs();
    let pb = (a16 - c16).abs();
    let pc = (a16 + b16 - 2 * c16).abs();
    if pa <= pb && pa <= pc {
        a
    } else if pb <= pc {
        b
    } else {
        c
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Decodes a PNG of ours: its size, palette and indices.
    fn decode(bytes: &[u8]) -> (u32, u32, Vec<u8>, Vec<u8>) {
        let mut reader = png::Decoder::new(std::io::Cursor::new(bytes))
            .read_info()
            .unwrap();
        let mut buf = vec![0; reader.output_buffer_size().unwrap()];
        let frame = reader.next_frame(&mut buf).unwrap();
        buf.truncate(frame.buffer_size());
        let info = reader.info();
        let plte = info.palette.as_deref().unwrap().to_vec();
        (info.width, info.height, plte, buf)
    }

    /// What the `png` crate makes of the same indices (deflate level 1,
    /// adaptive filter: what the boards were encoded with before).
    fn by_the_crate(pixels: &[u8], width: u32, height: u32, plte: &[u8]) -> Vec<u8> {
        let mut out = Vec::new();
        let mut enc = png::Encoder::new(&mut out, width, height);
        enc.set_color(png::ColorType::Indexed);
        enc.set_depth(png::BitDepth::Eight);
        enc.set_palette(plte);
        enc.set_deflate_compression(png::DeflateCompression::Level(1));
        enc.set_filter(png::Filter::Adaptive);
        let mut writer = enc.write_header().unwrap();
        writer.write_image_data(pixels).unwrap();
        writer.finish().unwrap();
        out
    }

    /// Every filter round-trips, on rows that make each of them the
    /// cheapest (gradients down, across, diagonal, noise), at widths of 1
    /// and odd sizes; the pixels decode as they went in, and the filters
    /// chosen are the `png` crate's (the same bytes before deflate, so a
    /// file within a few bytes of the crate's).
    #[test]
    fn images_decode_to_their_pixels() {
        let plte: Vec<u8> = (0..=255u8).flat_map(|i| [i, i, i]).collect();
        let mut seed = 7u32;
        let mut noise = move || {
            seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12_345);
            (seed >> 16) as u8
        };
        for (width, height) in [(1u32, 1u32), (1, 9), (9, 1), (13, 7), (64, 64), (101, 33)] {
            let mut pixels = Vec::new();
            for y in 0..height {
                for x in 0..width {
                    pixels.push(match y % 4 {
                        0 => (x * 3) as u8,
                        1 => (y * 5) as u8,
                        2 => (x + y * 2) as u8,
                        _ => noise(),
                    });
                }
            }
            let ours = encode(&pixels, width, height, &plte);
            assert_eq!(
                decode(&ours),
                (width, height, plte.clone(), pixels.clone()),
                "{width}x{height}"
            );
            let theirs = by_the_crate(&pixels, width, height, &plte);
            assert_eq!(decode(&theirs).3, pixels);
            let diff = ours.len().abs_diff(theirs.len());
            assert!(
                diff <= 64,
                "{width}x{height}: {} against {}",
                ours.len(),
                theirs.len()
            );
        }
    }

    /// The predictor of the specification, on the cases that pick each of
    /// its three neighbours.
    #[test]
    fn paeth_picks_the_nearest_neighbour() {
        assert_eq!(paeth(10, 20, 10), 20); // p = 20: b is exact
        assert_eq!(paeth(20, 10, 10), 20); // p = 20: a is exact
        assert_eq!(paeth(10, 10, 20), 10); // p = 0: a and b tie, a wins
        assert_eq!(paeth(0, 255, 255), 0);
        assert_eq!(paeth(100, 90, 95), 95); // p = 95: c is exact
    }
}
