//! The integration tests of rafle-env, one binary (one link) for all of them:
//! the RL view: batched steps, the conformance suite, the env API, VecEnv
//! (the allocation count is tests/no_alloc.rs: its counting allocator is its
//! binary's own).

mod batch;
mod conformance;
mod env_api;
mod vec_env;
