"""rafle.ladder: a player's place on a variant's ladder, for spec strings and
Python players; the same seed gives the same placement; bad input is a
ValueError. Small budgets: seconds in all."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import rafle

LADDER_DIR = Path(__file__).resolve().parents[2] / "crates" / "rafle-arena" / "ladder"


def first_calibrated() -> str:
    if not rafle.LADDERS:
        pytest.skip("no variant has a ladder yet")
    return rafle.LADDERS[0]


def test_a_spec_is_placed_with_an_interval_and_the_seed_fixes_it() -> None:
    v = first_calibrated()
    r = rafle.ladder("alphabeta:1", v, games=20, seed=3, progress=False)
    assert isinstance(r, rafle.LadderResult)
    assert r.games == 20 and r.variant == v and r.player == "alphabeta:1"
    lo, hi = r.interval
    assert lo < r.elo < hi
    alo, ahi = r.interval_absolute
    assert alo <= lo and hi <= ahi
    assert sum(x["wins"] + x["draws"] + x["losses"] for x in r.rungs) == 20
    assert all(set(x) == {"spec", "elo", "wins", "draws", "losses", "score", "pairs"} for x in r.rungs)
    assert all(2 * sum(x["pairs"]) == x["wins"] + x["draws"] + x["losses"] for x in r.rungs)
    # The Elo the trainers' ladder line computes from the same games is the placement's.
    games = [(x["spec"], x["wins"], x["draws"], x["losses"], tuple(x["pairs"])) for x in r.rungs]
    implied = rafle._rafle.ladder_implied(v, games)
    assert implied is not None and implied[:3] == pytest.approx((r.elo, *r.interval))
    assert implied[3].startswith(f"ladder elo {r.elo:.0f} [")
    assert rafle._rafle.ladder_implied(v, [("greedy:1", 1, 0, 0, None)]) is None
    with pytest.raises(ValueError, match="unknown variant"):
        rafle._rafle.ladder_implied("chess", games)
    with pytest.raises(ValueError, match="games in pairs"):
        rafle._rafle.ladder_implied(v, [(games[0][0], 3, 0, 1, (0, 0, 0, 0, 1))])
    assert "elo " in r.report and r.verdict in r.report
    again = rafle.ladder("alphabeta:1", v, games=20, seed=3, progress=False)
    assert (again.elo, again.rungs) == (r.elo, r.rungs)


def test_a_python_policy_is_placed_below_alphabeta() -> None:
    v = first_calibrated()
    rng = np.random.default_rng(0)

    def random_policy(obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        return np.array([rng.choice(np.flatnonzero(m)) for m in mask])

    r = rafle.ladder(random_policy, v, games=20, seed=1, progress=False)
    ab = rafle.ladder("alphabeta:2", v, games=20, seed=1, progress=False)
    # A random mover sits near random's 0; depth 2 far above it.
    assert r.elo < ab.elo, (r, ab)
    assert r.interval[0] < 300, r


def test_bad_input_is_a_value_error(tmp_path: Path) -> None:
    v = first_calibrated()
    other = next(x for x in rafle.VARIANTS if x != v)
    for kwargs, needle in [
        (dict(player="minimax:2", variant=v), "unknown player"),
        (dict(player="random", variant="chess"), "chess"),
        (dict(player="random", variant=v, games=0), "games"),
        (dict(player="random", variant=other, ladder=LADDER_DIR / f"{v}.toml"), f"not {other}"),
    ]:
        with pytest.raises(ValueError, match=needle):
            rafle.ladder(**kwargs)  # type: ignore[arg-type]
    missing = [x for x in rafle.VARIANTS if x not in rafle.LADDERS]
    if missing:
        with pytest.raises(ValueError, match="no ladder"):
            rafle.ladder("random", missing[0], games=2)
