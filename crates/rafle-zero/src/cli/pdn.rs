//! `rafle pdn FILE...`: reads PDN files, replays every game and prints a
//! summary (games, variants, results, plies, read speed); each game that
//! does not read or replay gets one line on stderr naming it and its move,
//! and the exit status is then 1.
//!
//! ```text
//! rafle pdn games.pdn
//! rafle pdn --variant russian old-games.pdn      (for games without Variant/GameType tags)
//! ```

use anyhow::Context;
use clap::Args;
use rafle_arena::pdn::read_each;
use rafle_core::Variant;
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::Instant;

#[derive(Args, Debug)]
pub struct PdnArgs {
    /// PDN files.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// Variant of games with neither a Variant nor a GameType tag.
    #[arg(long, value_parser = super::variant)]
    pub variant: Option<Variant>,
}

pub fn run(a: PdnArgs) -> anyhow::Result<()> {
    let mut bad = 0usize;
    for path in &a.files {
        let bytes =
            std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
        let text = String::from_utf8_lossy(&bytes);
        let t = Instant::now();
        let (mut ok, mut plies) = (0usize, 0usize);
        let mut variants: BTreeMap<String, usize> = BTreeMap::new();
        let mut results: BTreeMap<String, usize> = BTreeMap::new();
        for (i, g) in read_each(&text).into_iter().enumerate() {
            let n = i + 1;
            let replayed = g.and_then(|g| {
                g.replay(a.variant)
                    .map(|game| (g.clone(), game))
                    .map_err(|e| format!("{}: {e}", g.label(n)))
            });
            match replayed {
                Ok((g, game)) => {
                    ok += 1;
                    plies += game.ply();
                    *variants
                        .entry(game.variant().name().to_string())
                        .or_default() += 1;
                    *results
                        .entry(g.result.clone().unwrap_or_else(|| "none".into()))
                        .or_default() += 1;
                }
                Err(e) => {
                    bad += 1;
                    let e = if e.starts_with("game ") {
                        e
                    } else {
                        format!("game {n}: {e}")
                    };
                    eprintln!("{}: {e}", path.display());
                }
            }
        }
        let secs = t.elapsed().as_secs_f64();
        let list = |m: &BTreeMap<String, usize>| -> String {
            m.iter()
                .map(|(k, v)| format!("{k} {v}"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        println!(
            "{}: {ok} games replayed; variants: {}; results: {}; {:.1} plies a game; read in {:.3} s ({:.0} games/s)",
            path.display(),
            list(&variants),
            list(&results),
            plies as f64 / ok.max(1) as f64,
            secs,
            ok as f64 / secs.max(1e-9)
        );
    }
    if bad > 0 {
        anyhow::bail!("{bad} game(s) did not replay (listed above)");
    }
    Ok(())
}
