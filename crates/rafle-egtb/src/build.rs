//! The builder: retrograde analysis, slice pair by slice pair, with the
//! variant's own move generator.
//!
//! A quiet move that crowns nothing keeps the material, seen from the other
//! side: it leads from slice `A` into `A.mirror()`. So a slice and its
//! mirror are solved together (a *pair*), and every other move (a capture,
//! a crowning) leads into a pair solved before (see
//! [`Material::build_key`]), whose values are read from its tables.
//!
//! 1. Forward pass over every index of the pair: finished games get their
//!    value; moves out of the pair give their values at once (the best win,
//!    whether a draw is there, the longest loss); moves within the pair are
//!    counted, per position (`remaining`) and per target (predecessors).
//! 2. Predecessor lists (compressed rows), filled by a second forward pass.
//! 3. Level by level, distance d = 0, 1, 2...: every position settled at d
//!    makes its predecessors a win at d + 1 (if it is a loss) or takes one
//!    from their `remaining` (if it is a win); a position whose moves are
//!    all wins for the opponent is a loss at the longest of them + 1. Wins
//!    out of the pair enter at their own distance, so each win is the
//!    shortest and each loss the longest.
//! 4. What is left is a draw: no side can force the end.
//!
//! Both forward passes and every level run in parallel (rayon).

use crate::file::{self, SliceStats, Table};
use crate::index::{Decoder, SliceIndex};
use crate::material::Material;
use crate::probe::{terminal_value, Tablebase};
use crate::value::{Code, Value, MAX_DISTANCE};
use rafle_core::draws::outcome_of;
use rafle_core::movegen;
use rafle_core::{Counters, MoveList, Position, Rules, Variant};
use rayon::prelude::*;
use std::path::Path;
use std::sync::atomic::{AtomicU16, AtomicU64, Ordering::Relaxed};
use std::sync::Arc;

/// Not settled yet (never stored: what is left becomes a draw).
const UNKNOWN: u16 = u16::MAX;
/// `floor` of a position that has a move to a draw or a win: never a loss.
const CANNOT_LOSE: u16 = u16::MAX;
/// Indices per parallel task.
const CHUNK: usize = 1 << 13;

/// What the builder reports as it goes (the CLI draws a progress bar).
#[derive(Clone, Debug)]
pub enum BuildEvent {
    /// The work ahead: indices of every pair still to build.
    Plan { pairs: usize, indices: u64 },
    /// A pair whose tables are already in the folder and pass their checks.
    Skipped { slices: Vec<Material> },
    /// A pair starts.
    Pair { slices: Vec<Material>, indices: u64 },
    /// Indices done in the pair's first pass (reported in steps).
    Progress { indices: u64 },
    /// A slice's table is written.
    Written { stats: SliceStats },
}

/// Which slices a build makes.
#[derive(Clone, Debug)]
pub enum Selection {
    /// Every slice with this many pieces or fewer.
    UpTo(u32),
    /// These slices, their mirrors and every slice their moves lead into.
    Slices(Vec<Material>),
}

impl Selection {
    /// The slices to build, in build order.
    pub fn slices(&self, v: Variant) -> Vec<Material> {
        match self {
            Selection::UpTo(n) => Material::all_up_to(v, *n),
            Selection::Slices(want) => {
                let most = want.iter().map(|m| m.pieces()).max().unwrap_or(0);
                // A side keeps at most its men, and at most its pieces.
                let under = |a: Material, t: Material| {
                    a.own_men <= t.own_men
                        && a.own_men + a.own_kings <= t.own_men + t.own_kings
                        && a.opp_men <= t.opp_men
                        && a.opp_men + a.opp_kings <= t.opp_men + t.opp_kings
                };
                Material::all_up_to(v, most)
                    .into_iter()
                    .filter(|m| {
                        want.iter().any(|&t| {
                            [*m, m.mirror()]
                                .into_iter()
                                .any(|o| under(o, t) || under(o, t.mirror()))
                        })
                    })
                    .collect()
            }
        }
    }
}

/// The slices in pairs (a slice and its mirror; one slice when they are
/// the same), in build order.
pub fn pairs(slices: &[Material]) -> Vec<Vec<Material>> {
    let mut out: Vec<Vec<Material>> = Vec::new();
    for &m in slices {
        if out.iter().any(|p| p.contains(&m)) {
            continue;
        }
        let mut pair = vec![m];
        if m.mirror() != m {
            pair.push(m.mirror());
        }
        out.push(pair);
    }
    out
}

/// What a finished build made.
#[derive(Clone, Debug, Default)]
pub struct BuildSummary {
    pub written: Vec<SliceStats>,
    pub skipped: usize,
}

/// Builds the tables of `selection` for `variant` in `dir` (created if
/// needed). Pairs whose two files are already there and pass their header
/// checks are kept, so a build that was stopped goes on where it stopped.
pub fn build(
    variant: Variant,
    dir: &Path,
    selection: &Selection,
    report: &(dyn Fn(BuildEvent) + Sync),
) -> Result<BuildSummary, String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let slices = selection.slices(variant);
    let mut tb = Tablebase::empty(variant, dir);
    let mut todo = Vec::new();
    let mut summary = BuildSummary::default();
    for pair in pairs(&slices) {
        let present = pair
            .iter()
            .all(|&m| file::read_stats(dir, variant, m).is_ok());
        if present {
            for &m in &pair {
                tb.insert_lazy(m)?;
            }
            summary.skipped += pair.len();
            report(BuildEvent::Skipped { slices: pair });
        } else {
            todo.push(pair);
        }
    }
    let sizes: Vec<u64> = todo
        .iter()
        .map(|p| -> Result<u64, String> {
            p.iter()
                .map(|&m| tb.indexer().slice(m).map(|s| s.size))
                .sum()
        })
        .collect::<Result<_, _>>()?;
    report(BuildEvent::Plan {
        pairs: todo.len(),
        indices: sizes.iter().sum(),
    });
    for (pair, size) in todo.into_iter().zip(sizes) {
        report(BuildEvent::Pair {
            slices: pair.clone(),
            indices: size,
        });
        let codes = rafle_core::with_rules!(variant, R => solve_pair::<R>(&tb, &pair, report))?;
        for (&m, codes) in pair.iter().zip(codes) {
            let stats = file::write(dir, variant, m, &codes)?;
            tb.insert(m, Arc::new(Table::from_codes(m, &codes)))?;
            report(BuildEvent::Written { stats });
            summary.written.push(stats);
        }
    }
    Ok(summary)
}

/// The pair's slices laid end to end: global index = offset + slice index.
struct Layout {
    slices: Vec<SliceIndex>,
    offsets: Vec<usize>,
}

impl Layout {
    fn slice_of(&self, g: usize) -> (usize, u64) {
        let k = if self.slices.len() > 1 && g >= self.offsets[1] {
            1
        } else {
            0
        };
        (k, (g - self.offsets[k]) as u64)
    }
}

/// Settled values and what the levels need, per global index.
struct State {
    value: Vec<AtomicU16>,
    remaining: Vec<AtomicU16>,
    floor: Vec<AtomicU16>,
}

/// Per task: the positions settled by the forward pass, by distance, and
/// the wins out of the pair, by distance.
#[derive(Default)]
struct Seeds {
    settled: Vec<(u16, u32)>,
    wins: Vec<(u16, u32)>,
    /// The moves within the pair of the task's positions, in order: each
    /// position's `remaining` targets (global indices).
    targets: Vec<u32>,
    error: Option<String>,
}

fn push_level(levels: &mut Vec<Vec<u32>>, d: u16, g: u32) {
    let d = d as usize;
    if levels.len() <= d {
        levels.resize_with(d + 1, Vec::new);
    }
    levels[d].push(g);
}

fn solve_pair<R: Rules>(
    tb: &Tablebase,
    pair: &[Material],
    report: &(dyn Fn(BuildEvent) + Sync),
) -> Result<Vec<Vec<u16>>, String> {
    let ix = tb.indexer();
    let slices: Vec<SliceIndex> = pair
        .iter()
        .map(|&m| ix.slice(m))
        .collect::<Result<_, _>>()?;
    let mut offsets = vec![0usize];
    for s in &slices {
        offsets.push(offsets.last().unwrap() + s.size as usize);
    }
    let total = *offsets.last().unwrap();
    if total >= u32::MAX as usize {
        return Err(format!("{pair:?}: too many positions for one build"));
    }
    let lay = Layout { slices, offsets };
    let new_atomic = |v: u16| (0..total).map(|_| AtomicU16::new(v)).collect::<Vec<_>>();
    let st = State {
        value: new_atomic(UNKNOWN),
        remaining: new_atomic(0),
        floor: new_atomic(0),
    };
    // The global index of a position reached by a move within the pair
    // from slice `k`: it is in the other slice of the pair.
    let locate = |k: usize, p: &Position| -> usize {
        let to = if lay.slices.len() > 1 { 1 - k } else { 0 };
        lay.offsets[to] + ix.index(&lay.slices[to], p) as usize
    };
    let chunks = total.div_ceil(CHUNK);

    // 1. The forward pass.
    let seeds: Vec<Seeds> = (0..chunks)
        .into_par_iter()
        .map(|c| {
            let mut out = Seeds::default();
            let mut moves = MoveList::new();
            let mut decoders: Vec<Decoder> =
                lay.slices.iter().map(|s| Decoder::new(ix, *s)).collect();
            let range = c * CHUNK..((c + 1) * CHUNK).min(total);
            let n = range.len() as u64;
            for g in range {
                let (k, i) = lay.slice_of(g);
                let Some(pos) = decoders[k].position(i) else {
                    st.value[g].store(Code::NONE, Relaxed);
                    continue;
                };
                movegen::generate::<R>(&pos, &mut moves);
                if let Some(o) = outcome_of::<R>(&pos, moves.len(), &Counters::default(), 1) {
                    let v = terminal_value(&pos, o.winner);
                    st.value[g].store(v.code(), Relaxed);
                    if v != Value::Draw {
                        out.settled.push((0, g as u32));
                    }
                    continue;
                }
                let own = lay.slices[k].material;
                let (mut win, mut draw, mut loss) = (None::<u16>, false, None::<u16>);
                let mut within = 0u16;
                for m in &moves {
                    let mut next = pos;
                    next.apply::<R>(m);
                    if !m.is_capture() && Material::of(&next) == own.mirror() {
                        within += 1;
                        let j = locate(k, &next);
                        out.targets.push(j as u32);
                        continue;
                    }
                    match tb.probe(&next).map(Value::before) {
                        Ok(Value::Win(d)) => win = Some(win.map_or(d, |w| w.min(d))),
                        Ok(Value::Draw) => draw = true,
                        Ok(Value::Loss(d)) => loss = Some(loss.map_or(d, |l| l.max(d))),
                        Err(e) => {
                            out.error = Some(format!("{own}: a move leads out of the tables: {e}"));
                            return out;
                        }
                    }
                }
                if within == 0 {
                    let v = match (win, draw, loss) {
                        (Some(d), _, _) => Value::Win(d),
                        (None, true, _) => Value::Draw,
                        (None, false, l) => Value::Loss(l.unwrap_or(0)),
                    };
                    st.value[g].store(v.code(), Relaxed);
                    if v != Value::Draw {
                        out.settled.push((v.plies(), g as u32));
                    }
                    continue;
                }
                st.remaining[g].store(within, Relaxed);
                let floor = if win.is_some() || draw {
                    CANNOT_LOSE
                } else {
                    loss.unwrap_or(0)
                };
                st.floor[g].store(floor, Relaxed);
                if let Some(d) = win {
                    out.wins.push((d, g as u32));
                }
            }
            report(BuildEvent::Progress { indices: n });
            out
        })
        .collect();
    let mut settled: Vec<Vec<u32>> = Vec::new();
    let mut wins: Vec<Vec<u32>> = Vec::new();
    let mut targets: Vec<Vec<u32>> = Vec::with_capacity(chunks);
    for s in seeds {
        if let Some(e) = s.error {
            return Err(e);
        }
        for (d, g) in s.settled {
            push_level(&mut settled, d, g);
        }
        for (d, g) in s.wins {
            push_level(&mut wins, d, g);
        }
        targets.push(s.targets);
    }

    // 2. Predecessor lists: start[j]..start[j + 1] in `preds`.
    let (start, preds) = reverse(total, &targets, &st.remaining)
        .ok_or_else(|| format!("{pair:?}: too many moves for one build"))?;
    drop(targets);
    // 3. Level by level.
    let mut losses: Vec<Vec<u32>> = Vec::new();
    let mut d: usize = 0;
    while d < settled.len().max(wins.len()).max(losses.len()) {
        if d >= MAX_DISTANCE as usize {
            return Err(format!("{pair:?}: a distance beyond {MAX_DISTANCE} plies"));
        }
        let take = |v: &mut Vec<Vec<u32>>| v.get_mut(d).map(std::mem::take).unwrap_or_default();
        let mut frontier = take(&mut settled);
        for (list, v) in [
            (take(&mut wins), Value::Win(d as u16)),
            (take(&mut losses), Value::Loss(d as u16)),
        ] {
            for g in list {
                if st.value[g as usize]
                    .compare_exchange(UNKNOWN, v.code(), Relaxed, Relaxed)
                    .is_ok()
                {
                    frontier.push(g);
                }
            }
        }
        let next_win = Value::Win(d as u16 + 1).code();
        let next_loss = Value::Loss(d as u16 + 1).code();
        // Per task: positions settled at d + 1, and losses settled later.
        type Found = (Vec<u32>, Vec<(u16, u32)>);
        let found: Vec<Found> = frontier
            .par_chunks(1024)
            .map(|chunk| {
                let (mut next, mut later) = (Vec::new(), Vec::new());
                for &g in chunk {
                    let lost = matches!(
                        Value::from_code(st.value[g as usize].load(Relaxed)),
                        Some(Value::Loss(_))
                    );
                    let (a, b) = (start[g as usize] as usize, start[g as usize + 1] as usize);
                    for &p in &preds[a..b] {
                        let p = p as usize;
                        if lost {
                            if st.value[p]
                                .compare_exchange(UNKNOWN, next_win, Relaxed, Relaxed)
                                .is_ok()
                            {
                                next.push(p as u32);
                            }
                        } else if st.remaining[p].fetch_sub(1, Relaxed) == 1 {
                            let floor = st.floor[p].load(Relaxed);
                            if floor == CANNOT_LOSE {
                                continue;
                            }
                            let at = floor.max(d as u16 + 1);
                            if at as usize == d + 1 {
                                if st.value[p]
                                    .compare_exchange(UNKNOWN, next_loss, Relaxed, Relaxed)
                                    .is_ok()
                                {
                                    next.push(p as u32);
                                }
                            } else {
                                later.push((at, p as u32));
                            }
                        }
                    }
                }
                (next, later)
            })
            .collect();
        for (next, later) in found {
            for g in next {
                push_level(&mut settled, d as u16 + 1, g);
            }
            for (at, g) in later {
                push_level(&mut losses, at, g);
            }
        }
        d += 1;
    }

    // 4. The rest are draws.
    Ok(lay
        .offsets
        .windows(2)
        .map(|w| {
            st.value[w[0]..w[1]]
                .iter()
                .map(|v| match v.load(Relaxed) {
                    UNKNOWN => Code::DRAW,
                    c => c,
                })
                .collect()
        })
        .collect())
}

/// Log2 of the targets per bucket when the moves are sorted by target.
const BUCKET_BITS: u32 = 14;

/// The predecessor lists of the moves within a pair, as compressed rows
/// (`start[j]..start[j + 1]` of `preds` lists the positions with a move to
/// `j`), from each task's move targets (`targets[c]`, the targets of the
/// positions of chunk `c` in order, `remaining[g]` of them for position
/// `g`). The moves are first scattered into buckets of targets, each
/// written as its own stream, then each bucket is sorted on its own: no
/// write lands at random in the whole array. `None` when the moves are too
/// many for 32-bit offsets.
fn reverse(
    total: usize,
    targets: &[Vec<u32>],
    remaining: &[AtomicU16],
) -> Option<(Vec<u32>, Vec<u32>)> {
    let buckets = (total >> BUCKET_BITS) + 1;
    let bucket = |j: u32| (j >> BUCKET_BITS) as usize;
    // Moves per (task, bucket), then where each task writes in each bucket.
    let hist: Vec<Vec<u32>> = targets
        .par_iter()
        .map(|t| {
            let mut h = vec![0u32; buckets];
            for &j in t {
                h[bucket(j)] += 1;
            }
            h
        })
        .collect();
    let mut bucket_start = vec![0u64; buckets + 1];
    let mut offsets = vec![vec![0u64; buckets]; targets.len()];
    let mut sum = 0u64;
    for b in 0..buckets {
        bucket_start[b] = sum;
        for (c, h) in hist.iter().enumerate() {
            offsets[c][b] = sum;
            sum += h[b] as u64;
        }
    }
    bucket_start[buckets] = sum;
    if sum >= u32::MAX as u64 {
        return None;
    }
    // (target, source) pairs, grouped by bucket.
    let pairs: Vec<AtomicU64> = (0..sum).map(|_| AtomicU64::new(0)).collect();
    targets
        .par_iter()
        .zip(offsets.into_par_iter())
        .enumerate()
        .for_each(|(c, (t, mut at))| {
            let mut next = t.iter();
            let first = c * CHUNK;
            for (g, r) in remaining[first..((c + 1) * CHUNK).min(total)]
                .iter()
                .enumerate()
                .map(|(i, r)| (first + i, r))
            {
                for _ in 0..r.load(Relaxed) {
                    let j = *next.next().expect("a target per move");
                    let slot = &mut at[bucket(j)];
                    pairs[*slot as usize].store((j as u64) << 32 | g as u64, Relaxed);
                    *slot += 1;
                }
            }
        });
    // Each bucket sorted by target into its own part of `preds`.
    let mut preds = vec![0u32; sum as usize];
    let mut start = vec![0u32; total + 1];
    let mut parts: Vec<(usize, &mut [u32], &mut [u32])> = Vec::with_capacity(buckets);
    let (mut rest_p, mut rest_s) = (preds.as_mut_slice(), &mut start[..total]);
    for b in 0..buckets {
        let n = (bucket_start[b + 1] - bucket_start[b]) as usize;
        let width = ((b + 1) << BUCKET_BITS).min(total) - (b << BUCKET_BITS);
        let (p, rp) = std::mem::take(&mut rest_p).split_at_mut(n);
        let (s, rs) = std::mem::take(&mut rest_s).split_at_mut(width);
        parts.push((b, p, s));
        rest_p = rp;
        rest_s = rs;
    }
    parts.into_par_iter().for_each(|(b, p, s)| {
        let base = b << BUCKET_BITS;
        let first = bucket_start[b] as usize;
        let mine = &pairs[first..first + p.len()];
        let mut count = vec![0u32; s.len() + 1];
        for x in mine {
            count[(x.load(Relaxed) >> 32) as usize - base + 1] += 1;
        }
        for i in 0..s.len() {
            count[i + 1] += count[i];
            s[i] = first as u32 + count[i];
        }
        for x in mine {
            let x = x.load(Relaxed);
            let k = (x >> 32) as usize - base;
            p[count[k] as usize] = x as u32;
            count[k] += 1;
        }
    });
    start[total] = sum as u32;
    Some((start, preds))
}
