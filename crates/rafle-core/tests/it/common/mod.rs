//! Helpers shared by the integration tests.

/// Multiplier of the random sample sizes: `RAFLE_TEST_SCALE=20` for a long
/// opt-in run (default 1).
pub fn scale() -> usize {
    std::env::var("RAFLE_TEST_SCALE")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1)
}
