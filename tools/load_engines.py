"""Load runs of rafle's protocol ends (docs/how-to/reliability.md), memory and
open descriptors sampled from /proc twice a second:

    .venv/bin/python tools/load_engines.py dxp --games 1000           # rafle dxp --listen, rafle eval as initiator
    .venv/bin/python tools/load_engines.py dxp --games 1000 --attack  # the same under 100 hostile connections
    .venv/bin/python tools/load_engines.py hub --games 1000           # rafle eval over hub:rafle hub

dxp: a `rafle dxp --listen` follower (alpha-beta, depth 1) plays `--games`
games of 60 plies at most against `rafle eval --b dxp:...` with four
connections at once; the follower's RSS and descriptors are sampled.
--attack adds what crates/rafle-engine/tests/attack.rs does, for the whole
run: 40 idle connections, 30 sending a game request a byte a second, 30
reconnecting every 100 ms with bad messages. hub: `rafle eval` plays over
`hub:rafle hub` (four engine processes); the eval process is sampled.
Prints games per minute and the samples' first, lowest, highest and last.
"""

from __future__ import annotations

import argparse
import os
import re
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BINARY = str(ROOT / "target" / "release" / "rafle")


def sample(pid: int, out: list, stop: threading.Event) -> None:
    while not stop.is_set():
        try:
            status = Path(f"/proc/{pid}/status").read_text()
            rss = int(re.search(r"VmRSS:\s+(\d+)", status).group(1)) / 1024
            threads = int(re.search(r"Threads:\s+(\d+)", status).group(1))
            fds = len(os.listdir(f"/proc/{pid}/fd"))
        except (OSError, AttributeError):
            return
        out.append((time.time(), rss, fds, threads))
        stop.wait(0.5)


HOSTILE = [
    b"C" * (1 << 20),
    bytes(range(128, 256)) + b"\0",
    b"M00\0",
    b"M0000322800\0",
    b"K0\0",
    b"\0\0X\0",
]


def attack(port: int, stop: threading.Event, counts: dict) -> list:
    threads = []
    idle = [socket.create_connection(("127.0.0.1", port)) for _ in range(40)]
    slow = [socket.create_connection(("127.0.0.1", port)) for _ in range(30)]

    def slow_loop() -> None:
        request, at = b"R01slow", 0
        while not stop.wait(1.0):
            for s in slow:
                try:
                    s.send(request[at % len(request) : at % len(request) + 1])
                    counts["slow_bytes"] += 1
                except OSError:
                    pass
            at += 1

    def hostile_loop(k: int) -> None:
        while not stop.is_set():
            data = HOSTILE[k % len(HOSTILE)]
            k += 1
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=30) as s:
                    try:
                        s.sendall(data)
                    except OSError:
                        pass
                    while s.recv(4096):
                        pass
            except OSError:
                pass
            counts["hostile"] += 1
            counts["hostile_bytes"] += len(data)
            # 30 threads: some 250 connections a second, under what loopback's
            # ports allow (28,000 in TIME_WAIT for a minute).
            stop.wait(0.1)

    threads.append(threading.Thread(target=slow_loop, daemon=True))
    threads += [threading.Thread(target=hostile_loop, args=(k,), daemon=True) for k in range(30)]
    for t in threads:
        t.start()
    return idle + slow


def summary(name: str, samples: list) -> str:
    if not samples:
        return f"{name}: no samples"
    rss = [s[1] for s in samples]
    fds = [s[2] for s in samples]
    thr = [s[3] for s in samples]
    return (
        f"{name}: {len(samples)} samples; RSS MiB first {rss[0]:.1f} min {min(rss):.1f} max {max(rss):.1f} "
        f"last {rss[-1]:.1f}; fds first {fds[0]} min {min(fds)} max {max(fds)} last {fds[-1]}; "
        f"threads max {max(thr)} last {thr[-1]}"
    )


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("kind", choices=["dxp", "hub"])
    p.add_argument("--games", type=int, default=1000)
    p.add_argument("--attack", action="store_true")
    a = p.parse_args()
    stop = threading.Event()
    samples: list = []
    counts = {"slow_bytes": 0, "hostile": 0, "hostile_bytes": 0}
    common = ["--variant", "international", "--a", "random", "--games", str(a.games), "--max-plies", "60",
              "--threads", "4", "--engine-concurrency", "4"]
    if a.kind == "dxp":
        server = subprocess.Popen([BINARY, "dxp", "--listen", "0", "--variant", "international", "--player",
                                   "alphabeta:1"], stderr=subprocess.PIPE, text=True)
        port = int(re.search(r":(\d+) ", server.stderr.readline()).group(1))
        # The follower logs a line per game and per closed connection.
        threading.Thread(target=lambda: [None for _ in server.stderr], daemon=True).start()
        threading.Thread(target=sample, args=(server.pid, samples, stop), daemon=True).start()
        keep = attack(port, stop, counts) if a.attack else []
        time.sleep(1.0)
        t = time.time()
        done = subprocess.run([BINARY, "eval", *common, "--b", f"dxp:127.0.0.1:{port}", "--engine-level", "time=60"],
                              capture_output=True, text=True)
        seconds = time.time() - t
        stop.set()
        server.terminate()
        server.wait()
        del keep
    else:
        ev = subprocess.Popen([BINARY, "eval", *common, "--b", f"hub:{BINARY} hub --player alphabeta:1",
                               "--engine-level", "depth=1"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        threading.Thread(target=sample, args=(ev.pid, samples, stop), daemon=True).start()
        t = time.time()
        out, err = ev.communicate()
        seconds = time.time() - t
        stop.set()
        done = subprocess.CompletedProcess(ev.args, ev.returncode, out, err)
    if done.returncode != 0:
        print(done.stdout[-2000:], done.stderr[-2000:], file=sys.stderr)
        return 1
    played = re.search(r"^random\s+(\d+)\s+(\d+)\s+(\d+)", done.stdout, re.M)
    games = sum(int(x) for x in played.groups()) if played else -1
    print(f"{a.kind}{' under attack' if a.attack else ''}: {games} games in {seconds:.1f} s, "
          f"{games / seconds * 60:.0f} games/min")
    if a.attack:
        print(f"attack: 100 connections held; {counts['hostile']} hostile connections, "
              f"{counts['hostile_bytes'] / 1e6:.0f} MB sent; {counts['slow_bytes']} slow bytes")
    print(summary("rafle dxp --listen" if a.kind == "dxp" else "rafle eval (hub client)", samples))
    step = max(1, len(samples) // 8)
    print("  over time (s, RSS MiB, fds):", ", ".join(
        f"({s[0] - samples[0][0]:.0f}, {s[1]:.0f}, {s[2]})" for s in samples[::step]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
