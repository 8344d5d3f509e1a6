//! Design "patterns", in the manner of Scan: the board is covered by
//! overlapping windows of 8 squares (4x4 blocks at every second row and
//! column of a dark-square board: 9 on 8x8, 16 on 10x10, 25 on 12x12; 2x4
//! blocks on turkish's full board: 21), each window's men read as a ternary
//! number (per square, in frame reading order: 0 empty or a king, 1 the
//! mover's man, 2 the opponent's), and every configuration of every window
//! has its own weight. Material and tempo terms and a bias follow.
//!
//! Features (the sparse input, [`Patterns::features`]): one per window,
//! index `w * 6561 + config` with value 1, then the [`EXTRAS`] at index
//! `windows * 6561 + e` with their counts as values. The value, in logits
//! of the mover's expected score, interpolates two weight vectors by the
//! phase φ (the share of the starting pieces on the board):
//!
//! ```text
//! v = Σ_i x_i · (φ · mg[i] + (1 - φ) · eg[i])
//! ```
//!
//! At play time the weights are integers (window weights i16 thousandths,
//! the extras i64 hundred-thousandths), φ the exact ratio of two counts;
//! the sum is returned in centi-logits.

use super::frame::Frame;
use super::EvalError;
use rafle_core::{Color, Position, Variant};

/// Squares per window.
pub const WINDOW: usize = 8;
/// Configurations of a window: 3^8.
pub const CONFIGS: usize = 6561;
/// The dense terms after the windows, in this order.
pub const EXTRAS: [&str; 7] = [
    "own_men",
    "opp_men",
    "own_kings",
    "opp_kings",
    "own_tempo",
    "opp_tempo",
    "bias",
];
/// Window weights are integers in thousandths of a logit.
const SCALE: f32 = 1000.0;
/// The extras' weights in hundred-thousandths: their values are counts
/// up to hundreds (tempo), which would multiply a coarser rounding.
const EXTRA_SCALE: f64 = 100_000.0;

/// The windows of a board, each its 8 frame indices in reading order.
pub fn windows(f: &Frame) -> Vec<[u8; WINDOW]> {
    let (rows, cols, step_r) = if f.h == f.n { (2, 4, 1) } else { (4, 4, 2) };
    let mut out = Vec::new();
    for r0 in (0..=f.n - rows).step_by(step_r) {
        for c0 in (0..=f.n - cols).step_by(2) {
            let w: Vec<u8> = (0..f.squares)
                .filter(|&k| {
                    let (r, c) = (f.row(k), f.col(k));
                    (r0..r0 + rows).contains(&r) && (c0..c0 + cols).contains(&c)
                })
                .map(|k| k as u8)
                .collect();
            out.push(w.try_into().expect("a window holds 8 squares"));
        }
    }
    out
}

/// Ternary digits of a byte's bits: bit i -> 3^i.
const TERNARY: [u16; 256] = {
    let mut t = [0u16; 256];
    let mut b = 0;
    while b < 256 {
        let (mut v, mut p, mut i) = (0u16, 1u16, 0);
        while i < 8 {
            if b >> i & 1 == 1 {
                v += p;
            }
            p *= 3;
            i += 1;
        }
        t[b] = v;
        b += 1;
    }
    t
};

/// Ternary digits of a byte's bits in reverse: bit i -> 3^(7 - i).
const TERNARY_REV: [u16; 256] = {
    let mut t = [0u16; 256];
    let mut b = 0;
    while b < 256 {
        t[b] = TERNARY[(b as u8).reverse_bits() as usize];
        b += 1;
    }
    t
};

/// How to read a window's 8 squares off a bitboard: runs of consecutive
/// bits (a 4x4 window's dark squares are 4 runs of 2), gathered in
/// ascending bit order into a byte.
#[derive(Clone, Copy, Debug, Default)]
struct Gather {
    /// (shift, length) of each run.
    runs: [(u8, u8); WINDOW],
    n: u8,
}

impl Gather {
    fn new(mut bits: [u8; WINDOW]) -> Gather {
        bits.sort_unstable();
        let mut g = Gather::default();
        for b in bits {
            match g.n.checked_sub(1).map(|i| &mut g.runs[i as usize]) {
                Some((s, len)) if *s + *len == b => *len += 1,
                _ => {
                    g.runs[g.n as usize] = (b, 1);
                    g.n += 1;
                }
            }
        }
        g
    }

    #[inline(always)]
    fn byte(&self, bb: u128) -> usize {
        let (mut out, mut at) = (0usize, 0);
        for &(s, len) in &self.runs[..self.n as usize] {
            out |= ((bb >> s) as usize & ((1 << len) - 1)) << at;
            at += len;
        }
        out
    }
}

/// A board's windows, read from each side's frame.
#[derive(Clone, Debug)]
struct Windows {
    /// `gather[side][w]`: window `w` of `side`'s frame on the board's bits.
    gather: [Vec<Gather>; 2],
}

impl Windows {
    fn new(f: &Frame) -> Windows {
        let wins = windows(f);
        Windows {
            gather: [Color::White, Color::Black].map(|side| {
                wins.iter()
                    .map(|w| Gather::new(w.map(|k| f.bit_of(side, k as usize) as u8)))
                    .collect()
            }),
        }
    }

    /// The variant's windows, built once.
    fn of(f: &Frame) -> &'static Windows {
        static ALL: [std::sync::OnceLock<Windows>; Variant::ALL.len()] =
            [const { std::sync::OnceLock::new() }; Variant::ALL.len()];
        let i = Variant::ALL
            .iter()
            .position(|&v| v == f.variant)
            .expect("a variant of the list");
        ALL[i].get_or_init(|| Windows::new(f))
    }

    /// The ternary configuration of each window of the mover's frame: a
    /// frame's reading order is ascending bits for White and descending
    /// for Black (the board turned half a turn).
    #[inline(always)]
    fn configs(&self, side: Color, own: u128, opp: u128) -> impl Iterator<Item = usize> + '_ {
        let t = match side {
            Color::White => &TERNARY,
            Color::Black => &TERNARY_REV,
        };
        self.gather[side.index()]
            .iter()
            .map(move |g| t[g.byte(own)] as usize + 2 * t[g.byte(opp)] as usize)
    }
}

/// A patterns evaluation at play time.
#[derive(Clone, Debug)]
pub struct Patterns {
    windows: &'static Windows,
    /// (mg, eg) of every window configuration, thousandths.
    table: Vec<[i16; 2]>,
    /// (mg, eg) of each of the [`EXTRAS`], hundred-thousandths.
    extras: [[i64; 2]; EXTRAS.len()],
}

impl Patterns {
    /// Number of inputs for `f`'s board: windows x 3^8 + the extras.
    pub fn inputs(f: &Frame) -> usize {
        Windows::of(f).gather[0].len() * CONFIGS + EXTRAS.len()
    }

    /// Builds from float weights `mg`, `eg` (each [`Patterns::inputs`] long).
    pub fn new(f: &Frame, mg: &[f32], eg: &[f32]) -> Result<Patterns, EvalError> {
        let n = Self::inputs(f);
        let windows = n / CONFIGS;
        if mg.len() != n || eg.len() != n {
            return Err(EvalError(format!(
                "patterns on {} need mg and eg of {n} weights, not {} and {}",
                f.variant,
                mg.len(),
                eg.len()
            )));
        }
        let q = |x: f32| (x * SCALE).round();
        let mut table = Vec::with_capacity(windows * CONFIGS);
        for i in 0..windows * CONFIGS {
            let (a, b) = (q(mg[i]), q(eg[i]));
            if a.abs() > i16::MAX as f32 || b.abs() > i16::MAX as f32 || a.is_nan() || b.is_nan() {
                return Err(EvalError(format!(
                    "window weight {i} ({}, {}) is outside ±32.767",
                    mg[i], eg[i]
                )));
            }
            table.push([a as i16, b as i16]);
        }
        let mut extras = [[0i64; 2]; EXTRAS.len()];
        for (e, x) in extras.iter_mut().enumerate() {
            let i = windows * CONFIGS + e;
            let q = |v: f32| (v as f64 * EXTRA_SCALE).round();
            let (a, b) = (q(mg[i]), q(eg[i]));
            if !(a.abs() <= 1e11 && b.abs() <= 1e11) {
                return Err(EvalError(format!(
                    "the {} weight ({}, {}) is outside ±1000000",
                    EXTRAS[e], mg[i], eg[i]
                )));
            }
            *x = [a as i64, b as i64];
        }
        Ok(Patterns {
            windows: Windows::of(f),
            table,
            extras,
        })
    }

    /// The extras' values for the mover of `pos`.
    fn extra_values(f: &Frame, pos: &Position) -> [i32; EXTRAS.len()] {
        let (us, them) = (pos.side, pos.side.opponent());
        let (om, tm) = (pos.men(us), pos.men(them));
        [
            om.count_ones() as i32,
            tm.count_ones() as i32,
            pos.kings_of(us).count_ones() as i32,
            pos.kings_of(them).count_ones() as i32,
            f.tempo(us, om) as i32,
            f.tempo(them, tm) as i32,
            1,
        ]
    }

    /// The value of `pos` for the side to move, centi-logits.
    #[inline]
    pub fn evaluate(&self, f: &Frame, pos: &Position) -> i32 {
        let us = pos.side;
        let (own, opp) = (pos.men(us), pos.men(us.opponent()));
        let (mut mg, mut eg) = (0i32, 0i32);
        for (w, c) in self.windows.configs(us, own, opp).enumerate() {
            let [a, b] = self.table[w * CONFIGS + c];
            mg += a as i32;
            eg += b as i32;
        }
        // Hundred-thousandths from here on.
        let (mut mg, mut eg) = (mg as i64 * 100, eg as i64 * 100);
        for (&x, [a, b]) in Self::extra_values(f, pos).iter().zip(self.extras) {
            mg += x as i64 * a;
            eg += x as i64 * b;
        }
        // The phase exactly: pieces on the board out of the starting ones.
        let (on, all) = f.phase_parts(pos);
        let v = (mg * on + eg * (all - on)) / all;
        // To hundredths, rounded.
        (v + 500)
            .div_euclid(1000)
            .clamp(i32::MIN as i64, i32::MAX as i64) as i32
    }

    /// The sparse features of `pos` (index, value) and its phase: one per
    /// window, then the extras (see the module's documentation).
    pub fn features(f: &Frame, pos: &Position, out: &mut Vec<(u32, f32)>) -> f32 {
        let windows = Windows::of(f);
        let us = pos.side;
        let (own, opp) = (pos.men(us), pos.men(us.opponent()));
        for (w, c) in windows.configs(us, own, opp).enumerate() {
            out.push(((w * CONFIGS + c) as u32, 1.0));
        }
        let base = windows.gather[0].len() * CONFIGS;
        for (e, x) in Self::extra_values(f, pos).into_iter().enumerate() {
            out.push(((base + e) as u32, x as f32));
        }
        f.phase(pos)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rafle_core::Variant;

    /// Every square is in a window; each window is 8 squares.
    #[test]
    fn windows_cover_the_board() {
        for v in Variant::ALL {
            let f = Frame::new(v);
            let w = windows(&f);
            let expected = match (f.n, f.h == f.n) {
                (8, true) => 21,
                (8, false) => 9,
                (10, _) => 16,
                (12, _) => 25,
                _ => unreachable!(),
            };
            assert_eq!(w.len(), expected, "{v}");
            let mut seen = vec![false; f.squares];
            for win in &w {
                for &k in win {
                    seen[k as usize] = true;
                }
            }
            assert!(
                seen.iter().all(|&s| s),
                "{v}: a square outside every window"
            );
        }
    }
}
