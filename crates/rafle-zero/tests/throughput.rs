//! Opt-in throughput check (not a default test: timings depend on the machine):
//! `cargo test --release -p rafle-zero --test throughput -- --ignored --nocapture`
//! plays self-play rounds with the network in f32 and in bf16, alternating,
//! and prints network evaluations per second, average batch and network share.

use rafle_zero::config::Config;
use rafle_zero::net::{Net, NetShape};
use rafle_zero::selfplay::SelfPlay;
use tch::Device;

#[test]
#[ignore]
fn selfplay_throughput_f32_vs_bf16() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../configs/thai.toml");
    let cfg = Config::load(std::path::Path::new(path)).unwrap();
    let v = cfg.variant().unwrap();
    let net = Net::new(NetShape::new(v, &cfg.net), Device::cuda_if_available(), 0);
    let nets = [
        ("f32", net.inference_copy("f32").unwrap()),
        ("bf16", net.inference_copy("bf16").unwrap()),
    ];
    let mut sp = SelfPlay::new(&cfg, v, 1).unwrap();
    for round in 0..3 {
        for (name, n) in &nets {
            let (_, st) = sp.run(n, 512, |_| {});
            println!(
                "round {round} {name:>4}: {:>6.0} evals/s, batch {:.0}, network {:.0}% of self-play time, {} games",
                st.nn_evals as f64 / st.seconds,
                st.avg_batch(),
                100.0 * st.nn_seconds / (st.nn_seconds + st.tree_seconds),
                st.games
            );
        }
    }
}
