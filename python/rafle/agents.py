"""Players, evaluation, search and self-play for Python networks.

The search, the arena and self-play are rafle's Rust ones (rafle-search);
this module only resolves player specs, including ``model:PATH[:sims]``,
whose checkpoint is loaded with torch (``rafle.model``).

An evaluator is any callable ``obs (K, C, N, N) float32 -> (logits (K, A),
value)`` with value ``(K,)`` in [-1, 1] for the player to act or ``(K, 3)``
win/draw/loss probabilities; numpy arrays or torch tensors (any device).
A policy is any callable ``(obs (K, C, N, N), mask (K, A) bool) -> actions
(K,)`` integers. Both are called once per round with every game (or env)
where they are to act.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable, Mapping, Optional, Sequence, Union

from rafle import _rafle
from rafle._rafle import LadderResult, MatchResult, NetworkAgent, SearchResult, SelfPlay, SpecPlayer, search

__all__ = [
    "Player",
    "NetworkAgent",
    "evaluate",
    "ladder",
    "search",
    "SelfPlay",
    "MatchResult",
    "LadderResult",
    "SearchResult",
]

Side = Union[str, "Player", NetworkAgent, SpecPlayer, Callable[..., Any]]

#: The trained models shipped with rafle (``zoo:VARIANT``), one file per
#: variant that has one; ``shipped_models()`` lists them.
ZOO = Path(__file__).resolve().parent / "zoo"


def shipped_models() -> list[str]:
    """The variants with a model in ``rafle/zoo/`` (``zoo:VARIANT``), sorted."""
    return sorted(p.stem for p in ZOO.glob("*.safetensors"))


class Player:
    """Any player spec of the command line, for ``variant``:

    ``random``, ``greedy``, ``alphabeta:D``, ``alphabeta:t=0.5s``, ``uct:N``
    (alias ``mcts:N``), ``model:PATH[:sims]`` (a checkpoint of ``rafle
    train`` or ``rafle.model.save``, searched with ``sims`` simulations per
    step, default its ``eval.simulations``; needs torch; ``device`` is where
    its network runs), ``zoo:VARIANT[:sims]`` (the model shipped with rafle
    for that variant, ``rafle/zoo/``), and engines: ``hub:<command line>``
    (a Hub v2 engine such as Scan, started with that command line) and
    ``dxp:<host>:<port>`` (a DXP engine listening there).

    For an engine: ``level`` is its search limit (``"move-time=0.2"``,
    ``"depth=6"``, ``"nodes=100000"``, ``"time=60 moves=75 inc=1"``; DXP
    takes a clock only), ``params`` its Hub parameters (``{"book":
    "false"}``), ``timeout`` the seconds it may take to start and to move
    at a depth or node level, ``concurrency`` the games ``rafle.evaluate``
    plays with it at once (one process or connection each). An engine that
    crashes, stalls, sends garbage or an illegal move loses that game in a
    match; ``choose`` raises RuntimeError then.

    ``egtb`` (a folder of endgame tables or a ``rafle.Tablebase``) lets
    alpha-beta and UCT take the tables' exact values where they cover a
    position; the spec ``egtb`` plays perfectly inside the tables and as
    ``alphabeta:4`` outside them, and needs them.

    ``choose(game)`` returns a legal move of a ``rafle.Game`` in path
    notation. An unknown or malformed spec, variant or level is a
    ValueError naming it.
    """

    def __init__(
        self,
        spec: str,
        variant: str,
        seed: int = 0,
        *,
        device: str = "cpu",
        level: Optional[str] = None,
        params: Optional[Mapping[str, Any]] = None,
        timeout: float = 60.0,
        concurrency: int = 1,
        egtb: Union[str, Path, "_rafle.Tablebase", None] = None,
    ) -> None:
        self.device = device
        if variant not in _rafle.VARIANTS:
            raise ValueError(f"unknown variant {variant!r} (known: {', '.join(_rafle.VARIANTS)})")
        self.spec = spec
        self.variant = variant
        self.seed = seed
        self.level = level
        self.params = dict(params or {})
        self.timeout = timeout
        self.concurrency = concurrency
        self.egtb = str(egtb) if isinstance(egtb, Path) else egtb
        model = _rafle.model_spec(spec)
        self._native: Union[SpecPlayer, NetworkAgent]
        if model is None:
            pairs = [(str(k), _param(v)) for k, v in self.params.items()]
            self._native = SpecPlayer(
                spec, variant, seed, timeout=timeout, concurrency=concurrency, egtb=self.egtb, level=level, params=pairs
            )
        else:
            kind, target, sims = model
            path = ZOO / f"{target}.safetensors" if kind == "zoo" else Path(target)
            if kind == "zoo" and not path.is_file():
                shipped = ", ".join(shipped_models())
                raise ValueError(f"{spec!r}: no model is shipped for {target} (shipped: {shipped})")
            self._native = _model_agent(spec, path, sims, variant, seed, device)

    @property
    def name(self) -> str:
        return self.spec

    def choose(self, game: _rafle.Game) -> str:
        """A legal move of ``game`` (path notation); ValueError if the game is over."""
        if game.variant != self.variant:
            raise ValueError(f"player {self.spec!r} plays {self.variant} but the game is {game.variant}")
        return self._native.choose(game)

    def __reduce__(self) -> tuple[Any, ...]:
        # Rebuilt from its spec and seed (a search's caches start afresh; an
        # engine is started again).
        egtb = self.egtb.dir if isinstance(self.egtb, _rafle.Tablebase) else self.egtb
        engine = (self.level, self.params, self.timeout, self.concurrency, egtb)
        return (_player, (self.spec, self.variant, self.seed, self.device, engine))

    def __repr__(self) -> str:
        level = "" if self.level is None else f", level={self.level!r}"
        return f"rafle.Player({self.spec!r}, {self.variant!r}, seed={self.seed}{level})"


def _param(v: Any) -> str:
    """An engine parameter's value as Hub writes it (booleans in lower case)."""
    return str(v).lower() if isinstance(v, bool) else str(v)


def _player(spec: str, variant: str, seed: int, device: str, engine: tuple[Any, ...] = (None, None, 60.0, 1, None)) -> Player:
    level, params, timeout, concurrency, egtb = (tuple(engine) + (None,))[:5]
    return Player(
        spec, variant, seed, device=device, level=level, params=params, timeout=timeout, concurrency=concurrency, egtb=egtb
    )


def _model_agent(spec: str, path: Path, sims: Optional[int], variant: str, seed: int, device: str) -> NetworkAgent:
    """The NetworkAgent of a checkpoint, with its own search settings."""
    try:
        from rafle import model
    except ImportError as e:
        raise ValueError(f"{spec!r}: model players need torch and safetensors ({e})") from None
    net = model.load(path, device)
    if net.variant != variant:
        raise ValueError(f"{spec!r} was trained for {net.variant} but the game is {variant}")
    return network_agent(net, net.meta.get("config", {}), sims, device=device, name=spec, seed=seed)


def network_agent(
    net: Any,
    cfg: Mapping[str, Any],
    simulations: Optional[int] = None,
    *,
    device: Any = None,
    dtype: Any = None,
    name: Optional[str] = None,
    seed: int = 0,
) -> NetworkAgent:
    """A ``NetworkAgent`` searching with ``net`` (a ``rafle.model.RafleNet``)
    as a run config says: its ``[search]`` table (rafle's defaults for what
    it lacks) and ``eval.simulations`` unless ``simulations`` is given;
    ``device`` and ``dtype`` as in ``rafle.model.evaluator``."""
    from rafle import model

    return NetworkAgent(
        model.evaluator(net, device, dtype),
        cfg.get("eval", {}).get("simulations", 32) if simulations is None else simulations,
        search=cfg.get("search", {}),
        name=name,
        seed=seed,
    )


def _native(x: Any, variant: str, seed: int) -> Any:
    """What the Rust arena takes for a side."""
    if isinstance(x, Player):
        if x.variant != variant:
            raise ValueError(f"player {x.spec!r} plays {x.variant} but the match is {variant}")
        return x._native
    if isinstance(x, str) and _rafle.model_spec(x) is not None:
        return Player(x, variant, seed)._native
    return x


def evaluate(
    a: Side,
    b: Side,
    *,
    variant: str,
    games: int = 100,
    seed: int = 0,
    openings: Union[str, Path, Sequence[str], None] = None,
    opening_plies: int = 4,
    max_plies: int = 400,
    pdn: Union[str, Path, None] = None,
    sprt: Optional[Sequence[float]] = None,
    threads: Optional[int] = None,
    progress: bool = True,
    max_forfeits: int = 5,
    egtb: Union[str, Path, "_rafle.Tablebase", None] = None,
    adjudicate: bool = False,
) -> MatchResult:
    """Plays ``games`` games of ``a`` against ``b`` as ``rafle eval`` does and
    returns the result for ``a``.

    ``a`` and ``b`` are each a spec string (see ``Player``), a ``Player``, a
    ``NetworkAgent`` or a policy callable ``(obs, mask) -> actions``. Games
    are colour-swapped pairs from seeded random openings (``opening_plies``
    random plies after the ``openings`` line of the pair, if a file or list
    of lines is given); a game reaching ``max_plies`` is a draw. Every game
    advances in lockstep: a Python network or policy is called once per
    round with the batch of all games where it is to act. ``sprt=(elo0,
    elo1[, alpha, beta])`` stops early once decided; ``pdn`` also writes the
    games to that file; ``progress`` draws a bar on stderr. The same seed
    gives the same games. Errors inside an evaluator are raised as they were;
    Ctrl-C stops the match.

    Engine sides (``hub:``/``dxp:`` specs, or a ``Player`` of one with its
    level) play as many games at once as their ``concurrency`` (a bare spec
    string: one); a game an engine forfeits (crash, time, garbage, illegal
    move) is its loss, the reason in ``pdn`` and ``table``, and
    ``max_forfeits`` forfeits in a row stop the match with RuntimeError.

    ``egtb`` (a folder of endgame tables or a ``rafle.Tablebase``): spec
    players and network sides take the tables' exact values where they
    cover a position (the spec ``egtb`` plays by them); with ``adjudicate``
    a game that reaches the tables ends with their result (termination
    ``"tablebase"``).
    """
    return _rafle.evaluate(
        _native(a, variant, seed),
        _native(b, variant, seed + 1),
        variant=variant,
        games=games,
        seed=seed,
        openings=str(openings) if isinstance(openings, Path) else openings,
        opening_plies=opening_plies,
        max_plies=max_plies,
        pdn=None if pdn is None else str(pdn),
        sprt=None if sprt is None else list(sprt),
        threads=threads,
        progress=progress,
        max_forfeits=max_forfeits,
        egtb=str(egtb) if isinstance(egtb, Path) else egtb,
        adjudicate=adjudicate,
    )


def ladder(
    player: Side,
    variant: str,
    games: int = 200,
    *,
    egtb: Union[str, Path, "_rafle.Tablebase", None] = None,
    seed: int = 0,
    threads: Optional[int] = None,
    progress: bool = True,
    ladder: Union[str, Path, None] = None,
    start: Optional[float] = None,
) -> LadderResult:
    """Places ``player`` on ``variant``'s ladder as ``rafle ladder`` does:
    about ``games`` games (colour-swapped pairs) against the reference
    players nearest its strength, chosen as the games go (start in the
    middle, move to the rungs it scores about 50% against), then its
    maximum-likelihood Elo on the ladder's scale (random = 0).

    ``player`` is anything ``evaluate`` takes: a spec string, a ``Player``,
    a ``NetworkAgent`` (a network of your own) or a policy callable.
    Returns a ``LadderResult``: ``elo``, ``interval`` (95%, from the games,
    the rungs' Elos fixed: what reruns and two placed players are compared
    by), ``interval_absolute`` (with the rungs' own uncertainty), ``games``,
    ``rungs`` (a dict per rung played), ``verdict`` and ``report`` (what the
    command prints). ``egtb`` tables are the player's (the rungs play as
    calibrated); ``ladder`` names a ladder file to use instead of the
    built-in one; ``start``, an earlier estimate of the player's Elo, puts
    the first games against the rung nearest it instead of the middle one
    (a trainer's periodic placements). A variant without a ladder is a
    ValueError.
    """
    return _rafle.ladder(
        _native(player, variant, seed),
        variant=variant,
        games=games,
        seed=seed,
        egtb=str(egtb) if isinstance(egtb, Path) else egtb,
        threads=threads,
        progress=progress,
        ladder=None if ladder is None else str(ladder),
        start=start,
    )


def _player_name(x: Any) -> str:
    """The name the page shows for a player."""
    if isinstance(x, str):
        return x.strip()
    if isinstance(x, Player):
        return x.spec
    if isinstance(x, NetworkAgent):
        return x.name
    return str(getattr(x, "__name__", type(x).__name__))


def serve(
    players: Sequence[Side] = ("alphabeta:4", "uct:400", "greedy", "random"),
    *,
    variant: str,
    port: int = 8000,
    host: str = "127.0.0.1",
    egtb: Union[str, Path, "_rafle.Tablebase", None] = None,
    block: bool = True,
) -> "_rafle.Server":
    """Serves the page of ``rafle serve`` with ``players``: play against
    them, watch them play each other, look into them (a ``NetworkAgent``'s
    policy over the legal moves and its value, a search's score and
    principal variation) in the browser at the printed address.

    ``players`` are what ``rafle.evaluate`` takes: spec strings (playable
    in every variant of the page), ``Player``s, ``NetworkAgent``s over your
    own network, policy callables (these for ``variant`` only). A Python
    network is called from the server's search thread, which takes the GIL
    for each call. ``host`` is loopback by default: the page has no
    authentication. ``block`` serves until Ctrl-C (then raises
    KeyboardInterrupt); otherwise the running ``Server`` is returned (its
    ``url``, ``stop()``, ``wait()``; a context manager).
    """
    named: list[tuple[str, Any]] = []
    for i, p in enumerate(players):
        name = _player_name(p)
        taken = {n for n, _ in named}
        k = 2
        base = name
        while name in taken:
            name = f"{base} ({k})"
            k += 1
        named.append((name, _native(p, variant, i)))
    server = _rafle.serve(named, variant=variant, port=port, host=host,
                          egtb=str(egtb) if isinstance(egtb, Path) else egtb)
    print(f"rafle serve: {server.url}", flush=True)
    if block:
        server.wait()
    return server
