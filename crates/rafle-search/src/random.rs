//! `random`: uniform over the legal full moves.

use crate::{Forfeit, Player};
use rafle_core::rng::Rng;
use rafle_core::{Game, Move};

#[derive(Debug)]
pub struct RandomPlayer {
    rng: Rng,
}

impl RandomPlayer {
    pub fn new(seed: u64) -> RandomPlayer {
        RandomPlayer {
            rng: Rng::new(seed),
        }
    }
}

impl Player for RandomPlayer {
    fn name(&self) -> String {
        "random".into()
    }

    fn choose(&mut self, game: &Game) -> Result<Move, Forfeit> {
        let legal = game.legal_moves();
        Ok(legal[self.rng.below(legal.len())])
    }
}
