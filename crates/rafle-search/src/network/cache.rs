//! Network answers kept from one search to the next of the same game.
//!
//! Consecutive searches of a game overlap: the next root is a child of this
//! root (a move was played from it), and the subtree below the played move
//! was expanded by this search. A [`Search`](super::Search) given a cache
//! looks every leaf up before asking the evaluator and stores every answer
//! it gets, so those positions cost no network call the second time. The
//! search makes the same choices as without the cache (the answers are the
//! same network's), only with fewer evaluations.
//!
//! Entries are keyed by [`ObsKey`], the exact content of the observation, so
//! a hit is the answer the network would give. An entry lives for the search
//! that used it and the next one ([`EvalCache::begin_search`] drops the
//! rest), which bounds the cache by two searches' leaves. Whoever changes the
//! evaluator's weights must [`EvalCache::clear`] it.

use std::collections::HashMap;

use rafle_env::ObsKey;

/// One network answer: logits of the legal steps (in the env's
/// `legal_action_ids` order) and the value for the player to act.
#[derive(Clone, Debug)]
pub struct CachedEval {
    pub logits: Box<[f32]>,
    pub value: f32,
    /// The search that stored or last used it.
    generation: u32,
}

/// Answers of a game's recent searches (see the module docs).
#[derive(Clone, Debug, Default)]
pub struct EvalCache {
    map: HashMap<ObsKey, CachedEval>,
    generation: u32,
    /// Leaves answered from the cache, and leaves sent to the evaluator.
    pub hits: u64,
    pub misses: u64,
}

impl EvalCache {
    pub fn new() -> EvalCache {
        EvalCache::default()
    }

    /// Called when a new search starts: entries neither stored nor used by
    /// the previous search are dropped.
    pub fn begin_search(&mut self) {
        self.generation = self.generation.wrapping_add(1);
        let keep = self.generation.wrapping_sub(1);
        self.map
            .retain(|_, e| e.generation == keep || e.generation == self.generation);
    }

    /// The stored answer for `key`, counted as a hit (and kept for the next
    /// search); None is counted as a miss.
    pub fn get(&mut self, key: &ObsKey) -> Option<&CachedEval> {
        match self.map.get_mut(key) {
            Some(e) => {
                e.generation = self.generation;
                self.hits += 1;
                Some(e)
            }
            None => {
                self.misses += 1;
                None
            }
        }
    }

    /// Stores the evaluator's answer for `key`.
    pub fn insert(&mut self, key: ObsKey, logits: Box<[f32]>, value: f32) {
        let generation = self.generation;
        self.map.insert(
            key,
            CachedEval {
                logits,
                value,
                generation,
            },
        );
    }

    /// Forgets every answer (the evaluator changed); the counters stay.
    pub fn clear(&mut self) {
        self.map.clear();
    }

    /// Answers held.
    pub fn len(&self) -> usize {
        self.map.len()
    }

    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rafle_env::{Env, EnvConfig, Variant};

    /// Keys of the start position and of the positions after its first steps.
    fn keys() -> Vec<ObsKey> {
        let env = Env::new(Variant::Thai, EnvConfig::default()).unwrap();
        let mut keys = vec![env.obs_key()];
        for &a in env.legal_action_ids() {
            let mut e = env.clone();
            e.step(a as usize).unwrap();
            keys.push(e.obs_key());
        }
        keys
    }

    #[test]
    fn an_entry_lives_for_its_search_and_the_next_unless_used() {
        let k = keys();
        let mut c = EvalCache::new();
        c.begin_search();
        c.insert(k[0], vec![0.5, 1.0].into(), 0.25);
        c.insert(k[1], vec![0.0].into(), -0.5);
        c.begin_search();
        let hit = c.get(&k[0]).expect("kept for the next search");
        assert_eq!((&*hit.logits, hit.value), (&[0.5, 1.0][..], 0.25));
        c.begin_search();
        // k[0] was used by the second search, k[1] was not.
        assert!(c.get(&k[0]).is_some());
        assert!(c.get(&k[1]).is_none());
        assert_eq!((c.hits, c.misses), (2, 1));
        c.clear();
        assert!(c.is_empty() && c.get(&k[0]).is_none());
        assert_eq!(
            k.len(),
            k.iter().collect::<std::collections::HashSet<_>>().len()
        );
    }
}
