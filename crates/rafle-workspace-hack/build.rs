//! Nothing to build: the build-dependencies only set features (Cargo.toml).
fn main() {}
