//! rafle-zero: what needs tch. The policy/value network ([`net`], an
//! evaluator of rafle-search's network search), the replay buffer
//! batches as tensors ([`replay`]), the optimiser ([`optim`]), the training
//! loop ([`train`]: rafle-train's batched self-play with this network, then
//! training steps), checkpoints ([`checkpoint`]), plots of the metrics ([`plot`])
//! and a checkpoint as an arena side ([`model`]). One run is described by a
//! `rafle_train::config::Config`. The binary is the `rafle` command line.
//!
//! Everything that links tch is behind the default feature `torch`; without
//! it only [`plot`] remains, and the command line keeps the
//! commands that need no network (docs/install.md, "Without libtorch").

#[cfg(feature = "torch")]
pub mod checkpoint;
#[cfg(feature = "torch")]
pub mod evaltrain;
pub mod malloc;
#[cfg(feature = "torch")]
pub mod model;
#[cfg(feature = "torch")]
pub mod net;
#[cfg(feature = "torch")]
pub mod optim;
pub mod plot;
#[cfg(feature = "torch")]
pub mod replay;
#[cfg(feature = "torch")]
pub mod train;

use std::path::Path;

/// The source tree's commit (short hash, "+changes" when the tree differs
/// from it), or "unknown" outside a git checkout.
pub fn commit() -> String {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let git = |args: &[&str]| {
        std::process::Command::new("git")
            .arg("-C")
            .arg(dir)
            .args(args)
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
    };
    match git(&["rev-parse", "--short=12", "HEAD"]) {
        Some(hash) => {
            let dirty = git(&[
                "status",
                "--porcelain",
                "--untracked-files=no",
                "--",
                "crates",
            ])
            .is_some_and(|s| !s.is_empty());
            if dirty {
                format!("{hash}+changes")
            } else {
                hash
            }
        }
        None => "unknown".into(),
    }
}
