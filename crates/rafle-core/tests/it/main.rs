//! The integration tests of rafle-core, one binary (one link) for all of
//! them: the rule engine: draw rules, FEN and notation, perft, the reference
//! generator, every rule of the rule book.

mod common;
mod draws;
mod io;
mod perft;
#[path = "common/perft_data.rs"]
mod perft_data;
mod reference;
mod rules;
