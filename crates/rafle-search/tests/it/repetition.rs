//! The searches see the game's repetitions: both start from the game's
//! `DrawState`, so a move that repeats a position of the game for the third
//! time is a draw to them, exactly as `Game` rules it.

use rafle_core::{EndReason, Game, Variant};
use rafle_search::alphabeta::{AlphaBeta, Limits};
use rafle_search::uct::{Uct, UctConfig};
use rafle_search::Player;

/// English, White two kings against Black's lone king: kings shuffle until
/// Black's 14-10 would bring the start position back for the third time.
/// Black is behind, so that draw is its best move; its other moves are 14-9,
/// 14-17 and 14-18.
fn shuffled() -> Game {
    let mut g = Game::from_fen(Variant::English, "W:WK29,K32:BK10").unwrap();
    for m in [
        "32-28", "10-14", "28-32", "14-10", "32-28", "10-14", "28-32",
    ] {
        g.play_str(m).unwrap();
    }
    assert!(!g.is_over());
    let mut after = g.clone();
    after.play_str("14-10").unwrap();
    assert_eq!(
        after.outcome().map(|o| (o.winner, o.reason)),
        Some((None, EndReason::Repetition))
    );
    g
}

#[test]
fn alphabeta_takes_the_draw_by_repetition() {
    let g = shuffled();
    let depth = Limits {
        depth: Some(4),
        time: None,
    };
    let r = AlphaBeta::new(Variant::English, depth, 0).search(&g);
    assert_eq!((g.move_string(&r.best), r.score), ("14-10".to_string(), 0));
    // The same position without its past: nothing repeats, Black is behind.
    let fresh = Game::from_position(Variant::English, *g.position());
    let r = AlphaBeta::new(Variant::English, depth, 0).search(&fresh);
    assert!(r.score < 0, "{r:?}");
}

#[test]
fn uct_takes_the_draw_by_repetition() {
    let g = shuffled();
    let cfg = UctConfig {
        simulations: 400,
        ..UctConfig::default()
    };
    // Rollouts after the other moves end behind on material (a loss); 14-10
    // is a draw.
    for seed in 0..8 {
        let m = Uct::new(Variant::English, cfg, seed).choose(&g).unwrap();
        assert_eq!(g.move_string(&m), "14-10", "seed {seed}");
    }
}
