//! Text tables of match and round-robin results (what `rafle eval` prints).

use crate::elo::{fmt_elo, SprtDecision};
use crate::play::{MatchResult, RoundRobin};
use std::collections::BTreeMap;
use std::fmt::Write;

fn rate(x: f64) -> String {
    if x >= 1e6 {
        format!("{:.2}M", x / 1e6)
    } else if x >= 1e3 {
        format!("{:.1}k", x / 1e3)
    } else {
        format!("{x:.0}")
    }
}

/// W/D/L, score, Elo with its interval, terminations, search speed, SPRT.
pub fn match_table(m: &MatchResult) -> String {
    let mut out = String::new();
    let e = m.wdl.elo();
    let wa = m.a.len().max(m.b.len()).max(6);
    let _ = writeln!(out, "variant {}, {} games", m.variant, m.wdl.games());
    let _ = writeln!(
        out,
        "{:<wa$} {:>5} {:>5} {:>5} {:>7}  {:>8}  95% interval",
        "player", "W", "D", "L", "score", "Elo"
    );
    for (name, r, e) in [
        (&m.a, m.wdl, e),
        (&m.b, m.wdl.flipped(), m.wdl.flipped().elo()),
    ] {
        let _ = writeln!(
            out,
            "{name:<wa$} {:>5} {:>5} {:>5} {:>6.1}%  {:>8}  [{}, {}]",
            r.wins,
            r.draws,
            r.losses,
            100.0 * r.score(),
            fmt_elo(e.elo),
            fmt_elo(e.lo),
            fmt_elo(e.hi)
        );
    }
    let p = m.penta;
    if p.pairs() > 0 {
        let pe = p.elo();
        let _ = writeln!(
            out,
            "pairs by {}'s points 0/0.5/1/1.5/2: {} {} {} {} {}; pair-based Elo {} [{}, {}]",
            m.a,
            p.0[0],
            p.0[1],
            p.0[2],
            p.0[3],
            p.0[4],
            fmt_elo(pe.elo),
            fmt_elo(pe.lo),
            fmt_elo(pe.hi)
        );
    }
    let mut ends: BTreeMap<String, usize> = BTreeMap::new();
    for g in &m.games {
        *ends.entry(g.termination.to_string()).or_default() += 1;
    }
    let ends: Vec<String> = ends.iter().map(|(k, v)| format!("{k} {v}")).collect();
    let _ = writeln!(out, "endings: {}", ends.join(", "));
    for (name, eff) in [(&m.a, &m.a_effort), (&m.b, &m.b_effort)] {
        if eff.moves > 0 {
            let _ = write!(
                out,
                "{name:<wa$} {} moves, {:.2} ms/move",
                eff.moves,
                1e3 * eff.seconds / eff.moves as f64
            );
            if eff.nodes > 0 {
                let _ = write!(out, ", {} nodes/s", rate(eff.nodes_per_second()));
            }
            out.push('\n');
        }
    }
    for (name, net) in [(&m.a, &m.a_network), (&m.b, &m.b_network)] {
        if let Some(s) = net {
            let _ = writeln!(
                out,
                "{name:<wa$} network: {} evaluations in {} calls, average batch {:.1}, {} evals/s",
                s.evals,
                s.calls,
                s.avg_batch(),
                rate(s.evals_per_second())
            );
        }
    }
    let _ = writeln!(out, "wall time {:.1} s", m.seconds);
    if let Some((d, llr)) = m.sprt {
        let what = match d {
            SprtDecision::AcceptH1 => "H1 accepted (A is stronger by elo1 or more)",
            SprtDecision::AcceptH0 => "H0 accepted (A is not stronger by elo1)",
            SprtDecision::Continue => "no decision yet",
        };
        let _ = writeln!(out, "SPRT: LLR {llr:.2}, {what}");
    }
    out
}

/// Crosstable (row player's score against each column player) and ratings.
pub fn crosstable(rr: &RoundRobin) -> String {
    let mut out = String::new();
    let n = rr.names.len();
    let w = rr.names.iter().map(|s| s.len()).max().unwrap_or(6).max(6);
    let cw = 12;
    let _ = write!(out, "{:<3} {:<w$}", "#", "player");
    for j in 0..n {
        let _ = write!(out, " {:>cw$}", format!("{}", j + 1));
    }
    let _ = writeln!(out, " {:>8} {:>8}", "score", "Elo");
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&x, &y| rr.ratings[y].total_cmp(&rr.ratings[x]));
    for &i in &order {
        let _ = write!(out, "{:<3} {:<w$}", i + 1, rr.names[i]);
        let mut total = crate::elo::Wdl::default();
        for j in 0..n {
            match rr.wdl(i, j) {
                Some(r) if i != j => {
                    total.wins += r.wins;
                    total.draws += r.draws;
                    total.losses += r.losses;
                    let _ = write!(
                        out,
                        " {:>cw$}",
                        format!("{}/{}/{}", r.wins, r.draws, r.losses)
                    );
                }
                _ => {
                    let _ = write!(out, " {:>cw$}", "-");
                }
            }
        }
        let _ = writeln!(
            out,
            " {:>7.1}% {:>8}",
            100.0 * total.score(),
            fmt_elo(rr.ratings[i])
        );
    }
    let _ = writeln!(
        out,
        "cells: W/D/L of the row player; Elo anchored at {} = 0",
        rr.names[rr.anchor]
    );
    out
}
