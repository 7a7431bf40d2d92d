// Shared by the build scripts of `game` and `bot`: sets
// `cfg(voidmate_postgres)` where the tests can start a PostgreSQL server
// (Debian's programs under /usr/lib/postgresql), and always under CI (`CI`
// set), where a missing server must fail the tests, not skip them.
// `VOIDMATE_NO_POSTGRES=1` builds as a machine without it would (to see
// what such a machine reports).

fn main() {
    println!("cargo::rustc-check-cfg=cfg(voidmate_postgres)");
    println!("cargo::rerun-if-env-changed=CI");
    println!("cargo::rerun-if-env-changed=VOIDMATE_NO_POSTGRES");
    println!("cargo::rerun-if-changed=/usr/lib/postgresql");
    let installed = std::fs::read_dir("/usr/lib/postgresql")
        .map(|versions| {
            versions
                .flatten()
                .any(|v| v.path().join("bin/initdb").exists())
        })
        .unwrap_or(false)
        && std::env::var_os("VOIDMATE_NO_POSTGRES").is_none();
    if installed || std::env::var_os("CI").is_some() {
        println!("cargo::rustc-cfg=voidmate_postgres");
    }
}
