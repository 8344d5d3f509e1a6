//! rafle-arena: measuring players against each other. Matches in
//! colour-swapped pairs and round robins ([`play`]), Elo with intervals,
//! the pentanomial model, SPRT and ratings ([`elo`]), game records in PDN
//! ([`pdn`]) and the tables `rafle eval` prints ([`report`]).
//!
//! The players are rafle-search's (any [`rafle_search::Player`], or a
//! network side whose leaves of all games in flight go to its evaluator in
//! one call); the arena only schedules games, adjudicates and counts.

pub mod elo;
pub mod ladder;
pub mod pdn;
pub mod play;
pub mod report;

pub use play::{
    play_match, round_robin, ArenaConfig, GameEvent, GameRecord, MatchResult, NetworkSide,
    RoundRobin, Side, Watcher,
};
