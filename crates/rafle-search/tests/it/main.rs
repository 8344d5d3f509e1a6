//! The integration tests of rafle-search, one binary (one link) for all of
//! them: choosing moves: forced wins, the network search, repetition, tables
//! in search.

mod forced_wins;
mod network_search;
mod repetition;
mod tables;
