//! What the render tests share.

/// Colours as seen with deuteranopia or protanopia (Machado, Oliveira and
/// Fernandes 2009, severity 1.0, applied to linear RGB).
pub fn simulate(rgb: [u8; 3], protan: bool) -> [f32; 3] {
    let m: [[f32; 3]; 3] = if protan {
        [
            [0.152286, 1.052583, -0.204868],
            [0.114503, 0.786281, 0.099216],
            [-0.003882, -0.048116, 1.051998],
        ]
    } else {
        [
            [0.367322, 0.860646, -0.227968],
            [0.280085, 0.672501, 0.047413],
            [-0.011820, 0.042940, 0.968881],
        ]
    };
    let lin = |c: u8| {
        let c = c as f32 / 255.0;
        if c <= 0.04045 {
            c / 12.92
        } else {
            ((c + 0.055) / 1.055).powf(2.4)
        }
    };
    let v = [lin(rgb[0]), lin(rgb[1]), lin(rgb[2])];
    let mut out = [0.0; 3];
    for (o, row) in out.iter_mut().zip(m) {
        *o = (row[0] * v[0] + row[1] * v[1] + row[2] * v[2]).clamp(0.0, 1.0);
    }
    out
}
