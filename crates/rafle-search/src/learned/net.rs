//! Design "net", in the manner of NNUE and GuiNN: a small network over
//! piece-square inputs whose first layer is updated incrementally along
//! the search path.
//!
//! Inputs, per frame (the mover's and the opponent's, each the board seen
//! by that side): `4 * S` one-hot piece-squares, index `kind * S + k` with
//! kind 0 own man, 1 own king, 2 opponent's man, 3 opponent's king, and `k`
//! the square's index in that frame. Layers (float, as trained):
//!
//! ```text
//! a_us, a_them = clamp(b1 + Σ w1[i], 0, 1)       over each frame's inputs   [H] each
//! z            = clamp([a_us, a_them] · w2 + b2, 0, 1)                      [H2]
//! v            = z · w3 + b3                       logits of the mover's expected score
//! ```
//!
//! Fixed point at play time: the first layer in 1024ths (i32 sums, one per
//! frame: the accumulators), the activations 0..=1024 (i16), w2 and w3 in
//! 256ths (a file whose w2 could overflow an i32 dot product is refused).

use super::frame::Frame;
use super::EvalError;
use rafle_core::{Bitboard, Bits, Color, Position};

/// Kinds of piece-square inputs.
pub const KINDS: usize = 4;
const QA: f32 = 1024.0;
const QW: f32 = 256.0;

/// A network at play time.
#[derive(Clone, Debug)]
pub struct Net {
    /// First-layer width H.
    pub hidden: usize,
    /// Second-layer width H2.
    pub hidden2: usize,
    /// `w1[input * H + j]`, 1024ths.
    w1: Vec<i32>,
    b1: Vec<i32>,
    /// `w2[j * 2H + i]` (row per output), 256ths.
    w2: Vec<i16>,
    /// 1024 x 256ths.
    b2: Vec<i32>,
    w3: Vec<i64>,
    b3: i64,
}

fn quantise(name: &str, x: &[f32], scale: f32, limit: f32) -> Result<Vec<i32>, EvalError> {
    x.iter()
        .map(|&v| {
            let q = (v * scale).round();
            if q.abs() <= limit {
                Ok(q as i32)
            } else {
                Err(EvalError(format!(
                    "{name} holds {v}, outside ±{}",
                    limit / scale
                )))
            }
        })
        .collect()
}

impl Net {
    /// Inputs per frame: 4 x S.
    pub fn inputs(f: &Frame) -> usize {
        KINDS * f.squares
    }

    /// Builds from float weights: `w1` [4S, H], `b1` [H], `w2` [2H, H2],
    /// `b2` [H2], `w3` [H2], `b3` [1], each row-major.
    pub fn new(
        f: &Frame,
        (hidden, hidden2): (usize, usize),
        [w1, b1, w2, b2, w3, b3]: [&[f32]; 6],
    ) -> Result<Net, EvalError> {
        let want = [
            ("w1", Self::inputs(f) * hidden, w1.len()),
            ("b1", hidden, b1.len()),
            ("w2", 2 * hidden * hidden2, w2.len()),
            ("b2", hidden2, b2.len()),
            ("w3", hidden2, w3.len()),
            ("b3", 1, b3.len()),
        ];
        for (name, n, got) in want {
            if n != got {
                return Err(EvalError(format!(
                    "{name} has {got} weights; a net of H={hidden}, H2={hidden2} on {} needs {n}",
                    f.variant
                )));
            }
        }
        // A frame sums at most every piece's input and the bias (under 128 terms).
        let limit1 = (i32::MAX / 128) as f32;
        let w2q = quantise("w2", w2, QW, i16::MAX as f32)?;
        // Transposed: one contiguous row of 2H weights per output.
        let mut w2t = vec![0i16; w2q.len()];
        for i in 0..2 * hidden {
            for j in 0..hidden2 {
                w2t[j * 2 * hidden + i] = w2q[i * hidden2 + j] as i16;
            }
        }
        // The dot product of a row with activations of at most QA stays an i32.
        for (j, row) in w2t.chunks(2 * hidden).enumerate() {
            let most: i64 = row.iter().map(|&w| (w as i64).abs()).sum::<i64>() * QA as i64;
            if most > i32::MAX as i64 / 2 {
                return Err(EvalError(format!(
                    "w2's column {j} is too large for 32-bit sums"
                )));
            }
        }
        Ok(Net {
            hidden,
            hidden2,
            w1: quantise("w1", w1, QA, limit1)?,
            b1: quantise("b1", b1, QA, limit1)?,
            w2: w2t,
            b2: quantise("b2", b2, QA * QW, 1e9)?,
            w3: quantise("w3", w3, QW, 1e9)?
                .into_iter()
                .map(i64::from)
                .collect(),
            b3: quantise("b3", b3, QA * QW, 1e9)?[0] as i64,
        })
    }

    /// The input of a piece on `bit` in `frame`'s frame.
    #[inline(always)]
    fn input(f: &Frame, frame: Color, piece: Color, king: bool, bit: u32) -> usize {
        let kind = 2 * (piece != frame) as usize + king as usize;
        kind * f.squares + f.index_of(frame, bit)
    }

    /// The two accumulators (White's frame, then Black's) of `pos`, from scratch.
    pub fn refresh(&self, f: &Frame, pos: &Position, acc: &mut [i32]) {
        let h = self.hidden;
        for (i, frame) in [Color::White, Color::Black].into_iter().enumerate() {
            let a = &mut acc[i * h..(i + 1) * h];
            a.copy_from_slice(&self.b1);
            for piece in [Color::White, Color::Black] {
                for (king, bb) in [(false, pos.men(piece)), (true, pos.kings_of(piece))] {
                    for b in Bits(bb) {
                        self.add(a, Self::input(f, frame, piece, king, b), 1);
                    }
                }
            }
        }
    }

    #[inline(always)]
    fn add(&self, a: &mut [i32], input: usize, sign: i32) {
        let row = &self.w1[input * self.hidden..(input + 1) * self.hidden];
        for (x, w) in a.iter_mut().zip(row) {
            *x += sign * w;
        }
    }

    /// `child` = `parent`'s accumulators moved from `before` to `after`:
    /// only the pieces that changed are added or taken away.
    pub fn update(
        &self,
        f: &Frame,
        (before, after): (&Position, &Position),
        parent: &[i32],
        child: &mut [i32],
    ) {
        child.copy_from_slice(parent);
        let h = self.hidden;
        for piece in [Color::White, Color::Black] {
            let boards = |p: &Position| -> [Bitboard; 2] { [p.men(piece), p.kings_of(piece)] };
            let (was, now) = (boards(before), boards(after));
            for king in [false, true] {
                let (x, y) = (was[king as usize], now[king as usize]);
                for (bb, sign) in [(x & !y, -1), (y & !x, 1)] {
                    for b in Bits(bb) {
                        for (i, frame) in [Color::White, Color::Black].into_iter().enumerate() {
                            let input = Self::input(f, frame, piece, king, b);
                            self.add(&mut child[i * h..(i + 1) * h], input, sign);
                        }
                    }
                }
            }
        }
    }

    /// The value for the side to move of the position whose accumulators
    /// are `acc`, centi-logits.
    #[inline]
    pub fn evaluate(&self, side: Color, acc: &[i32]) -> i32 {
        let h = self.hidden;
        // The mover's frame first.
        let (us, them) = match side {
            Color::White => (&acc[..h], &acc[h..2 * h]),
            Color::Black => (&acc[h..2 * h], &acc[..h]),
        };
        let mut a = [0i16; 2 * MAX_HIDDEN];
        for (dst, &x) in a.iter_mut().zip(us.iter().chain(them)) {
            *dst = x.clamp(0, QA as i32) as i16;
        }
        let a = &a[..2 * h];
        let mut out = self.b3;
        for j in 0..self.hidden2 {
            let row = &self.w2[j * 2 * h..(j + 1) * 2 * h];
            let dot: i32 = a.iter().zip(row).map(|(&x, &w)| x as i32 * w as i32).sum();
            // 256ths of 1024ths back to 1024ths, rounded.
            let z = (dot.saturating_add(self.b2[j]) + QW as i32 / 2)
                .div_euclid(QW as i32)
                .clamp(0, QA as i32);
            out += z as i64 * self.w3[j];
        }
        // 1024 x 256ths to hundredths, rounded.
        let unit = (QA * QW) as i64;
        ((out * 100 + unit / 2).div_euclid(unit)).clamp(i32::MIN as i64, i32::MAX as i64) as i32
    }

    /// The sparse features of `pos`: the inputs of the mover's frame, then
    /// those of the opponent's (each value 1).
    pub fn features(f: &Frame, pos: &Position, us: &mut Vec<u32>, them: &mut Vec<u32>) {
        for (out, frame) in [(us, pos.side), (them, pos.side.opponent())] {
            for piece in [Color::White, Color::Black] {
                for (king, bb) in [(false, pos.men(piece)), (true, pos.kings_of(piece))] {
                    out.extend(Bits(bb).map(|b| Self::input(f, frame, piece, king, b) as u32));
                }
            }
        }
    }
}

/// Widest first layer a file may have (the activations live on the stack).
pub const MAX_HIDDEN: usize = 512;
