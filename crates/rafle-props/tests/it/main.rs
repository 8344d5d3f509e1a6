//! The integration tests of rafle-props, one binary (one link) for all of
//! them: the readers of outside input on proptest's inputs and the fuzz
//! corpus.

mod corpus;
mod props;
