//! The training loop, top to bottom:
//!
//! ```text
//! for each iteration:
//!     self-play until `positions_per_iteration` new positions    (selfplay.rs)
//!     add them to the replay window                              (replay.rs)
//!     positions * sample_reuse / batch_size training steps       (train_step)
//!     log metrics; checkpoint every `checkpoint_every`; evaluate every `eval.every`
//! final checkpoint, final evaluation table, plots
//! ```
//!
//! Losses: policy cross-entropy against the search's policy target over the
//! legal actions (illegal logits masked) + `value_loss_weight` x WDL
//! cross-entropy against the game result, optionally mixed with the search
//! value (`train.value_target_search`, see [`Sample::value_target`]).
//!
//! [`Sample::value_target`]: rafle_train::sample::Sample::value_target

use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{Context, Result};
use indicatif::{MultiProgress, ProgressBar, ProgressDrawTarget, ProgressStyle};
use rafle_arena::ladder::fit::{PlayerFit, Score};
use rafle_arena::ladder::{place, Ladder};
use rafle_arena::{elo, play_match, ArenaConfig, Side};
use rafle_core::rng::Rng;
use rafle_core::Variant;
use rafle_train::bootstrap;
use rafle_train::config::{Config, EvalMode};
use rafle_train::heldout::{self, HeldOut, ValueStats};
use rafle_train::selfplay::SelfPlay;
use tch::{Kind, Tensor};

use crate::checkpoint::{self, Metadata};
use crate::model::network_side;
use crate::net::{self, masked_logits, Inference, Net, NetShape};
use crate::optim::{lr_at, Optimizer};
use crate::replay::Batch;
use rafle_train::metrics::{iteration_metrics, Metrics, LADDER};
use rafle_train::replay::Replay;

/// Losses of one step (or the mean of several).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Losses {
    pub policy: f64,
    pub value: f64,
    pub total: f64,
}

/// Mean over the batch of -sum(target * logp) (both [B, K]).
fn soft_cross_entropy(logp: &Tensor, target: &Tensor) -> Tensor {
    -(target * logp)
        .sum_dim_intlist(1, false, Kind::Float)
        .mean(Kind::Float)
}

/// The (policy, value, total) losses of `net` on `batch`; `train` runs
/// batch norm on the batch's statistics (and updates the running ones).
pub fn batch_losses(
    net: &Net,
    batch: &Batch,
    value_weight: f64,
    train: bool,
) -> (Tensor, Tensor, Tensor) {
    let (logits, wdl) = net.forward(&batch.obs, train);
    let logp = masked_logits(&logits, &batch.mask).log_softmax(-1, Kind::Float);
    let policy = soft_cross_entropy(&logp, &batch.policy);
    let value = soft_cross_entropy(&wdl.log_softmax(-1, Kind::Float), &batch.value);
    let total = &policy + &value * value_weight;
    (policy, value, total)
}

/// Mean over the batch of the targets' own entropy -sum(target * ln target)
/// ([B, K]): the least cross-entropy any network reaches on them.
pub fn target_entropy(target: &Tensor) -> f64 {
    tch::no_grad(|| {
        -(target * target.clamp_min(1e-12).log())
            .sum_dim_intlist(1, false, Kind::Float)
            .mean(Kind::Float)
    })
    .double_value(&[])
}

/// One optimisation step on `batch`; returns its losses, the value loss
/// (and the total) with the value targets' own entropy taken off (the
/// gradient is the cross-entropy's: the entropy is a constant), so the
/// value curve can fall towards 0 as the head learns.
pub fn train_step(
    net: &Net,
    opt: &mut Optimizer,
    batch: &Batch,
    value_weight: f64,
    lr: f64,
) -> Losses {
    let (policy, value, total) = batch_losses(net, batch, value_weight, true);
    opt.zero_grad();
    total.backward();
    opt.step(lr);
    let h = target_entropy(&batch.value);
    Losses {
        policy: policy.double_value(&[]),
        value: value.double_value(&[]) - h,
        total: total.double_value(&[]) - value_weight * h,
    }
}

/// One row of an evaluation table.
#[derive(Clone, Debug)]
pub struct EvalRow {
    pub opponent: String,
    pub wdl: elo::Wdl,
    /// The colour-swapped pairs (the ladder line's interval counts them).
    pub pairs: elo::Pentanomial,
}

/// What one evaluation found: the games against each opponent (each rung
/// played, for a placement) and the model's place on the variant's ladder.
#[derive(Clone, Debug, Default)]
pub struct Evaluation {
    pub rows: Vec<EvalRow>,
    /// Elo and its 95% interval on the ladder (None without a ladder, or
    /// without a rung among the opponents).
    pub ladder: Option<(f64, f64, f64)>,
    /// The line printed under the table: `ladder elo E [lo, hi]` and what
    /// it came from.
    pub line: Option<String>,
    /// `ladder` is a placement (`eval.mode = "ladder"`), not implied by
    /// games against fixed opponents.
    pub placed: bool,
    /// Wall time of its games.
    pub seconds: f64,
    /// The value head on the variant's held-out set (None without one).
    pub value: Option<ValueStats>,
}

/// The state of a run (what a checkpoint restores).
#[derive(Debug)]
pub struct Trainer {
    pub cfg: Config,
    pub variant: Variant,
    pub dir: PathBuf,
    pub net: Net,
    /// The copies self-play runs (`run.inference_dtype`), refreshed after training.
    pub infer: Inference,
    pub opt: Optimizer,
    pub replay: Replay,
    /// The teacher's positions in a buffer of their own (`bootstrap.mix` >
    /// 0, after the teacher start), a share of every batch.
    pub teacher: Option<Replay>,
    pub selfplay: SelfPlay,
    pub step: u64,
    pub iteration: u64,
    pub games: u64,
    pub elapsed_before: f64,
    /// The last evaluation's ladder Elo (a periodic placement starts at the
    /// rung nearest it; on resume, read back from `metrics.csv`).
    pub ladder_elo: Option<f64>,
    /// The value head's held-out set (`rafle heldout`; None where the
    /// variant has none shipped).
    pub heldout: Option<HeldOut>,
    rng: Rng,
    /// Progress bars on stderr (hidden when `quiet`).
    quiet: bool,
}

impl Trainer {
    /// A fresh run writing to `cfg.run.out_dir`.
    /// A fresh run replaces the metrics of any earlier run in that folder.
    pub fn new(cfg: Config, quiet: bool) -> Result<Trainer> {
        let dir = PathBuf::from(&cfg.run.out_dir);
        if dir.is_dir() {
            Metrics::open(&dir, true)?;
        }
        Trainer::build(cfg, None, dir, quiet)
    }

    /// The run in `dir` from its last checkpoint (its own config).
    pub fn resume(dir: &Path, quiet: bool) -> Result<Trainer> {
        let meta = checkpoint::read_meta(&dir.join(checkpoint::META))
            .with_context(|| format!("cannot resume from {}", dir.display()))?;
        Trainer::build(meta.config.clone(), Some(meta), dir.to_path_buf(), quiet)
    }

    fn build(cfg: Config, meta: Option<Metadata>, dir: PathBuf, quiet: bool) -> Result<Trainer> {
        let variant = cfg.variant();
        let device = net::device(cfg.run.device)?;
        if cfg.run.torch_threads > 0 {
            tch::set_num_threads(cfg.run.torch_threads as i32);
        }
        let shape = NetShape::new(variant, &cfg.net);
        let mut net = Net::new(shape, device, cfg.run.seed);
        net.set_conv_dtype(cfg.train.conv_dtype);
        let mut opt = Optimizer::new(&net.vs, &cfg.train);
        let mut replay = Replay::new(cfg.train.replay_window);
        let mut teacher = None;
        let (mut step, mut iteration, mut games, mut elapsed) = (0, 0, 0, 0.0);
        let mut ladder_elo = None;
        if cfg.eval.mode == EvalMode::Ladder && (cfg.eval.games > 0 || cfg.eval.final_games > 0) {
            Ladder::builtin(variant).map_err(|e| anyhow::anyhow!("eval.mode = \"ladder\": {e}"))?;
        }
        if let Some(meta) = &meta {
            net.vs
                .load(dir.join(checkpoint::WEIGHTS))
                .with_context(|| format!("cannot load weights from {}", dir.display()))?;
            opt.load(&dir.join(checkpoint::OPTIMIZER), meta.step)?;
            let rp = dir.join(checkpoint::REPLAY);
            if rp.is_file() {
                replay = Replay::load(&rp, cfg.train.replay_window)?;
            } else if meta.positions > 0 {
                // Said, not silent: the window refills from self-play.
                eprintln!(
                    "warning: {} is missing: the replay window starts empty",
                    rp.display()
                );
            }
            let tp = dir.join(bootstrap::TEACHER);
            if cfg.bootstrap.mix > 0.0 && cfg.bootstrap.games > 0 {
                if tp.is_file() {
                    teacher = Some(Replay::load(&tp, usize::MAX)?);
                } else {
                    eprintln!(
                        "warning: {} is missing: training goes on without the teacher's share",
                        tp.display()
                    );
                }
            }
            step = meta.step;
            iteration = meta.iteration;
            games = meta.games;
            elapsed = meta.elapsed_s;
            ladder_elo = rafle_train::metrics::read(&dir).ok().and_then(|rows| {
                rows.iter()
                    .rev()
                    .find(|r| r.name == LADDER[0])
                    .map(|r| r.value)
            });
        }
        std::fs::create_dir_all(&dir)
            .with_context(|| format!("cannot create {}", dir.display()))?;
        // A resumed run continues with fresh streams: games in flight were lost.
        let seed = cfg.run.seed ^ iteration.wrapping_mul(0x9E37_79B9);
        let tables = match cfg.egtb.dir() {
            Some(d) => Some(std::sync::Arc::new(
                rafle_egtb::Tablebase::open(variant, d)
                    .map_err(|e| anyhow::anyhow!("egtb.dir: {e}"))?,
            )),
            None => None,
        };
        let selfplay = SelfPlay::new(&cfg.search, &cfg.selfplay, variant, seed)?
            .with_tables(tables, cfg.egtb.play_on);
        let infer = Inference::new(&net, cfg.run.inference_dtype)?;
        Ok(Trainer {
            infer,
            rng: Rng::stream(seed, 0x7261_666c),
            cfg,
            variant,
            dir,
            net,
            opt,
            replay,
            teacher,
            selfplay,
            step,
            iteration,
            games,
            elapsed_before: elapsed,
            ladder_elo,
            heldout: HeldOut::shipped(variant)?,
            quiet,
        })
    }

    fn steps_per_iteration(&self) -> u64 {
        let t = &self.cfg.train;
        ((self.cfg.selfplay.positions_per_iteration as f64 * t.sample_reuse / t.batch_size as f64)
            .ceil() as u64)
            .max(1)
    }

    fn metadata(&self, elapsed: f64) -> Metadata {
        Metadata {
            variant: self.variant.name().to_string(),
            shape: self.net.shape.clone(),
            step: self.step,
            iteration: self.iteration,
            games: self.games,
            positions: self.replay.total_added,
            elapsed_s: elapsed,
            config: self.cfg.clone(),
        }
    }

    /// Writes the checkpoint (weights, optimiser, replay, metadata).
    pub fn save(&self, elapsed: f64) -> Result<()> {
        checkpoint::save(
            &self.dir,
            &self.net,
            &self.opt,
            Some(&self.replay),
            &self.metadata(elapsed),
        )
    }

    /// Runs the remaining iterations (all of them for a fresh run); returns
    /// the final evaluation (empty rows without one).
    pub fn run(&mut self) -> Result<Evaluation> {
        let start = Instant::now();
        let elapsed = |s: &Instant, before: f64| before + s.elapsed().as_secs_f64();
        let mp = MultiProgress::with_draw_target(if self.quiet {
            ProgressDrawTarget::hidden()
        } else {
            ProgressDrawTarget::stderr()
        });
        let total_iters = self.cfg.run.iterations;
        let iter_bar = mp.add(ProgressBar::new(total_iters));
        iter_bar.set_style(style(
            "iterations {bar:30} {pos}/{len} [{elapsed_precise}<{eta_precise}] {msg}",
        ));
        iter_bar.set_position(self.iteration);
        let mut metrics = Metrics::open(&self.dir, false)?;
        let total_steps = total_iters * self.steps_per_iteration();
        let limit = self.cfg.run.time_limit_min * 60.0;
        let mut saved_at = self.iteration;
        say(
            &mp,
            format!(
                "rafle train: {} | net {}x{} ({} params) on {:?} | {} games in lockstep | dir {}",
                self.variant,
                self.cfg.net.blocks,
                self.cfg.net.channels,
                self.net.num_params(),
                self.net.device(),
                self.cfg.selfplay.parallel_games,
                self.dir.display()
            ),
        )?;
        if self.iteration == 0 && self.step == 0 && self.cfg.bootstrap.games > 0 {
            self.bootstrap(&mp, &mut metrics)?;
        }
        while self.iteration < total_iters {
            if limit > 0.0 && elapsed(&start, self.elapsed_before) >= limit {
                say(
                    &mp,
                    format!("time limit of {} min reached", self.cfg.run.time_limit_min),
                )?;
                break;
            }
            let it = self.iteration + 1;
            // Self-play.
            let want = self.cfg.selfplay.positions_per_iteration;
            let sp_bar = mp.add(ProgressBar::new(want as u64));
            sp_bar.set_style(style("  self-play  {bar:30} {pos}/{len} positions {msg}"));
            let (samples, st) = self.selfplay.run(&mut self.infer, want, None, |n| {
                sp_bar.set_position(n as u64)
            })?;
            sp_bar.finish_and_clear();
            mp.remove(&sp_bar);
            for s in samples {
                self.replay.push(s);
            }
            self.games += st.games;
            // Training.
            let mut losses = Losses::default();
            let mut last_lr = 0.0;
            let mut steps = 0;
            let mut teacher_share = None;
            let train_start = Instant::now();
            if self.replay.len() >= self.cfg.train.min_replay {
                let n = self.steps_per_iteration();
                let before = self.elapsed_before;
                let by = self.cfg.train.schedule_by;
                let progress =
                    |step: u64| by.progress(step, total_steps, elapsed(&start, before), limit);
                (losses, last_lr) = self.train_steps(n, &mp, progress)?;
                steps = n;
                if self.teacher.is_some() {
                    // The share of the next batch, as the Python trainers log it.
                    let size = self.cfg.train.batch_size;
                    let k =
                        bootstrap::teacher_count(&self.cfg.bootstrap, size, progress(self.step));
                    teacher_share = Some(k as f64 / size as f64);
                }
            }
            let train_s = train_start.elapsed().as_secs_f64();
            self.iteration = it;
            let now = elapsed(&start, self.elapsed_before);
            let mut rows: Vec<(&str, f64)> = Vec::new();
            if steps > 0 {
                let k = steps as f64;
                rows.push(("loss/policy", losses.policy / k));
                rows.push(("loss/value", losses.value / k));
                rows.push(("loss/total", losses.total / k));
                rows.push(("train/lr", last_lr));
            }
            if let Some(share) = teacher_share {
                rows.push(("train/teacher_share", share));
            }
            rows.extend(iteration_metrics(&st, st.seconds, train_s, st.seconds));
            metrics.log_all(it, self.step, now, &rows)?;
            let loss_txt = if steps > 0 {
                format!(
                    "policy {:.3} value {:.3}",
                    losses.policy / steps as f64,
                    losses.value / steps as f64
                )
            } else {
                format!(
                    "filling replay {}/{}",
                    self.replay.len(),
                    self.cfg.train.min_replay
                )
            };
            say(&mp, format!(
                "iter {it:>3} | {} games (W {} B {} D {}, {:.0} plies) | {:.0} evals/s, batch {:.0}, nn {:.0}%, cached {:.0}% | {} steps, {} | {:.0}+{:.0}s, total {:.0}s",
                st.games,
                st.white_wins,
                st.black_wins,
                st.draws,
                st.plies as f64 / st.games.max(1) as f64,
                st.nn_evals as f64 / st.seconds.max(1e-9),
                st.avg_batch(),
                100.0 * st.nn_share(),
                100.0 * st.cache_share(),
                self.step,
                loss_txt,
                st.seconds,
                train_s,
                now
            ))?;
            iter_bar.set_position(it);
            if it.is_multiple_of(self.cfg.run.checkpoint_every) {
                self.save(now)?;
                saved_at = it;
            }
            let (every, games) = (self.cfg.eval.every, self.cfg.eval.games);
            if every > 0 && it.is_multiple_of(every) && it < total_iters && games > 0 {
                let ev = self.evaluate(games, &mp)?;
                self.log_eval(&mut metrics, &ev, now)?;
                say(&mp, eval_table(&ev.rows))?;
                for line in ev.line.iter().chain(ev.value.map(|v| v.line()).as_ref()) {
                    say(&mp, format!("  {line}"))?;
                }
            }
        }
        iter_bar.finish_and_clear();
        let now = elapsed(&start, self.elapsed_before);
        if saved_at != self.iteration || !self.dir.join(checkpoint::META).exists() {
            self.save(now)?;
        }
        let mut ev = Evaluation::default();
        if self.cfg.eval.final_games > 0 {
            ev = self.evaluate(self.cfg.eval.final_games, &mp)?;
            self.log_eval(&mut metrics, &ev, now)?;
        }
        if let Err(e) = crate::plot::plot_run(&self.dir) {
            eprintln!("warning: plots not written: {e:#}");
        }
        Ok(ev)
    }

    fn log_eval(&self, metrics: &mut Metrics, ev: &Evaluation, now: f64) -> Result<()> {
        let rows = &ev.rows;
        let mut values = vec![("time/eval_s".to_string(), ev.seconds)];
        for r in rows {
            values.push((format!("eval/score_vs_{}", r.opponent), r.wdl.score()));
            values.push((
                format!("eval/games_vs_{}", r.opponent),
                r.wdl.games() as f64,
            ));
        }
        if let Some(first) = rows.first() {
            let elo = elo::finite_elo(first.wdl.score(), first.wdl.games());
            values.push(("eval/elo".to_string(), elo));
        }
        if let Some((elo, lo, hi)) = ev.ladder {
            values.extend([
                (LADDER[0].to_string(), elo),
                (LADDER[1].to_string(), lo),
                (LADDER[2].to_string(), hi),
            ]);
        }
        if let Some(v) = &ev.value {
            values.extend(v.metrics().into_iter().map(|(k, x)| (k.to_string(), x)));
        }
        metrics.log_all(self.iteration, self.step, now, &values)
    }

    /// `n` optimisation steps on batches from the replay window, the
    /// learning rate at `progress(step)` of the schedule; returns the summed
    /// losses and the last learning rate.
    fn train_steps(
        &mut self,
        n: u64,
        mp: &MultiProgress,
        progress: impl Fn(u64) -> f64,
    ) -> Result<(Losses, f64)> {
        let mut losses = Losses::default();
        let mut last_lr = 0.0;
        let tr_bar = mp.add(ProgressBar::new(n));
        tr_bar.set_style(style("  training   {bar:30} {pos}/{len} steps {msg}"));
        let device = self.net.device();
        for _ in 0..n {
            let at = progress(self.step);
            let batch = {
                let size = self.cfg.train.batch_size;
                let from_teacher = match &self.teacher {
                    Some(t) if !t.is_empty() => {
                        bootstrap::teacher_count(&self.cfg.bootstrap, size, at)
                    }
                    _ => 0,
                };
                let mut picks = self.replay.sample(size - from_teacher, &mut self.rng);
                if let Some(t) = self.teacher.as_ref().filter(|_| from_teacher > 0) {
                    picks.extend(t.sample(from_teacher, &mut self.rng));
                }
                Batch::new(
                    &picks,
                    &self.net.shape,
                    self.cfg.train.value_target_search as f32,
                    device,
                )
            };
            let lr = lr_at(&self.cfg.train, self.step, at);
            last_lr = lr;
            let l = train_step(
                &self.net,
                &mut self.opt,
                &batch,
                self.cfg.train.value_loss_weight,
                lr,
            );
            self.step += 1;
            losses.policy += l.policy;
            losses.value += l.value;
            losses.total += l.total;
            tr_bar.inc(1);
            tr_bar.set_message(format!("policy {:.3} value {:.3}", l.policy, l.value));
        }
        tr_bar.finish_and_clear();
        mp.remove(&tr_bar);
        self.infer.copy_from(&self.net)?;
        Ok((losses, last_lr))
    }

    /// `[bootstrap]`: `epochs` passes of training over the teacher's games
    /// (at the schedule's start), then their positions into the replay
    /// window, or (`mix` > 0) into the teacher's own buffer, written to the
    /// run folder for a resume.
    fn bootstrap(&mut self, mp: &MultiProgress, metrics: &mut Metrics) -> Result<()> {
        let b = self.cfg.bootstrap.clone();
        let bar = mp.add(ProgressBar::new(b.games as u64));
        bar.set_style(style("  teacher    {bar:30} {pos}/{len} games {msg}"));
        bar.set_message(b.player.clone());
        let seed = bootstrap::seed(self.cfg.run.seed);
        let max_plies = self.cfg.selfplay.max_plies;
        let t = bootstrap::teach(&b, self.variant, max_plies, seed, |n| bar.set_position(n))?;
        bar.finish_and_clear();
        mp.remove(&bar);
        let positions = t.samples.len();
        // The steps draw from all the teacher's positions, not only the
        // newest train.replay_window of them; the window keeps those after.
        let mut own = Replay::new(positions.max(1));
        for s in t.samples {
            own.push(s);
        }
        let window = std::mem::replace(&mut self.replay, own);
        let n = bootstrap::steps(positions, b.epochs, self.cfg.train.batch_size);
        let trained = self.train_steps(n, mp, |_| 0.0);
        let own = std::mem::replace(&mut self.replay, window);
        let (losses, _) = trained?;
        if b.mix > 0.0 {
            own.save(&self.dir.join(bootstrap::TEACHER))?;
            self.teacher = Some(own);
        } else {
            for s in own.into_samples() {
                self.replay.push(s);
            }
        }
        let k = n.max(1) as f64;
        metrics.log_all(
            0,
            self.step,
            t.seconds,
            &[
                ("bootstrap/games", t.games as f64),
                ("bootstrap/positions", positions as f64),
                ("bootstrap/seconds", t.seconds),
                ("bootstrap/loss_policy", losses.policy / k),
                ("bootstrap/loss_value", losses.value / k),
            ],
        )?;
        say(
            mp,
            format!(
                "bootstrap | {} games of {} (first mover W {} D {} L {}, {:.0} plies) in {:.0}s | {positions} positions, {n} steps, policy {:.3} value {:.3}",
                t.games,
                b.player,
                t.results[0],
                t.results[1],
                t.results[2],
                t.plies as f64 / t.games.max(1) as f64,
                t.seconds,
                losses.policy / k,
                losses.value / k
            ),
        )?;
        Ok(())
    }

    /// Evaluates the model (`eval.simulations` a move): a placement on the
    /// ladder with `games` games, starting at the rung nearest the last
    /// one (`eval.mode = "ladder"`), or `games` games against each
    /// configured opponent (the lockstep arena: all games' leaves in one
    /// forward pass per round).
    pub fn evaluate(&mut self, games: usize, mp: &MultiProgress) -> Result<Evaluation> {
        let mut ev = self.play_evaluation(games, mp)?;
        ev.value = self.value_stats()?;
        Ok(ev)
    }

    /// The value head on the held-out set (None without one): the
    /// network's WDL on its positions, batch-norm in inference mode.
    pub fn value_stats(&self) -> Result<Option<ValueStats>> {
        let Some(held) = &self.heldout else {
            return Ok(None);
        };
        let shape = &self.net.shape;
        let (c, n) = (shape.planes as i64, shape.board as i64);
        let per = (c * n * n) as usize;
        let obs = held.observations(self.variant);
        let mut wdl: Vec<[f32; 3]> = Vec::with_capacity(held.len());
        for chunk in obs.chunks(512 * per) {
            let b = (chunk.len() / per) as i64;
            let x = Tensor::from_slice(chunk)
                .view([b, c, n, n])
                .to_device(self.net.device());
            let (_, w) = tch::no_grad(|| self.net.forward(&x, false));
            let p = w.softmax(-1, Kind::Float).to_device(tch::Device::Cpu);
            let flat: Vec<f32> = Vec::<f32>::try_from(p.view([-1]))?;
            wdl.extend(flat.chunks_exact(3).map(|r| [r[0], r[1], r[2]]));
        }
        Ok(Some(
            heldout::measure(held, &wdl).map_err(|e| anyhow::anyhow!(e))?,
        ))
    }

    fn play_evaluation(&mut self, games: usize, mp: &MultiProgress) -> Result<Evaluation> {
        let params = self.cfg.search.clone();
        let sims = self.cfg.eval.simulations;
        let name = format!("model@{}", self.iteration);
        let model = network_side(&self.net, params, sims, name)?;
        let seed = self.cfg.run.seed.wrapping_add(self.iteration);
        let start = Instant::now();
        if self.cfg.eval.mode == EvalMode::Ladder {
            let ladder = Ladder::builtin(self.variant).map_err(|e| anyhow::anyhow!(e))?;
            let bar = mp.add(ProgressBar::new_spinner());
            bar.set_message(format!("  eval: placing on the ladder ({games} games)"));
            bar.enable_steady_tick(std::time::Duration::from_millis(200));
            let base = ArenaConfig {
                progress: false,
                ..Default::default()
            };
            let p = place::place_near(
                self.variant,
                &model,
                &ladder,
                games,
                seed,
                &base,
                self.ladder_elo,
            )?;
            bar.finish_and_clear();
            mp.remove(&bar);
            let (lo, hi) = p.interval();
            self.ladder_elo = Some(p.elo());
            return Ok(Evaluation {
                rows: p
                    .rungs
                    .iter()
                    .map(|r| EvalRow {
                        opponent: r.spec.clone(),
                        wdl: r.wdl,
                        pairs: r.pairs,
                    })
                    .collect(),
                ladder: Some((p.elo(), lo, hi)),
                line: Some(p.summary()),
                placed: true,
                seconds: start.elapsed().as_secs_f64(),
                value: None,
            });
        }
        let mut rows = Vec::new();
        for spec in &self.cfg.eval.opponents {
            let opp = Side::Player(rafle_search::parse_player(spec, self.variant)?);
            let cfg = ArenaConfig {
                games,
                seed,
                progress: false,
                ..Default::default()
            };
            let bar = mp.add(ProgressBar::new_spinner());
            bar.set_message(format!("  eval vs {spec} ({games} games)"));
            bar.enable_steady_tick(std::time::Duration::from_millis(200));
            let m = play_match(self.variant, &model, &opp, &cfg)?;
            bar.finish_and_clear();
            mp.remove(&bar);
            rows.push(EvalRow {
                opponent: spec.clone(),
                wdl: m.wdl,
                pairs: m.penta,
            });
        }
        let implied = ladder_fit(self.variant, &rows);
        let ladder = implied.as_ref().map(|(fit, _)| {
            let (lo, hi) = fit.interval();
            (fit.elo, lo, hi)
        });
        if let Some((elo, _, _)) = ladder {
            self.ladder_elo = Some(elo);
        }
        Ok(Evaluation {
            rows,
            ladder,
            line: implied.map(|(_, line)| line),
            placed: false,
            seconds: start.elapsed().as_secs_f64(),
            value: None,
        })
    }
}

/// The model's place on the variant's ladder implied by the table's games
/// against opponents that are rungs (no extra games), and its line
/// (`Ladder::implied_line`); None without a ladder or a rung opponent.
pub fn ladder_fit(variant: Variant, rows: &[EvalRow]) -> Option<(PlayerFit, String)> {
    let ladder = rafle_arena::ladder::Ladder::builtin(variant).ok()?;
    let results: Vec<(&str, Score)> = rows
        .iter()
        .map(|r| {
            let s = Score {
                wdl: r.wdl,
                pairs: r.pairs,
            };
            (r.opponent.as_str(), s)
        })
        .collect();
    ladder.implied_line(&results)
}

/// The evaluation table printed during and after training.
pub fn eval_table(rows: &[EvalRow]) -> String {
    let mut out = String::from("  opponent          games   wins  draws losses   score     elo\n");
    for r in rows {
        out.push_str(&format!(
            "  {:<16} {:>6} {:>6} {:>6} {:>6} {:>6.1}% {:>+7.0}\n",
            r.opponent,
            r.wdl.games(),
            r.wdl.wins,
            r.wdl.draws,
            r.wdl.losses,
            100.0 * r.wdl.score(),
            elo::finite_elo(r.wdl.score(), r.wdl.games())
        ));
    }
    out.pop();
    out
}

/// A summary line: above the progress bars, or plain stdout when quiet.
fn say(mp: &MultiProgress, line: String) -> std::io::Result<()> {
    if mp.is_hidden() {
        println!("{line}");
        Ok(())
    } else {
        mp.println(line)
    }
}

fn style(template: &str) -> ProgressStyle {
    ProgressStyle::with_template(template).unwrap_or_else(|_| ProgressStyle::default_bar())
}
