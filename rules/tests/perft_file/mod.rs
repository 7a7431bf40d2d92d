//! Perft files (`tests/data/*.perft`, `tests/data/fsf/*.perft`): one
//! position a line, `FEN ;D1 n ;D2 n ...`, `#` comments.

/// Each position of the file at `path` with its counts by depth.
pub fn read(path: &str) -> Vec<(String, Vec<(u32, u64)>)> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|line| {
            let mut parts = line.split(" ;");
            let fen = parts.next().unwrap().trim().to_string();
            let counts = parts
                .map(|p| {
                    let (d, n) = p.trim().split_once(' ').unwrap();
                    (
                        d.trim_start_matches('D').parse().unwrap(),
                        n.parse().unwrap(),
                    )
                })
                .collect();
            (fen, counts)
        })
        .collect()
}
