//! `rafle search --model M [--fen F] [--simulations N] [--algorithm A] [--seed S] [--json]`:
//! one search from a position with a trained network (the variant is the
//! model's). Prints the step action chosen, the root value and, for every
//! legal step, its share of the policy target and its visits. The same call
//! in Python is `rafle.search(rafle.VecEnv(variant, 1, fen=F), rafle.model.evaluator(net), ...)`.

use std::path::Path;

use anyhow::{bail, Context};
use clap::Args;
use rafle_core::rng::Rng;
use rafle_env::{Env, EnvConfig};
use rafle_search::network::{run_searches, Algorithm, Pick, Search};
use rafle_train::config::InferenceDtype;

#[derive(Args, Debug)]
pub struct SearchArgs {
    /// Model checkpoint (RUN_DIR/latest.safetensors).
    #[arg(long)]
    pub model: String,
    /// Position as PDN FEN (the start position if omitted).
    #[arg(long)]
    pub fen: Option<String>,
    /// Simulations (default: the checkpoint's eval.simulations).
    #[arg(long)]
    pub simulations: Option<usize>,
    /// gumbel or puct (default: the checkpoint's search.algorithm).
    #[arg(long)]
    pub algorithm: Option<String>,
    /// Seed of the search (stream 0 of it, like env 0 of rafle.search).
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// One JSON object instead of a table.
    #[arg(long)]
    pub json: bool,
}

pub fn run(a: SearchArgs) -> anyhow::Result<()> {
    let device = rafle_zero::net::device(Default::default())?;
    let (net, meta) = rafle_zero::checkpoint::load_net(Path::new(&a.model), device)?;
    let variant = net.shape.variant()?;
    let env = Env::new(
        variant,
        EnvConfig {
            start_fen: a.fen.clone(),
            ..Default::default()
        },
    )
    .with_context(|| format!("--fen for {variant}"))?;
    if env.legal_action_ids().is_empty() {
        bail!("the game is over at this position: nothing to search");
    }
    let mut params = meta.config.search.clone();
    if let Some(alg) = &a.algorithm {
        params.algorithm = alg.parse::<Algorithm>().map_err(anyhow::Error::msg)?;
    }
    let sims = a.simulations.unwrap_or(meta.config.eval.simulations);
    let mut eval = rafle_zero::net::Inference::new(&net, InferenceDtype::F32)?;
    let rng = Rng::stream(a.seed, 0);
    let mut searches = [Search::new(env.clone(), sims, params, Pick::Best, rng)];
    let (outcomes, stats) = run_searches(variant, &mut searches, &mut eval, None)?;
    let (out, edges) = (&outcomes[0], searches[0].root_edges());
    let visits = |action: u16| {
        edges
            .iter()
            .find(|e| e.action == action)
            .map_or(0, |e| e.visits)
    };
    if a.json {
        let policy: serde_json::Map<String, serde_json::Value> = out
            .policy
            .iter()
            .map(|&(act, p)| (act.to_string(), serde_json::json!(p)))
            .collect();
        let vis: serde_json::Map<String, serde_json::Value> = out
            .policy
            .iter()
            .map(|&(act, _)| (act.to_string(), serde_json::json!(visits(act))))
            .collect();
        let j = serde_json::json!({
            "action": out.action,
            "value": out.value,
            "policy": policy,
            "visits": vis,
            "evals": stats.evals,
        });
        println!("{j}");
    } else {
        let step = |act: u16| {
            env.step_squares(act as usize)
                .map_or_else(|| "?".into(), |(f, t)| format!("{f}-{t}"))
        };
        println!(
            "{variant}: {} simulations, {} network evaluations; value {:+.3} for the side to move",
            sims, stats.evals, out.value
        );
        println!("best step: action {} ({})", out.action, step(out.action));
        let mut rows = out.policy.clone();
        rows.sort_by(|x, y| y.1.total_cmp(&x.1));
        println!(
            "{:>7} {:>8} {:>8} {:>7}",
            "action", "step", "policy", "visits"
        );
        for (act, p) in rows {
            println!("{act:>7} {:>8} {:>8.4} {:>7}", step(act), p, visits(act));
        }
    }
    Ok(())
}
