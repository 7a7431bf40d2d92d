//! Files that hold secrets (the Matrix session's access token, the
//! encryption store) are readable by their owner only.
//!
//! A session file readable by others on a shared machine hands them the
//! bot's account, so it is created with mode 0600 (and a file left by an
//! older version is narrowed to it), and its folder with 0700. Elsewhere
//! than Unix the platform's defaults stay.

use std::io::Write;
use std::path::Path;

/// Creates `dir` (and its parents) if needed, for the owner only.
pub fn create_private_dir(dir: &Path) -> std::io::Result<()> {
    let mut builder = std::fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::{DirBuilderExt, PermissionsExt};
        builder.mode(0o700);
        builder.create(dir)?;
        // An existing folder keeps the mode it was made with: narrow it.
        std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700))
    }
    #[cfg(not(unix))]
    builder.create(dir)
}

/// Writes `contents` to `path`, readable and writable by the owner only.
pub fn write_private(path: &Path, contents: &[u8]) -> std::io::Result<()> {
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create(true).truncate(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
        options.mode(0o600);
        let mut file = options.open(path)?;
        // `mode` applies only when the file is created.
        file.set_permissions(std::fs::Permissions::from_mode(0o600))?;
        file.write_all(contents)?;
        file.sync_all()
    }
    #[cfg(not(unix))]
    {
        let mut file = options.open(path)?;
        file.write_all(contents)?;
        file.sync_all()
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    fn mode(path: &Path) -> u32 {
        std::fs::metadata(path).unwrap().permissions().mode() & 0o777
    }

    #[test]
    fn secrets_are_for_the_owner_only() {
        let dir = tempfile::tempdir().unwrap();
        let store = dir.path().join("voidmate-matrix");
        create_private_dir(&store).unwrap();
        assert_eq!(mode(&store), 0o700);
        let session = store.join("session.json");
        write_private(&session, b"{\"token\":\"secret\"}").unwrap();
        assert_eq!(mode(&session), 0o600);
        assert_eq!(std::fs::read(&session).unwrap(), b"{\"token\":\"secret\"}");
        // A file an older version left readable by all is narrowed.
        std::fs::set_permissions(&session, std::fs::Permissions::from_mode(0o644)).unwrap();
        write_private(&session, b"{}").unwrap();
        assert_eq!(mode(&session), 0o600);
        std::fs::set_permissions(&store, std::fs::Permissions::from_mode(0o755)).unwrap();
        create_private_dir(&store).unwrap();
        assert_eq!(mode(&store), 0o700);
    }
}
