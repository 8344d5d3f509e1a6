//! The draw rules' state of a line of play, and the verdict on a position.
//!
//! A line of play is a game, an RL episode or a search path. Its
//! [`DrawState`] holds what the draw rules need to know of the past: the
//! [`Counters`] of the current position (plies without progress, the
//! lone-king count) and the Zobrist keys of the positions since the last
//! irreversible move (a capture or a man move), the only ones the current
//! position can repeat. [`outcome_of`] turns a position, its legal-move count
//! and that state into a result, in the order of the rule book: no legal
//! move first, then each draw rule. `Game`, the RL `Env` (rafle-env) and the
//! alpha-beta and UCT searches (rafle-search) all keep a `DrawState`, so they
//! give the same verdicts.

use crate::board::BitWord;
use crate::game::{EndReason, Outcome};
use crate::movegen;
use crate::moves::Move;
use crate::position::{zobrist_after, Position};
use crate::types::Color;
use crate::variant::{Goal, Rules};

/// Draw counters carried from ply to ply; `Copy` so searches can keep them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Counters {
    /// Plies since the last capture or man move.
    pub reversible: u16,
    /// Plies since the current lone-king material was reached (international).
    pub lone_king: u16,
    /// Limit of the current lone-king class (0 = not in such an ending).
    pub lone_king_limit: u16,
    /// Plies since the last capture or crowning (the material changes).
    pub material: u16,
}

/// (men, kings) of each colour, in the variant's own word.
#[inline(always)]
fn material<R: Rules>(pos: &Position) -> [(u32, u32); 2] {
    let kings = R::Word::narrow(pos.kings);
    [pos.white, pos.black].map(|p| {
        let p = R::Word::narrow(p);
        ((p & !kings).count_ones(), (p & kings).count_ones())
    })
}

/// The ply limit of the lone-king ending `pos` is in under rules `R`
/// ([`Rules::LONE_KING_LIMITS`]), 0 when none applies.
pub fn lone_king_limit<R: Rules>(pos: &Position) -> u16 {
    if R::LONE_KING_LIMITS.is_empty() {
        return 0;
    }
    let material = material::<R>(pos);
    for c in [Color::White, Color::Black] {
        let (m, k) = material[c.index()];
        let (om, ok) = material[c.opponent().index()];
        if m == 0 && k == 1 && ok >= 1 {
            let pieces = om + ok;
            if let Some(l) = R::LONE_KING_LIMITS.iter().find(|l| {
                (l.min_pieces..=l.max_pieces).contains(&pieces) && (!l.kings_only || om == 0)
            }) {
                return l.plies;
            }
        }
    }
    0
}

impl Counters {
    /// Counters after `m` was played from `before`, giving `after`.
    pub fn next<R: Rules>(&self, before: &Position, m: &Move, after: &Position) -> Counters {
        let is_king =
            |p: &Position, b: u8| (R::Word::narrow(p.kings) & R::Word::bit(b.into())).any();
        let man_moved = !is_king(before, m.from);
        let crowned = man_moved && is_king(after, m.to());
        let material = if m.is_capture() || crowned {
            0
        } else {
            self.material.saturating_add(1)
        };
        let reversible = if m.is_capture() || man_moved {
            0
        } else {
            self.reversible.saturating_add(1)
        };
        let limit = lone_king_limit::<R>(after);
        let (lone_king, lone_king_limit) = if limit == 0 {
            (0, 0)
        } else if limit != self.lone_king_limit || m.is_capture() {
            (0, limit)
        } else {
            (self.lone_king.saturating_add(1), limit)
        };
        Counters {
            reversible,
            lone_king,
            lone_king_limit,
            material,
        }
    }

    /// Counters for a game set up from a position.
    pub fn initial<R: Rules>(pos: &Position) -> Counters {
        Counters {
            reversible: 0,
            lone_king: 0,
            lone_king_limit: lone_king_limit::<R>(pos),
            material: 0,
        }
    }
}

/// The outcome of a position given its legal-move count, counters and the
/// number of times it has occurred (1 = first time).
pub fn outcome_of<R: Rules>(
    pos: &Position,
    num_legal: usize,
    counters: &Counters,
    occurrences: usize,
) -> Option<Outcome> {
    let w = R::Word::narrow;
    let kings_of = |c: Color| w(pos.pieces(c)) & w(pos.kings);
    if R::GOAL == Goal::FirstKingWins {
        // The crowning move ends the game (X1); a set-up position with a
        // king of the side to move counts as won by it.
        for c in [pos.side.opponent(), pos.side] {
            if kings_of(c).any() {
                return Some(Outcome {
                    winner: Some(c),
                    reason: EndReason::FirstKing,
                });
            }
        }
    }
    if num_legal == 0 {
        // G1, or its inverse in antidraughts (A1).
        let winner = match R::GOAL {
            Goal::NoMoveWins => pos.side,
            _ => pos.side.opponent(),
        };
        return Some(Outcome {
            winner: Some(winner),
            reason: EndReason::NoLegalMove,
        });
    }
    let draw = |reason| {
        Some(Outcome {
            winner: None,
            reason,
        })
    };
    if occurrences >= R::REPETITIONS {
        return draw(EndReason::Repetition);
    }
    if R::NO_PROGRESS_PLIES > 0 && counters.reversible >= R::NO_PROGRESS_PLIES {
        return draw(EndReason::NoProgress);
    }
    if counters.lone_king_limit > 0 && counters.lone_king >= counters.lone_king_limit {
        return draw(EndReason::LoneKing);
    }
    if !R::MATERIAL_LIMITS.is_empty()
        && kings_of(Color::White).any()
        && kings_of(Color::Black).any()
    {
        let pieces = w(pos.occupied()).count_ones();
        if R::MATERIAL_LIMITS.iter().any(|l| {
            (l.min_pieces..=l.max_pieces).contains(&pieces) && counters.material >= l.plies
        }) {
            return draw(EndReason::UnchangedMaterial);
        }
    }
    if R::ONE_KING_EACH_DRAW
        && pos.kings == pos.occupied()
        && pos.white.count_ones() == 1
        && pos.black.count_ones() == 1
        && !movegen::has_capture::<R>(pos)
    {
        return draw(EndReason::OneKingEach);
    }
    None
}

/// The draw rules' view of a line of play: the counters of its current
/// position and the keys of its positions, oldest first, the current one last.
///
/// Only the last `counters().reversible + 1` positions can repeat the current
/// one (an irreversible move changes the material or a man's row). The older
/// ones stay for [`DrawState::rewind`] (`Game::undo`, a search going back up)
/// until [`DrawState::trim`] drops them (the RL env, which never goes back).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DrawState {
    counters: Counters,
    /// Zobrist keys ([`Position::zobrist`]); never empty.
    keys: Vec<u64>,
}

/// A point of a line, to go back to with [`DrawState::rewind`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Mark {
    len: usize,
    counters: Counters,
}

impl DrawState {
    /// The state of a line that starts at `pos` (nothing before it).
    pub fn new<R: Rules>(pos: &Position) -> DrawState {
        DrawState {
            counters: Counters::initial::<R>(pos),
            keys: vec![pos.zobrist()],
        }
    }

    /// Back to a line that starts at `pos`, keeping the allocation.
    pub fn reset<R: Rules>(&mut self, pos: &Position) {
        self.counters = Counters::initial::<R>(pos);
        self.keys.clear();
        self.keys.push(pos.zobrist());
    }

    /// Room for `additional` more positions without allocating.
    pub fn reserve(&mut self, additional: usize) {
        self.keys.reserve(additional);
    }

    /// Counters of the current position.
    pub fn counters(&self) -> Counters {
        self.counters
    }

    /// Zobrist key of the current position.
    pub fn key(&self) -> u64 {
        self.keys[self.keys.len() - 1]
    }

    /// The line goes on: `m` was played from `before` (its current position),
    /// giving `after`.
    #[inline]
    pub fn push<R: Rules>(&mut self, before: &Position, m: &Move, after: &Position) {
        self.counters = self.counters.next::<R>(before, m, after);
        let key = zobrist_after::<R>(self.key(), before, m, after);
        debug_assert_eq!(key, after.zobrist());
        self.keys.push(key);
    }

    /// The current point of the line.
    pub fn mark(&self) -> Mark {
        Mark {
            len: self.keys.len(),
            counters: self.counters,
        }
    }

    /// Back to `mark`, taken earlier on this line (and after the last
    /// [`DrawState::trim`]).
    pub fn rewind(&mut self, mark: Mark) {
        debug_assert!(mark.len >= 1 && mark.len <= self.keys.len());
        self.keys.truncate(mark.len);
        self.counters = mark.counters;
    }

    /// Forgets the positions that can no longer repeat (marks taken before
    /// are void), so that the state stays as small as the no-progress limit.
    #[inline]
    pub fn trim(&mut self) {
        let stale = self.keys.len() - self.repeatable();
        if stale > 0 {
            self.keys.drain(..stale);
        }
    }

    /// A copy holding only the positions that can still repeat (what a
    /// search starting here needs).
    pub fn recent(&self) -> DrawState {
        DrawState {
            counters: self.counters,
            keys: self.keys[self.keys.len() - self.repeatable()..].to_vec(),
        }
    }

    /// Number of kept positions that the current one can repeat, itself included.
    fn repeatable(&self) -> usize {
        (self.counters.reversible as usize + 1).min(self.keys.len())
    }

    /// Times the current position has occurred on the line (1 = first time):
    /// same pieces on the same squares and the same side to move, so every
    /// second position back.
    #[inline]
    pub fn occurrences(&self) -> usize {
        let cur = self.key();
        let n = self.keys.len();
        self.keys[n - self.repeatable()..]
            .iter()
            .rev()
            .step_by(2)
            .filter(|&&k| k == cur)
            .count()
    }

    /// The result at the current position `pos`, which has `num_legal`
    /// legal moves (see [`outcome_of`]).
    pub fn outcome<R: Rules>(&self, pos: &Position, num_legal: usize) -> Option<Outcome> {
        outcome_of::<R>(pos, num_legal, &self.counters, self.occurrences())
    }
}

#[cfg(test)]
mod tests {
    use crate::rng::Rng;
    use crate::{Game, Variant};

    /// Random games from king endings (where positions repeat) and the start:
    /// a trimmed state (as the RL env keeps it) and `recent()` copies agree
    /// with the game's full state, and rewinding restores the state exactly.
    #[test]
    fn trimmed_recent_and_rewound_states_agree_with_the_game() {
        let mut rng = Rng::new(5);
        let mut repeats = 0;
        for (v, fen) in [
            (Variant::Thai, "W:WK29,K31:BK2,K4"),
            (Variant::International, "W:WK46,K50:BK1,K5,K3"),
            (Variant::English, "W:WK29,K32:BK1,K3"),
            (Variant::Checkers, "B:W21-32:B1-12"),
        ] {
            for _ in 0..20 {
                let mut g = Game::from_fen(v, fen).unwrap();
                let mut trimmed = g.draw_state().clone();
                while !g.is_over() && g.ply() < 120 {
                    let before = *g.position();
                    let m = g.legal_moves()[rng.below(g.legal_moves().len())];
                    let state = g.draw_state().clone();
                    g.play(&m).unwrap();
                    let after = *g.position();
                    let mut rewound = state.clone();
                    with_rules!(v, R => rewound.push::<R>(&before, &m, &after));
                    assert_eq!(&rewound, g.draw_state());
                    rewound.rewind(state.mark());
                    assert_eq!(rewound, state);
                    with_rules!(v, R => trimmed.push::<R>(&before, &m, &after));
                    trimmed.trim();
                    let full = g.draw_state();
                    assert_eq!(trimmed, full.recent(), "{v} {}", g.fen());
                    assert_eq!(
                        (trimmed.counters(), trimmed.key(), trimmed.occurrences()),
                        (full.counters(), full.key(), full.occurrences())
                    );
                    repeats += usize::from(full.occurrences() > 1);
                }
            }
        }
        assert!(repeats > 0, "no position repeated");
    }
}
