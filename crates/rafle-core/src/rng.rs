//! A small, fast, seedable random number generator (xoshiro256++), so that
//! every crate draws the same numbers for the same seed on every platform.

/// xoshiro256++ seeded through SplitMix64.
#[derive(Clone, Debug)]
pub struct Rng {
    s: [u64; 4],
}

impl Rng {
    pub fn new(seed: u64) -> Rng {
        let mut x = seed;
        let mut next = || {
            x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = x;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^ (z >> 31)
        };
        Rng {
            s: [next(), next(), next(), next()],
        }
    }

    /// The generator's whole state, so that it can be saved and restored
    /// (`from_state`) exactly where it stands.
    pub fn state(&self) -> [u64; 4] {
        self.s
    }

    /// A generator from a saved `state`; `None` for the all-zero state,
    /// which xoshiro never reaches (it would stay at zero forever).
    pub fn from_state(s: [u64; 4]) -> Option<Rng> {
        (s != [0; 4]).then_some(Rng { s })
    }

    /// A generator for stream `stream` of `seed` (e.g. one per game).
    pub fn stream(seed: u64, stream: u64) -> Rng {
        Rng::new(seed ^ stream.wrapping_mul(0xD1B5_4A32_D192_ED03).rotate_left(17))
    }

    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        let s = &mut self.s;
        let result = s[0].wrapping_add(s[3]).rotate_left(23).wrapping_add(s[0]);
        let t = s[1] << 17;
        s[2] ^= s[0];
        s[3] ^= s[1];
        s[1] ^= s[2];
        s[0] ^= s[3];
        s[2] ^= t;
        s[3] = s[3].rotate_left(45);
        result
    }

    /// Uniform integer in 0..n (n > 0), by multiply-shift (bias < n / 2^64).
    #[inline]
    pub fn below(&mut self, n: usize) -> usize {
        ((self.next_u64() as u128 * n as u128) >> 64) as usize
    }

    /// Uniform float in [0, 1).
    #[inline]
    pub fn unit_f64(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }
}

#[cfg(test)]
mod tests {
    use super::Rng;

    #[test]
    fn a_restored_state_draws_what_the_original_draws() {
        let mut a = Rng::stream(7, 3);
        a.next_u64();
        let mut b = Rng::from_state(a.state()).unwrap();
        let (x, y): (Vec<u64>, Vec<u64>) = (0..5).map(|_| (a.next_u64(), b.next_u64())).unzip();
        assert_eq!(x, y);
        assert!(Rng::from_state([0; 4]).is_none());
    }
}
