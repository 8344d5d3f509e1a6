//! The integration tests of rafle-train, one binary (one link) for all of
//! them: what trainers share: atomic files, the config reference page, self-
//! play.

mod atomic;
mod config_doc;
mod selfplay;
