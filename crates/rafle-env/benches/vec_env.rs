//! `cargo bench -p rafle-env`: VecEnv steps per second for every variant on
//! 1 and 2 threads, with the memcpy reference. Environment variables:
//! RAFLE_BENCH_STEPS batched steps (default 300), RAFLE_BENCH_ENVS games
//! (default 4096), RAFLE_BENCH_VARIANT one variant (default all), RAFLE_BENCH_THREADS
//! thread counts (default 1,2).

use rafle_env::bench::{measure, EnvBench};
use rafle_env::Variant;

fn main() {
    let steps = std::env::var("RAFLE_BENCH_STEPS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(300);
    let envs = std::env::var("RAFLE_BENCH_ENVS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(4096);
    let threads: Vec<usize> = std::env::var("RAFLE_BENCH_THREADS")
        .ok()
        .map(|s| s.split(',').filter_map(|t| t.trim().parse().ok()).collect())
        .unwrap_or(vec![1, 2]);
    let only: Option<Variant> = std::env::var("RAFLE_BENCH_VARIANT")
        .ok()
        .and_then(|s| s.parse().ok());
    println!("{}", EnvBench::HEADER);
    for v in Variant::ALL
        .into_iter()
        .filter(|v| only.is_none_or(|o| o == *v))
    {
        for &threads in &threads {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .expect("thread pool");
            match pool.install(|| measure(v, envs, steps)) {
                Ok(b) => println!("{b}"),
                Err(e) => eprintln!("{v}: {e}"),
            }
        }
    }
}
