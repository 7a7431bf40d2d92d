//! The tests of the command-line tools: running `voidmate` as a user
//! would, and a SQLite file with games in it, made by saying console lines
//! to a core.

use std::path::Path;

/// Runs `voidmate ARGS`: whether it succeeded, its standard output and error.
pub fn voidmate(args: &[&str]) -> (bool, String, String) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_voidmate"))
        .args(args)
        .output()
        .expect("run voidmate");
    (
        out.status.success(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

/// Opens (creating) the SQLite file `db` and says each `(who, text)` in
/// channel "room"; every line must succeed.
pub fn say_lines(db: &Path, lines: &[(&str, &str)]) {
    let rt = tokio::runtime::Runtime::new().unwrap();
    rt.block_on(async {
        let mut cfg = voidmate::config::Config::default();
        cfg.database.path = db.to_path_buf();
        let core = voidmate::game::Core::open(&cfg).await.unwrap();
        for (n, &(who, text)) in lines.iter().enumerate() {
            let mut ev = voidmate::game::Incoming::line(
                format!("cli-{n}"),
                "room",
                voidmate::console::console_player(who),
                text,
                true,
            );
            ev.mentions = voidmate::game::contract::handles(text, voidmate::console::PLATFORM);
            let r = core.handle(&ev).await.unwrap();
            assert!(!r.is_error, "{}", r.text);
        }
    });
}
