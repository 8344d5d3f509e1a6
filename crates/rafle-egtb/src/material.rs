//! Material slices: which pieces stand on the board, from the side to
//! move's view, and the order in which slices are built.

use rafle_core::{Goal, Position, Variant};
use std::fmt;
use std::str::FromStr;

/// The pieces of a slice: men and kings of the side to move ("own") and of
/// the other side ("opp"). A table holds every placement of them with the
/// side to move to play.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Material {
    pub own_men: u8,
    pub own_kings: u8,
    pub opp_men: u8,
    pub opp_kings: u8,
}

impl Material {
    /// The material of `pos` from its side to move's view.
    pub fn of(pos: &Position) -> Material {
        let (om, ok) = pos.material(pos.side);
        let (pm, pk) = pos.material(pos.side.opponent());
        Material {
            own_men: om as u8,
            own_kings: ok as u8,
            opp_men: pm as u8,
            opp_kings: pk as u8,
        }
    }

    /// The same pieces seen by the other side: where a quiet move that
    /// crowns nothing leads.
    pub fn mirror(self) -> Material {
        Material {
            own_men: self.opp_men,
            own_kings: self.opp_kings,
            opp_men: self.own_men,
            opp_kings: self.own_kings,
        }
    }

    pub fn pieces(self) -> u32 {
        (self.own_men + self.own_kings + self.opp_men + self.opp_kings) as u32
    }

    pub fn men(self) -> u32 {
        (self.own_men + self.opp_men) as u32
    }

    pub fn kings(self) -> u32 {
        (self.own_kings + self.opp_kings) as u32
    }

    /// Does every position of the slice have its value by rule alone, with
    /// no table: a side without pieces, or (breakthrough) a king on the
    /// board, which means the game is over.
    pub fn by_rule(self, v: Variant) -> bool {
        self.own_men + self.own_kings == 0
            || self.opp_men + self.opp_kings == 0
            || (v.rules().goal == Goal::FirstKingWins && self.kings() > 0)
    }

    /// A small slice with a table in `v` whose moves reach men, kings,
    /// captures and crowning: a man and a king against a king (two men
    /// against one in breakthrough, where a king ends the game). Tests and
    /// examples build it with the slices it leads into.
    pub fn example(v: Variant) -> Material {
        ["1m1k-0m1k", "2m0k-1m0k"]
            .iter()
            .map(|s| s.parse::<Material>().expect("a slice name"))
            .find(|m| !m.by_rule(v))
            .expect("one of the two has a table in every variant")
    }

    /// The side to move's pieces first, its men then its kings: `2m1k-0m1k`.
    pub fn name(self) -> String {
        self.to_string()
    }

    /// Every slice with a table in a build up to `pieces` pieces for
    /// variant `v`: both sides have pieces, men fit their squares, and the
    /// slice is not valued by rule. Sorted in build order.
    pub fn all_up_to(v: Variant, pieces: u32) -> Vec<Material> {
        let g = v.geometry();
        let man_squares = (g.squares - g.h) as u32;
        let mut out = Vec::new();
        for total in 2..=pieces.min(g.squares as u32) {
            for om in 0..=total {
                for ok in 0..=total - om {
                    for pm in 0..=total - om - ok {
                        let pk = total - om - ok - pm;
                        let m = Material {
                            own_men: om as u8,
                            own_kings: ok as u8,
                            opp_men: pm as u8,
                            opp_kings: pk as u8,
                        };
                        if om <= man_squares && pm <= man_squares && !m.by_rule(v) {
                            out.push(m);
                        }
                    }
                }
            }
        }
        out.sort_by_key(|m| m.build_key());
        out
    }

    /// Build order: a capture leaves fewer pieces, a crowning fewer men, so
    /// every slice a move leads out of its pair into comes earlier.
    pub fn build_key(self) -> (u32, u32, Material) {
        let pair = self.min(self.mirror());
        (self.pieces(), self.men(), pair)
    }
}

impl fmt::Display for Material {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}m{}k-{}m{}k",
            self.own_men, self.own_kings, self.opp_men, self.opp_kings
        )
    }
}

impl FromStr for Material {
    type Err = String;
    /// Reads a slice name such as `2m1k-0m1k`.
    fn from_str(s: &str) -> Result<Material, String> {
        let bad = || format!("slice {s:?}: expected a name like 2m1k-0m1k");
        let (own, opp) = s.trim().split_once('-').ok_or_else(bad)?;
        let side = |t: &str| -> Result<(u8, u8), String> {
            let (m, k) = t
                .strip_suffix('k')
                .and_then(|t| t.split_once('m'))
                .ok_or_else(bad)?;
            Ok((m.parse().map_err(|_| bad())?, k.parse().map_err(|_| bad())?))
        };
        let ((om, ok), (pm, pk)) = (side(own)?, side(opp)?);
        Ok(Material {
            own_men: om,
            own_kings: ok,
            opp_men: pm,
            opp_kings: pk,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_build_order_puts_dependencies_first() {
        for v in Variant::ALL {
            let all = Material::all_up_to(v, 4);
            assert!(!all.is_empty(), "{v}");
            for (i, m) in all.iter().enumerate() {
                assert_eq!(m.name().parse::<Material>(), Ok(*m));
                assert!(all.contains(&m.mirror()), "{v}: {m} without its mirror");
                // A crowning (one man fewer) or a capture (one piece fewer)
                // leads to a slice built before this one's pair.
                for later in &all[i + 1..] {
                    let pair_later = later.build_key();
                    assert!(pair_later >= m.build_key(), "{v}: order {m} {later}");
                }
            }
        }
        assert!("2m1k".parse::<Material>().is_err());
        assert!("xm1k-0m1k".parse::<Material>().is_err());
    }
}
