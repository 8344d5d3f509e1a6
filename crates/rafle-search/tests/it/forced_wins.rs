//! Alpha-beta finds forced wins, checked against an independent brute-force
//! minimax over the rule engine's `Game` (no pruning, no table, no eval).

use rafle_core::rng::Rng;
use rafle_core::{Game, Variant};
use rafle_search::alphabeta::{AlphaBeta, Limits};

/// Can the side to move force a win (the opponent left without a legal
/// move) within `plies` plies?
fn wins_within(g: &mut Game, plies: u32) -> bool {
    if plies == 0 || g.is_over() {
        return false;
    }
    let mover = g.turn();
    let moves: Vec<_> = g.legal_moves().to_vec();
    moves.iter().any(|m| {
        g.play(m).unwrap();
        let won = match g.outcome() {
            Some(o) => o.winner == Some(mover),
            None => {
                plies >= 2 && {
                    let replies: Vec<_> = g.legal_moves().to_vec();
                    replies.iter().all(|r| {
                        g.play(r).unwrap();
                        // A reply may end the game (in antidraughts the
                        // mover wins by having no move left).
                        let ok = match g.outcome() {
                            Some(o) => o.winner == Some(mover),
                            None => wins_within(g, plies - 2),
                        };
                        g.undo().unwrap();
                        ok
                    })
                }
            }
        };
        g.undo().unwrap();
        won
    })
}

/// Plies of the shortest forced win (at most 5; even where a reply can lose
/// the game, as in antidraughts), if any.
fn shortest_win(g: &mut Game) -> Option<u32> {
    (1..=5).find(|&n| wins_within(g, n))
}

fn check(g: &mut Game, plies: u32) {
    let mut ab = AlphaBeta::new(
        g.variant(),
        Limits {
            depth: Some(plies + 1),
            time: None,
        },
        0,
    );
    let r = ab.search(g);
    assert_eq!(
        r.forced_result_in(),
        Some(plies as i32),
        "{} {}: {r:?}",
        g.variant(),
        g.fen()
    );
    // The chosen move wins in plies - 1 more (the opponent cannot escape).
    let mover = g.turn();
    g.play(&r.best).unwrap();
    let escaped = g
        .outcome()
        .map(|o| o.winner != Some(mover))
        .unwrap_or_else(|| {
            let replies: Vec<_> = g.legal_moves().to_vec();
            replies.iter().any(|m| {
                g.play(m).unwrap();
                let ok = match g.outcome() {
                    Some(o) => o.winner != Some(mover),
                    None => !wins_within(g, plies - 2),
                };
                g.undo().unwrap();
                ok
            })
        });
    g.undo().unwrap();
    assert!(
        !escaped,
        "{} {}: {} does not win",
        g.variant(),
        g.fen(),
        g.move_string(&r.best)
    );
}

#[test]
fn hand_picked_wins() {
    for (v, fen, plies) in [
        // Thai: the flying king slides 29-25 and takes the last man (29x18).
        (Variant::Thai, "W:WK29:B22", 1),
        // Checkers: the double jump 23x14x5 takes both black men.
        (Variant::Checkers, "W:W23,30:B18,9", 1),
        // Found by the random search below (brute force confirms the distance).
        (Variant::Thai, "W:W19,28,K31:B5,7,16,24", 3),
        (Variant::Checkers, "B:WK7:B4,5,11,K16", 3),
        (Variant::English, "B:W25:B6,14,27", 5),
        (Variant::International, "B:W35,40:BK2,15,19,20,43", 5),
    ] {
        let mut g = Game::from_fen(v, fen).unwrap();
        assert_eq!(shortest_win(&mut g), Some(plies), "{v} {fen}");
        check(&mut g, plies);
    }
}

/// Endgame positions from random games in every variant: wherever the brute
/// force sees a shortest forced win in 3 or 5 plies, alpha-beta must report
/// exactly that distance and play a winning move.
#[test]
fn random_endgame_wins_match_brute_force() {
    for v in Variant::ALL {
        let mut rng = Rng::new(2024);
        let mut found = 0;
        let mut games = 0;
        while found < 4 && games < 400 {
            games += 1;
            let mut g = Game::new(v);
            while !g.is_over() && g.ply() < 300 {
                let pieces = g.position().occupied().count_ones();
                if pieces <= 7 && g.legal_moves().len() >= 2 {
                    if let Some(n) = shortest_win(&mut g) {
                        if n >= 2 {
                            check(&mut g, n);
                            found += 1;
                            break;
                        }
                    }
                }
                let legal = g.legal_moves();
                let m = legal[rng.below(legal.len())];
                g.play(&m).unwrap();
            }
        }
        assert!(
            found >= 2,
            "{v}: only {found} positions with a forced win found"
        );
    }
}
