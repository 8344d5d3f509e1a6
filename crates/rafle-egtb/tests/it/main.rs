//! The integration tests of rafle-egtb, one binary (one link) for all of
//! them: the endgame tables: consistency, published values, a reference
//! solver, theory positions.

mod common;
mod consistency;
mod published;
mod reference;
mod theory;
