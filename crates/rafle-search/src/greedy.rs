//! `greedy`: one ply, keeps the moves that leave the best material balance
//! (kings worth more than men, see [`crate::eval::piece_values`]) and picks
//! one of them at random.

use crate::eval::piece_values;
use crate::{Forfeit, Player};
use rafle_core::rng::Rng;
use rafle_core::{Game, Move, Position, Variant};

#[derive(Debug)]
pub struct Greedy {
    variant: Variant,
    rng: Rng,
}

impl Greedy {
    pub fn new(variant: Variant, seed: u64) -> Greedy {
        Greedy {
            variant,
            rng: Rng::new(seed),
        }
    }
}

/// Material of the side that just moved minus its opponent's, after `m`.
fn material_after(variant: Variant, pos: &Position, m: &Move) -> i32 {
    let (man, king) = piece_values(variant);
    let mut after = *pos;
    after.apply_in(variant, m);
    let me = pos.side;
    let value = |c| {
        let (m, k) = after.material(c);
        m as i32 * man + k as i32 * king
    };
    value(me) - value(me.opponent())
}

impl Player for Greedy {
    fn name(&self) -> String {
        "greedy".into()
    }

    fn choose(&mut self, game: &Game) -> Result<Move, Forfeit> {
        let pos = game.position();
        let mut best = i32::MIN;
        let mut ties: Vec<Move> = Vec::new();
        for m in game.legal_moves() {
            let v = material_after(self.variant, pos, m);
            if v > best {
                best = v;
                ties.clear();
            }
            if v == best {
                ties.push(*m);
            }
        }
        Ok(ties[self.rng.below(ties.len())])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn greedy_takes_the_larger_capture() {
        // Checkers has no majority rule: 30x21 (one man) and 23x14x5 (two)
        // are both legal; greedy must take two.
        let g = Game::from_fen(Variant::Checkers, "W:W23,30:B18,9,25").unwrap();
        assert_eq!(g.legal_moves().len(), 2);
        for seed in 0..8 {
            let m = Greedy::new(Variant::Checkers, seed).choose(&g).unwrap();
            assert_eq!(g.move_string(&m), "23x14x5");
        }
    }
}
