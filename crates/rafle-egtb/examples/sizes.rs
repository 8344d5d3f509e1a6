use rafle_core::Variant;
use rafle_egtb::{index::Indexer, Material};
fn main() {
    for v in Variant::ALL {
        let ix = Indexer::new(v);
        let mut line = format!("{v:14}");
        for n in 2..=7 {
            let tot: u64 = Material::all_up_to(v, n)
                .iter()
                .filter(|m| m.pieces() == n)
                .map(|m| ix.slice(*m).map(|s| s.size).unwrap_or(0))
                .sum();
            let maxp = Material::all_up_to(v, n)
                .iter()
                .filter(|m| m.pieces() == n)
                .map(|m| {
                    ix.slice(*m).map(|s| s.size).unwrap_or(0)
                        + ix.slice(m.mirror()).map(|s| s.size).unwrap_or(0)
                })
                .max()
                .unwrap();
            line += &format!(" {n}:{:.1e}/{:.1e}", tot as f64, maxp as f64);
        }
        println!("{line}");
    }
}
