// Shared by the crates' build scripts (`include!`d): each check sets a
// `cfg` where the tests that need a program or a font can run here, so
// that where they cannot, those tests are reported as ignored with the
// reason (`cargo test` says "ignored, <why>") instead of failing or
// passing without running. Under CI (`CI` set) every cfg is set: there a
// missing program must fail its tests, and `.ci/run` installs everything
// (`scripts/test.sh`). `VOIDMATE_NO_<TOOL>=1` builds as a machine without
// that tool would (to see what such a machine reports).

use std::path::{Path, PathBuf};

/// Sets `cfg(name)` if `present` (or under CI), declaring it either way.
fn test_cfg(name: &str, present: bool) {
    println!("cargo::rustc-check-cfg=cfg({name})");
    println!("cargo::rerun-if-env-changed=CI");
    let off = format!("VOIDMATE_NO_{}", name.trim_start_matches("voidmate_").to_uppercase());
    println!("cargo::rerun-if-env-changed={off}");
    let present = present && std::env::var_os(&off).is_none();
    if present || std::env::var_os("CI").is_some() {
        println!("cargo::rustc-cfg={name}");
    }
}

/// Where the test tools' virtual environments live (`scripts/*.sh`).
fn tools_cache() -> PathBuf {
    println!("cargo::rerun-if-env-changed=VOIDMATE_CACHE");
    println!("cargo::rerun-if-env-changed=HOME");
    match std::env::var_os("VOIDMATE_CACHE") {
        Some(dir) => PathBuf::from(dir),
        None => PathBuf::from(std::env::var_os("HOME").unwrap_or_default()).join(".cache/voidmate"),
    }
}

/// Whether a virtual environment under the cache has each of `packages`
/// in its site-packages (the build script runs no Python: it looks).
fn venv_has(venv: &str, packages: &[&str]) -> bool {
    let lib = tools_cache().join(venv).join("lib");
    println!("cargo::rerun-if-changed={}", lib.display());
    let Ok(pythons) = std::fs::read_dir(&lib) else {
        return false;
    };
    pythons.flatten().any(|python| {
        let site = python.path().join("site-packages");
        packages.iter().all(|p| site.join(p).is_dir())
    })
}

/// `cfg(voidmate_postgres)`: PostgreSQL's programs are installed (Debian's,
/// under /usr/lib/postgresql): the tests start a throwaway server.
#[allow(dead_code)]
fn postgres() {
    println!("cargo::rerun-if-changed=/usr/lib/postgresql");
    let installed = std::fs::read_dir("/usr/lib/postgresql")
        .map(|versions| {
            versions
                .flatten()
                .any(|v| v.path().join("bin/initdb").exists())
        })
        .unwrap_or(false);
    test_cfg("voidmate_postgres", installed);
}

/// `cfg(voidmate_synapse)`: Synapse is installed in its virtual
/// environment (`scripts/synapse.sh install`).
#[allow(dead_code)]
fn synapse() {
    test_cfg("voidmate_synapse", venv_has("synapse-venv", &["synapse"]));
}

/// `cfg(voidmate_readers)`: python-chess and Pillow, the independent
/// readers of our PGN and GIFs, are installed (`scripts/pgn-read.sh
/// install`).
#[allow(dead_code)]
fn readers() {
    test_cfg("voidmate_readers", venv_has("pgn-venv", &["chess", "PIL"]));
}

/// `cfg(voidmate_fonts)`: the system's CJK and colour emoji fonts are
/// installed (Debian's `fonts-noto-cjk`, `fonts-noto-color-emoji`).
#[allow(dead_code)]
fn fonts() {
    let found = |name: &str| -> bool {
        let mut stack = vec![PathBuf::from("/usr/share/fonts")];
        while let Some(dir) = stack.pop() {
            let Ok(entries) = std::fs::read_dir(&dir) else {
                continue;
            };
            for e in entries.flatten() {
                let p = e.path();
                if p.is_dir() {
                    stack.push(p);
                } else if p.file_name().is_some_and(|f| f.to_string_lossy().starts_with(name)) {
                    return true;
                }
            }
        }
        false
    };
    println!("cargo::rerun-if-changed=/usr/share/fonts");
    test_cfg(
        "voidmate_fonts",
        found("NotoSansCJK") && found("NotoColorEmoji") && Path::new("/usr/share/fonts").is_dir(),
    );
}

/// `cfg(voidmate_swiss_reference)`: the corpus of random Swiss tournaments
/// paired by an independent program is made (`scripts/swiss-reference.sh
/// corpus`), for the comparison of our Dutch pairing with it.
#[allow(dead_code)]
fn swiss_reference() {
    let corpus = tools_cache().join("swiss-reference").join("corpus.jsonl");
    println!("cargo::rerun-if-changed={}", corpus.display());
    test_cfg("voidmate_swiss_reference", corpus.is_file());
}

/// `cfg(voidmate_fairy_stockfish)`: Fairy-Stockfish is installed (Debian's
/// package, in /usr/games), the independent engine our puzzles are checked
/// with.
#[allow(dead_code)]
fn fairy_stockfish() {
    println!("cargo::rerun-if-changed=/usr/games");
    test_cfg(
        "voidmate_fairy_stockfish",
        Path::new("/usr/games/fairy-stockfish").exists(),
    );
}

/// `cfg(voidmate_pyffish)`: pyffish, Fairy-Stockfish's Python build, is
/// installed in its virtual environment (`scripts/pyffish.sh install`): the
/// reference for hoppers and one-way pieces, which Debian's 11.1 cannot read.
#[allow(dead_code)]
fn pyffish() {
    test_cfg("voidmate_pyffish", venv_has("pyffish-venv", &["pyffish"]));
}
