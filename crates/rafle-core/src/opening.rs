//! Random openings: the one meaning of `opening_plies` wherever rafle opens
//! games at random (the arena and the ladder, self-play, the teacher's
//! games): exactly that many uniformly random plies from the position the
//! game starts at, none of which ends the game. The ply caps of the callers
//! count these plies (a game's ply is counted from the start position).

use crate::rng::Rng;
use crate::{Game, Move, Variant};

/// Tries of a whole opening before giving up on one that ends the game.
const TRIES: usize = 100;

/// `prefix` (moves from the start position; a move that does not play ends
/// it there) followed by `plies` uniformly random moves, none of which ends
/// the game: an opening that ends it is drawn again, and after
/// [`TRIES`] tries (a position where every line ends the game that soon)
/// the prefix alone is returned.
pub fn random_opening(variant: Variant, prefix: &[Move], plies: usize, rng: &mut Rng) -> Vec<Move> {
    let mut start = Game::new(variant);
    for m in prefix {
        if start.play(m).is_err() {
            break;
        }
    }
    for _ in 0..TRIES {
        let mut g = start.clone();
        let mut added = 0;
        while added < plies && !g.is_over() {
            let legal = g.legal_moves();
            let m = legal[rng.below(legal.len())];
            let _ = g.play(&m);
            added += 1;
        }
        if !g.is_over() {
            return g.history().copied().collect();
        }
    }
    start.history().copied().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_variant_gets_exactly_the_plies_asked_and_a_game_going_on() {
        for v in Variant::ALL {
            for plies in [0, 1, 4, 8] {
                let mut rng = Rng::new(plies as u64);
                let opening = random_opening(v, &[], plies, &mut rng);
                assert_eq!(opening.len(), plies, "{v:?}");
                let mut g = Game::new(v);
                for m in &opening {
                    g.play(m).unwrap();
                }
                assert!(!g.is_over(), "{v:?}");
            }
        }
    }
}
