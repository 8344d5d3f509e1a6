"""rafle under pydraughts' hosts (the library lidraughts-bot drives engines
with): games per minute hosted by pydraughts through Hub and DXP against the
same players in-process, and the latency of Hub `stop` during a long search.

    python tools/bench_hosts.py [--games 20] [--variant standard] [--player alphabeta:2] [--stops 100]

Paths (each game from the start position to its end, at most 400 plies):
- in-process: rafle.evaluate(player, player), one game at a time;
- Hub: pydraughts' HubEngine driving `rafle hub --player P` for both sides;
- DXP: pydraughts' DXPEngine against `rafle dxp --player P` for one side,
  HubEngine (`rafle hub`) for the other.
`stop`: `go think` with `level move-time=30` (alpha-beta), `stop` after
50-300 ms, the time until `done`, over --stops searches.
Needs target/release/rafle and the rafle package (maturin develop).
"""

from __future__ import annotations

import argparse
import random
import socket
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

import draughts
from draughts.engine import DXPEngine, HubEngine, Limit

import rafle

ROOT = Path(__file__).resolve().parents[1]
BINARY = str(ROOT / "target" / "release" / "rafle")
RAFLE_NAME = {"standard": "international", "english": "checkers", "frysk!": "frisian"}
HUB_NAME = {"standard": "normal", "breakthrough": "bt", "antidraughts": "losing", "frysk!": "frisian"}
MAX_PLIES = 400


def hub(variant: str, player: str, seed: int) -> HubEngine:
    e = HubEngine([BINARY, "hub", "--player", player, "--seed", str(seed)])
    e.configure({"variant": HUB_NAME.get(variant, variant)})
    e.init()
    return e


def close(e: HubEngine) -> None:
    e.quit()
    e.kill_process()


def close_dxp(e: DXPEngine) -> None:
    """DXPEngine.quit without its 7 s sleep before closing the socket."""
    s = e.sender.socket
    if s.sock is not None and not s.closed:
        s.closed = True
        s.sock.shutdown(socket.SHUT_RDWR)
        s.sock.close()
    e.sender.receiver.receive_thread.join(timeout=5)


def hub_games(variant: str, player: str, games: int) -> tuple[float, int]:
    a, b = hub(variant, player, 1), hub(variant, player, 2)
    plies = 0
    t = time.perf_counter()
    for g in range(games):
        a.send("new-game")
        b.send("new-game")
        board = draughts.Board(variant)
        white, black = (a, b) if g % 2 == 0 else (b, a)
        while not board.is_over() and len(board.move_stack) < MAX_PLIES:
            e = white if board.turn == draughts.WHITE else black
            board.push(e.play(board, Limit(movetime=10), False).move)
        plies += len(board.move_stack)
    wall = time.perf_counter() - t
    close(a)
    close(b)
    return wall, plies


def dxp_games(variant: str, player: str, games: int) -> tuple[float, int]:
    follower = subprocess.Popen(
        [BINARY, "dxp", "--listen", "0", "--variant", RAFLE_NAME.get(variant, variant), "--player", player],
        stderr=subprocess.PIPE,
        text=True,
    )
    assert follower.stderr is not None
    port = int(follower.stderr.readline().split("127.0.0.1:")[1].split()[0])
    drain = threading.Thread(target=follower.stderr.read, daemon=True)
    drain.start()
    other = hub(variant, player, 2)
    plies = 0
    t = time.perf_counter()
    for _ in range(games):
        other.send("new-game")
        board = draughts.Board(variant)
        dxp = DXPEngine(None, {"engine-opened": True, "ip": "127.0.0.1", "port": port}, initial_time=600)
        dxp_side = board.turn
        while not board.is_over() and len(board.move_stack) < MAX_PLIES:
            if board.turn == dxp_side:
                move = dxp.play(board).move
            else:
                move = other.play(board, Limit(movetime=10), False).move
            board.push(move)
        close_dxp(dxp)
        plies += len(board.move_stack)
    wall = time.perf_counter() - t
    close(other)
    follower.kill()
    follower.wait()
    drain.join(timeout=5)
    follower.stderr.close()
    return wall, plies


def in_process(variant: str, player: str, games: int) -> tuple[float, int]:
    t = time.perf_counter()
    m = rafle.evaluate(
        player,
        player,
        variant=RAFLE_NAME.get(variant, variant),
        games=games,
        opening_plies=0,
        max_plies=MAX_PLIES,
        threads=1,
        progress=False,
    )
    wall = time.perf_counter() - t
    plies = sum(int(line.split('"')[1]) for line in m.pdn.splitlines() if line.startswith("[PlyCount"))
    return wall, plies


def stop_latency(stops: int) -> list[float]:
    p = subprocess.Popen([BINARY, "hub"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
    assert p.stdin is not None and p.stdout is not None

    def send(line: str) -> float:
        p.stdin.write(line + "\n")  # type: ignore[union-attr]
        p.stdin.flush()  # type: ignore[union-attr]
        return time.perf_counter()

    def until(word: str) -> float:
        for line in p.stdout:  # type: ignore[union-attr]
            if line.split()[:1] == [word]:
                return time.perf_counter()
        raise EOFError(word)

    send("hub")
    until("wait")
    send("init")
    until("ready")
    rng = random.Random(0)
    out = []
    start = "W" + "b" * 20 + "e" * 10 + "w" * 20
    for _ in range(stops):
        send(f"pos pos={start}")
        send("level move-time=30")
        send("go think")
        time.sleep(rng.uniform(0.05, 0.3))
        sent = send("stop")
        out.append(until("done") - sent)
    send("quit")
    p.wait()
    p.stdin.close()
    p.stdout.close()
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--variant", default="standard", help="pydraughts' name")
    ap.add_argument("--player", default="alphabeta:2")
    ap.add_argument("--stops", type=int, default=100)
    a = ap.parse_args()
    print(f"{a.variant}, {a.player} against itself, {a.games} games")
    print("| path | wall | plies/game | games/min | plies/s |")
    print("|---|---|---|---|---|")
    for name, run in [("in-process", in_process), ("Hub (pydraughts HubEngine)", hub_games), ("DXP (pydraughts DXPEngine)", dxp_games)]:
        wall, plies = run(a.variant, a.player, a.games)
        print(f"| {name} | {wall:.1f} s | {plies / a.games:.0f} | {a.games / wall * 60:.0f} | {plies / wall:.0f} |")
        sys.stdout.flush()
    if a.stops:
        lat = sorted(stop_latency(a.stops))
        ms = [x * 1000 for x in lat]
        print(
            f"stop latency over {a.stops} stops: median {statistics.median(ms):.2f} ms, "
            f"90th {ms[int(0.9 * len(ms)) - 1]:.2f} ms, worst {ms[-1]:.2f} ms"
        )


if __name__ == "__main__":
    main()
