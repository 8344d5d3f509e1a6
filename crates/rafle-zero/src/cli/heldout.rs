//! `rafle heldout --variant V`: the value head's held-out set
//! ([`rafle_train::heldout`]): quiet positions of games of the shipped
//! learned evaluation against itself with their results and, with
//! `--egtb DIR`, random positions of the endgame tables with their exact
//! values, written where the trainers read them.
//!
//! ```text
//! rafle heldout --variant thai [--games 400] [--depth 6] [--positions 2000]
//!               [--egtb DIR --table-positions 500] [--seed 0] [--out DIR]
//! ```

use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use anyhow::{bail, Context};
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use rafle_core::rng::Rng;
use rafle_core::Variant;
use rafle_train::evaltrain::config::Games;
use rafle_train::evaltrain::games::{self, Labelled};
use rafle_train::heldout::{self, HeldOut};

#[derive(Args, Debug)]
pub struct HeldoutArgs {
    #[arg(long, value_parser = super::variant)]
    pub variant: Variant,
    /// Games of alphabeta:d=DEPTH,eval=zoo against itself (the hand-written
    /// evaluation where none is shipped), from random openings.
    #[arg(long, default_value_t = 400)]
    pub games: usize,
    #[arg(long, default_value_t = 6)]
    pub depth: u32,
    /// Random plies opening each game (as the ladder's games open).
    #[arg(long, default_value_t = 4)]
    pub opening_plies: usize,
    /// Positions kept from the games (a seeded sample of their quiet
    /// positions; games cut at 400 plies have no result and give none).
    #[arg(long, default_value_t = 2000)]
    pub positions: usize,
    /// Endgame tables to draw positions from (with their exact values).
    #[arg(long)]
    pub egtb: Option<PathBuf>,
    /// Positions drawn from the tables, spread evenly over their slices.
    #[arg(long, default_value_t = 500)]
    pub table_positions: usize,
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Folder to write V.safetensors (and V.tables.safetensors) to
    /// (default: the zoo's heldout folder, where trainers read them).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// No progress bar.
    #[arg(long)]
    pub quiet: bool,
}

pub fn run(a: HeldoutArgs) -> anyhow::Result<()> {
    let v = a.variant;
    if a.games == 0 || a.positions == 0 {
        bail!("--games and --positions must be at least 1");
    }
    if !(1..=64).contains(&a.depth) {
        bail!("--depth must be in 1..=64");
    }
    let tables = match &a.egtb {
        Some(dir) => {
            Some(rafle_egtb::Tablebase::open(v, dir).map_err(|e| anyhow::anyhow!("--egtb: {e}"))?)
        }
        None => None,
    };
    let zoo = rafle_search::learned::zoo_path(v);
    let eval = match zoo.is_file() {
        true => Some(rafle_search::learned::load(&zoo, v)?),
        false => None,
    };
    let player = match &eval {
        Some(_) => format!("alphabeta:d={},eval=zoo", a.depth),
        None => format!("alphabeta:{}", a.depth),
    };
    let cfg = Games {
        games: a.games,
        depth: a.depth,
        first_depth: 0,
        opening_plies: a.opening_plies,
        random_share: 0.0,
        max_plies: 400,
    };
    let bar = match a.quiet {
        true => ProgressBar::hidden(),
        false => ProgressBar::new(a.games as u64),
    };
    bar.set_style(
        ProgressStyle::with_template(
            "{msg} {bar:30} {pos}/{len} [{elapsed_precise}<{eta_precise}]",
        )
        .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    bar.set_message(format!("games of {player}"));
    let done = AtomicUsize::new(0);
    let generated = std::thread::scope(|s| {
        let h = s.spawn(|| games::generate(v, &cfg, a.depth, eval.clone(), a.seed, &done));
        while !h.is_finished() {
            bar.set_position(done.load(Ordering::Relaxed) as u64);
            std::thread::sleep(Duration::from_millis(200));
        }
        h.join().expect("the games do not panic")
    });
    bar.finish_and_clear();
    let mut rng = Rng::new(a.seed ^ 0x6865_6c64);
    let mut from_games: Vec<Labelled> = generated
        .positions
        .into_iter()
        .filter(|l| !l.result.is_nan())
        .collect();
    // A seeded sample: the first `positions` of a Fisher-Yates shuffle.
    for i in (1..from_games.len()).rev() {
        from_games.swap(i, rng.below(i + 1));
    }
    from_games.truncate(a.positions);
    let from_tables = match &tables {
        Some(tb) => table_positions(v, tb, a.table_positions, &mut rng)?,
        None => Vec::new(),
    };
    let [games_file, tables_file] = heldout::paths(v);
    let dir = a
        .out
        .clone()
        .unwrap_or_else(|| games_file.parent().expect("a folder").to_path_buf());
    std::fs::create_dir_all(&dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let dir = std::fs::canonicalize(&dir).unwrap_or(dir);
    let name = |p: &PathBuf| dir.join(p.file_name().expect("a file name"));
    games::save(&name(&games_file), v, &from_games)?;
    if !from_tables.is_empty() {
        games::save(&name(&tables_file), v, &from_tables)?;
    }
    let held = HeldOut::from_labelled(&from_games, &from_tables);
    let wins = held.outcome.iter().filter(|&&z| z > 0.5).count();
    let draws = held.outcome.iter().filter(|&&z| z.abs() <= 0.5).count();
    println!(
        "{v} held-out set: {} positions from {} games of {player} ({} decisive, {} cut), {} from tables; \
         outcomes for the side to move: {wins} wins, {draws} draws, {} losses; written to {}",
        from_games.len(),
        generated.games,
        generated.decisive,
        generated.stopped,
        from_tables.len(),
        held.len() - wins - draws,
        dir.display()
    );
    Ok(())
}

/// `n` random quiet positions of the tables, spread over their slices,
/// each with its exact value as the result for the side to move.
fn table_positions(
    v: Variant,
    tb: &rafle_egtb::Tablebase,
    n: usize,
    rng: &mut Rng,
) -> anyhow::Result<Vec<Labelled>> {
    let ix = rafle_egtb::index::Indexer::new(v);
    let slices = tb.slices();
    if slices.is_empty() {
        bail!("--egtb {}: no tables of {v} there", tb.dir().display());
    }
    let mut out = Vec::with_capacity(n);
    let mut tries = 0;
    while out.len() < n && tries < 100 * n {
        // Slice by slice in turn (a slice whose positions are all over,
        // thai's king against king, gives none).
        let m = slices[tries % slices.len()];
        tries += 1;
        let s = ix.slice(m).map_err(|e| anyhow::anyhow!(e))?;
        let pos = ix.random_position(&s, rng);
        // Positions whose game is over or that are not quiet say little.
        let game = rafle_core::Game::from_position(v, pos);
        let moves = game.legal_moves();
        if game.is_over() || moves.is_empty() || moves[0].is_capture() {
            continue;
        }
        let result = match tb.probe(&pos).map_err(|e| anyhow::anyhow!(e))? {
            rafle_egtb::Value::Win(_) => 1.0,
            rafle_egtb::Value::Draw => 0.5,
            rafle_egtb::Value::Loss(_) => 0.0,
        };
        out.push(Labelled {
            pos,
            score: 0,
            result,
        });
    }
    Ok(out)
}
