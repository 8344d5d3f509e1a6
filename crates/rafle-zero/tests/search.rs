//! Gumbel (and PUCT) search on positions whose answer is known.

use rafle_core::rng::Rng;
use rafle_core::{Game, Variant};
use rafle_env::{Env, EnvConfig};
use rafle_zero::config::NetConfig;
use rafle_zero::net::{Net, NetShape};
use rafle_zero::search::{Algorithm, Pick, Search, SearchParams, SearchResult};
use tch::Device;

fn env(fen: &str) -> Env {
    Env::new(
        Variant::Thai,
        EnvConfig {
            start_fen: Some(fen.into()),
            ..Default::default()
        },
    )
    .unwrap()
}

fn tiny_net(seed: u64) -> Net {
    let cfg = NetConfig {
        blocks: 1,
        channels: 8,
        policy_channels: 2,
        value_hidden: 8,
    };
    Net::new(NetShape::new(Variant::Thai, &cfg), Device::Cpu, seed)
}

fn params(algorithm: Algorithm, m: usize) -> SearchParams {
    SearchParams {
        algorithm,
        gumbel_m: m,
        c_visit: 50.0,
        c_scale: 0.1,
        c_puct: 1.5,
        dirichlet_alpha: 0.3,
        dirichlet_frac: 0.25,
    }
}

/// Runs a search to the end with `net`; also returns the network calls made.
fn search(
    net: &Net,
    env: &Env,
    sims: usize,
    p: SearchParams,
    pick: Pick,
    seed: u64,
) -> (SearchResult, usize) {
    let mut s = Search::new(env.clone(), sims, p, pick, Rng::new(seed));
    let mut obs = vec![0f32; rafle_env::observation_len(Variant::Thai)];
    let mut calls = 0;
    while s.advance(&mut obs) {
        let (logits, values) = net.evaluate(&obs, 1);
        s.receive(&logits, values[0]);
        calls += 1;
    }
    (s.result(), calls)
}

#[test]
fn gumbel_plays_the_only_legal_capture() {
    // Black king 4 must take the white king on 18 (and wins by it).
    let fen = "B:WK18:BK4";
    let e = env(fen);
    let game = Game::from_fen(Variant::Thai, fen).unwrap();
    assert_eq!(game.legal_moves().len(), 1);
    let capture =
        rafle_env::action::move_to_actions(Variant::Thai, game.position(), &game.legal_moves()[0]);
    let net = tiny_net(0);
    for seed in 0..4 {
        let (r, calls) = search(
            &net,
            &e,
            16,
            params(Algorithm::Gumbel, 8),
            Pick::Explore,
            seed,
        );
        assert_eq!(r.action, capture[0], "seed {seed}");
        assert_eq!(r.policy, vec![(capture[0], 1.0)]);
        assert!(r.forced);
        assert_eq!(calls, 0, "a forced step needs no network call");
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
    let net = tiny_net(1);
    for (algorithm, pick) in [
        (Algorithm::Gumbel, Pick::Explore),
        (Algorithm::Gumbel, Pick::Best),
        (Algorithm::Puct, Pick::Best),
    ] {
        for seed in 0..3 {
            let (r, calls) = search(&net, &e, 64, params(algorithm, 16), pick, seed);
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
            // Black's safe king moves win the man (value near 1: the visit
            // average was 0.89 here); the lost lines (value -1,
            // visited by Sequential Halving) barely count in the Gumbel root
            // value, as it follows the improved policy, not the visit spread.
            if algorithm == Algorithm::Gumbel {
                assert!(
                    r.value > 0.95,
                    "{pick:?} seed {seed}: root value {}",
                    r.value
                );
            }
        }
    }
}

#[test]
fn gumbel_with_a_fixed_seed_is_deterministic() {
    let e = env("W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12");
    let net = tiny_net(2);
    let a = search(&net, &e, 16, params(Algorithm::Gumbel, 8), Pick::Explore, 5).0;
    let b = search(&net, &e, 16, params(Algorithm::Gumbel, 8), Pick::Explore, 5).0;
    assert_eq!(a.action, b.action);
    assert_eq!(a.policy, b.policy);
}

#[test]
fn gumbel_noise_only_while_exploring() {
    // After the temperature plies self-play searches with Pick::Noisy: no
    // root noise, so every seed plays the evaluation move; Pick::Explore
    // samples through the Gumbel noise and spreads over several moves.
    let e = env("W:W21,22,23,24,25,26,27,28:B5,6,7,8,9,10,11,12");
    let net = tiny_net(3);
    let p = || params(Algorithm::Gumbel, 8);
    let best = search(&net, &e, 8, p(), Pick::Best, 0).0.action;
    let mut explored = std::collections::BTreeSet::new();
    for seed in 0..32 {
        assert_eq!(
            search(&net, &e, 8, p(), Pick::Noisy, seed).0.action,
            best,
            "seed {seed}"
        );
        explored.insert(search(&net, &e, 8, p(), Pick::Explore, seed).0.action);
    }
    assert!(explored.len() > 1, "Explore always played {explored:?}");
}

/// Does the line after action `a` reach a position with a real choice
/// (following forced steps), where a search needs the network?
fn reaches_a_choice(e: &Env, a: u16) -> bool {
    let mut x = e.clone();
    let mut info = x.step(a as usize).unwrap();
    loop {
        if info.terminated || info.truncated {
            return false;
        }
        match x.legal_action_ids() {
            [only] => info = x.step(*only as usize).unwrap(),
            _ => return true,
        }
    }
}

#[test]
fn forced_steps_need_no_network_call() {
    // Some black king moves let the white man capture it (a forced reply
    // that ends the game): the search must see the loss, not ask the network.
    let e = env("B:W29:BK4");
    let actions = e.legal_action_ids().to_vec();
    let k = actions.len();
    let choices = actions.iter().filter(|&&a| reaches_a_choice(&e, a)).count();
    assert!(choices < k, "the position must have forced lines");
    let net = tiny_net(1);
    for algorithm in [Algorithm::Gumbel, Algorithm::Puct] {
        // k simulations with m >= k: Gumbel visits every root action once.
        let (r, calls) = search(&net, &e, k, params(algorithm, 16), Pick::Best, 0);
        if algorithm == Algorithm::Gumbel {
            assert_eq!(calls, 1 + choices, "root + one call per line with a choice");
        }
        assert!(calls <= k + 1);
        let losing: Vec<u16> = losing_actions(&e)
            .into_iter()
            .filter(|c| c.1)
            .map(|c| c.0)
            .collect();
        assert!(
            !losing.contains(&r.action),
            "{algorithm:?} played {}",
            r.action
        );
    }
}
