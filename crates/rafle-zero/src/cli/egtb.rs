//! `rafle egtb build|probe|stats`: endgame tablebases (crate rafle-egtb).

use clap::{Args, Subcommand};
use indicatif::{ProgressBar, ProgressStyle};
use rafle_core::{parse_fen, Game, Variant};
use rafle_egtb::{BuildEvent, Material, Selection, Tablebase};
use std::path::PathBuf;

#[derive(Args, Debug)]
pub struct EgtbArgs {
    #[command(subcommand)]
    pub command: EgtbCommand,
}

#[derive(Subcommand, Debug)]
pub enum EgtbCommand {
    /// Build every slice up to N pieces (or the named slices and what they
    /// lead into), in dependency order; a stopped build goes on where it
    /// stopped.
    Build(BuildArgs),
    /// The value of one position: "win N", "loss N" or "draw" (side to
    /// move, N plies), then every legal move best first with its value.
    Probe(ProbeArgs),
    /// Per slice: positions, wins, draws, losses, longest win, bytes.
    Stats(StatsArgs),
}

/// `--variant V [--dir D]`: the tables' variant and folder.
#[derive(Args, Debug)]
pub struct TableArgs {
    /// Variant (`rafle --help` lists them).
    #[arg(long, value_parser = super::variant)]
    pub variant: Variant,
    /// Folder of the tables (default: egtb/<variant>).
    #[arg(long)]
    pub dir: Option<PathBuf>,
}

impl TableArgs {
    pub fn dir(&self) -> PathBuf {
        self.dir
            .clone()
            .unwrap_or_else(|| default_dir(self.variant))
    }
}

/// Where `rafle egtb build` puts a variant's tables by default.
pub fn default_dir(v: Variant) -> PathBuf {
    PathBuf::from("egtb").join(v.name())
}

#[derive(Args, Debug)]
pub struct BuildArgs {
    #[command(flatten)]
    pub tables: TableArgs,
    /// Every slice with this many pieces or fewer.
    #[arg(long, required_unless_present = "slices")]
    pub pieces: Option<u32>,
    /// Only these slices (and every slice their moves lead into), comma
    /// separated, side to move first: e.g. 0m3k-0m1k.
    #[arg(long, value_delimiter = ',', conflicts_with = "pieces")]
    pub slices: Vec<String>,
    /// Worker threads (default: all cores).
    #[arg(long)]
    pub threads: Option<usize>,
    /// No progress bar.
    #[arg(long)]
    pub quiet: bool,
}

#[derive(Args, Debug)]
pub struct ProbeArgs {
    #[command(flatten)]
    pub tables: TableArgs,
    /// The position, PDN FEN.
    #[arg(long)]
    pub fen: String,
}

#[derive(Args, Debug)]
pub struct StatsArgs {
    #[command(flatten)]
    pub tables: TableArgs,
}

pub fn run(a: EgtbArgs) -> anyhow::Result<()> {
    match a.command {
        EgtbCommand::Build(b) => build(b),
        EgtbCommand::Probe(p) => probe(p),
        EgtbCommand::Stats(s) => stats(s),
    }
}

/// The most pieces a build may ask for: beyond it no slice fits a table.
const MOST_PIECES: u32 = 8;

fn build(a: BuildArgs) -> anyhow::Result<()> {
    let v = a.tables.variant;
    let selection = match a.pieces {
        Some(n) if !(2..=MOST_PIECES).contains(&n) => {
            anyhow::bail!("--pieces {n}: must be in 2..={MOST_PIECES}")
        }
        Some(n) => Selection::UpTo(n),
        None => Selection::Slices(
            a.slices
                .iter()
                .map(|s| s.parse::<Material>().map_err(anyhow::Error::msg))
                .collect::<anyhow::Result<_>>()?,
        ),
    };
    let dir = a.tables.dir();
    let bar = if a.quiet {
        ProgressBar::hidden()
    } else {
        ProgressBar::new(0)
    };
    if let Ok(style) = ProgressStyle::with_template(
        "{prefix} [{bar:30}] {human_pos}/{human_len} positions  {msg}  {elapsed_precise} eta {eta}",
    ) {
        bar.set_style(style.progress_chars("=> "));
    }
    bar.set_prefix(format!("{v} egtb"));
    let report = |e: BuildEvent| match e {
        BuildEvent::Plan { pairs, indices } => {
            bar.set_length(indices);
            bar.set_message(format!("{pairs} slice pairs to build"));
        }
        BuildEvent::Pair { slices, .. } => {
            let names: Vec<String> = slices.iter().map(|m| m.to_string()).collect();
            bar.set_message(names.join(" + "));
        }
        BuildEvent::Progress { indices } => bar.inc(indices),
        BuildEvent::Skipped { .. } | BuildEvent::Written { .. } => {}
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(a.threads.unwrap_or(0))
        .build()?;
    let t = std::time::Instant::now();
    let summary = pool
        .install(|| rafle_egtb::build(v, &dir, &selection, &report))
        .map_err(anyhow::Error::msg)?;
    bar.finish_and_clear();
    let positions: u64 = summary.written.iter().map(|s| s.positions).sum();
    let bytes: u64 = summary.written.iter().map(|s| s.bytes).sum();
    println!(
        "{v}: {} slices built ({positions} positions, {} on disk) in {:.1} s, {} already there; tables in {}",
        summary.written.len(),
        human_bytes(bytes),
        t.elapsed().as_secs_f64(),
        summary.skipped,
        dir.display()
    );
    Ok(())
}

fn probe(a: ProbeArgs) -> anyhow::Result<()> {
    let v = a.tables.variant;
    let tb = Tablebase::open(v, a.tables.dir())?;
    let pos = parse_fen(v, &a.fen)?;
    let game = Game::from_position(v, pos);
    println!("{}", tb.probe(&pos)?);
    for (m, value) in tb.move_values(&pos)? {
        println!("{} {value}", game.move_string(&m));
    }
    Ok(())
}

fn stats(a: StatsArgs) -> anyhow::Result<()> {
    let v = a.tables.variant;
    let tb = Tablebase::open(v, a.tables.dir())?;
    println!(
        "{:<12} {:>12} {:>12} {:>12} {:>12} {:>8} {:>10}",
        "slice", "positions", "wins", "draws", "losses", "longest", "bytes"
    );
    let mut total = rafle_egtb::SliceStats::of(Material::of(&rafle_core::Position::EMPTY), &[]);
    for s in tb.stats()? {
        println!(
            "{:<12} {:>12} {:>12} {:>12} {:>12} {:>8} {:>10}",
            s.material.to_string(),
            s.positions,
            s.wins,
            s.draws,
            s.losses,
            s.longest_win,
            s.bytes
        );
        total.positions += s.positions;
        total.wins += s.wins;
        total.draws += s.draws;
        total.losses += s.losses;
        total.longest_win = total.longest_win.max(s.longest_win);
        total.bytes += s.bytes;
    }
    println!(
        "{:<12} {:>12} {:>12} {:>12} {:>12} {:>8} {:>10}",
        "total",
        total.positions,
        total.wins,
        total.draws,
        total.losses,
        total.longest_win,
        total.bytes
    );
    println!(
        "{v}: complete up to {} pieces, {} in {}",
        tb.max_pieces(),
        human_bytes(total.bytes),
        tb.dir().display()
    );
    Ok(())
}

fn human_bytes(b: u64) -> String {
    match b {
        b if b >= 1 << 30 => format!("{:.2} GiB", b as f64 / (1u64 << 30) as f64),
        b if b >= 1 << 20 => format!("{:.1} MiB", b as f64 / (1u64 << 20) as f64),
        b if b >= 1 << 10 => format!("{:.1} KiB", b as f64 / 1024.0),
        b => format!("{b} B"),
    }
}
