//! Files replaced whole: every file rafle writes for later (checkpoints,
//! the replay window, metrics, tablebase slices, PDN records) is written to
//! a temporary name in the same folder, flushed to disk and renamed over
//! the old one, so a kill at any moment leaves either the previous file or
//! the new one, never a mix. The one piece of I/O in rafle-core: it sits
//! here because every crate that writes files depends on this one.

use std::fs::File;
use std::io::{Error, Write};
use std::path::{Path, PathBuf};

/// The temporary name of `path` while it is written: `.tmp-NAME` in the
/// same folder (a rename within a folder is atomic; the extension stays
/// last, as some writers choose the format from it).
pub fn temp_path(path: &Path) -> PathBuf {
    let name = path
        .file_name()
        .map_or_else(|| "file".into(), |n| n.to_string_lossy());
    path.with_file_name(format!(".tmp-{name}"))
}

/// An I/O error that names the file.
fn named(path: &Path, e: Error) -> Error {
    Error::new(e.kind(), format!("{}: {e}", path.display()))
}

/// Replaces `path` by what `write` writes to the temporary path it is
/// given (see [`temp_path`]); a failed `write` removes the temporary file
/// and leaves `path` as it was.
pub fn replace_with<E: From<Error>>(
    path: &Path,
    write: impl FnOnce(&Path) -> Result<(), E>,
) -> Result<(), E> {
    let tmp = temp_path(path);
    if let Err(e) = write(&tmp) {
        let _ = std::fs::remove_file(&tmp);
        return Err(e);
    }
    // On disk before the rename, or a power cut could leave an empty file
    // under the final name.
    File::open(&tmp)
        .and_then(|f| f.sync_all())
        .map_err(|e| named(&tmp, e))?;
    std::fs::rename(&tmp, path).map_err(|e| named(path, e))?;
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        // The rename itself; not every file system lets a folder be synced.
        let _ = File::open(dir).and_then(|d| d.sync_all());
    }
    Ok(())
}

/// Replaces `path` by `bytes`.
pub fn write(path: &Path, bytes: &[u8]) -> Result<(), Error> {
    replace_with(path, |tmp| {
        let mut f = File::create(tmp).map_err(|e| named(tmp, e))?;
        f.write_all(bytes).map_err(|e| named(tmp, e))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_are_replaced_whole_or_not_at_all() {
        let dir = std::env::temp_dir().join(format!("rafle-atomic-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("a.safetensors");
        assert_eq!(temp_path(&path), dir.join(".tmp-a.safetensors"));
        write(&path, b"first").unwrap();
        write(&path, b"second").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"second");
        // A writer that fails leaves the old file and no temporary one.
        let failed: Result<(), Error> = replace_with(&path, |tmp| {
            std::fs::write(tmp, b"half")?;
            Err(Error::other("disk full"))
        });
        assert!(failed.is_err());
        assert_eq!(std::fs::read(&path).unwrap(), b"second");
        assert!(!temp_path(&path).exists());
        // An error names the file.
        let e = write(&dir.join("no/such/folder/x"), b"").unwrap_err();
        assert!(e.to_string().contains("no/such/folder"), "{e}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
