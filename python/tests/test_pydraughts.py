"""rafle among the hosts engines live in: pydraughts (the library lidraughts-bot
drives engines with) plays `rafle hub` through its HubEngine and `rafle dxp
--listen` through its DXPEngine in every variant it has, every rafle move
checked against pydraughts' own legal moves; and the asynchronous Hub engine
(`stop`, `go ponder` / `ponder-hit`, `info` during the search, `quit`).

pydraughts' hosts wait for good on a silent engine (its HubEngine.go after an
`error`, its DXP client's busy loops), so every test runs under a watchdog
that kills the engines and closes the sockets at its deadline: a test then
fails instead of hanging.
"""

from __future__ import annotations

import queue
import socket
import subprocess
import threading
import time
from typing import Callable, Iterator

import pytest

from conftest import BINARY

draughts = pytest.importorskip("draughts")
from draughts.engine import DXPEngine, HubEngine, Limit  # noqa: E402

# pydraughts' variants and their names as rafle's CLI takes them. pydraughts'
# english has no majority rule: rafle's checkers.
VARIANTS = {
    "standard": "international",
    "english": "checkers",
    "italian": "italian",
    "russian": "russian",
    "brazilian": "brazilian",
    "turkish": "turkish",
    "frisian": "frisian",
    "frysk!": "frisian",
    "antidraughts": "antidraughts",
    "breakthrough": "breakthrough",
}
# DXP in one variant of each numbering (rafle-engine's notation::Numbering)
# and frysk! (a start position in the game request); Hub in every variant.
DXP_VARIANTS = ["standard", "italian", "russian", "english", "frysk!"]
MAX_PLIES = 400
DEADLINE = 60.0


@pytest.fixture(scope="module")
def rafle() -> str:
    if not BINARY.is_file():
        pytest.skip(f"{BINARY} not built (cargo build --release -p rafle-zero)")
    return str(BINARY)


class Watchdog:
    """Runs the cleanups registered with `on_expiry` if the test outlives its deadline."""

    def __init__(self, seconds: float) -> None:
        self.cleanups: list[Callable[[], None]] = []
        self.expired = False
        self.timer = threading.Timer(seconds, self._expire)
        self.timer.daemon = True
        self.timer.start()

    def on_expiry(self, f: Callable[[], None]) -> None:
        self.cleanups.append(f)

    def _expire(self) -> None:
        self.expired = True
        for f in self.cleanups:
            try:
                f()
            except Exception:
                pass


@pytest.fixture
def watchdog() -> Iterator[Watchdog]:
    w = Watchdog(DEADLINE)
    yield w
    w.timer.cancel()
    assert not w.expired, f"the test ran past its {DEADLINE} s deadline"


def hub_engine(rafle: str, variant: str, watchdog: Watchdog, *args: str) -> HubEngine:
    """pydraughts' HubEngine running `rafle hub ARGS`, the variant set as lidraughts-bot sets it."""
    engine = HubEngine([rafle, "hub", *args])
    watchdog.on_expiry(engine.kill_process)
    assert variant in engine.variants, sorted(engine.variants)
    engine.configure({"variant": variant, "initial-time": 60, "book-ply": 20})
    engine.init()
    return engine


def close_dxp(engine: DXPEngine) -> None:
    """pydraughts' DXPEngine.quit, without its 7 s sleep before closing the socket."""
    s = engine.sender.socket
    if s.sock is not None and not s.closed:
        s.closed = True
        try:
            s.sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        s.sock.close()
    engine.receiver.accepted = False  # ends its wait for an acceptance
    engine.sender.receiver.receive_thread.join(timeout=5)


def hub_variant(variant: str) -> str:
    """The name lidraughts-bot sends (its parse_variant); pydraughts' own elsewhere."""
    return {"standard": "normal", "breakthrough": "bt", "antidraughts": "losing", "frysk!": "frisian"}.get(
        variant, variant
    )


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_pydraughts_hub_engine_plays_rafle_hub_to_the_end(rafle: str, variant: str, watchdog: Watchdog) -> None:
    engine = hub_engine(rafle, hub_variant(variant), watchdog, "--player", "greedy", "--seed", "3")
    board = draughts.Board(variant)
    try:
        while not board.is_over() and len(board.move_stack) < MAX_PLIES:
            result = engine.play(board, Limit(movetime=0.05), False)
            legal = [m.hub_move for m in board.legal_moves()]
            assert result.move.hub_move in legal, (len(board.move_stack), result.move.hub_move, legal)
            board.push(result.move)
    finally:
        engine.quit()
        engine.kill_process()
    assert board.is_over(), f"{variant}: not over after {MAX_PLIES} plies"


@pytest.mark.parametrize("variant", DXP_VARIANTS)
def test_pydraughts_plays_rafle_dxp_against_rafle_hub(rafle: str, variant: str, watchdog: Watchdog) -> None:
    """A game between rafle dxp (the side to move first, the stronger player)
    and rafle hub, hosted by pydraughts; when rafle dxp's move ends the game,
    its GAMEEND reason is the result from its side."""
    follower = subprocess.Popen(
        [rafle, "dxp", "--listen", "0", "--variant", VARIANTS[variant], "--player", "alphabeta:2"],
        stderr=subprocess.PIPE,
        text=True,
    )
    watchdog.on_expiry(follower.kill)
    assert follower.stderr is not None
    port = int(follower.stderr.readline().split("127.0.0.1:")[1].split()[0])
    # Its log of each game's end, drained so that the pipe never fills.
    drain = threading.Thread(target=follower.stderr.read, daemon=True)
    drain.start()
    hub = hub_engine(rafle, hub_variant(variant), watchdog, "--player", "greedy", "--seed", "5")
    try:
        board = draughts.Board(variant)
        dxp_side = board.turn
        dxp = DXPEngine(None, {"engine-opened": True, "ip": "127.0.0.1", "port": port}, initial_time=300)
        watchdog.on_expiry(lambda: close_dxp(dxp))
        last_by_dxp = False
        while not board.is_over() and len(board.move_stack) < MAX_PLIES:
            if board.turn == dxp_side:
                move = dxp.play(board).move
                assert move is not None, "the DXP engine did not move"
            else:
                move = hub.play(board, Limit(movetime=0.05), False).move
            legal = [m.hub_move for m in board.legal_moves()]
            assert move.hub_move in legal, (len(board.move_stack), move.hub_move, legal)
            board.push(move)
            last_by_dxp = board.turn != dxp_side
        assert board.is_over(), f"{variant}: not over after {MAX_PLIES} plies"
        if last_by_dxp:
            # rafle dxp saw the end: its GAMEEND (1 it lost, 2 draw, 3 it won).
            t = time.monotonic()
            while dxp.sender.current.result is None and time.monotonic() - t < 5:
                time.sleep(0.01)
            winner = board.winner()
            expected = "2" if winner == 0 else ("3" if winner == dxp_side else "1")
            assert dxp.sender.current.result == expected, (winner, dxp_side)
        close_dxp(dxp)
    finally:
        hub.quit()
        hub.kill_process()
        follower.kill()
        follower.wait()
        drain.join(timeout=5)
        follower.stderr.close()


class RawHub:
    """`rafle hub` on pipes, its lines read by a thread, for timing the protocol."""

    def __init__(self, rafle: str, *args: str) -> None:
        self.p = subprocess.Popen(
            [rafle, "hub", *args], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
        )
        self.lines: queue.Queue[tuple[float, str]] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.p.stdout is not None
        for line in self.p.stdout:
            self.lines.put((time.monotonic(), line.strip()))

    def send(self, line: str) -> float:
        assert self.p.stdin is not None
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()
        return time.monotonic()

    def until(self, word: str, within: float = 10.0) -> tuple[float, str, list[str]]:
        """The first line starting with `word` (its time), and the lines before it."""
        before = []
        end = time.monotonic() + within
        while True:
            t, line = self.lines.get(timeout=max(0.0, end - time.monotonic()))
            if line.split()[:1] == [word]:
                return t, line, before
            before.append(line)

    def start(self, variant: str = "normal") -> None:
        self.send("hub")
        self.until("wait")
        self.send(f"set-param name=variant value={variant}")
        self.send("init")
        self.until("ready")

    def close(self) -> None:
        self.p.kill()
        self.p.wait()
        for f in (self.p.stdin, self.p.stdout):
            if f:
                f.close()


START = "W" + "b" * 20 + "e" * 10 + "w" * 20


def test_stop_answers_at_once_during_a_long_search(rafle: str, watchdog: Watchdog) -> None:
    """An alpha-beta search with 30 s to think answers `stop` at once (the
    bound is generous for loaded machines; the measured latency is in
    docs/how-to/engines.md)."""
    hub = RawHub(rafle, "--player", "alphabeta:t=1s")
    watchdog.on_expiry(hub.close)
    try:
        hub.start()
        for _ in range(3):
            hub.send(f"pos pos={START}")
            hub.send("level move-time=30")
            hub.send("go think")
            time.sleep(0.3)
            sent = hub.send("stop")
            t, done, before = hub.until("done", within=10)
            assert t - sent < 2.0, f"stop answered after {t - sent:.3f} s"
            assert done.startswith("done move=")
            # info lines came during the search: depth, score, nodes, PV.
            infos = [line for line in before if line.startswith("info depth=")]
            assert infos and all(k in infos[0] for k in ("score=", "nodes=", "pv=")), before
        # ping is answered during a search, and the search goes on.
        hub.send(f"pos pos={START}")
        hub.send("level move-time=30")
        hub.send("go think")
        hub.send("ping")
        hub.until("pong", within=2)
        hub.send("stop")
        hub.until("done", within=10)
    finally:
        hub.close()


def test_ponder_then_ponder_hit_moves_within_the_level(rafle: str, watchdog: Watchdog) -> None:
    hub = RawHub(rafle, "--player", "alphabeta:t=1s")
    watchdog.on_expiry(hub.close)
    try:
        hub.start()
        hub.send(f"pos pos={START}")
        hub.send("level move-time=1")
        hub.send("go ponder")
        # Pondering has no time limit: nothing before ponder-hit.
        time.sleep(1.5)
        assert not any(line.startswith("done") for _, line in list(hub.lines.queue))
        hit = hub.send("ponder-hit")
        t, done, _ = hub.until("done", within=10)
        assert 0.5 < t - hit < 3.0, f"done {t - hit:.3f} s after ponder-hit with move-time=1"
        # A ponder that misses: stop answers at once, then the real search.
        hub.send(f"pos pos={START}")
        hub.send("go ponder")
        time.sleep(0.2)
        sent = hub.send("stop")
        t, _, _ = hub.until("done", within=10)
        assert t - sent < 2.0
    finally:
        hub.close()


def test_lidraughts_bot_pondering_through_pydraughts(rafle: str, watchdog: Watchdog) -> None:
    """What lidraughts-bot does: a ponder search on a thread, then ponder-hit
    (or stop) from the main thread; the player spec holds an '=' (pydraughts
    reads the engine's parameters without failing on it)."""
    engine = hub_engine(rafle, "normal", watchdog, "--player=alphabeta:t=1s")
    try:
        board = draughts.Board("standard")
        first = engine.play(board, Limit(movetime=0.3), False)
        assert first.ponder is not None and "depth" in engine.info
        board.push(first.move)
        board.push(first.ponder)
        results: dict[str, object] = {}

        def ponder() -> None:
            results["r"] = engine.play(board, Limit(time=60, inc=0), True)

        for finish in (engine.ponderhit, engine.stop):
            thread = threading.Thread(target=ponder)
            thread.start()
            time.sleep(0.5)
            t = time.monotonic()
            finish()
            thread.join(timeout=30)
            assert not thread.is_alive()
            # 60 s over 30 moves: 2 s after a ponder-hit; at once after stop.
            assert time.monotonic() - t < (6.0 if finish == engine.ponderhit else 2.0)
            move = results.pop("r").move  # type: ignore[attr-defined]
            assert move.hub_move in [m.hub_move for m in board.legal_moves()]
    finally:
        engine.quit()
        engine.kill_process()


def test_quit_during_a_search_exits_at_once(rafle: str, watchdog: Watchdog) -> None:
    hub = RawHub(rafle)
    watchdog.on_expiry(hub.close)
    hub.start()
    hub.send(f"pos pos={START}")
    hub.send("level move-time=30")
    hub.send("go think")
    time.sleep(0.3)
    hub.send("quit")
    assert hub.p.wait(timeout=5) == 0
    hub.close()
