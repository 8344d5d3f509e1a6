//! `rafle train-eval`: a learned alpha-beta evaluation by generations of
//! self-play (the way Scan's and Kingsrow's were learned). Each generation:
//!
//! 1. alpha-beta games with the current evaluation (the hand-written one
//!    at first), random openings and a share of random moves; every
//!    searched quiet position kept with its score and the game's result
//!    (`rafle_train::evaltrain::games`);
//! 2. a fit of the design's float model to the newest `fit.window`
//!    positions (target: the result blended with sigmoid(score / 100),
//!    binary cross-entropy, Adam on a cosine schedule), a share held out;
//! 3. the floats written as an evaluation file (`eval-NNN.safetensors` and
//!    `eval.safetensors`), read back as the next generation's evaluation;
//! 4. a match of the new evaluation against the hand-written one at the
//!    same depth, colour-swapped pairs from random openings.
//!
//! Metrics go to `metrics.csv` and TensorBoard (the iteration is the
//! generation); `state.json` is written last, so a killed run resumes at
//! the generation after its last whole one.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};
use indicatif::{MultiProgress, ProgressBar, ProgressDrawTarget, ProgressStyle};
use rafle_arena::play::{play_match, ArenaConfig, Side};
use rafle_core::rng::Rng;
use rafle_core::Variant;
use rafle_search::alphabeta::{AlphaBeta, Limits};
use rafle_search::learned::{self, file, frame::Frame, patterns, Design, Learned};
use rafle_search::{Player, PlayerFactory};
use rafle_train::evaltrain::config::Config;
use rafle_train::evaltrain::games::{self, Labelled};
use rafle_train::evaltrain::state::{self, State};
use rafle_train::metrics::Metrics;
use tch::nn::{self, OptimizerConfig};
use tch::{Kind, Tensor};

/// The float model being fitted.
struct Model {
    vs: nn::VarStore,
    design: Design,
    frame: Frame,
    /// Inputs per position (patterns) or per frame (net).
    inputs: usize,
    /// The variables by name.
    params: BTreeMap<String, Tensor>,
    /// [inputs + 1, 1]: ones, then the padding input's zero (a net's w1 is
    /// multiplied by it, so padding adds nothing and learns nothing).
    pad_mask: Tensor,
}

impl std::fmt::Debug for Model {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Model({:?} on {})", self.design, self.frame.variant)
    }
}

/// One batch as tensors.
struct Batch {
    /// patterns: [B, F] inputs and values; net: [B, P] of each frame, padded
    /// with the zero input `inputs`.
    idx: Tensor,
    val: Tensor,
    them: Tensor,
    phase: Tensor,
    target: Tensor,
}

impl Model {
    fn new(variant: Variant, design: Design, seed: u64) -> Model {
        let vs = nn::VarStore::new(tch::Device::Cpu);
        let inputs = learned::inputs(variant, design);
        let root = vs.root();
        match design {
            Design::Patterns => {
                // Material from the hand-written piece values (a man is a logit),
                // everything else from zero.
                let (man, king) = rafle_search::eval::piece_values(variant);
                let sign = if variant.rules().goal == rafle_core::Goal::NoMoveWins {
                    -1.0
                } else {
                    1.0
                };
                let mut init = vec![0f32; inputs];
                let base = inputs - patterns::EXTRAS.len();
                for (e, v) in [(0, man), (1, -man), (2, king), (3, -king)] {
                    init[base + e] = sign * v as f32 / 100.0;
                }
                let t = Tensor::from_slice(&init);
                for name in ["mg", "eg"] {
                    let _ = root.var_copy(name, &t);
                }
            }
            Design::Net { hidden, hidden2 } => {
                let (h, h2) = (hidden as i64, hidden2 as i64);
                let pieces = Frame::new(variant).start_pieces as f64;
                // Drawn from the run's seed, not torch's global generator
                // (other trainers in the process keep theirs).
                let mut rng = Rng::stream(seed, 0x1417);
                let mut randn = |shape: &[i64], stdev: f64| {
                    let n: i64 = shape.iter().product();
                    let v: Vec<f32> = (0..n)
                        .map(|_| {
                            let (u, w) = (rng.unit_f64().max(1e-12), rng.unit_f64());
                            ((-2.0 * u.ln()).sqrt() * (std::f64::consts::TAU * w).cos() * stdev)
                                as f32
                        })
                        .collect();
                    Tensor::from_slice(&v).view(shape)
                };
                // The padding row (index `inputs`) stays zero: masked in the forward pass.
                let w1 = randn(&[inputs as i64 + 1, h], 1.0 / pieces.sqrt());
                let w2 = randn(&[2 * h, h2], (1.0 / (2 * h) as f64).sqrt());
                let w3 = randn(&[h2], (1.0 / h2 as f64).sqrt());
                for (name, t) in [
                    ("w1", w1),
                    (
                        "b1",
                        Tensor::full([h], 0.5, (Kind::Float, tch::Device::Cpu)),
                    ),
                    ("w2", w2),
                    ("b2", Tensor::zeros([h2], (Kind::Float, tch::Device::Cpu))),
                    ("w3", w3),
                    ("b3", Tensor::zeros([1], (Kind::Float, tch::Device::Cpu))),
                ] {
                    let _ = root.var_copy(name, &t);
                }
            }
        }
        let params = vs.variables().into_iter().collect();
        let pad_mask = Tensor::ones([inputs as i64 + 1, 1], (Kind::Float, tch::Device::Cpu));
        let _ = pad_mask.narrow(0, inputs as i64, 1).fill_(0.0);
        Model {
            pad_mask,
            vs,
            design,
            frame: Frame::new(variant),
            inputs,
            params,
        }
    }

    fn var(&self, name: &str) -> Tensor {
        self.params[name].shallow_clone()
    }

    /// Logits of the mover's expected score, [B].
    fn forward(&self, b: &Batch) -> Tensor {
        match self.design {
            Design::Patterns => {
                let gather =
                    |w: &Tensor| {
                        (w.index_select(0, &b.idx.view([-1])).view_as(&b.val) * &b.val)
                            .sum_dim_intlist(-1, false, Kind::Float)
                    };
                let (mg, eg) = (gather(&self.var("mg")), gather(&self.var("eg")));
                &b.phase * mg + (1.0 - &b.phase) * eg
            }
            Design::Net { hidden, .. } => {
                let w1 = self.var("w1");
                let n = b.idx.size()[0];
                let w1 = &w1 * &self.pad_mask;
                let acc = |idx: &Tensor| {
                    (w1.index_select(0, &idx.view([-1]))
                        .view([n, -1, hidden as i64])
                        .sum_dim_intlist(1, false, Kind::Float)
                        + self.var("b1"))
                    .clamp(0.0, 1.0)
                };
                let a = Tensor::cat(&[acc(&b.idx), acc(&b.them)], 1);
                let z = (a.matmul(&self.var("w2")) + self.var("b2")).clamp(0.0, 1.0);
                z.matmul(&self.var("w3")) + self.var("b3")
            }
        }
    }

    fn floats(&self) -> BTreeMap<String, Vec<f32>> {
        let mut out = BTreeMap::new();
        for &name in file::tensor_names(self.design) {
            let mut t = self.var(name).detach();
            if name == "w1" {
                t = t.narrow(0, 0, self.inputs as i64);
            }
            let v: Vec<f32> =
                Vec::<f32>::try_from(t.contiguous().view([-1])).expect("a float tensor");
            out.insert(name.to_string(), v);
        }
        out
    }

    /// Starts from the floats of an evaluation file (a resumed run).
    fn load_floats(&mut self, path: &Path) -> Result<()> {
        let floats = file::read_floats(path)?;
        if floats.design != self.design {
            bail!(
                "{} is a {} evaluation, the run trains {}",
                path.display(),
                floats.design.name(),
                self.design.name()
            );
        }
        tch::no_grad(|| -> Result<()> {
            for &name in file::tensor_names(self.design) {
                let v = &floats.tensors[name];
                let mut var = self.var(name);
                let t = Tensor::from_slice(v);
                if name == "w1" {
                    var.narrow(0, 0, self.inputs as i64)
                        .copy_(&t.view([self.inputs as i64, -1]));
                } else {
                    var.copy_(&t.view_as(&var));
                }
            }
            Ok(())
        })
    }

    fn batch(&self, positions: &[Labelled], ids: &[usize], result_weight: f64) -> Batch {
        let n = ids.len() as i64;
        let mut idx = Vec::new();
        let mut val = Vec::new();
        let mut them = Vec::new();
        let mut phase = Vec::with_capacity(ids.len());
        let mut target = Vec::with_capacity(ids.len());
        let width = 2 * self.frame.start_pieces as usize;
        for &i in ids {
            let l = &positions[i];
            let f = learned::features_in(&self.frame, self.design, &l.pos);
            phase.push(f.phase);
            target.push(games::target(l, result_weight));
            match self.design {
                Design::Patterns => {
                    idx.extend(f.indices.iter().map(|&x| x as i64));
                    val.extend(f.values);
                }
                Design::Net { .. } => {
                    for (src, dst) in [(&f.indices, &mut idx), (&f.them, &mut them)] {
                        dst.extend(src.iter().map(|&x| x as i64));
                        dst.extend(std::iter::repeat_n(self.inputs as i64, width - src.len()));
                    }
                }
            }
        }
        let idx = Tensor::from_slice(&idx).view([n, -1]);
        Batch {
            val: if val.is_empty() {
                Tensor::zeros([1], (Kind::Float, tch::Device::Cpu))
            } else {
                Tensor::from_slice(&val).view([n, -1])
            },
            them: if them.is_empty() {
                Tensor::zeros([1], (Kind::Int64, tch::Device::Cpu))
            } else {
                Tensor::from_slice(&them).view([n, -1])
            },
            idx,
            phase: Tensor::from_slice(&phase),
            target: Tensor::from_slice(&target),
        }
    }
}

fn loss(logits: &Tensor, target: &Tensor) -> Tensor {
    logits.binary_cross_entropy_with_logits::<Tensor>(target, None, None, tch::Reduction::Mean)
}

/// What a finished run reports.
#[derive(Clone, Debug)]
pub struct Summary {
    pub generations: u64,
    pub minutes: f64,
    /// The last generation's check match: score of the learned evaluation (0..1) and games.
    pub check: Option<(f64, usize)>,
    pub eval: PathBuf,
}

#[derive(Debug)]
pub struct EvalTrainer {
    pub cfg: Config,
    pub dir: PathBuf,
    state: State,
    model: Model,
    quiet: bool,
}

fn style(template: &str) -> ProgressStyle {
    ProgressStyle::with_template(template).expect("a valid template")
}

impl EvalTrainer {
    /// A fresh run (its folder must not hold one already).
    pub fn new(cfg: Config, quiet: bool) -> Result<EvalTrainer> {
        let dir = PathBuf::from(&cfg.run.out_dir);
        if State::read(&dir)?.is_some() {
            bail!(
                "{} holds a run already: rafle train-eval --resume {} goes on with it",
                dir.display(),
                dir.display()
            );
        }
        std::fs::create_dir_all(&dir)
            .with_context(|| format!("cannot create {}", dir.display()))?;
        let model = Model::new(cfg.run.variant, cfg.model.design()?, cfg.run.seed);
        let state = State {
            config: cfg.to_toml(),
            ..State::default()
        };
        Ok(EvalTrainer {
            cfg,
            dir,
            state,
            model,
            quiet,
        })
    }

    /// Goes on with the run in `dir` from its last whole generation.
    pub fn resume(dir: &Path, quiet: bool) -> Result<EvalTrainer> {
        let Some(state) = State::read(dir)? else {
            bail!(
                "{} has no finished generation to resume from ({} missing)",
                dir.display(),
                state::FILE
            );
        };
        let cfg = Config::from_table(state.config.parse().context("the state's config")?)?;
        let mut model = Model::new(cfg.run.variant, cfg.model.design()?, cfg.run.seed);
        model.load_floats(&state::eval_file(dir, state.generations - 1))?;
        Ok(EvalTrainer {
            cfg,
            dir: dir.to_path_buf(),
            state,
            model,
            quiet,
        })
    }

    pub fn generations_done(&self) -> u64 {
        self.state.generations
    }

    pub fn run(&mut self) -> Result<Summary> {
        let start = Instant::now();
        let before = self.state.minutes;
        let minutes = |s: &Instant| before + s.elapsed().as_secs_f64() / 60.0;
        if self.cfg.run.torch_threads > 0 {
            tch::set_num_threads(self.cfg.run.torch_threads as i32);
        }
        let mp = MultiProgress::with_draw_target(if self.quiet {
            ProgressDrawTarget::hidden()
        } else {
            ProgressDrawTarget::stderr()
        });
        let variant = self.cfg.run.variant;
        let total = self.cfg.run.generations;
        let gen_bar = mp.add(ProgressBar::new(total));
        gen_bar.set_style(style(
            "generations {bar:30} {pos}/{len} [{elapsed_precise}] {msg}",
        ));
        gen_bar.set_position(self.state.generations);
        let mut metrics = Metrics::open(&self.dir, self.state.generations == 0)?;
        // Rows of a generation a kill cut before its state was written.
        metrics.truncate_after(self.state.generations)?;
        mp.println(format!(
            "rafle train-eval: {variant} | {} | {} games a generation at depth {} | dir {}",
            self.cfg.model.design,
            self.cfg.games.games,
            self.cfg.games.depth,
            self.dir.display()
        ))?;
        // The window, newest last.
        let mut window: Vec<Labelled> = Vec::new();
        for g in (0..self.state.generations).rev() {
            if window.len() >= self.cfg.fit.window {
                break;
            }
            let mut older = games::load(&state::games_file(&self.dir, g), variant)?;
            older.extend(window);
            window = older;
        }
        let mut last_check = None;
        while self.state.generations < total {
            let limit = self.cfg.run.time_limit_min;
            if limit > 0.0 && minutes(&start) >= limit {
                mp.println(format!("time limit of {limit} min reached"))?;
                break;
            }
            let g = self.state.generations;
            let eval = if g == 0 {
                None
            } else {
                Some(learned::load(&state::eval_file(&self.dir, g - 1), variant)?)
            };
            let depth = if g == 0 && self.cfg.games.first_depth > 0 {
                self.cfg.games.first_depth
            } else {
                self.cfg.games.depth
            };
            // 1. Games.
            let t0 = Instant::now();
            let bar = mp.add(ProgressBar::new(self.cfg.games.games as u64));
            bar.set_style(style(
                "  games     {bar:30} {pos}/{len} [{elapsed_precise}<{eta_precise}]",
            ));
            let done = AtomicUsize::new(0);
            let seed = Rng::stream(self.cfg.run.seed, g).next_u64();
            let generated = std::thread::scope(|s| {
                let h = s.spawn(|| {
                    games::generate(variant, &self.cfg.games, depth, eval.clone(), seed, &done)
                });
                while !h.is_finished() {
                    bar.set_position(done.load(Ordering::Relaxed) as u64);
                    std::thread::sleep(Duration::from_millis(200));
                }
                h.join().expect("the games do not panic")
            });
            bar.finish_and_clear();
            mp.remove(&bar);
            let games_s = t0.elapsed().as_secs_f64();
            games::save(
                &state::games_file(&self.dir, g),
                variant,
                &generated.positions,
            )?;
            window.extend_from_slice(&generated.positions);
            if window.len() > self.cfg.fit.window {
                window.drain(..window.len() - self.cfg.fit.window);
            }
            // 2. Fit.
            let t1 = Instant::now();
            let (train_loss, holdout_loss, base_loss) = self.fit(&mp, &window, g)?;
            let fit_s = t1.elapsed().as_secs_f64();
            // 3. The evaluation file.
            let mut meta = BTreeMap::new();
            meta.insert("generation".to_string(), (g + 1).to_string());
            meta.insert("positions".to_string(), window.len().to_string());
            meta.insert("minutes".to_string(), format!("{:.1}", minutes(&start)));
            meta.insert("commit".to_string(), crate::commit());
            meta.insert("config".to_string(), self.cfg.to_toml());
            let floats = self.model.floats();
            let path = state::eval_file(&self.dir, g);
            file::write(&path, variant, self.model.design, &floats, &meta)?;
            file::write(
                &self.dir.join(state::LATEST),
                variant,
                self.model.design,
                &floats,
                &meta,
            )?;
            // 4. The check match.
            let mut rows: Vec<(&str, f64)> = vec![
                ("games/games", generated.games as f64),
                ("games/positions", generated.positions.len() as f64),
                ("games/window", window.len() as f64),
                (
                    "games/plies_per_game",
                    generated.plies as f64 / generated.games.max(1) as f64,
                ),
                (
                    "games/stopped_share",
                    generated.stopped as f64 / generated.games.max(1) as f64,
                ),
                (
                    "games/decisive_share",
                    generated.decisive as f64 / generated.games.max(1) as f64,
                ),
                (
                    "games/nodes_per_s",
                    generated.nodes as f64 / games_s.max(1e-9),
                ),
                ("games/seconds", games_s),
                ("fit/train_loss", train_loss),
                ("fit/holdout_loss", holdout_loss),
                ("fit/holdout_constant_loss", base_loss),
                ("fit/seconds", fit_s),
            ];
            if self.cfg.check.games > 0 {
                let learned = learned::load(&path, variant)?;
                let (score, n) = check_match(variant, &self.cfg, learned, &mp, seed)?;
                rows.push(("check/score", score));
                rows.push(("check/elo", rafle_arena::elo::finite_elo(score, n as u32)));
                last_check = Some((score, n));
            }
            self.state.generations = g + 1;
            self.state.minutes = minutes(&start);
            rows.push(("time/minutes", self.state.minutes));
            metrics.log_all(g + 1, g + 1, self.state.minutes * 60.0, &rows)?;
            self.state.write(&self.dir)?;
            gen_bar.set_position(g + 1);
            let msg = format!(
                "generation {}: {} positions (window {}), holdout loss {:.4} (constant {:.4}){}",
                g + 1,
                generated.positions.len(),
                window.len(),
                holdout_loss,
                base_loss,
                last_check.map_or(String::new(), |(s, n)| format!(
                    ", {:.1}% over {n} games against alphabeta:{}",
                    100.0 * s,
                    self.cfg.check.depth
                ))
            );
            gen_bar.set_message(msg.clone());
            if self.quiet {
                println!("{msg}");
            } else {
                mp.println(msg)?;
            }
        }
        gen_bar.finish_and_clear();
        Ok(Summary {
            generations: self.state.generations,
            minutes: self.state.minutes,
            check: last_check,
            eval: self.dir.join(state::LATEST),
        })
    }

    /// Fits the window; returns the last epoch's train loss, the holdout
    /// loss and the holdout loss of the best constant.
    fn fit(&mut self, mp: &MultiProgress, window: &[Labelled], g: u64) -> Result<(f64, f64, f64)> {
        let f = &self.cfg.fit;
        let mut rng = Rng::stream(self.cfg.run.seed ^ 0xF17, g);
        // Held out by a hash of the position: the same positions every generation.
        let held = |l: &Labelled| (l.pos.zobrist() % 1000) < (f.holdout * 1000.0) as u64;
        let (mut train, hold): (Vec<usize>, Vec<usize>) =
            (0..window.len()).partition(|&i| !held(&window[i]));
        if train.is_empty() {
            bail!("no position to fit: the games gave none");
        }
        let steps_per_epoch = train.len().div_ceil(f.batch_size);
        let total = (steps_per_epoch * f.epochs) as u64;
        let bar = mp.add(ProgressBar::new(total));
        bar.set_style(style(
            "  fit       {bar:30} {pos}/{len} steps [{elapsed_precise}<{eta_precise}] {msg}",
        ));
        let mut opt = nn::Adam::default().build(&self.model.vs, f.lr)?;
        if f.weight_decay > 0.0 {
            opt.set_weight_decay(f.weight_decay);
        }
        let mut step = 0u64;
        let mut last = 0.0;
        for _ in 0..f.epochs {
            for i in (1..train.len()).rev() {
                train.swap(i, rng.below(i + 1));
            }
            let (mut sum, mut count) = (0.0, 0usize);
            for ids in train.chunks(f.batch_size) {
                let lr = f.lr
                    * (0.1
                        + 0.9
                            * 0.5
                            * (1.0 + (std::f64::consts::PI * step as f64 / total as f64).cos()));
                opt.set_lr(lr);
                let b = self.model.batch(window, ids, f.result_weight);
                let l = loss(&self.model.forward(&b), &b.target);
                opt.backward_step(&l);
                sum += l.double_value(&[]) * ids.len() as f64;
                count += ids.len();
                step += 1;
                if step.is_multiple_of(50) {
                    bar.set_position(step);
                    bar.set_message(format!("loss {:.4}", sum / count as f64));
                }
            }
            last = sum / count.max(1) as f64;
        }
        bar.finish_and_clear();
        mp.remove(&bar);
        let (mut hl, mut hb, mut n) = (0.0, 0.0, 0usize);
        if !hold.is_empty() {
            let mean = hold
                .iter()
                .map(|&i| games::target(&window[i], f.result_weight) as f64)
                .sum::<f64>()
                / hold.len() as f64;
            let logit = (mean.clamp(1e-6, 1.0 - 1e-6) / (1.0 - mean.clamp(1e-6, 1.0 - 1e-6))).ln();
            tch::no_grad(|| {
                for ids in hold.chunks(4096) {
                    let b = self.model.batch(window, ids, f.result_weight);
                    hl += loss(&self.model.forward(&b), &b.target).double_value(&[])
                        * ids.len() as f64;
                    let c =
                        Tensor::full([ids.len() as i64], logit, (Kind::Float, tch::Device::Cpu));
                    hb += loss(&c, &b.target).double_value(&[]) * ids.len() as f64;
                    n += ids.len();
                }
            });
        }
        let n = n.max(1) as f64;
        Ok((last, hl / n, hb / n))
    }
}

/// The learned evaluation against the hand-written one at `check.depth`.
fn check_match(
    variant: Variant,
    cfg: &Config,
    eval: Arc<Learned>,
    mp: &MultiProgress,
    seed: u64,
) -> Result<(f64, usize)> {
    let limits = Limits {
        depth: Some(cfg.check.depth),
        time: None,
    };
    let d = cfg.check.depth;
    let learned: PlayerFactory = Arc::new(move |s| {
        Box::new(
            AlphaBeta::new(variant, limits, s)
                .with_eval(Some(eval.clone()))
                .with_name(format!("alphabeta:d={d},eval=learned")),
        ) as Box<dyn Player>
    });
    let hand: PlayerFactory =
        Arc::new(move |s| Box::new(AlphaBeta::new(variant, limits, s)) as Box<dyn Player>);
    let arena = ArenaConfig {
        games: cfg.check.games,
        seed,
        opening_plies: cfg.check.opening_plies,
        progress: false,
        ..ArenaConfig::default()
    };
    let bar = mp.add(ProgressBar::new_spinner());
    bar.set_message(format!(
        "  check match: {} games against alphabeta:{d}",
        cfg.check.games
    ));
    bar.enable_steady_tick(Duration::from_millis(250));
    let r = play_match(variant, &Side::Player(learned), &Side::Player(hand), &arena)
        .map_err(|e| anyhow::anyhow!("check match: {e}"))?;
    bar.finish_and_clear();
    mp.remove(&bar);
    Ok((
        r.wdl.score(),
        (r.wdl.wins + r.wdl.draws + r.wdl.losses) as usize,
    ))
}
