//! How an episode ended, as one small code: the rule that ended the game
//! (rafle-core's `EndReason`, a loss by an illegal action included) or the
//! `max_plies` cut. Codes are what numeric infos carry (Python's
//! `rafle.END_REASONS[code]` is the name).

use rafle_core::EndReason;

/// How an episode ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Ending {
    /// Over by the rules; `EndReason::IllegalMove` is a loss by an illegal
    /// action (mode `Lose`).
    Rule(EndReason),
    /// Cut by `max_plies`.
    Truncated,
}

impl Ending {
    /// Every ending, in code order (`ALL[e.code()] == e`).
    pub const ALL: [Ending; 9] = [
        Ending::Rule(EndReason::NoLegalMove),
        Ending::Rule(EndReason::Repetition),
        Ending::Rule(EndReason::NoProgress),
        Ending::Rule(EndReason::OneKingEach),
        Ending::Rule(EndReason::LoneKing),
        Ending::Rule(EndReason::IllegalMove),
        Ending::Truncated,
        Ending::Rule(EndReason::FirstKing),
        Ending::Rule(EndReason::UnchangedMaterial),
    ];

    /// The index in [`Ending::ALL`]; the exhaustive match makes a new
    /// `EndReason` a compile error here rather than a missing code.
    pub fn code(self) -> u8 {
        match self {
            Ending::Rule(EndReason::NoLegalMove) => 0,
            Ending::Rule(EndReason::Repetition) => 1,
            Ending::Rule(EndReason::NoProgress) => 2,
            Ending::Rule(EndReason::OneKingEach) => 3,
            Ending::Rule(EndReason::LoneKing) => 4,
            Ending::Rule(EndReason::IllegalMove) => 5,
            Ending::Truncated => 6,
            Ending::Rule(EndReason::FirstKing) => 7,
            Ending::Rule(EndReason::UnchangedMaterial) => 8,
        }
    }

    /// The rule's name, "illegal action" or "truncated".
    pub fn name(self) -> &'static str {
        match self {
            Ending::Rule(EndReason::IllegalMove) => "illegal action",
            Ending::Rule(r) => r.name(),
            Ending::Truncated => "truncated",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Ending;

    #[test]
    fn codes_index_the_list() {
        for (i, e) in Ending::ALL.iter().enumerate() {
            assert_eq!(e.code() as usize, i, "{e:?}");
        }
    }
}
