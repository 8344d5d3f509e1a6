//! A training position made by self-play: what the Rust replay buffer
//! stores and what Python's `SelfPlay.play` returns as arrays.
//!
//! The observation is quantised to bytes (planes are in [0, 1]: 0/1 piece
//! planes and fractional counter planes, error < 0.002); the policy target
//! covers exactly the legal actions; the result and the root search value are
//! for the player to act.

use rafle_core::{Color, Game, Move};
use rafle_env::{Chain, Env, EnvConfig};

/// One training position.
#[derive(Clone, Debug, PartialEq)]
pub struct Sample {
    /// Observation, each float x stored as round(x * 255).
    pub obs: Vec<u8>,
    /// Policy target over the legal actions (the support is the legal mask).
    pub policy: Vec<(u16, f32)>,
    /// Result for the player to act: 0 win, 1 draw, 2 loss (the WDL
    /// index); for a game cut at the ply cap, [`CUT_SEARCH`] or
    /// [`NO_VALUE`] (`selfplay.cut_target`).
    pub wdl: u8,
    /// Root value of the search for the player to act, in [-1, 1].
    pub q: f32,
    /// The evaluator version that searched it ([`SelfPlay::set_version`];
    /// 0 unless the caller numbers its weights). Not stored in replay files.
    ///
    /// [`SelfPlay::set_version`]: crate::selfplay::SelfPlay::set_version
    pub version: u64,
}

impl Sample {
    pub fn quantise(obs: &[f32]) -> Vec<u8> {
        obs.iter()
            .map(|&x| (x.clamp(0.0, 1.0) * 255.0).round() as u8)
            .collect()
    }

    /// The observation as floats again.
    pub fn obs_f32(&self) -> impl Iterator<Item = f32> + '_ {
        self.obs.iter().map(|&q| q as f32 / 255.0)
    }

    /// Value target: `(1 - search_weight)` x the one-hot result +
    /// `search_weight` x [`wdl_of_value`]`(q)`. Mixing in the search value
    /// gives a lower-variance target than the result of one noisy game. A
    /// cut game's position has no result: [`CUT_SEARCH`] targets the search
    /// value alone, [`NO_VALUE`] nothing (all zeros: no value loss).
    pub fn value_target(&self, search_weight: f32) -> [f32; 3] {
        match self.wdl {
            0..=2 => {
                let mut t = wdl_of_value(self.q).map(|x| x * search_weight);
                t[self.wdl as usize] += 1.0 - search_weight;
                t
            }
            CUT_SEARCH => wdl_of_value(self.q),
            _ => [0.0; 3],
        }
    }
}

/// Writes a sparse policy into its row of a dense `[P, A]` array (and the
/// support into the legal mask's row, when given).
pub fn scatter_policy(policy: &[(u16, f32)], row: &mut [f32], mask: Option<&mut [bool]>) {
    for &(a, p) in policy {
        row[a as usize] = p;
    }
    if let Some(mask) = mask {
        for &(a, _) in policy {
            mask[a as usize] = true;
        }
    }
}

/// Samples as dense arrays, row `i` for sample `i` (P samples, A actions,
/// L floats per observation): what a training step takes, in Rust (as tch
/// tensors) and in Python (as numpy arrays, `SelfPlay.play`).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Dense {
    /// `[P, L]` observations as floats again.
    pub obs: Vec<f32>,
    /// `[P, A]` legal actions (the support of the policy target).
    pub mask: Vec<bool>,
    /// `[P, A]` policy target, 0 off the mask.
    pub policy: Vec<f32>,
    /// `[P, 3]` value target (win, draw, loss), see [`Sample::value_target`].
    pub value: Vec<f32>,
    /// `[P]` root search value.
    pub search_value: Vec<f32>,
    /// `[P]` result class (0 win, 1 draw, 2 loss; [`CUT_SEARCH`] and
    /// [`NO_VALUE`] for a cut game's positions).
    pub result: Vec<i8>,
    /// `[P]` evaluator version that searched the position.
    pub version: Vec<i64>,
}

impl Dense {
    /// Stacks `samples` for `actions` actions; `search_weight` is the share
    /// of the search value in the value target.
    pub fn new<'a>(
        samples: impl ExactSizeIterator<Item = &'a Sample>,
        actions: usize,
        search_weight: f32,
    ) -> Dense {
        let p = samples.len();
        let mut d = Dense {
            mask: vec![false; p * actions],
            policy: vec![0f32; p * actions],
            value: Vec::with_capacity(p * 3),
            search_value: Vec::with_capacity(p),
            result: Vec::with_capacity(p),
            version: Vec::with_capacity(p),
            obs: Vec::new(),
        };
        for (i, s) in samples.enumerate() {
            if i == 0 {
                d.obs.reserve(p * s.obs.len());
            }
            d.obs.extend(s.obs_f32());
            let row = i * actions..(i + 1) * actions;
            scatter_policy(
                &s.policy,
                &mut d.policy[row.clone()],
                Some(&mut d.mask[row]),
            );
            d.value.extend(s.value_target(search_weight));
            d.search_value.push(s.q);
            d.result.push(s.wdl as i8);
            d.version.push(s.version as i64);
        }
        d
    }

    /// The samples of dense rows again (the policy's support is the mask;
    /// observations quantised): what a replay file stores of arrays.
    pub fn samples(&self, actions: usize) -> Vec<Sample> {
        let p = self.result.len();
        let obs_len = self.obs.len() / p.max(1);
        (0..p)
            .map(|i| {
                let row = i * actions..(i + 1) * actions;
                let policy = self.mask[row.clone()]
                    .iter()
                    .zip(&self.policy[row])
                    .enumerate()
                    .filter(|(_, (&m, _))| m)
                    .map(|(a, (_, &pr))| (a as u16, pr))
                    .collect();
                Sample {
                    obs: Sample::quantise(&self.obs[i * obs_len..(i + 1) * obs_len]),
                    policy,
                    wdl: self.result[i].clamp(0, NO_VALUE as i8) as u8,
                    q: self.search_value[i],
                    version: self.version.get(i).map_or(0, |&v| v.max(0) as u64),
                }
            })
            .collect()
    }
}

/// [`Sample::wdl`] of a position of a game cut at the ply cap whose value
/// target is its own search value (`selfplay.cut_target = "search"`).
pub const CUT_SEARCH: u8 = 3;

/// [`Sample::wdl`] of a position without a value target (a cut game's,
/// `selfplay.cut_target = "none"`).
pub const NO_VALUE: u8 = 4;

/// A WDL distribution with expected value `q`: [max(q, 0), 1 - |q|, max(-q, 0)].
pub fn wdl_of_value(q: f32) -> [f32; 3] {
    let q = q.clamp(-1.0, 1.0);
    [q.max(0.0), 1.0 - q.abs(), (-q).max(0.0)]
}

/// The scalar value of a WDL class: win 1, draw 0, loss -1.
pub fn value_of_wdl(wdl: u8) -> f32 {
    match wdl {
        0 => 1.0,
        1 => 0.0,
        _ => -1.0,
    }
}

/// Supervised samples of a played game (from a PDN file, say): one per
/// step (a quiet move or one jump) of every move from the game's start
/// position, its target the played step (policy 1 on it, 0 on the other
/// legal steps) and `winner`'s result for the player to act (as `wdl` and
/// as `q`). The moves must be the game's legal ones, as a replayed `Game`'s
/// history is.
pub fn game_samples(game: &Game, winner: Option<Color>) -> Vec<Sample> {
    game_samples_valued(game, winner, &[])
}

/// [`game_samples`] whose `q` for the steps of move `i` is `values[i]`
/// (the mover's value in [-1, 1], a teacher's score say) where that is
/// given, the result's elsewhere.
pub fn game_samples_valued(
    game: &Game,
    winner: Option<Color>,
    values: &[Option<f32>],
) -> Vec<Sample> {
    game_samples_taught(game, winner, values, &[])
}

/// [`game_samples_valued`] whose policy targets for the steps of move `i`
/// come from `policies[i]` where that is given: weights of that turn's
/// legal moves (the teacher's, summing to 1). A step's target is then the
/// weight of the moves through each legal step, among the moves that go
/// through the steps already taken: the first step of a capture gets what
/// all captures starting with it weigh. Elsewhere the played step is the
/// target.
pub fn game_samples_taught(
    game: &Game,
    winner: Option<Color>,
    values: &[Option<f32>],
    policies: &[Option<Vec<(Move, f32)>>],
) -> Vec<Sample> {
    let v = game.variant();
    let mut env = Env::from_game(
        &Game::from_position(v, *game.start_position()),
        EnvConfig::default(),
    )
    .expect("a position of the variant makes an env");
    let mut obs = vec![0f32; env.observation_len()];
    let mut out = Vec::new();
    for (i, m) in game.history().enumerate() {
        let value = values.get(i).copied().flatten();
        // Each weighed move's steps, read at the start of the turn.
        let weighed: Vec<(Chain, f32)> = policies
            .get(i)
            .and_then(Option::as_ref)
            .map(|ws| ws.iter().map(|(w, p)| (env.actions_of(w), *p)).collect())
            .unwrap_or_default();
        let played = env.actions_of(m);
        for (k, &a) in played.iter().enumerate() {
            env.write_obs(&mut obs);
            let wdl = match winner {
                None => 1,
                Some(w) if w == env.to_play() => 0,
                Some(_) => 2,
            };
            out.push(Sample {
                obs: Sample::quantise(&obs),
                policy: step_target(env.legal_action_ids(), a, &played[..k], &weighed),
                wdl,
                q: value.unwrap_or_else(|| value_of_wdl(wdl)),
                version: 0,
            });
            if env.step(a as usize).is_err() {
                return out;
            }
        }
    }
    out
}

/// The policy target over `legal` of a step after `taken`: the weights of
/// the `weighed` moves through `taken` then each legal step, normalised;
/// 1 on `played` where no weighed move goes through `taken`.
fn step_target(
    legal: &[u16],
    played: u16,
    taken: &[u16],
    weighed: &[(Chain, f32)],
) -> Vec<(u16, f32)> {
    let mut target: Vec<(u16, f32)> = legal.iter().map(|&l| (l, 0.0)).collect();
    let mut total = 0.0;
    for (chain, w) in weighed {
        if chain.len() > taken.len() && chain.starts_with(taken) {
            if let Some(t) = target.iter_mut().find(|t| t.0 == chain[taken.len()]) {
                t.1 += w;
                total += w;
            }
        }
    }
    if total > 0.0 {
        for t in &mut target {
            t.1 /= total;
        }
    } else {
        for t in &mut target {
            t.1 = if t.0 == played { 1.0 } else { 0.0 };
        }
    }
    target
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn game_samples_target_every_played_step_and_the_result() {
        use rafle_core::Variant;
        for v in Variant::ALL {
            let mut game = Game::new(v);
            let mut rng = rafle_core::rng::Rng::new(5);
            while !game.is_over() && game.ply() < 60 {
                let legal = game.legal_moves();
                let m = legal[rng.below(legal.len())];
                game.play(&m).unwrap();
            }
            let env = Env::of(v);
            let steps: usize = {
                let mut e = Env::from_game(&Game::new(v), EnvConfig::default()).unwrap();
                game.history()
                    .map(|m| {
                        let n = e.actions_of(m).len();
                        e.play_move(m).unwrap();
                        n
                    })
                    .sum()
            };
            let samples = game_samples(&game, Some(Color::White));
            assert_eq!(samples.len(), steps, "{v}");
            for s in &samples {
                assert_eq!(s.obs.len(), env.observation_len());
                let ones: Vec<_> = s.policy.iter().filter(|(_, p)| *p == 1.0).collect();
                assert_eq!(ones.len(), 1, "{v}: one played step");
                assert!(s.policy.iter().all(|(_, p)| *p == 0.0 || *p == 1.0));
                assert!(s.wdl == 0 || s.wdl == 2);
                assert_eq!(s.q, value_of_wdl(s.wdl));
            }
            // The player to act alternates with the moves: the first sample is
            // the first mover's, and White's rows are wins.
            let first_wins = v.first_player() == Color::White;
            assert_eq!(samples[0].wdl == 0, first_wins, "{v}");
            assert!(game_samples(&game, None).iter().all(|s| s.wdl == 1));
        }
    }

    #[test]
    fn value_target_mixes_result_and_search_value() {
        for (wdl, q) in [(0, 0.3), (1, -0.8), (2, 1.0), (0, -1.0)] {
            let s = Sample {
                obs: vec![0, 128, 255],
                policy: vec![(3, 0.25), (7, 0.75)],
                wdl,
                q,
                version: 0,
            };
            let mut one_hot = [0.0; 3];
            one_hot[wdl as usize] = 1.0;
            assert_eq!(s.value_target(0.0), one_hot);
            let t = s.value_target(1.0);
            assert!((t[0] - t[2] - q).abs() < 1e-6, "{t:?} has value {q}");
            for w in [0.0, 0.25, 1.0] {
                let t = s.value_target(w);
                assert!(t.iter().all(|&x| x >= 0.0), "{t:?}");
                assert!((t.iter().sum::<f32>() - 1.0).abs() < 1e-6, "{t:?}");
                let expected = (1.0 - w) * value_of_wdl(wdl) + w * q;
                assert!((t[0] - t[2] - expected).abs() < 1e-6, "{t:?}");
            }
        }
        assert_eq!(wdl_of_value(0.0), [0.0, 1.0, 0.0]);
        assert_eq!(wdl_of_value(-0.5), [0.0, 0.5, 0.5]);
        // A cut game's positions: the search value alone, or no target.
        let cut = |wdl| Sample {
            obs: vec![0],
            policy: vec![(0, 1.0)],
            wdl,
            q: -0.25,
            version: 0,
        };
        for w in [0.0, 0.5, 1.0] {
            assert_eq!(cut(CUT_SEARCH).value_target(w), wdl_of_value(-0.25));
            assert_eq!(cut(NO_VALUE).value_target(w), [0.0; 3]);
        }
        // Dense rows and back keep them.
        let rows = [cut(CUT_SEARCH), cut(NO_VALUE)];
        let back = Dense::new(rows.iter(), 1, 0.5).samples(1);
        assert_eq!([back[0].wdl, back[1].wdl], [CUT_SEARCH, NO_VALUE]);
    }

    #[test]
    fn dense_rows_round_trip_to_samples() {
        let samples = [
            Sample {
                obs: vec![0, 51, 255],
                policy: vec![(1, 0.25), (4, 0.75)],
                wdl: 2,
                q: -0.5,
                version: 3,
            },
            Sample {
                obs: vec![255, 0, 102],
                policy: vec![(0, 1.0)],
                wdl: 1,
                q: 0.0,
                version: 4,
            },
        ];
        let d = Dense::new(samples.iter(), 5, 0.0);
        assert_eq!(d.mask[..5], [false, true, false, false, true]);
        assert_eq!(d.policy[5..], [1.0, 0.0, 0.0, 0.0, 0.0]);
        assert_eq!(d.value[..3], [0.0, 0.0, 1.0]);
        assert_eq!(d.samples(5), samples);
    }
}
