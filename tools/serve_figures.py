"""Screenshots and figures of `rafle serve` in headless Chromium (the
browser tests' setup): docs/serve-play.png, docs/serve-inspect.png,
docs/serve-watch.png, and the figures of docs/how-to/browser.md: page load time, the
server's memory (RSS), and the time from a click to the engine's answer.

    python tools/serve_figures.py [--shots] [--figures] [--plies 8]

Needs target/release/rafle, chromium, chromedriver and selenium."""

from __future__ import annotations

import argparse
import shutil
import socket
import statistics
import subprocess
import time
from pathlib import Path
from typing import Any

from selenium import webdriver
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

ROOT = Path(__file__).resolve().parents[1]
BINARY = ROOT / "target" / "release" / "rafle"
DOCS = ROOT / "docs"


def browser(width: int = 1250, height: int = 1000) -> Any:
    opts = webdriver.ChromeOptions()
    opts.binary_location = shutil.which("chromium") or "chromium"
    for a in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
              f"--window-size={width},{height}", "--hide-scrollbars"):
        opts.add_argument(a)
    d = webdriver.Chrome(options=opts, service=webdriver.ChromeService(shutil.which("chromedriver")))
    d.set_script_timeout(120)
    return d


def port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start(args: list[str], url_on: str = "stdout") -> tuple[subprocess.Popen, str]:
    p = subprocess.Popen([str(BINARY), *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = (p.stdout if url_on == "stdout" else p.stderr).readline()  # type: ignore[union-attr]
    return p, line[line.index("http://"):].strip()


def rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def wait(d: Any, script: str, timeout: float = 120) -> Any:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        v = d.execute_script(script)
        if v:
            return v
        time.sleep(0.005)
    raise TimeoutError(script)


def idle(d: Any) -> Any:
    return wait(d, "return window.rafle && window.rafle.state && "
                   "document.getElementById('stop').disabled && window.rafle.state")


def click_sq(d: Any, s: int) -> None:
    """Clicks square s (again if the board was redrawn under the click)."""
    for _ in range(20):
        try:
            d.find_element(By.CSS_SELECTOR, f'#overlay rect[data-square="{s}"]').click()
            return
        except StaleElementReferenceException:
            time.sleep(0.01)
    raise RuntimeError(f"cannot click square {s}")


def click_move(d: Any, move: dict[str, Any]) -> None:
    for s in move["path"]:
        ply = d.execute_script("return window.rafle.state.ply")
        click_sq(d, s)
        if d.execute_script("return window.rafle.state.ply") != ply:
            break


def latency(spec: str, variant: str, plies: int) -> dict[str, float]:
    """Click-to-answer: from the click that completes the human's move to
    the engine's move on the board; the page load; the server's RSS."""
    p, url = start(["serve", "--port", str(port()), "--variant", variant, "--player", spec])
    d = browser()
    try:
        t = time.perf_counter()
        d.get(url)
        idle(d)
        load = time.perf_counter() - t
        nav = d.execute_script("const n = performance.getEntriesByType('navigation')[0];"
                               "return n.loadEventEnd - n.startTime;")
        Select(d.find_element(By.ID, "white")).select_by_value("human")
        Select(d.find_element(By.ID, "black")).select_by_value(spec)
        d.find_element(By.ID, "new").click()
        times = []
        rss_start = rss_mib(p.pid)
        for _ in range(plies):
            st = idle(d)
            if st["outcome"]:
                break
            if st["turn"] != "white":
                continue
            ply = st["ply"]
            m = st["legal"][0]
            *first, last = m["path"]
            for s in first:
                click_sq(d, s)
            t = time.perf_counter()
            click_sq(d, last)
            wait(d, f"return window.rafle.state.ply >= {ply + 2} || window.rafle.state.outcome")
            times.append(time.perf_counter() - t)
        return {"load_s": load, "load_event_ms": nav, "median_click_to_answer_s": statistics.median(times),
                "max_click_to_answer_s": max(times), "moves": len(times),
                "rss_start_mib": rss_start, "rss_end_mib": rss_mib(p.pid)}
    finally:
        d.quit()
        p.terminate()
        p.wait()


def shots() -> None:
    DOCS.mkdir(exist_ok=True)
    p, url = start(["serve", "--port", str(port()), "--variant", "thai", "--player", "zoo:thai:64",
                    "--player", "alphabeta:6"])
    d = browser()
    try:
        d.get(url)
        idle(d)
        Select(d.find_element(By.ID, "white")).select_by_value("human")
        Select(d.find_element(By.ID, "black")).select_by_value("zoo:thai:64")
        d.find_element(By.ID, "new").click()
        for _ in range(12):
            st = idle(d)
            if st["turn"] == "white":
                click_move(d, max(st["legal"], key=lambda m: (len(m["captured"]), m["move"])))
        st = idle(d)
        # A piece selected: its legal destinations marked.
        movers = sorted({m["path"][0] for m in st["legal"]})
        click_sq(d, movers[-1])
        time.sleep(0.3)
        d.save_screenshot(str(DOCS / "serve-play.png"))
        click_sq(d, movers[-1])
        Select(d.find_element(By.ID, "inspect-player")).select_by_value("zoo:thai:64")
        d.find_element(By.ID, "inspect").click()
        wait(d, "return document.querySelectorAll('#inspect-out tr[data-p]').length")
        time.sleep(0.3)
        d.save_screenshot(str(DOCS / "serve-inspect.png"))
    finally:
        d.quit()
        p.terminate()
        p.wait()
    wport = port()
    e, url = start(["eval", "--variant", "thai", "--a", "alphabeta:t=0.2s", "--b", "uct:200", "--games", "4",
                    "--threads", "4", "--quiet", "--watch", str(wport)], url_on="stderr")
    d = browser(1250, 760)
    try:
        d.get(url)
        wait(d, "return document.querySelectorAll('.wboard').length >= 4")
        time.sleep(0.8)
        d.save_screenshot(str(DOCS / "serve-watch.png"))
        wait(d, "return document.body.dataset.done")
    finally:
        d.quit()
        e.wait()


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--shots", action="store_true")
    ap.add_argument("--figures", action="store_true")
    ap.add_argument("--plies", type=int, default=8)
    a = ap.parse_args()
    if a.shots:
        shots()
    if a.figures:
        for spec in ("alphabeta:4", "zoo:thai:64"):
            print(spec, latency(spec, "thai", a.plies), flush=True)


if __name__ == "__main__":
    main()
