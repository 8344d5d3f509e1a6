//! The integer evaluation against the float model it was built from, the
//! network's incremental accumulators against a refresh, and the file.

use super::*;
use rafle_core::rng::Rng;
use rafle_core::{Game, Variant};

const NET: Design = Design::Net {
    hidden: 8,
    hidden2: 4,
};

/// Random float weights of `design` on `variant`.
fn random_floats(variant: Variant, design: Design, seed: u64) -> BTreeMap<String, Vec<f32>> {
    let mut rng = Rng::new(seed);
    let mut r = |scale: f64| ((rng.unit_f64() * 2.0 - 1.0) * scale) as f32;
    let n = inputs(variant, design);
    let mut t = BTreeMap::new();
    match design {
        Design::Patterns => {
            for name in ["mg", "eg"] {
                t.insert(name.to_string(), (0..n).map(|_| r(0.5)).collect());
            }
        }
        Design::Net { hidden, hidden2 } => {
            let sizes = [
                ("w1", n * hidden, 0.3),
                ("b1", hidden, 0.5),
                ("w2", 2 * hidden * hidden2, 1.0),
                ("b2", hidden2, 0.5),
                ("w3", hidden2, 1.5),
                ("b3", 1, 0.5),
            ];
            for (name, len, scale) in sizes {
                t.insert(name.to_string(), (0..len).map(|_| r(scale)).collect());
            }
        }
    }
    t
}

/// The float model on a position's features (the trainer's forward pass).
fn float_value(design: Design, t: &BTreeMap<String, Vec<f32>>, f: &Features) -> f64 {
    match design {
        Design::Patterns => f
            .indices
            .iter()
            .zip(&f.values)
            .map(|(&i, &x)| {
                let (a, b) = (t["mg"][i as usize] as f64, t["eg"][i as usize] as f64);
                x as f64 * (f.phase as f64 * a + (1.0 - f.phase as f64) * b)
            })
            .sum(),
        Design::Net { hidden, hidden2 } => {
            let acc = |idx: &[u32]| -> Vec<f64> {
                (0..hidden)
                    .map(|j| {
                        let s: f64 = t["b1"][j] as f64
                            + idx
                                .iter()
                                .map(|&i| t["w1"][i as usize * hidden + j] as f64)
                                .sum::<f64>();
                        s.clamp(0.0, 1.0)
                    })
                    .collect()
            };
            let a: Vec<f64> = acc(&f.indices).into_iter().chain(acc(&f.them)).collect();
            let mut v = t["b3"][0] as f64;
            for j in 0..hidden2 {
                let z: f64 = t["b2"][j] as f64
                    + (0..2 * hidden)
                        .map(|i| a[i] * t["w2"][i * hidden2 + j] as f64)
                        .sum::<f64>();
                v += z.clamp(0.0, 1.0) * t["w3"][j] as f64;
            }
            v
        }
    }
}

/// Positions of a few random games (kings included, both sides to move).
fn positions(variant: Variant, seed: u64) -> Vec<Position> {
    let mut rng = Rng::new(seed);
    let mut out = Vec::new();
    for _ in 0..4 {
        let mut g = Game::new(variant);
        while !g.is_over() && g.ply() < 150 {
            out.push(*g.position());
            let m = g.legal_moves()[rng.below(g.legal_moves().len())];
            g.play(&m).unwrap();
        }
    }
    out
}

#[test]
fn the_integer_evaluation_is_the_float_model_it_was_built_from() {
    for v in Variant::ALL {
        for design in [Design::Patterns, NET] {
            let t = random_floats(v, design, 7);
            let e = Learned::from_floats(v, design, &t, BTreeMap::new()).unwrap();
            let frame = Frame::new(v);
            for pos in positions(v, 1) {
                let f = features_in(&frame, design, &pos);
                let want = 100.0 * float_value(design, &t, &f);
                let got = e.evaluate(&pos) as f64;
                // Rounding: thousandths per term (patterns), 127ths and 64ths (net).
                let tol = match design {
                    Design::Patterns => 2.0 + 0.02 * want.abs(),
                    Design::Net { .. } => 6.0 + 0.03 * want.abs(),
                };
                assert!(
                    (got - want).abs() <= tol,
                    "{v} {}: {got} vs {want}",
                    design.name()
                );
            }
        }
    }
}

#[test]
fn the_accumulators_along_a_game_are_those_of_a_refresh() {
    for v in Variant::ALL {
        let t = random_floats(v, NET, 3);
        let e = Learned::from_floats(v, NET, &t, BTreeMap::new()).unwrap();
        let mut rng = Rng::new(5);
        let mut g = Game::new(v);
        let mut leaf = Leaf::new(Some(&e), 400);
        leaf.root(g.position());
        let mut ply = 0;
        while !g.is_over() && ply < 300 {
            let before = *g.position();
            let m = g.legal_moves()[rng.below(g.legal_moves().len())];
            g.play(&m).unwrap();
            ply += 1;
            leaf.step(ply, &before, g.position());
            let mut fresh = Leaf::new(Some(&e), 1);
            fresh.root(g.position());
            assert_eq!(
                leaf.acc[ply * leaf.width..(ply + 1) * leaf.width],
                fresh.acc[..],
                "{v}: ply {ply}"
            );
        }
    }
}

#[test]
fn a_file_reads_back_to_the_same_evaluation() {
    for design in [Design::Patterns, NET] {
        let v = Variant::Thai;
        let t = random_floats(v, design, 11);
        let mut meta = BTreeMap::new();
        meta.insert("commit".to_string(), "abc".to_string());
        let bytes = file::to_bytes(v, design, &t, &meta).unwrap();
        let back = file::from_bytes(&bytes).unwrap();
        let e = Learned::from_floats(v, design, &t, BTreeMap::new()).unwrap();
        assert_eq!(back.design(), design);
        assert_eq!(back.metadata["commit"], "abc");
        for pos in positions(v, 2) {
            assert_eq!(back.evaluate(&pos), e.evaluate(&pos));
        }
    }
}

#[test]
fn fingerprints_tell_files_apart() {
    // FNV-1a's published values: the empty input and "a".
    assert_eq!(file::fingerprint(b""), "cbf29ce484222325");
    assert_eq!(file::fingerprint(b"a"), "af63dc4c8601ec8c");
    let t = random_floats(Variant::Thai, Design::Patterns, 3);
    let mut other = t.clone();
    other.get_mut("mg").unwrap()[0] += 1.0;
    let [a, b] = [t, other].map(|t| {
        file::fingerprint(
            &file::to_bytes(Variant::Thai, Design::Patterns, &t, &BTreeMap::new()).unwrap(),
        )
    });
    assert_ne!(a, b);
    for v in shipped() {
        assert_eq!(zoo_fingerprint(v).map(|f| f.len()), Some(16), "{v}");
    }
}

#[test]
fn bad_files_and_weights_are_one_line_errors() {
    let v = Variant::Thai;
    let t = random_floats(v, NET, 1);
    let good = file::to_bytes(v, NET, &t, &BTreeMap::new()).unwrap();
    let mut short = t.clone();
    short.get_mut("w2").unwrap().pop();
    let mut nan = t.clone();
    nan.get_mut("b1").unwrap()[0] = f32::NAN;
    let mut huge = random_floats(v, Design::Patterns, 1);
    huge.get_mut("mg").unwrap()[3] = 1e6;
    let cases: Vec<(Result<Learned, EvalError>, &str)> = vec![
        (
            file::from_bytes(&good[..good.len() / 2]),
            "not a safetensors file",
        ),
        (file::from_bytes(b"hello"), "not a safetensors file"),
        (
            Learned::from_floats(v, NET, &short, BTreeMap::new()),
            "w2 has",
        ),
        (
            Learned::from_floats(v, NET, &nan, BTreeMap::new()),
            "b1 holds NaN",
        ),
        (
            Learned::from_floats(v, Design::Patterns, &huge, BTreeMap::new()),
            "outside",
        ),
        (
            Learned::from_floats(v, Design::Patterns, &BTreeMap::new(), BTreeMap::new()),
            "no tensor \"mg\"",
        ),
    ];
    for (r, needle) in cases {
        let e = r.expect_err(needle).to_string();
        assert!(e.contains(needle) && !e.contains('\n'), "{needle}: {e}");
    }
    // Another program's safetensors file.
    let other = safetensors::serialize(
        vec![(
            "x",
            safetensors::tensor::TensorView::new(safetensors::Dtype::F32, vec![1], &[0u8; 4])
                .unwrap(),
        )],
        None,
    )
    .unwrap();
    let e = file::from_bytes(&other).unwrap_err().to_string();
    assert!(e.contains("no \"format\""), "{e}");
}
