//! Text laid out in two columns (the help's command list: `  name   what it
//! does`), read back so that each chat adapter can show it its own way: a
//! Matrix table, Discord embed fields.

/// One line of a text: plain, or a row of two columns.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Line<'t> {
    Plain(&'t str),
    Row(&'t str, &'t str),
}

/// The lines of `text` if at least three of them are rows (indented by two
/// spaces, the columns apart by two spaces or more); `None` for any other
/// text.
pub fn columns(text: &str) -> Option<Vec<Line<'_>>> {
    let lines: Vec<Line> = text.lines().map(line).collect();
    let rows = lines.iter().filter(|l| matches!(l, Line::Row(..))).count();
    (rows >= 3).then_some(lines)
}

fn line(text: &str) -> Line<'_> {
    let row = text.strip_prefix("  ").and_then(|rest| {
        let (left, right) = rest.split_once("  ")?;
        let (left, right) = (left.trim(), right.trim());
        (!left.is_empty() && !right.is_empty()).then_some(Line::Row(left, right))
    });
    row.unwrap_or(Line::Plain(text))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_command_list_reads_as_rows() {
        let help = crate::game::help::commands();
        let lines = columns(help).expect("rows");
        assert!(matches!(lines[0], Line::Plain(t) if t.starts_with("Commands")));
        assert!(lines.contains(&Line::Row(
            "accept [@user]",
            "accept a challenge waiting for you here"
        )));
        let rows = lines.iter().filter(|l| matches!(l, Line::Row(..))).count();
        assert_eq!(rows, crate::game::command::words::WORDS.len());
        assert_eq!(columns("#1: alice played e4.\n  indented  once"), None);
    }

    #[test]
    fn odd_text_never_panics() {
        let big = "  é🎉  ü\n".repeat(10_000);
        for text in [
            "",
            "  ",
            "    ",
            "  é  ",
            "  🎉  🎉\n  a  b\n  c  d",
            big.as_str(),
        ] {
            if let Some(lines) = columns(text) {
                assert!(lines.iter().any(|l| matches!(l, Line::Row(..))));
            }
        }
        // Ten thousand rows, every one read as a row.
        let rows = columns(&big).expect("a table");
        assert_eq!(
            rows.iter().filter(|l| matches!(l, Line::Row(..))).count(),
            10_000
        );
    }
}
