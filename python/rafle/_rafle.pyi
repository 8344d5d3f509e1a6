"""Type stubs of the compiled bindings (crates/rafle-py). Checked against the
module by python/tests/test_stubs.py (mypy.stubtest)."""

from os import PathLike
from typing import Any, Callable, Mapping, Sequence, final

import numpy as np
import numpy.typing as npt

__all__ = [
    "_set_eval_zoo",
    "BF16_BATCH",
    "END_REASONS",
    "Game",
    "LADDERS",
    "LadderResult",
    "MatchResult",
    "MetricsFile",
    "NetworkAgent",
    "PdnGame",
    "SMALL_BATCH",
    "SearchResult",
    "SelfPlay",
    "Server",
    "Tablebase",
    "SpecPlayer",
    "VARIANTS",
    "VecEnv",
    "cpu_has_fast_bf16",
    "eval_features",
    "eval_games",
    "eval_values",
    "evaluate",
    "heldout_metrics",
    "heldout_observations",
    "iteration_metrics",
    "ladder",
    "ladder_implied",
    "load_config",
    "load_replay",
    "model_spec",
    "pdn_samples",
    "read_pdn",
    "save_eval",
    "save_replay",
    "schedule_progress",
    "search",
    "serve",
    "svg_to_rgb",
    "teach",
    "teacher_count",
]

VARIANTS: tuple[str, ...]
# The variants with a calibrated ladder (rafle.ladder), in the order of VARIANTS.
LADDERS: tuple[str, ...]
SMALL_BATCH: int
BF16_BATCH: int
END_REASONS: tuple[str, ...]
"""How an episode can end; info["reason"] codes index it."""

def svg_to_rgb(svg: str) -> npt.NDArray[np.uint8]:
    """An SVG picture as an (H, W, 3) uint8 image (no text drawn)."""

@final
class Game:
    """A game of draughts: position, history, draw rules and the result."""

    def __new__(cls, variant: str, fen: str | None = None) -> Game: ...
    @property
    def variant(self) -> str: ...
    @property
    def turn(self) -> str:
        """"white" or "black"."""
    @property
    def ply(self) -> int: ...
    def fen(self) -> str: ...
    def legal_moves(self) -> list[str]: ...
    def legal_paths(self) -> list[str]: ...
    def play(self, move: str) -> None: ...
    def undo(self) -> str: ...
    def history(self) -> list[str]: ...
    def is_over(self) -> bool: ...
    def result(self) -> str | None:
        """None, "white", "black" or "draw"."""
    def result_reason(self) -> str | None: ...
    def perft(self, depth: int) -> int: ...
    def copy(self) -> Game: ...
    def __copy__(self) -> Game: ...
    def __deepcopy__(self, memo: Any) -> Game: ...
    def __reduce__(self) -> tuple[type[Game], tuple[str, str], list[str]]: ...
    def __setstate__(self, moves: list[str]) -> None: ...
    def to_svg(self, size: int = 400, *, numbers: bool = True, flipped: bool = False) -> str: ...
    def _repr_svg_(self) -> str: ...

@final
class VecEnv:
    """Many games stepped together, numpy in and out."""

    def __new__(
        cls,
        variant: str,
        num_envs: int = 1,
        seed: int = 0,
        *,
        max_plies: int | None = None,
        illegal: str = "error",
        fen: str | None = None,
        autoreset: str = "SameStep",
    ) -> VecEnv: ...
    @property
    def variant(self) -> str: ...
    @property
    def num_envs(self) -> int: ...
    @property
    def num_actions(self) -> int: ...
    @property
    def observation_shape(self) -> tuple[int, int, int]: ...
    @property
    def autoreset(self) -> str:
        """"NextStep", "SameStep" or "Disabled"."""
    @property
    def max_plies(self) -> int | None: ...
    @property
    def illegal(self) -> str: ...
    @property
    def start_fen(self) -> str | None: ...
    def reset(
        self,
        seed: int | Sequence[int] | None = None,
        *,
        mask: npt.ArrayLike | None = None,
        copy: bool = True,
    ) -> npt.NDArray[np.float32]: ...
    def observe(self, *, copy: bool = True) -> npt.NDArray[np.float32]: ...
    def observe_as(self, i: int, player: int) -> npt.NDArray[np.float32]: ...
    def legal_mask(self, *, copy: bool = True) -> npt.NDArray[np.bool_]: ...
    def to_play(self, *, copy: bool = True) -> npt.NDArray[np.uint8]: ...
    def sample_legal_actions(self) -> npt.NDArray[np.int64]: ...
    def step(
        self, actions: npt.ArrayLike, *, copy: bool = True
    ) -> tuple[
        npt.NDArray[np.float32],
        npt.NDArray[np.float32],
        npt.NDArray[np.bool_],
        npt.NDArray[np.bool_],
        dict[str, Any],
    ]: ...
    def fen(self, i: int) -> str: ...
    def ply(self, i: int) -> int: ...
    def game(self, i: int) -> Game: ...
    def move_actions(self, i: int, move: str) -> list[int]: ...
    def __copy__(self) -> VecEnv: ...
    def __deepcopy__(self, memo: Any) -> VecEnv: ...
    def __reduce__(
        self,
    ) -> tuple[
        type[VecEnv], tuple[str, int], tuple[int | None, str, str | None, str, bytes]
    ]: ...
    def __setstate__(
        self, state: tuple[int | None, str, str | None, str, bytes]
    ) -> None: ...

@final
class Tablebase:
    """The endgame tables of one variant in one folder (``rafle egtb build``).
    ``probe(game)`` -> ("win" | "draw" | "loss", plies) for the side to move;
    ``best_moves(game)`` the moves that keep that value, best first;
    ``move_values(game)`` every legal move with its value. A missing table,
    a position outside the tables or another variant's tables is a ValueError."""

    def __new__(cls, variant: str, dir: str | PathLike[str]) -> Tablebase: ...
    @property
    def variant(self) -> str: ...
    @property
    def dir(self) -> str: ...
    @property
    def max_pieces(self) -> int: ...
    def covers(self, game: Game) -> bool: ...
    def probe(self, game: Game) -> tuple[str, int]: ...
    def best_moves(self, game: Game) -> list[str]: ...
    def move_values(self, game: Game) -> list[tuple[str, str, int]]: ...

@final
class SpecPlayer:
    """A player of a CLI spec that needs no network (random, greedy, alphabeta:D, uct:N),
    or an engine (hub:<command line>, dxp:<host>:<port>) with its level, parameters,
    start/move timeout in seconds and the games it may play at once."""

    def __new__(
        cls,
        spec: str,
        variant: str,
        seed: int = 0,
        *,
        level: str | None = None,
        params: Sequence[tuple[str, str]] | None = None,
        timeout: float = 60.0,
        concurrency: int = 1,
        egtb: str | PathLike[str] | Tablebase | None = None,
    ) -> SpecPlayer: ...
    @property
    def spec(self) -> str: ...
    @property
    def variant(self) -> str: ...
    @property
    def seed(self) -> int: ...
    def choose(self, game: Game) -> str:
        """A legal move of game, in path notation."""

@final
class NetworkAgent:
    """rafle's tree search (Gumbel AlphaZero or PUCT) over a Python network.
    ``search`` is a ``[search]`` table (crates/rafle-search/src/network/params.rs);
    keywords such as ``c_puct=2.0`` override single fields of it."""

    def __new__(
        cls,
        evaluator: Callable[..., Any],
        simulations: int | None = None,
        algorithm: str | None = None,
        *,
        search: Mapping[str, Any] | None = None,
        name: str | None = None,
        seed: int = 0,
        **knobs: Any,
        ) -> NetworkAgent: ...
    @property
    def evaluator(self) -> Callable[..., Any]: ...
    @property
    def simulations(self) -> int: ...
    @property
    def algorithm(self) -> str: ...
    @property
    def name(self) -> str: ...
    @property
    def seed(self) -> int: ...
    @property
    def search_settings(self) -> dict[str, Any]: ...
    def choose(self, game: Game) -> str:
        """A legal move of game, searched one game at a time."""

@final
class MatchResult:
    """The outcome of a match, from the first player's side."""

    @property
    def variant(self) -> str: ...
    @property
    def a(self) -> str: ...
    @property
    def b(self) -> str: ...
    @property
    def games(self) -> int: ...
    @property
    def wins(self) -> int: ...
    @property
    def draws(self) -> int: ...
    @property
    def losses(self) -> int: ...
    @property
    def score(self) -> float: ...
    @property
    def elo(self) -> float: ...
    @property
    def elo_ci(self) -> tuple[float, float]: ...
    @property
    def pentanomial(self) -> tuple[int, int, int, int, int]: ...
    @property
    def pair_elo(self) -> float: ...
    @property
    def pair_elo_ci(self) -> tuple[float, float]: ...
    @property
    def sprt(self) -> tuple[str, float] | None: ...
    @property
    def pdn(self) -> str: ...
    @property
    def a_stats(self) -> dict[str, Any]: ...
    @property
    def b_stats(self) -> dict[str, Any]: ...
    @property
    def seconds(self) -> float: ...
    @property
    def table(self) -> str: ...

@final
class LadderResult:
    """Where a player stands on a variant's ladder (random = 0)."""

    @property
    def variant(self) -> str: ...
    @property
    def player(self) -> str: ...
    @property
    def elo(self) -> float: ...
    @property
    def interval(self) -> tuple[float, float]: ...
    @property
    def interval_absolute(self) -> tuple[float, float]: ...
    @property
    def games(self) -> int: ...
    @property
    def rungs(self) -> list[dict[str, Any]]: ...
    @property
    def verdict(self) -> str: ...
    @property
    def seconds(self) -> float: ...
    @property
    def report(self) -> str: ...
    @property
    def summary(self) -> str: ...

@final
class SearchResult:
    """One search per env: action (B,), policy (B, A), value (B,), visits (B, A)."""

    @property
    def action(self) -> npt.NDArray[np.int64]: ...
    @property
    def policy(self) -> npt.NDArray[np.float32]: ...
    @property
    def value(self) -> npt.NDArray[np.float32]: ...
    @property
    def visits(self) -> npt.NDArray[np.int32]: ...
    @property
    def calls(self) -> int: ...
    @property
    def evals(self) -> int: ...

@final
class SelfPlay:
    """Games of self-play in lockstep, searching with a Python network.
    ``search`` is a ``[search]`` table and other keywords override its fields
    (crates/rafle-search/src/network/params.rs); ``opening_plies = k`` opens
    each game with exactly k random plies, none ending the game, as the arena
    opens its games; ``cut_target`` is what the positions of a game cut at
    ``max_plies`` learn: ``"draw"``, ``"search"`` (their search value; the
    search looks past the cap) or ``"none"`` (no value target)."""

    def __new__(
        cls,
        variant: str,
        evaluator: Callable[..., Any],
        num_games: int = 256,
        simulations: int | None = None,
        *,
        search: Mapping[str, Any] | None = None,
        max_plies: int | None = None,
        opening_plies: int = 0,
        value_target_search: float = 0.0,
        seed: int = 0,
        egtb: str | PathLike[str] | Tablebase | None = None,
        egtb_play_on: bool = False,
        cut_target: str = "draw",
        **knobs: Any,
        ) -> SelfPlay: ...
    @staticmethod
    def from_config(
        config: str | PathLike[str] | Mapping[str, Any],
        evaluator: Callable[..., Any],
        seed: int | None = None,
    ) -> SelfPlay: ...
    def play(self, positions: int, progress: bool = False) -> dict[str, npt.NDArray[Any]]:
        """obs, mask, policy, value, search_value, result and version arrays."""
    @property
    def version(self) -> int: ...
    @version.setter
    def version(self, version: int) -> None: ...
    @property
    def variant(self) -> str: ...
    @property
    def num_games(self) -> int: ...
    @property
    def settings(self) -> dict[str, Any]: ...
    @property
    def stats(self) -> dict[str, Any]: ...

def evaluate(
    a: Any,
    b: Any,
    *,
    variant: str,
    games: int = 100,
    seed: int = 0,
    openings: str | Sequence[str] | None = None,
    opening_plies: int = 4,
    max_plies: int = 400,
    pdn: str | None = None,
    sprt: Sequence[float] | None = None,
    threads: int | None = None,
    progress: bool = True,
    max_forfeits: int = 5,
    egtb: str | PathLike[str] | Tablebase | None = None,
    adjudicate: bool = False,
) -> MatchResult: ...
def ladder(
    player: Any,
    *,
    variant: str,
    games: int = 200,
    seed: int = 0,
    egtb: str | PathLike[str] | Tablebase | None = None,
    threads: int | None = None,
    progress: bool = True,
    ladder: str | PathLike[str] | None = None,
    start: float | None = None,
) -> LadderResult: ...
def ladder_implied(
    variant: str,
    results: list[tuple[str, int, int, int, tuple[int, int, int, int, int] | None]],
) -> tuple[float, float, float, str] | None: ...
def search(
    env: VecEnv,
    evaluator: Callable[..., Any],
    simulations: int | None = None,
    algorithm: str | None = None,
    seed: int = 0,
    *,
    explore: bool = False,
    search: Mapping[str, Any] | None = None,
    **knobs: Any,
) -> SearchResult: ...
def load_config(config: str | PathLike[str] | Mapping[str, Any], set: Sequence[str] | None = None) -> dict[str, Any]: ...
def teach(config: str | PathLike[str] | Mapping[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]: ...
def model_spec(spec: str) -> tuple[str, str, int | None] | None: ...
def cpu_has_fast_bf16() -> bool: ...

def iteration_metrics(
    counters: Mapping[str, float], selfplay_s: float, train_s: float, seconds: float
) -> dict[str, float]: ...
def schedule_progress(schedule_by: str, step: int, total_steps: int, elapsed: float, limit: float) -> float: ...
def teacher_count(batch: int, mix: float, mix_until: float, progress: float) -> int: ...
def heldout_observations(variant: str) -> npt.NDArray[np.float32] | None: ...
def heldout_metrics(variant: str, wdl: npt.NDArray[np.float32]) -> tuple[dict[str, float], str] | None: ...
def save_replay(
    path: str | PathLike[str], batch: Mapping[str, npt.NDArray[Any]], total_added: int
) -> None: ...
def load_replay(
    path: str | PathLike[str],
    variant: str,
    window: int,
    value_target_search: float = 0.0,
) -> tuple[dict[str, npt.NDArray[Any]], int]: ...
@final
class MetricsFile:
    """RUN_DIR/metrics.csv, written as `rafle train` writes it."""

    def __new__(cls, run_dir: str | PathLike[str], fresh: bool = False) -> MetricsFile: ...
    def log(self, iteration: int, step: int, elapsed_s: float, values: Mapping[str, float]) -> None: ...
    def close(self) -> None: ...

@final
class PdnGame:
    """One game read from PDN, replayed."""

    @property
    def tags(self) -> dict[str, str]: ...
    @property
    def moves(self) -> list[str]: ...
    @property
    def result(self) -> str | None: ...
    @property
    def winner(self) -> str | None: ...
    @property
    def fen(self) -> str | None: ...
    @property
    def variant(self) -> str: ...
    def game(self) -> Game: ...
    def __len__(self) -> int: ...

def read_pdn(text: str, variant: str | None = None) -> tuple[list[PdnGame], list[str]]: ...
def pdn_samples(games: Sequence[PdnGame]) -> dict[str, Any]: ...

@final
class Server:
    @property
    def url(self) -> str: ...
    def stop(self) -> None: ...
    def wait(self) -> None: ...
    def __enter__(self) -> Server: ...
    def __exit__(self, t: object, v: object, tb: object) -> None: ...

def serve(
    players: Sequence[tuple[str, Any]],
    *,
    variant: str,
    port: int = 8000,
    host: str = "127.0.0.1",
    egtb: str | PathLike[str] | Tablebase | None = None,
) -> Server: ...
def eval_features(
    variant: str,
    positions: Sequence[str | Game],
    design: str = "patterns",
    hidden: int = 32,
    hidden2: int = 16,
) -> dict[str, Any]: ...
def eval_games(
    variant: str,
    games: int,
    depth: int = 4,
    eval: str | None = None,
    seed: int = 0,
    opening_plies: int = 6,
    random_share: float = 0.05,
    max_plies: int = 300,
    result_weight: float = 0.5,
) -> dict[str, Any]: ...
def save_eval(
    path: str | PathLike[str],
    variant: str,
    design: str,
    weights: Mapping[str, npt.NDArray[np.float32]],
    metadata: Mapping[str, str] | None = None,
) -> None: ...
def eval_values(eval: str, variant: str, positions: Sequence[str | Game]) -> npt.NDArray[np.int32]: ...
def _set_eval_zoo(dir: str | PathLike[str]) -> None: ...
