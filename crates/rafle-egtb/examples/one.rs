use rafle_core::Variant;
use rafle_egtb::{build, Material, Selection};
fn main() {
    let v: Variant = std::env::args().nth(1).unwrap().parse().unwrap();
    let what = std::env::args().nth(2).unwrap();
    let sel = match what.parse::<u32>() {
        Ok(n) => Selection::UpTo(n),
        Err(_) => Selection::Slices(
            what.split(',')
                .map(|s| s.parse::<Material>().unwrap())
                .collect(),
        ),
    };
    let dir = std::env::temp_dir().join(format!("egtb-one-{v}"));
    let _ = std::fs::remove_dir_all(&dir);
    let t = std::time::Instant::now();
    let s = build(v, &dir, &sel, &|_| {}).unwrap();
    let pos: u64 = s.written.iter().map(|x| x.positions).sum();
    println!(
        "{v} {what}: {} slices {pos} positions {:.2}s",
        s.written.len(),
        t.elapsed().as_secs_f64()
    );
}
