//! Smoke runs of the trainer with a tiny network: losses, learning on a fixed
//! batch, checkpoint reload, resume, and `rafle bench train` on the tiny
//! config.

use crate::common;

use std::path::Path;

use rafle_core::rng::Rng;
use rafle_train::config::{BootstrapPolicy, BootstrapValue, Config, ConvDtype, InferenceDtype};
use rafle_train::evaltrain::games::Labelled;
use rafle_train::heldout::HeldOut;
use rafle_train::metrics;
use rafle_train::replay::Replay;
use rafle_zero::checkpoint::{self, load_net, probe_positions};
use rafle_zero::net::{bf16_is_fast, Folded};
use rafle_zero::optim::Optimizer;
use rafle_zero::replay::Batch;
use rafle_zero::train::{target_entropy, train_step, Trainer};
use tch::Device;

/// The tiny run shared with python/tests/test_model.py (`OUT` = the run dir).
const TINY: &str = include_str!("../data/tiny.toml");

fn tiny(dir: &Path, iterations: u64) -> Config {
    let mut cfg = Config::parse(&TINY.replace("OUT", &dir.display().to_string())).unwrap();
    cfg.run.iterations = iterations;
    cfg
}

/// The largest absolute difference between two equally long outputs.
fn max_diff(a: &[f32], b: &[f32]) -> f32 {
    a.iter()
        .zip(b)
        .map(|(x, y)| (x - y).abs())
        .fold(0f32, f32::max)
}

fn tmp(name: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("rafle-zero-test-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

fn values(rows: &[metrics::Row], name: &str) -> Vec<f64> {
    rows.iter()
        .filter(|r| r.name == name)
        .map(|r| r.value)
        .collect()
}

#[test]
fn smoke_run_losses_are_finite_and_a_fixed_batch_is_learnt() {
    let dir = tmp("smoke");
    let mut t = Trainer::new(tiny(&dir, 2), true).unwrap();
    t.run().unwrap();
    assert_eq!(t.iteration, 2);
    // 48 positions * reuse 1 / batch 16 = 3 steps per iteration.
    assert_eq!(t.step, 6);
    assert!(t.replay.len() >= 96);
    let rows = metrics::read(&dir).unwrap();
    let policy = values(&rows, "loss/policy");
    let value = values(&rows, "loss/value");
    assert_eq!(policy.len(), 2);
    assert!(
        policy
            .iter()
            .chain(&value)
            .all(|x| x.is_finite() && *x > 0.0),
        "{rows:?}"
    );
    assert_eq!(values(&rows, "selfplay/avg_batch"), vec![8.0, 8.0]);
    assert!(values(&rows, "selfplay/nn_evals_per_s")
        .iter()
        .all(|&x| x > 0.0));

    // Training on one fixed batch drives its policy loss down.
    let mut rng = Rng::new(3);
    let picks = t.replay.sample(16, &mut rng);
    let batch = Batch::new(&picks, &t.net.shape, 0.5, Device::Cpu);
    let mut opt = Optimizer::new(&t.net.vs, &t.cfg.train);
    let first = train_step(&t.net, &mut opt, &batch, 1.0, 0.01);
    let mut last = first;
    for _ in 0..60 {
        last = train_step(&t.net, &mut opt, &batch, 1.0, 0.01);
    }
    assert!(first.policy.is_finite() && last.policy.is_finite());
    assert!(
        last.policy < 0.7 * first.policy,
        "policy loss {} -> {}",
        first.policy,
        last.policy
    );
    assert!(
        last.value < first.value,
        "value loss {} -> {}",
        first.value,
        last.value
    );
    // The value loss is reported less the targets' own entropy: what the
    // head has left to learn, never below 0.
    let one_hot = tch::Tensor::from_slice(&[0.0f32, 1.0, 0.0, 1.0, 0.0, 0.0]).view([2, 3]);
    assert!(target_entropy(&one_hot).abs() < 1e-9);
    let even = tch::Tensor::from_slice(&[1.0f32 / 3.0; 3]).view([1, 3]);
    assert!((target_entropy(&even) - 3f64.ln()).abs() < 1e-6);
    let h = target_entropy(&batch.value);
    assert!(h > 0.0, "soft value targets have entropy");
    let ce = rafle_zero::train::batch_losses(&t.net, &batch, 1.0, true).1;
    let step = train_step(&t.net, &mut opt, &batch, 1.0, 0.0);
    assert!(
        (step.value - (ce.double_value(&[]) - h)).abs() < 1e-4,
        "{step:?}"
    );
    assert!(step.value > -1e-6, "{step:?}");

    // bf16 convolutions over the f32 weights: the losses of the same batch
    // are close to f32's, the weights stay f32 and the batch is learnt too
    // (the gradients reach the weights through the casts).
    let f32_losses = rafle_zero::train::batch_losses(&t.net, &batch, 1.0, true);
    t.net.set_conv_dtype(ConvDtype::Bf16);
    let mixed = rafle_zero::train::batch_losses(&t.net, &batch, 1.0, true);
    let (a, b) = (f32_losses.2.double_value(&[]), mixed.2.double_value(&[]));
    assert!(
        (a - b).abs() < 0.05 * a.abs().max(0.1),
        "f32 {a}, bf16 convs {b}"
    );
    let mut fresh = rafle_zero::net::Net::new(t.net.shape.clone(), Device::Cpu, 5);
    fresh.set_conv_dtype(ConvDtype::Bf16);
    let mut opt = Optimizer::new(&fresh.vs, &t.cfg.train);
    let first = train_step(&fresh, &mut opt, &batch, 1.0, 0.01);
    let mut last = first;
    for _ in 0..60 {
        last = train_step(&fresh, &mut opt, &batch, 1.0, 0.01);
    }
    assert_eq!(fresh.vs.kind(), tch::Kind::Float);
    assert!(
        last.policy < 0.7 * first.policy,
        "bf16 convs: policy loss {} -> {}",
        first.policy,
        last.policy
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn checkpoint_reloads_to_the_same_outputs() {
    let dir = tmp("reload");
    let mut t = Trainer::new(tiny(&dir, 1), true).unwrap();
    t.run().unwrap();
    let (loaded, meta) = load_net(&dir.join(checkpoint::WEIGHTS), Device::Cpu).unwrap();
    assert_eq!(meta.step, t.step);
    assert_eq!(meta.shape, t.net.shape);
    let (obs, _) = probe_positions(&t.net).unwrap();
    let n = checkpoint::PROBE_POSITIONS;
    let (p1, v1) = t.net.infer(&obs, n);
    let (p2, v2) = loaded.infer(&obs, n);
    assert_eq!(p1, p2);
    assert_eq!(v1, v2);
    // A fresh network with another seed differs: the comparison can fail.
    let (other, _) = (
        rafle_zero::net::Net::new(t.net.shape.clone(), Device::Cpu, 99),
        (),
    );
    assert_ne!(other.infer(&obs, n).0, p1);
    // The bf16 inference copy is bf16 and close to the f32 network.
    let half = t.net.inference_copy(InferenceDtype::Bf16).unwrap();
    assert_eq!(half.vs.kind(), tch::Kind::BFloat16);
    let (p3, v3) = half.infer(&obs, n);
    let (dp, dv) = (max_diff(&p1, &p3), max_diff(&v1, &v3));
    assert!(
        dp < 0.1 && dv < 0.05,
        "bf16 differs: logits {dp}, values {dv}"
    );
    // Batch norm folded into the convolutions (what the search runs) gives
    // the network's outputs; after a training iteration the running
    // statistics are no longer the identity, so the fold is tested.
    let folded = Folded::new(&t.net, tch::Kind::Float);
    let (p4, v4) = folded.infer(&obs, n);
    let close = |a: &[f32], b: &[f32]| {
        a.len() == b.len()
            && a.iter()
                .zip(b)
                .all(|(x, y)| (x - y).abs() <= 1e-4 * (1.0 + x.abs()))
    };
    assert!(close(&p1, &p4) && close(&v1, &v4), "folded differs");
    assert!(!close(&other.infer(&obs, n).0, &p4));
    let (p5, v5) = Folded::new(&t.net, tch::Kind::BFloat16).infer(&obs, n);
    let (dp, dv) = (max_diff(&p1, &p5), max_diff(&v1, &v5));
    assert!(
        dp < 0.1 && dv < 0.05,
        "bf16 folded differs: logits {dp}, values {dv}"
    );
    // Replay buffer round trip.
    let replay = Replay::load(&dir.join(checkpoint::REPLAY), 1000).unwrap();
    assert_eq!(replay.len(), t.replay.len());
    assert_eq!(replay.total_added, t.replay.total_added);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn evaluations_place_the_model_on_the_ladder_from_its_last_place() {
    let dir = tmp("ladder-eval");
    let mut cfg = tiny(&dir, 2);
    cfg.eval.every = 1;
    cfg.eval.games = 2;
    cfg.eval.final_games = 2;
    let mut t = Trainer::new(cfg, true).unwrap();
    // A held-out set of positions from random openings, outcomes in turn.
    let mut rng = Rng::new(5);
    let held: Vec<Labelled> = (0..12)
        .map(|i| {
            let mut g = rafle_core::Game::new(t.variant);
            for m in rafle_core::opening::random_opening(t.variant, &[], 6, &mut rng) {
                g.play(&m).unwrap();
            }
            Labelled {
                pos: *g.position(),
                score: 0,
                result: [0.0, 0.5, 1.0][i % 3],
            }
        })
        .collect();
    t.heldout = Some(HeldOut::from_labelled(&held, &[]));
    let fin = t.run().unwrap();
    assert!(fin.placed && fin.rows.len() == 1, "{fin:?}");
    let value = fin.value.unwrap();
    assert_eq!(value.positions, 12);
    assert!(value.corr.abs() <= 1.0 && value.ce > 0.0, "{value:?}");
    assert!((value.ce_constant - 3f64.ln()).abs() < 1e-9, "{value:?}");
    let line = fin.line.clone().unwrap();
    assert!(
        line.starts_with("ladder elo ") && line.contains("placed by 2 games"),
        "{line}"
    );
    let rows = metrics::read(&dir).unwrap();
    for name in [
        "eval/ladder_elo",
        "eval/ladder_lo",
        "eval/ladder_hi",
        "time/eval_s",
        "eval/value_corr",
        "eval/value_corr_material",
        "eval/value_ce",
    ] {
        // The periodic placement after iteration 1 and the final one.
        assert_eq!(values(&rows, name).len(), 2, "{name}: {rows:?}");
    }
    let elo = values(&rows, "eval/ladder_elo");
    assert_eq!(t.ladder_elo, Some(elo[1]));
    let (lo, hi) = (
        values(&rows, "eval/ladder_lo"),
        values(&rows, "eval/ladder_hi"),
    );
    assert!(lo[1] <= elo[1] && elo[1] <= hi[1], "{rows:?}");
    // The next placement starts at the rung nearest the last one.
    let ladder = rafle_arena::ladder::Ladder::builtin(t.variant).unwrap();
    let nearest = |e: f64| {
        let d = |r: &rafle_arena::ladder::Rung| (r.elo - e).abs();
        ladder
            .rungs
            .iter()
            .min_by(|a, b| d(a).total_cmp(&d(b)))
            .unwrap()
            .spec
            .clone()
    };
    let mp = indicatif::MultiProgress::with_draw_target(indicatif::ProgressDrawTarget::hidden());
    let next = t.evaluate(2, &mp).unwrap();
    assert_eq!(next.rows[0].opponent, nearest(elo[1]));
    drop(t);
    // A resumed run starts from the last placement in metrics.csv.
    let r = Trainer::resume(&dir, true).unwrap();
    assert_eq!(r.ladder_elo, Some(elo[1]));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_schedule_by_steps_is_the_same_on_any_machine() {
    use rafle_train::config::ScheduleBy;
    // Progress: steps alone, or the larger of steps and time.
    assert_eq!(ScheduleBy::Steps.progress(20, 100, 80.0, 100.0), 0.2);
    assert_eq!(ScheduleBy::Clock.progress(20, 100, 80.0, 100.0), 0.8);
    assert_eq!(ScheduleBy::Clock.progress(20, 100, 80.0, 0.0), 0.2);
    assert_eq!(ScheduleBy::Steps.progress(300, 100, 0.0, 0.0), 1.0);
    // Two runs with a time limit: each logged learning rate is the
    // schedule's at its step, whatever the clock said.
    let mut lrs = Vec::new();
    for k in 0..2 {
        let dir = tmp(&format!("schedule-{k}"));
        let mut cfg = tiny(&dir, 3);
        cfg.train.schedule_by = ScheduleBy::Steps;
        cfg.train.lr_schedule = rafle_train::config::LrSchedule::Cosine;
        cfg.run.time_limit_min = 10.0;
        let total = 3 * 3;
        let mut t = Trainer::new(cfg.clone(), true).unwrap();
        t.run().unwrap();
        let rows = metrics::read(&dir).unwrap();
        let steps: Vec<u64> = rows
            .iter()
            .filter(|r| r.name == "train/lr")
            .map(|r| r.step)
            .collect();
        let lr = values(&rows, "train/lr");
        assert_eq!(steps, [3, 6, 9]);
        for (&s, &x) in steps.iter().zip(&lr) {
            let want = rafle_zero::optim::lr_at(&cfg.train, s - 1, (s - 1) as f64 / total as f64);
            assert!((x - want).abs() < 1e-12, "step {s}: {x} against {want}");
        }
        lrs.push(lr);
        let _ = std::fs::remove_dir_all(&dir);
    }
    assert_eq!(lrs[0], lrs[1]);
}

#[test]
fn resume_continues_the_step_count() {
    let dir = tmp("resume");
    let mut t = Trainer::new(tiny(&dir, 1), true).unwrap();
    t.run().unwrap();
    let (steps, games) = (t.step, t.games);
    assert_eq!((t.iteration, steps), (1, 3));
    drop(t);
    let mut r = Trainer::resume(&dir, true).unwrap();
    assert_eq!((r.iteration, r.step, r.games), (1, steps, games));
    r.cfg.run.iterations = 3;
    r.run().unwrap();
    assert_eq!(r.iteration, 3);
    assert_eq!(r.step, 3 * steps);
    let meta = checkpoint::read_meta(&dir.join(checkpoint::META)).unwrap();
    assert_eq!((meta.iteration, meta.step), (3, 3 * steps));
    let rows = metrics::read(&dir).unwrap();
    let iters: Vec<u64> = rows
        .iter()
        .filter(|r| r.name == "loss/policy")
        .map(|r| r.iteration)
        .collect();
    assert_eq!(iters, vec![1, 2, 3]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_bootstrap_trains_on_the_teachers_games_before_self_play() {
    // Each target option of the teacher's positions, end to end.
    let options = [
        (BootstrapPolicy::Move, BootstrapValue::Result),
        (BootstrapPolicy::Scores, BootstrapValue::Score),
    ];
    for (i, (policy, value)) in options.into_iter().enumerate() {
        let dir = tmp(&format!("bootstrap-{i}"));
        let mut cfg = tiny(&dir, 1);
        cfg.bootstrap.games = 4;
        cfg.bootstrap.player = "alphabeta:1".into();
        cfg.bootstrap.epochs = 1.0;
        cfg.bootstrap.policy = policy;
        cfg.bootstrap.value = value;
        let mut t = Trainer::new(cfg, true).unwrap();
        t.run().unwrap();
        let rows = metrics::read(&dir).unwrap();
        assert_eq!(values(&rows, "bootstrap/games"), vec![4.0], "{policy:?}");
        let positions = values(&rows, "bootstrap/positions")[0];
        assert!(positions > 0.0, "{rows:?}");
        // ceil(positions / batch 16) teacher steps, then 3 of the iteration.
        assert_eq!(t.step, (positions / 16.0).ceil() as u64 + 3);
        assert!(t.replay.len() as f64 >= positions + 48.0);
        let loss = values(&rows, "bootstrap/loss_policy")[0];
        assert!(loss.is_finite() && loss > 0.0, "{policy:?}: {rows:?}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}

#[test]
fn a_teacher_larger_than_the_replay_window_leaves_the_window_its_newest() {
    // The teacher's steps draw from all its positions (a pool of their
    // own, python/tests/test_learner.py checks the draws); the window then
    // holds the newest of them and self-play's.
    let dir = tmp("bootstrap-window");
    let mut cfg = tiny(&dir, 1);
    cfg.bootstrap.games = 6;
    cfg.bootstrap.player = "alphabeta:1".into();
    cfg.bootstrap.epochs = 2.0;
    cfg.train.replay_window = 32;
    let mut t = Trainer::new(cfg, true).unwrap();
    t.run().unwrap();
    let rows = metrics::read(&dir).unwrap();
    let positions = values(&rows, "bootstrap/positions")[0];
    assert!(positions > 64.0, "{rows:?}");
    assert_eq!(t.step, (positions * 2.0 / 16.0).ceil() as u64 + 3);
    assert_eq!(t.replay.len(), 32);
    assert!(t.replay.total_added as f64 >= positions + 48.0);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_teacher_mixed_in_keeps_its_own_buffer_across_a_resume() {
    // bootstrap.mix: the teacher's positions stay out of the replay window,
    // in their own file, and a share of each batch comes from them (logged;
    // its fall is rafle-train's bootstrap test); a resumed run reads the
    // buffer back.
    let dir = tmp("bootstrap-mix");
    let mut cfg = tiny(&dir, 2);
    cfg.bootstrap.games = 4;
    cfg.bootstrap.player = "alphabeta:1".into();
    cfg.bootstrap.epochs = 1.0;
    cfg.bootstrap.mix = 0.5;
    cfg.bootstrap.mix_until = 0.0;
    cfg.run.checkpoint_every = 1;
    let mut t = Trainer::new(cfg.clone(), true).unwrap();
    t.run().unwrap();
    let rows = metrics::read(&dir).unwrap();
    let positions = values(&rows, "bootstrap/positions")[0] as usize;
    assert!(positions > 0, "{rows:?}");
    assert_eq!(t.teacher.as_ref().map(|r| r.len()), Some(positions));
    // The window holds self-play's positions only.
    assert_eq!(t.replay.total_added as usize, t.replay.len());
    let share = values(&rows, "train/teacher_share");
    assert_eq!(share, vec![0.5, 0.5], "{rows:?}");
    let file = dir.join(rafle_train::bootstrap::TEACHER);
    assert!(file.is_file());
    cfg.run.iterations = 3;
    let mut meta = checkpoint::read_meta(&dir.join(checkpoint::META)).unwrap();
    meta.config = cfg.clone();
    std::fs::write(dir.join(checkpoint::META), meta.to_json()).unwrap();
    let resumed = Trainer::resume(&dir, true).unwrap();
    assert_eq!(resumed.teacher.as_ref().map(|r| r.len()), Some(positions));
    // Without the buffer's share the teacher's positions join the window.
    let plain = tmp("bootstrap-mix-off");
    cfg.run.out_dir = plain.display().to_string();
    cfg.run.iterations = 1;
    cfg.bootstrap.mix = 0.0;
    let mut t = Trainer::new(cfg, true).unwrap();
    t.run().unwrap();
    assert!(t.teacher.is_none());
    assert!(!plain.join(rafle_train::bootstrap::TEACHER).exists());
    assert!(t.replay.total_added as usize >= positions);
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_dir_all(&plain);
}

#[test]
fn tables_in_self_play_train_as_a_config_option() {
    // The [egtb] lever end to end: the run opens the tables, its self-play
    // probes them and logs how many positions they valued; a folder
    // without tables fails on the field.
    let dir = tmp("egtb-run");
    let tables = tmp("egtb-tables");
    let _ = std::fs::remove_dir_all(&tables);
    let variant = rafle_core::Variant::Thai;
    rafle_egtb::build(variant, &tables, &rafle_egtb::Selection::UpTo(3), &|_| {}).unwrap();
    let mut cfg = tiny(&dir, 2);
    cfg.egtb.dir = tables.display().to_string();
    cfg.egtb.play_on = true;
    let mut t = Trainer::new(cfg.clone(), true).unwrap();
    t.run().unwrap();
    let rows = metrics::read(&dir).unwrap();
    let share = values(&rows, "selfplay/table_position_share");
    assert_eq!(share.len(), 2, "{rows:?}");
    assert!(share.iter().all(|s| (0.0..=1.0).contains(s)), "{share:?}");
    cfg.egtb.dir = dir.join("none").display().to_string();
    let Err(err) = Trainer::new(cfg, true) else {
        panic!("a run without tables there started");
    };
    let err = err.to_string();
    assert!(err.contains("egtb.dir"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_dir_all(&tables);
}

#[test]
fn bf16_convolutions_train_as_a_config_option() {
    // Same seed, same games: the first iteration's losses differ only by
    // the convolutions' arithmetic, so bf16 must show (and stay close);
    // auto must train as the arithmetic it picks on this CPU.
    let mut losses = Vec::new();
    for dtype in [ConvDtype::F32, ConvDtype::Bf16, ConvDtype::Auto] {
        let dir = tmp(&format!("conv-{dtype:?}"));
        let mut cfg = tiny(&dir, 1);
        cfg.run.inference_dtype = InferenceDtype::F32;
        cfg.train.conv_dtype = dtype;
        let mut t = Trainer::new(cfg, true).unwrap();
        t.run().unwrap();
        assert_eq!(t.net.vs.kind(), tch::Kind::Float);
        losses.push(values(&metrics::read(&dir).unwrap(), "loss/policy")[0]);
        let _ = std::fs::remove_dir_all(&dir);
    }
    let (a, b, auto) = (losses[0], losses[1], losses[2]);
    assert!(a != b, "bf16 convolutions left the losses unchanged: {a}");
    assert!((a - b).abs() < 0.05 * a, "f32 {a}, bf16 convs {b}");
    let picked = if bf16_is_fast(Device::Cpu) { b } else { a };
    assert_eq!(auto, picked, "auto trained as neither f32 {a} nor bf16 {b}");
}

#[test]
fn config_errors_name_the_field() {
    let dir = tmp("cfg");
    let good = TINY.replace("OUT", &dir.display().to_string());
    let cases = [
        ("simulations = 4", "simulations = 0", "search.simulations"),
        ("variant = \"thai\"", "variant = \"chess\"", "run.variant"),
        (
            "optimizer = \"adam\"",
            "optimizer = \"lion\"",
            "train.optimizer",
        ),
        ("blocks = 1", "blocks = 1\nlayers = 3", "net.layers"),
        ("blocks = 1", "blocks = -1", "net.blocks"),
        (
            "opponents = [\"random\"]",
            "opponents = [\"nobody\"]",
            "eval.opponents",
        ),
        ("device = \"cpu\"", "device = \"tpu\"", "run.device"),
        (
            "value_loss_weight = 1.0",
            "value_loss_weight = 1.0\nvalue_target_search = 1.5",
            "train.value_target_search",
        ),
        (
            "value_loss_weight = 1.0",
            "value_loss_weight = 1.0\nconv_dtype = \"fp8\"",
            "train.conv_dtype",
        ),
        (
            "[eval]",
            "[bootstrap]\ngames = 2\nplayer = \"nobody\"\n[eval]",
            "bootstrap.player",
        ),
        (
            "[eval]",
            "[bootstrap]\nepochs = 0.0\n[eval]",
            "bootstrap.epochs",
        ),
        (
            "[eval]",
            "[bootstrap]\npolicy_temperature = 0.0\n[eval]",
            "bootstrap.policy_temperature",
        ),
        ("[eval]", "[bootstrap]\nmix = 1.5\n[eval]", "bootstrap.mix"),
        (
            "[eval]",
            "[bootstrap]\nmix_until = -1.0\n[eval]",
            "bootstrap.mix_until",
        ),
    ];
    for (from, to, field) in cases {
        assert!(good.contains(from), "{from}");
        let err = Config::parse(&good.replacen(from, to, 1))
            .unwrap_err()
            .to_string();
        assert!(err.contains(field), "{to}: {err}");
        assert!(!err.contains('\n'), "one line: {err}");
    }
    // Choices are enums: the error names the field and the allowed values.
    let choices = [
        (
            "algorithm = \"gumbel\"",
            "algorithm = \"mcts\"",
            "search.algorithm",
            "puct",
        ),
        (
            "optimizer = \"adam\"",
            "optimizer = \"Adam\"",
            "train.optimizer",
            "sgd",
        ),
        (
            "lr_schedule = \"cosine\"",
            "lr_schedule = \"linear\"",
            "train.lr_schedule",
            "constant",
        ),
        ("device = \"cpu\"", "device = \"gpu\"", "run.device", "cuda"),
        (
            "device = \"cpu\"",
            "device = \"cpu\"\ninference_dtype = \"fp16\"",
            "run.inference_dtype",
            "bf16",
        ),
        (
            "variant = \"thai\"",
            "variant = \"chess\"",
            "run.variant",
            "international",
        ),
        (
            "[eval]",
            "[bootstrap]\npolicy = \"soft\"\n[eval]",
            "bootstrap.policy",
            "scores",
        ),
    ];
    for (from, to, field, choice) in choices {
        assert!(good.contains(from), "{from}");
        let err = Config::parse(&good.replacen(from, to, 1))
            .unwrap_err()
            .to_string();
        assert!(err.contains(field) && err.contains(choice), "{to}: {err}");
        assert!(!err.contains('\n'), "one line: {err}");
    }
    let cases = [(
        "temperature_plies",
        "leaves_per_round = 0\ntemperature_plies",
        "search.leaves_per_round",
    )];
    for (from, to, field) in cases {
        assert!(good.contains(from), "{from}");
        let err = Config::parse(&good.replacen(from, to, 1))
            .unwrap_err()
            .to_string();
        assert!(err.contains(field), "{to}: {err}");
        assert!(!err.contains('\n'), "one line: {err}");
    }
    // Every shipped config parses (new ones are picked up by the folder).
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../configs");
    let mut seen = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let p = entry.unwrap().path();
        if p.extension().is_some_and(|e| e == "toml") {
            Config::load(&p).unwrap_or_else(|e| panic!("{}: {e:#}", p.display()));
            seen += 1;
        }
    }
    assert!(seen >= 12, "only {seen} configs in {}", dir.display());
}

#[test]
fn bench_train_times_each_part_of_a_step_and_refuses_zero_steps() {
    let dir = tmp("bench-train");
    std::fs::create_dir_all(&dir).unwrap();
    let config = dir.join("tiny.toml");
    std::fs::write(&config, TINY.replace("OUT", &dir.display().to_string())).unwrap();
    let config = config.display().to_string();
    let args = [
        "bench", "train", "--config", &config, "--steps", "2", "--rounds", "1",
    ];
    let (code, out, err) = common::rafle(&args);
    assert_eq!(code, 0, "stderr {err}");
    let rows: Vec<&str> = out.lines().filter(|l| l.contains(" round 0: ")).collect();
    assert_eq!(
        rows.len(),
        4,
        "f32 and bf16 convolutions, 1 thread and all: {out}"
    );
    for row in rows {
        // The four parts are shares of one step's time: at most 100% together.
        let shares: Vec<f64> = row
            .split('%')
            .filter_map(|p| p.rsplit(' ').next()?.parse().ok())
            .collect();
        assert_eq!(shares.len(), 4, "{row}");
        let sum: f64 = shares.iter().sum();
        assert!(sum > 0.0 && sum <= 101.0, "{row}");
        let steps: f64 = row
            .split("steps/s")
            .next()
            .unwrap()
            .rsplit(' ')
            .find(|w| !w.is_empty())
            .unwrap()
            .parse()
            .unwrap();
        assert!(steps > 0.0, "{row}");
    }
    let (code, out, err) = common::rafle(&["bench", "train", "--config", &config, "--steps", "0"]);
    assert_ne!(code, 0, "stdout {out}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("--steps"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}
