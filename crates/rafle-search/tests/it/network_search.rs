//! The network search (Gumbel and PUCT) driven by small deterministic
//! evaluators written here: no tch, no trained network.

use rafle_core::rng::Rng;
use rafle_core::{Game, Variant};
use rafle_env::{Env, EnvConfig};
use rafle_search::network::{
    run_searches, Algorithm, EvalCache, EvalError, Evaluator, LeafSlots, Leaves, Pick, Search,
    SearchOutcome, SearchParams,
};

const V: Variant = Variant::Thai;

fn env(fen: &str) -> Env {
    Env::new(
        V,
        EnvConfig {
            start_fen: Some(fen.into()),
            ..Default::default()
        },
    )
    .unwrap()
}

fn params(algorithm: Algorithm, m: usize) -> SearchParams {
    SearchParams {
        algorithm,
        gumbel_m: m,
        ..SearchParams::default()
    }
}

/// Every leaf: logits 0, value `v` for the player to act.
fn constant(v: f32) -> impl Evaluator {
    move |l: &Leaves, logits: &mut [f32], values: &mut [f32]| {
        assert_eq!(values.len(), l.n);
        logits.fill(0.0);
        values.fill(v);
        Ok::<(), EvalError>(())
    }
}

/// Like an untrained network (see `network::stand_in::hashed_answers`).
fn hashed(seed: u64) -> impl Evaluator {
    move |l: &Leaves, logits: &mut [f32], values: &mut [f32]| {
        rafle_search::network::stand_in::hashed_answers(seed, l, logits, values)
    }
}

/// Runs one search to the end; also returns the evaluator calls.
fn search(
    eval: &mut dyn Evaluator,
    e: &Env,
    sims: usize,
    p: SearchParams,
    pick: Pick,
    seed: u64,
) -> (SearchOutcome, Search, u64) {
    let mut s = [Search::new(e.clone(), sims, p, pick, Rng::new(seed))];
    let (mut out, stats) = run_searches(V, &mut s, eval, None).unwrap();
    let [s] = s;
    (out.remove(0), s, stats.calls)
}

#[test]
fn the_only_legal_capture_is_played_without_a_call() {
    // Black king 4 must take the white king on 18 (and wins by it).
    let fen = "B:WK18:BK4";
    let game = Game::from_fen(V, fen).unwrap();
    assert_eq!(game.legal_moves().len(), 1);
    let capture = Env::from_game(&game, EnvConfig::default())
        .unwrap()
        .actions_of(&game.legal_moves()[0]);
    for algorithm in [Algorithm::Gumbel, Algorithm::Puct] {
        for seed in 0..4 {
            let (r, _, calls) = search(
                &mut hashed(0),
                &env(fen),
                16,
                params(algorithm, 8),
                Pick::Sample,
                seed,
            );
            assert_eq!(r.action, capture[0], "seed {seed}");
            assert_eq!(r.policy, vec![(capture[0], 1.0)]);
            assert!(r.forced);
            assert_eq!(calls, 0, "a forced step needs no evaluator call");
        }
    }
}

/// For each legal action at `e`: does the opponent then have a reply that wins at once?
fn losing_actions(e: &Env) -> Vec<(u16, bool)> {
    e.legal_action_ids()
        .iter()
        .map(|&a| {
            let mut after = e.clone();
            let info = after.step(a as usize).unwrap();
            assert!(info.move_done && !info.terminated);
            let loses = after.legal_action_ids().iter().any(|&b| {
                let mut reply = after.clone();
                let mut info = reply.step(b as usize).unwrap();
                // Follow a capture chain to its end (first continuation).
                while !info.move_done {
                    let c = reply.legal_action_ids()[0];
                    info = reply.step(c as usize).unwrap();
                }
                info.terminated && info.reward > 0.0
            });
            (a, loses)
        })
        .collect()
}

#[test]
fn search_avoids_moves_that_lose_at_once() {
    // The black king has six moves; some land where the white man captures
    // it (black then has no piece left and loses).
    let e = env("B:W29:BK4");
    let classes = losing_actions(&e);
    assert!(
        classes.iter().any(|c| c.1) && classes.iter().any(|c| !c.1),
        "{classes:?}"
    );
    let losing: Vec<u16> = classes.iter().filter(|c| c.1).map(|c| c.0).collect();
    for (algorithm, pick) in [
        (Algorithm::Gumbel, Pick::Sample),
        (Algorithm::Gumbel, Pick::Best),
        (Algorithm::Puct, Pick::Best),
    ] {
        for seed in 0..3 {
            let (r, _, calls) = search(&mut hashed(1), &e, 64, params(algorithm, 16), pick, seed);
            assert!(calls > 0);
            assert!(
                !losing.contains(&r.action),
                "{algorithm:?} seed {seed} played a losing move"
            );
            let mass: f32 = r
                .policy
                .iter()
                .filter(|(a, _)| losing.contains(a))
                .map(|p| p.1)
                .sum();
            let total: f32 = r.policy.iter().map(|p| p.1).sum();
            assert!((total - 1.0).abs() < 1e-4);
            assert!(
                mass < 0.25,
                "{algorithm:?}: policy target keeps {mass} on losing moves"
            );
        }
    }
}

#[test]
fn gumbel_root_value_follows_the_improved_policy_not_the_visits() {
    // Sequential Halving visits the lost lines (value -1) too; the root
    // value is the improved policy's expected completed Q, which weighs
    // them by the (tiny) improved policy instead of by their visits.
    let e = env("B:W29:BK4");
    let (r, s, _) = search(
        &mut constant(0.0),
        &e,
        32,
        params(Algorithm::Gumbel, 16),
        Pick::Best,
        0,
    );
    let edges = s.root_edges();
    let visits: u32 = edges.iter().map(|x| x.visits).sum();
    let visit_average: f32 = edges
        .iter()
        .filter_map(|x| x.q.map(|q| q * x.visits as f32))
        .sum::<f32>()
        / visits as f32;
    let best_q = edges
        .iter()
        .filter_map(|x| x.q)
        .fold(f32::NEG_INFINITY, f32::max);
    assert!(edges.iter().any(|x| x.q == Some(-1.0)), "{edges:?}");
    assert!(
        best_q - r.value < (best_q - visit_average) / 4.0,
        "root value {} vs visit average {visit_average} and best q {best_q}",
        r.value
    );
}

#[test]
fn sequential_halving_spends_the_budget_as_scheduled() {
    // With equal priors and values, m = 4 and n = 8 simulations the root
    // visits 4 actions once, then the best 2 of them twice more each; with
    // m above the 7 legal actions, all 7 are considered (log2 phases: 7
    // once, 3 once more, 2 twice more).
    let e = Env::new(V, EnvConfig::default()).unwrap();
    assert_eq!(e.legal_action_ids().len(), 7);
    for (m, n, want) in [
        (4, 8, vec![3, 3, 1, 1]),
        (2, 6, vec![3, 3]),
        (16, 14, vec![4, 4, 2, 1, 1, 1, 1]),
    ] {
        let (_, s, calls) = search(
            &mut constant(0.0),
            &e,
            n,
            params(Algorithm::Gumbel, m),
            Pick::Sample,
            1,
        );
        let mut visits: Vec<u32> = s
            .root_edges()
            .iter()
            .map(|x| x.visits)
            .filter(|&v| v > 0)
            .collect();
        visits.sort_unstable_by(|a, b| b.cmp(a));
        assert_eq!(visits, want, "m {m}, n {n}");
        assert!(calls as usize <= n + 1);
    }
}

#[test]
fn puct_policy_target_is_the_visit_share() {
    let e = Env::new(V, EnvConfig::default()).unwrap();
    let (r, s, _) = search(
        &mut hashed(4),
        &e,
        40,
        params(Algorithm::Puct, 1),
        Pick::Best,
        3,
    );
    let edges = s.root_edges();
    let total: u32 = edges.iter().map(|x| x.visits).sum();
    assert_eq!(total, 40, "every simulation passes through one root edge");
    for (x, (a, p)) in edges.iter().zip(&r.policy) {
        assert_eq!(x.action, *a);
        assert!(
            (p - x.visits as f32 / total as f32).abs() < 1e-6,
            "{edges:?}"
        );
    }
    let most = edges.iter().max_by_key(|x| x.visits).unwrap();
    assert_eq!(r.action, most.action, "Best plays the most visited action");
    // Without simulations the target is the prior.
    let (r0, s0, calls) = search(
        &mut hashed(4),
        &e,
        0,
        params(Algorithm::Puct, 1),
        Pick::Best,
        3,
    );
    assert_eq!(calls, 1);
    for (x, (_, p)) in s0.root_edges().iter().zip(&r0.policy) {
        assert_eq!(*p, x.prior);
    }
}

/// After root action `a`: the first node the tree asks the evaluator about
/// (forced steps followed), and whether its player is the root's.
fn first_choice_is_same_player(e: &Env, a: u16) -> Option<bool> {
    let mut x = e.clone();
    let mut info = x.step(a as usize).unwrap();
    loop {
        if info.terminated || info.truncated {
            return None;
        }
        match x.legal_action_ids() {
            [only] => info = x.step(*only as usize).unwrap(),
            _ => return Some(x.to_play() == e.to_play()),
        }
    }
}

#[test]
fn values_flip_sign_only_where_the_player_changes() {
    // A position where some root steps start a capture chain that still has
    // a choice (the same player evaluates the next node) and others end the
    // move (the opponent does): found by seeded random play.
    let mut rng = Rng::new(11);
    let mut found = None;
    'games: for _ in 0..400 {
        let mut e = Env::new(V, EnvConfig::default()).unwrap();
        for _ in 0..60 {
            let acts = e.legal_action_ids().to_vec();
            if acts.len() >= 2 {
                let kinds: Vec<Option<bool>> = acts
                    .iter()
                    .map(|&a| first_choice_is_same_player(&e, a))
                    .collect();
                if kinds.contains(&Some(true))
                    && kinds.contains(&Some(false))
                    && !kinds.contains(&None)
                {
                    found = Some((e.clone(), acts, kinds));
                    break 'games;
                }
            }
            let a = acts[rng.below(acts.len())];
            if e.step(a as usize)
                .map_or(true, |i| i.terminated || i.truncated)
            {
                break;
            }
        }
    }
    let (e, acts, kinds) = found.expect("random play finds a chain with a choice");
    let c = 0.5;
    for algorithm in [Algorithm::Gumbel, Algorithm::Puct] {
        // One simulation per root action (Gumbel with m >= k visits each once).
        let k = acts.len();
        let (_, s, _) = search(
            &mut constant(c),
            &e,
            k,
            params(algorithm, 64),
            Pick::Best,
            0,
        );
        let mut seen = 0;
        for x in s.root_edges() {
            let i = acts.iter().position(|&a| a == x.action).unwrap();
            let (Some(q), 1) = (x.q, x.visits) else {
                continue;
            };
            let want = if kinds[i] == Some(true) { c } else { -c };
            assert!(
                (q - want).abs() < 1e-6,
                "{algorithm:?}: action {} q {q}, want {want}",
                x.action
            );
            seen += 1;
        }
        assert!(seen >= 2, "{algorithm:?}: {:?}", s.root_edges());
    }
}

#[test]
fn a_fixed_seed_gives_the_same_search() {
    let e = Env::new(V, EnvConfig::default()).unwrap();
    for algorithm in [Algorithm::Gumbel, Algorithm::Puct] {
        let a = search(
            &mut hashed(2),
            &e,
            16,
            params(algorithm, 8),
            Pick::Sample,
            5,
        )
        .0;
        let b = search(
            &mut hashed(2),
            &e,
            16,
            params(algorithm, 8),
            Pick::Sample,
            5,
        )
        .0;
        assert_eq!(a, b);
    }
}

#[test]
fn gumbel_noise_only_when_sampling() {
    // After the temperature plies self-play searches with SelfPlayBest: no
    // root noise, so every seed plays the evaluation move; Sample draws
    // through the Gumbel noise and spreads over several moves.
    let e = env("W:W21,22,23,24,25,26,27,28:B5,6,7,8,9,10,11,12");
    let p = || params(Algorithm::Gumbel, 8);
    let best = search(&mut hashed(3), &e, 8, p(), Pick::Best, 0).0.action;
    let mut sampled = std::collections::BTreeSet::new();
    for seed in 0..32 {
        let r = search(&mut hashed(3), &e, 8, p(), Pick::SelfPlayBest, seed).0;
        assert_eq!(r.action, best, "seed {seed}");
        sampled.insert(
            search(&mut hashed(3), &e, 8, p(), Pick::Sample, seed)
                .0
                .action,
        );
    }
    assert!(sampled.len() > 1, "Sample always played {sampled:?}");
}

/// Does the line after action `a` reach a position with a real choice
/// (following forced steps), where a search needs the evaluator?
fn reaches_a_choice(e: &Env, a: u16) -> bool {
    first_choice_is_same_player(e, a).is_some()
}

#[test]
fn forced_steps_need_no_evaluator_call() {
    // Some black king moves let the white man capture it (a forced reply
    // that ends the game): the search must see the loss, not ask.
    let e = env("B:W29:BK4");
    let actions = e.legal_action_ids().to_vec();
    let k = actions.len();
    let choices = actions.iter().filter(|&&a| reaches_a_choice(&e, a)).count();
    assert!(choices < k, "the position must have forced lines");
    let losing: Vec<u16> = losing_actions(&e)
        .into_iter()
        .filter(|c| c.1)
        .map(|c| c.0)
        .collect();
    for algorithm in [Algorithm::Gumbel, Algorithm::Puct] {
        let (r, _, calls) = search(&mut hashed(1), &e, k, params(algorithm, 16), Pick::Best, 0);
        if algorithm == Algorithm::Gumbel {
            assert_eq!(
                calls as usize,
                1 + choices,
                "root + one call per line with a choice"
            );
        }
        assert!(calls as usize <= k + 1);
        assert!(
            !losing.contains(&r.action),
            "{algorithm:?} played {}",
            r.action
        );
    }
}

/// Does step `a` at `e` start a move (its chain continued any way) that
/// wins at once?
fn wins_at_once(e: &Env, a: u16) -> bool {
    let mut x = e.clone();
    let info = x.step(a as usize).unwrap();
    if info.move_done {
        return info.terminated && info.reward > 0.0;
    }
    x.legal_action_ids().iter().any(|&b| wins_at_once(&x, b))
}

/// The steps of `e` that start a move winning at once.
fn winning_actions(e: &Env) -> Vec<u16> {
    e.legal_action_ids()
        .iter()
        .copied()
        .filter(|&a| wins_at_once(e, a))
        .collect()
}

/// A thai position where one move wins at once (the king's double capture
/// 19x26x17 takes both white men) and no other move wins within three
/// plies (found by brute force over random positions).
const WIN_AT_ONCE: &str = "B:W23,22:BK19,20,18";

#[test]
fn several_leaves_per_round_fill_a_batch_and_still_find_the_win() {
    let e = env(WIN_AT_ONCE);
    let win = winning_actions(&e);
    assert_eq!(win.len(), 1, "{win:?}");
    let wide = Env::new(V, EnvConfig::default()).unwrap();
    for algorithm in [Algorithm::Gumbel, Algorithm::Puct] {
        let p = SearchParams {
            leaves_per_round: 8,
            ..params(algorithm, 16)
        };
        let mut s = [Search::new(
            e.clone(),
            32,
            p.clone(),
            Pick::Best,
            Rng::new(0),
        )];
        let (r, _) = run_searches(V, &mut s, &mut hashed(1), None).unwrap();
        assert_eq!(r[0].action, win[0], "{algorithm:?}");
        let mut s = [Search::new(wide.clone(), 64, p, Pick::Best, Rng::new(0))];
        let (r, stats) = run_searches(V, &mut s, &mut hashed(1), None).unwrap();
        assert!(stats.avg_batch() > 2.0, "{algorithm:?}: {stats:?}");
        assert!(stats.calls < 40, "{algorithm:?}: {stats:?}");
        let total: f32 = r[0].policy.iter().map(|p| p.1).sum();
        assert!((total - 1.0).abs() < 1e-4);
        // The budget is kept: every simulation is one visit of a root edge.
        let visits: u32 = s[0].root_edges().iter().map(|x| x.visits).sum();
        assert_eq!(visits, 64, "{algorithm:?}");
    }
}

#[test]
fn a_failed_evaluation_leaves_the_search_usable() {
    let e = Env::new(V, EnvConfig::default()).unwrap();
    let p = SearchParams {
        leaves_per_round: 4,
        ..params(Algorithm::Gumbel, 8)
    };
    let mut calls = 0;
    let mut flaky = move |l: &Leaves, logits: &mut [f32], values: &mut [f32]| {
        calls += 1;
        if calls == 3 {
            return Err(EvalError::Failed("boom".into()));
        }
        hashed(7).evaluate(l, logits, values)
    };
    let mut s = [Search::new(
        e.clone(),
        24,
        p.clone(),
        Pick::Best,
        Rng::new(0),
    )];
    let err = run_searches(V, &mut s, &mut flaky, None).unwrap_err();
    assert_eq!(err, EvalError::Failed("boom".into()));
    // Going on after the error gives the search an undisturbed one gets.
    let (again, _) = run_searches(V, &mut s, &mut hashed(7), None).unwrap();
    let mut fresh = [Search::new(e, 24, p, Pick::Best, Rng::new(0))];
    let (clean, _) = run_searches(V, &mut fresh, &mut hashed(7), None).unwrap();
    assert_eq!(again, clean);
}

#[test]
fn leaf_slots_hold_observation_and_mask() {
    let e = Env::new(V, EnvConfig::default()).unwrap();
    let (len, na) = (e.observation_len(), e.num_actions());
    let (mut obs, mut mask) = (vec![0f32; 2 * len], vec![false; 2 * na]);
    let mut s = Search::new(
        e.clone(),
        8,
        params(Algorithm::Gumbel, 4),
        Pick::Best,
        Rng::new(0),
    );
    assert_eq!(
        s.advance(&mut LeafSlots {
            obs: &mut obs,
            mask: &mut mask
        }),
        1
    );
    let mut want = vec![0f32; len];
    e.write_obs(&mut want);
    assert_eq!(&obs[..len], &want[..]);
    let legal: Vec<usize> = (0..na).filter(|&a| mask[a]).collect();
    assert_eq!(
        legal,
        e.legal_actions()
            .iter()
            .map(|&a| a as usize)
            .collect::<Vec<_>>()
    );
}

/// Two consecutive searches of a game (the second after the first's move),
/// each with and without a cache handed from the first to the second.
#[test]
fn a_cache_keeps_every_choice_and_saves_evaluations_on_the_next_search() {
    for algorithm in [Algorithm::Gumbel, Algorithm::Puct] {
        let p = params(algorithm, 8);
        let run = |e: &Env, cache: Option<EvalCache>| {
            let s = Search::new(e.clone(), 48, p.clone(), Pick::Best, Rng::new(3));
            let mut s = [match cache {
                Some(c) => s.with_cache(c),
                None => s,
            }];
            let (mut out, stats) = run_searches(V, &mut s, &mut hashed(2), None).unwrap();
            let [mut s] = s;
            (out.remove(0), stats.evals, s.take_cache())
        };
        let first = Env::new(V, EnvConfig::default()).unwrap();
        let (plain, plain_evals, _) = run(&first, None);
        let (cached, cached_evals, cache) = run(&first, Some(EvalCache::new()));
        assert_eq!(
            cached, plain,
            "{algorithm:?}: the cache changed the first search"
        );
        assert!(cached_evals <= plain_evals);
        let cache = cache.expect("the search hands its cache on");
        assert!(!cache.is_empty());
        let mut second = first.clone();
        second.step(plain.action as usize).unwrap();
        let (plain, plain_evals, _) = run(&second, None);
        let before = cache.hits;
        let (cached, cached_evals, cache) = run(&second, Some(cache));
        assert_eq!(
            cached, plain,
            "{algorithm:?}: the cache changed the second search"
        );
        let hits = cache.unwrap().hits - before;
        assert!(
            hits > 0,
            "{algorithm:?}: the second search found nothing of the first's"
        );
        assert_eq!(cached_evals + hits, plain_evals, "{algorithm:?}");
    }
}

#[test]
fn a_cache_with_several_leaves_per_round_keeps_the_budget() {
    // A cached leaf is backed up at once instead of waiting with a virtual
    // loss, so the lines may differ from a search without the cache; the
    // budget and the win found must not.
    let e = env(WIN_AT_ONCE);
    let win = winning_actions(&e);
    for algorithm in [Algorithm::Gumbel, Algorithm::Puct] {
        let p = SearchParams {
            leaves_per_round: 4,
            ..params(algorithm, 16)
        };
        let mut cache = EvalCache::new();
        for _ in 0..2 {
            let mut s = [
                Search::new(e.clone(), 32, p.clone(), Pick::Best, Rng::new(0)).with_cache(cache),
            ];
            let (r, _) = run_searches(V, &mut s, &mut hashed(1), None).unwrap();
            assert_eq!(r[0].action, win[0], "{algorithm:?}");
            let visits: u32 = s[0].root_edges().iter().map(|x| x.visits).sum();
            assert_eq!(visits, 32, "{algorithm:?}");
            cache = s[0].take_cache().unwrap();
        }
        assert!(
            cache.hits > 0,
            "{algorithm:?}: the same position twice hit nothing"
        );
    }
}
