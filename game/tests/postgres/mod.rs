//! A throwaway PostgreSQL server for the tests (`scripts/postgres.sh`, as
//! `.ci/run` installs it), one per test binary, and a new empty database
//! for each test that asks.
//!
//! Where PostgreSQL is not installed, the tests that need it are marked
//! ignored at build time (`cfg(voidmate_postgres)`, set by the build
//! script), so `cargo test` counts them as not run; a test that runs here
//! without a server fails, never falls back to SQLite.
#![allow(dead_code)]

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Mutex, OnceLock};

struct Server {
    _dir: tempfile::TempDir,
    port: u16,
}

fn script() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../scripts/postgres.sh")
}

fn installed() -> bool {
    std::fs::read_dir("/usr/lib/postgresql")
        .map(|versions| {
            versions
                .flatten()
                .any(|v| v.path().join("bin/initdb").exists())
        })
        .unwrap_or(false)
}

/// The server of this test binary, started at the first call; stopped by
/// the script's watcher when the binary exits.
fn server() -> &'static Server {
    static SERVER: OnceLock<Server> = OnceLock::new();
    SERVER.get_or_init(|| {
        assert!(
            installed(),
            "PostgreSQL is not installed; .ci/run installs it (bash scripts/postgres.sh install)"
        );
        let dir = tempfile::Builder::new()
            .prefix("voidmate-pg")
            .tempdir()
            .unwrap();
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let status = Command::new("bash")
            .arg(script())
            .args(["start", dir.path().to_str().unwrap(), &port.to_string()])
            .arg(std::process::id().to_string())
            .status()
            .expect("bash runs");
        assert!(status.success(), "PostgreSQL did not start");
        Server { _dir: dir, port }
    })
}

/// The URL of a new, empty database.
pub fn database() -> String {
    static NEXT: AtomicU32 = AtomicU32::new(0);
    let server = server();
    let name = format!("t{}", NEXT.fetch_add(1, Ordering::SeqCst));
    let bin = bin_dir().expect("PostgreSQL's programs");
    let status = Command::new(bin.join("createdb"))
        .args([
            "-h",
            "127.0.0.1",
            "-p",
            &server.port.to_string(),
            "-U",
            "voidmate",
            &name,
        ])
        .status()
        .expect("createdb runs");
    assert!(status.success(), "cannot create a test database");
    format!("postgres://voidmate@127.0.0.1:{}/{name}", server.port)
}

/// The database that stands for SQLite file `path` in a test: made at the
/// first call, the same one after (a restart of the bot on that "file").
pub fn database_for(path: &Path) -> String {
    static MADE: Mutex<Option<HashMap<PathBuf, String>>> = Mutex::new(None);
    let mut made = MADE.lock().unwrap_or_else(|e| e.into_inner());
    let made = made.get_or_insert_with(HashMap::new);
    if let Some(url) = made.get(path) {
        return url.clone();
    }
    let url = database();
    made.insert(path.to_path_buf(), url.clone());
    url
}

fn bin_dir() -> Option<PathBuf> {
    std::fs::read_dir("/usr/lib/postgresql")
        .ok()?
        .flatten()
        .map(|v| v.path().join("bin"))
        .find(|b| b.join("initdb").exists())
}
