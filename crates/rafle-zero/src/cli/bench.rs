//! `rafle bench perft [--variant V] [--depth D]`: nodes per second.
//! `rafle bench env [--variant V] [--envs 4096] [--threads 1,2] [--steps N]`:
//! VecEnv steps per second (measured by `rafle_env::bench`).
//! `rafle bench selfplay [--config configs/thai.toml] [--positions N] [--rounds R]`:
//! self-play network evaluations per second, average batch and network
//! share, in f32 and bf16 alternately (a fresh network of the config's shape).
//! `rafle bench infer [--config configs/thai.toml] [--batches 1,8,32,128,384]`:
//! network forward passes per second by batch size, f32 and bf16, as
//! trained and with batch norm folded (what the search runs), one and all
//! torch threads (what `net::BF16_BATCH` and `SMALL_BATCH` are set from).
//! `rafle bench train [--config configs/thai.toml] [--steps 32] [--rounds 3]`:
//! training steps per second, and the share of each part of a step (batch
//! assembly, forward and losses, backward, optimiser), in f32 and with bf16
//! convolutions over f32 weights, one and all torch threads, on a replay
//! window of self-play positions of a fresh network.
//! `rafle bench egtb --variant V [--dir D] [--probes N]`: endgame-table
//! probes per second from one thread and from all, on random positions of
//! the built slices (tables loaded before timing).
//! `rafle bench search [--variant V] [--player alphabeta:6] [--positions 256]`:
//! a player's search nodes per second and time per move over the same
//! positions for every player (the speed target of a learned evaluation is
//! a share of the hand-written one's nodes per second).
//! Other benchmarks are added as further `BenchKind`s.

use clap::{Args, Subcommand};
use rafle_core::{Position, Variant};
#[cfg(feature = "torch")]
use std::path::PathBuf;
use std::time::Instant;

#[derive(Args, Debug)]
pub struct BenchArgs {
    #[command(subcommand)]
    pub kind: BenchKind,
}

#[derive(Subcommand, Debug)]
pub enum BenchKind {
    /// Perft from the start position; prints leaves and leaves per second.
    Perft {
        /// One variant (every variant if omitted).
        #[arg(long, value_parser = super::variant)]
        variant: Option<Variant>,
        /// Depth (default: the first depth whose perft takes at least a
        /// second).
        #[arg(long)]
        depth: Option<u32>,
    },
    /// VecEnv steps per second with the built-in random sampler, observations
    /// and masks written every step; bytes written per second against memcpy.
    Env {
        /// One variant (every variant if omitted).
        #[arg(long, value_parser = super::variant)]
        variant: Option<Variant>,
        /// Number of games stepped together.
        #[arg(long, default_value_t = 4096)]
        envs: usize,
        /// Thread counts to measure, comma separated.
        #[arg(long, value_delimiter = ',', default_value = "1,2")]
        threads: Vec<usize>,
        /// Batched steps (VecEnv::step calls) timed per measurement.
        #[arg(long, default_value_t = 300)]
        steps: usize,
    },
    /// A player's search nodes per second and milliseconds per move, one
    /// move from each of the same positions (random openings of 4 to 40
    /// plies, seeded), a fresh player for each.
    Search {
        /// One variant (every variant if omitted).
        #[arg(long, value_parser = super::variant)]
        variant: Option<Variant>,
        /// The player (any spec that searches without a network).
        #[arg(long, default_value = "alphabeta:6")]
        player: String,
        /// Positions searched per variant.
        #[arg(long, default_value_t = 256)]
        positions: usize,
        /// Seed of the positions and of the players.
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
    /// Endgame-table probes per second, one thread and all, on random
    /// positions of every built slice (`rafle egtb build` first).
    Egtb {
        #[command(flatten)]
        tables: super::egtb::TableArgs,
        /// Positions probed per measurement.
        #[arg(long, default_value_t = 1_000_000)]
        probes: usize,
    },
    /// Self-play speed of a config: network evaluations per second, average
    /// batch and the network's share of the time, f32 against bf16.
    #[cfg(feature = "torch")]
    Selfplay {
        /// Run configuration (network shape, search and self-play tables).
        #[arg(long, default_value = "configs/thai.toml")]
        config: PathBuf,
        /// Training positions per measurement.
        #[arg(long, default_value_t = 1024)]
        positions: usize,
        /// Measurements per number type (alternating f32 and bf16).
        #[arg(long, default_value_t = 3)]
        rounds: usize,
    },
    /// Network evaluations per second by batch size, f32 and bf16, one and
    /// all torch threads (a fresh network of the config's shape).
    #[cfg(feature = "torch")]
    Infer {
        /// Run configuration (network shape).
        #[arg(long, default_value = "configs/thai.toml")]
        config: PathBuf,
        /// Batch sizes, comma separated.
        #[arg(long, value_delimiter = ',', default_value = "1,8,16,32,128,384")]
        batches: Vec<usize>,
    },
    /// Training steps per second of a config and where a step's time goes
    /// (batch, forward and losses, backward, optimiser), in f32 and with
    /// bf16 convolutions, one and all torch threads.
    #[cfg(feature = "torch")]
    Train {
        /// Run configuration (network shape, batch size, optimiser).
        #[arg(long, default_value = "configs/thai.toml")]
        config: PathBuf,
        /// Steps per measurement (one iteration's worth in the default config).
        #[arg(long, default_value_t = 32)]
        steps: usize,
        /// Measurements per thread count.
        #[arg(long, default_value_t = 3)]
        rounds: usize,
    },
}

/// Perft of `pos` at `depth`, or at the first depth taking a second or more:
/// (depth, leaves, seconds).
fn timed_perft(v: Variant, pos: &Position, depth: Option<u32>) -> (u32, u64, f64) {
    let mut d = depth.unwrap_or(1);
    loop {
        let t = Instant::now();
        let n = rafle_core::perft::perft_variant(v, pos, d);
        let s = t.elapsed().as_secs_f64();
        if depth.is_some() || s >= 1.0 || n == 0 {
            return (d, n, s);
        }
        d += 1;
    }
}

pub fn run(a: BenchArgs) -> anyhow::Result<()> {
    match a.kind {
        BenchKind::Perft { variant, depth } => {
            let variants = match variant {
                Some(v) => vec![v],
                None => Variant::ALL.to_vec(),
            };
            println!(
                "{:<14} {:>5} {:>14} {:>9} {:>14}",
                "variant", "depth", "leaves", "seconds", "leaves/s"
            );
            for v in variants {
                let (d, n, s) = timed_perft(v, &Position::start(v), depth);
                println!(
                    "{:<14} {:>5} {:>14} {:>9.3} {:>14.3e}",
                    v.name(),
                    d,
                    n,
                    s,
                    n as f64 / s
                );
            }
        }
        BenchKind::Env {
            variant,
            envs,
            threads,
            steps,
        } => env_bench::run(variant, envs, &threads, steps)?,
        BenchKind::Search {
            variant,
            player,
            positions,
            seed,
        } => {
            anyhow::ensure!(positions > 0, "--positions must be at least 1");
            let spec: rafle_search::PlayerSpec = player.parse()?;
            anyhow::ensure!(
                !matches!(
                    spec,
                    rafle_search::PlayerSpec::Network { .. } | rafle_search::PlayerSpec::Engine(_)
                ),
                "{spec}: bench search measures rafle's own searches (no network, no engine)"
            );
            let variants = match variant {
                Some(v) => vec![v],
                None => Variant::ALL.to_vec(),
            };
            println!(
                "{:<14} {:<16} {:>9} {:>12} {:>9} {:>12} {:>9}",
                "variant", "player", "positions", "nodes", "seconds", "nodes/s", "ms/move"
            );
            for v in variants {
                let (nodes, s) = search_bench(v, &player, positions, seed)?;
                println!(
                    "{:<14} {:<16} {:>9} {:>12} {:>9.3} {:>12.3e} {:>9.2}",
                    v.name(),
                    player,
                    positions,
                    nodes,
                    s,
                    nodes as f64 / s.max(1e-9),
                    1e3 * s / positions.max(1) as f64
                );
            }
        }
        BenchKind::Egtb { tables, probes } => egtb_bench(&tables, probes)?,
        #[cfg(feature = "torch")]
        BenchKind::Selfplay {
            config,
            positions,
            rounds,
        } => selfplay_bench(&config, positions, rounds)?,
        #[cfg(feature = "torch")]
        BenchKind::Infer { config, batches } => infer_bench(&config, &batches)?,
        #[cfg(feature = "torch")]
        BenchKind::Train {
            config,
            steps,
            rounds,
        } => train_bench(&config, steps, rounds)?,
    }
    Ok(())
}

/// `rafle bench search`: (nodes, seconds) of one move of a fresh `player`
/// from each of `positions` positions with a choice (two legal moves or
/// more): random openings of 4 to 40 plies (`rafle_core::opening`), seeded
/// by `seed` and the position's number.
fn search_bench(
    v: Variant,
    player: &str,
    positions: usize,
    seed: u64,
) -> anyhow::Result<(u64, f64)> {
    use rafle_core::rng::Rng;
    let factory = rafle_search::parse_player(player, v)?;
    let (mut nodes, mut seconds, mut searched) = (0u64, 0.0, 0);
    let mut i = 0u64;
    while searched < positions {
        anyhow::ensure!(
            i < 100 * positions as u64,
            "{v}: too few positions with a choice"
        );
        let mut rng = Rng::stream(seed, i);
        let plies = 4 + (i as usize * 7) % 37;
        let mut game = rafle_core::Game::new(v);
        for m in rafle_core::random_opening(v, &[], plies, &mut rng) {
            game.play(&m)?;
        }
        let mut p = factory(seed ^ i);
        i += 1;
        if game.is_over() || game.legal_moves().len() < 2 {
            continue;
        }
        let t = Instant::now();
        p.choose(&game).map_err(|f| anyhow::anyhow!("{f}"))?;
        seconds += t.elapsed().as_secs_f64();
        nodes += p.nodes();
        searched += 1;
    }
    Ok((nodes, seconds))
}

/// `rafle bench egtb`: probes per second over random positions spread
/// evenly over the slices, from one thread and from the rayon pool.
fn egtb_bench(tables: &super::egtb::TableArgs, probes: usize) -> anyhow::Result<()> {
    use rayon::prelude::*;
    let v = tables.variant;
    let tb = rafle_egtb::Tablebase::open(v, tables.dir())?;
    let ix = rafle_egtb::index::Indexer::new(v);
    let slices = tb.slices();
    anyhow::ensure!(probes > 0 && !slices.is_empty(), "nothing to probe");
    let mut rng = rafle_core::rng::Rng::new(1);
    let positions: Vec<Position> = (0..probes)
        .map(|i| {
            let s = ix
                .slice(slices[i % slices.len()])
                .map_err(anyhow::Error::msg)?;
            Ok(ix.random_position(&s, &mut rng))
        })
        .collect::<anyhow::Result<_>>()?;
    // Every table loaded once before timing: the figure is of probes, not reads.
    for p in positions.iter().take(slices.len()) {
        tb.probe(p)?;
    }
    let t = Instant::now();
    let wins = positions
        .iter()
        .filter(|p| matches!(tb.probe(p), Ok(x) if x.kind() == "win"))
        .count();
    let one = t.elapsed().as_secs_f64();
    let t = Instant::now();
    let wins_all = positions
        .par_iter()
        .filter(|p| matches!(tb.probe(p), Ok(x) if x.kind() == "win"))
        .count();
    let all = t.elapsed().as_secs_f64();
    anyhow::ensure!(wins == wins_all, "probes differ between threads");
    println!(
        "{v}: {} slices up to {} pieces, {probes} random positions ({:.1}% wins)",
        slices.len(),
        tb.most_pieces(),
        100.0 * wins as f64 / probes as f64
    );
    println!("1 thread: {:.3e} probes/s", probes as f64 / one);
    println!(
        "{} threads: {:.3e} probes/s",
        rayon::current_num_threads(),
        probes as f64 / all
    );
    Ok(())
}

/// `rafle bench infer`: one line per number type and thread count.
#[cfg(feature = "torch")]
fn infer_bench(path: &std::path::Path, batches: &[usize]) -> anyhow::Result<()> {
    use rafle_train::config::{Config, InferenceDtype};
    use rafle_zero::net::{self, Folded, Net, NetShape};
    if batches.contains(&0) {
        anyhow::bail!("--batches must be positive");
    }
    let cfg = Config::load(path)?;
    let v = cfg.variant();
    let net = Net::new(NetShape::new(v, &cfg.net), net::device(cfg.run.device)?, 0);
    let len = net.shape.obs_len();
    let all = tch::get_num_threads();
    println!(
        "{}: net {}x{}, evaluations/s by batch size (ms per call)",
        path.display(),
        cfg.net.blocks,
        cfg.net.channels
    );
    // The network as trained (batch norm on its own) and as the search
    // runs it (batch norm folded into the convolutions).
    type Infer<'a> = Box<dyn Fn(&[f32], usize) -> (Vec<f32>, Vec<f32>) + 'a>;
    let (f32_net, bf16_net) = (
        net.inference_copy(InferenceDtype::F32)?,
        net.inference_copy(InferenceDtype::Bf16)?,
    );
    let (f32_folded, bf16_folded) = (
        Folded::new(&net, tch::Kind::Float),
        Folded::new(&net, tch::Kind::BFloat16),
    );
    let copies: [(&str, Infer); 4] = [
        ("f32", Box::new(|o, b| f32_net.infer(o, b))),
        ("bf16", Box::new(|o, b| bf16_net.infer(o, b))),
        ("f32 folded", Box::new(|o, b| f32_folded.infer(o, b))),
        ("bf16 folded", Box::new(|o, b| bf16_folded.infer(o, b))),
    ];
    for (name, infer) in &copies {
        for threads in [1, all] {
            tch::set_num_threads(threads);
            let mut row = format!("{name:>11} {threads} thread(s):");
            for &b in batches {
                let obs = vec![0f32; b * len];
                infer(&obs, b);
                let t = Instant::now();
                let mut calls = 0;
                while t.elapsed().as_secs_f64() < 0.3 {
                    infer(&obs, b);
                    calls += 1;
                }
                let per = t.elapsed().as_secs_f64() / calls as f64;
                row += &format!("  {b}: {:.1}k ({:.2})", b as f64 / per / 1e3, per * 1e3);
            }
            println!("{row}");
        }
    }
    tch::set_num_threads(all);
    Ok(())
}

/// `rafle bench selfplay`: one line per measurement.
#[cfg(feature = "torch")]
fn selfplay_bench(path: &std::path::Path, positions: usize, rounds: usize) -> anyhow::Result<()> {
    use rafle_train::config::{Config, InferenceDtype};
    use rafle_train::selfplay::SelfPlay;
    use rafle_zero::net::{self, Inference, Net, NetShape};
    if positions == 0 || rounds == 0 {
        anyhow::bail!("--positions and --rounds must be positive");
    }
    let cfg = Config::load(path)?;
    let v = cfg.variant();
    let net = Net::new(NetShape::new(v, &cfg.net), net::device(cfg.run.device)?, 0);
    let mut nets = [
        ("f32", Inference::new(&net, InferenceDtype::F32)?),
        ("bf16", Inference::new(&net, InferenceDtype::Bf16)?),
    ];
    let mut sp = SelfPlay::new(&cfg.search, &cfg.selfplay, v, 1)?;
    println!(
        "{}: {} games in lockstep, {} simulations (fast {}), {} leaves per round, net {}x{} on {:?}",
        path.display(),
        cfg.selfplay.parallel_games,
        cfg.search.simulations,
        cfg.search.fast(),
        cfg.search.leaves_per_round,
        cfg.net.blocks,
        cfg.net.channels,
        net.device()
    );
    for round in 0..rounds {
        for (name, n) in &mut nets {
            let (_, st) = sp.run(n, positions, None, |_| {})?;
            println!(
                "round {round} {name:>4}: {:>7.0} evals/s, batch {:>5.1}, network {:>3.0}% of self-play time, {:>3.0}% of leaves cached, {:>6.0} positions/s, {:>5.1} games/s",
                st.nn_evals as f64 / st.seconds,
                st.avg_batch(),
                100.0 * st.nn_share(),
                100.0 * st.cache_share(),
                st.positions as f64 / st.seconds,
                st.games as f64 / st.seconds
            );
        }
    }
    Ok(())
}

/// `rafle bench train`: one line per measurement. The window holds one
/// iteration's self-play positions of the fresh network (their sparse
/// policies are what real batches carry); each part of a step is timed on
/// its own, torch on a CPU running synchronously.
#[cfg(feature = "torch")]
fn train_bench(path: &std::path::Path, steps: usize, rounds: usize) -> anyhow::Result<()> {
    use rafle_core::rng::Rng;
    use rafle_train::config::{Config, ConvDtype, InferenceDtype};
    use rafle_train::replay::Replay;
    use rafle_train::selfplay::SelfPlay;
    use rafle_zero::net::{self, Inference, Net, NetShape};
    use rafle_zero::optim::Optimizer;
    use rafle_zero::replay::Batch;
    use rafle_zero::train::batch_losses;
    if steps == 0 || rounds == 0 {
        anyhow::bail!("--steps and --rounds must be positive");
    }
    let cfg = Config::load(path)?;
    let v = cfg.variant();
    let t = &cfg.train;
    let mut net = Net::new(NetShape::new(v, &cfg.net), net::device(cfg.run.device)?, 0);
    let mut opt = Optimizer::new(&net.vs, t);
    let mut sp = SelfPlay::new(&cfg.search, &cfg.selfplay, v, 1)?;
    let mut infer = Inference::new(&net, InferenceDtype::F32)?;
    let (samples, _) = sp.run(
        &mut infer,
        cfg.selfplay.positions_per_iteration,
        None,
        |_| {},
    )?;
    let mut replay = Replay::new(samples.len());
    for s in samples {
        replay.push(s);
    }
    let mut rng = Rng::new(1);
    println!(
        "{}: net {}x{}, batch {}, {:?}, {} positions in the window, {steps} steps a measurement",
        path.display(),
        cfg.net.blocks,
        cfg.net.channels,
        t.batch_size,
        t.optimizer,
        replay.len()
    );
    let all = tch::get_num_threads();
    // f32 throughout, and bf16 convolutions over the f32 weights.
    for (name, conv) in [("f32", ConvDtype::F32), ("bf16 convs", ConvDtype::Bf16)] {
        net.set_conv_dtype(conv);
        for threads in [1, all] {
            tch::set_num_threads(threads);
            for round in 0..rounds {
                // Seconds in: batch, forward and losses, backward, optimiser.
                let mut part = [0f64; 4];
                let start = Instant::now();
                for _ in 0..steps {
                    let mut clock = Instant::now();
                    let mut lap = |i: usize| {
                        part[i] += clock.elapsed().as_secs_f64();
                        clock = Instant::now();
                    };
                    let picks = replay.sample(t.batch_size, &mut rng);
                    let batch = Batch::new(
                        &picks,
                        &net.shape,
                        t.value_target_search as f32,
                        net.device(),
                    );
                    lap(0);
                    let (_, _, total) = batch_losses(&net, &batch, t.value_loss_weight, true);
                    let _ = total.double_value(&[]);
                    lap(1);
                    opt.zero_grad();
                    total.backward();
                    lap(2);
                    opt.step(t.lr);
                    lap(3);
                }
                let secs = start.elapsed().as_secs_f64();
                let share = |i: usize| 100.0 * part[i] / secs;
                println!(
                "{name:>10} {threads} thread(s) round {round}: {:>6.1} steps/s ({:>6.0} positions/s): batch {:>3.0}%, forward {:>3.0}%, backward {:>3.0}%, optimiser {:>3.0}%",
                steps as f64 / secs,
                (steps * t.batch_size) as f64 / secs,
                share(0),
                share(1),
                share(2),
                share(3)
            );
            }
        }
    }
    tch::set_num_threads(all);
    Ok(())
}

/// `rafle bench env`: one line per variant and thread count.
mod env_bench {
    use anyhow::bail;
    use rafle_core::Variant;

    pub fn run(
        variant: Option<Variant>,
        envs: usize,
        threads: &[usize],
        steps: usize,
    ) -> anyhow::Result<()> {
        let variants = match variant {
            Some(v) => vec![v],
            None => Variant::ALL.to_vec(),
        };
        if envs == 0 || steps == 0 || threads.contains(&0) {
            bail!("--envs, --steps and --threads must be positive");
        }
        println!("{}", rafle_env::bench::EnvBench::HEADER);
        for v in variants {
            for &k in threads {
                let pool = rayon::ThreadPoolBuilder::new().num_threads(k).build()?;
                let b = pool.install(|| rafle_env::bench::measure(v, envs, steps))?;
                println!("{b}");
            }
        }
        Ok(())
    }
}
