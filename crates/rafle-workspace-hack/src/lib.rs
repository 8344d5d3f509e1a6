//! No code: this crate's dependencies enable the same features in the test
//! build and in the Python extension's build, so the two share every crate
//! they have in common (see its Cargo.toml).
