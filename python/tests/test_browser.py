"""rafle serve in a real browser: Debian's headless Chromium driven by
Selenium (scripts/setup.sh installs both). A game played by clicks against
`random` in an 8x8 and a 10x10 variant (a multi-capture clicked landing by
landing), a FEN set up and its pieces seen, a model's policy in the inspect
view (one probability per legal move, summing to one), and a two-game
`rafle eval --watch` followed to its end. Skipped, with the reason, where
Chromium, its driver or Selenium is missing."""

from __future__ import annotations

import json
import shutil
import socket
import subprocess
import time
import urllib.request
from pathlib import Path
from typing import Any, Callable, Iterator

import pytest

from conftest import BINARY

webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is not installed")
from selenium.common.exceptions import StaleElementReferenceException  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import Select  # noqa: E402

WAIT = 30.0  # seconds any one thing may take


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    driver_path = shutil.which("chromedriver")
    if not chromium or not driver_path:
        pytest.skip("chromium or chromedriver is not installed (scripts/setup.sh installs them)")
    opts = webdriver.ChromeOptions()
    opts.binary_location = chromium
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--window-size=1300,1000"):
        opts.add_argument(arg)
    try:
        driver = webdriver.Chrome(options=opts, service=webdriver.ChromeService(driver_path))
    except Exception as e:  # noqa: BLE001 - any failure to start is a skip
        pytest.skip(f"chromium cannot start: {str(e).splitlines()[0]}")
    driver.set_script_timeout(WAIT)
    yield driver
    driver.quit()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Rafle:
    """A `rafle` process serving a page; its URL once printed."""

    def __init__(self, args: list[str], url_on: str = "stdout") -> None:
        if not BINARY.is_file():
            pytest.skip(f"{BINARY} not built (cargo build --release -p rafle-zero)")
        self.proc = subprocess.Popen([str(BINARY), *args], stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True)
        stream = self.proc.stdout if url_on == "stdout" else self.proc.stderr
        assert stream is not None
        line = stream.readline()
        assert "http://" in line, f"no URL from rafle {args}: {line!r}"
        self.url = line[line.index("http://"):].strip()

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
        self.proc.wait(timeout=WAIT)


@pytest.fixture
def serve() -> Iterator[Callable[..., Rafle]]:
    started: list[Rafle] = []

    def start(*args: str) -> Rafle:
        r = Rafle(["serve", "--port", str(free_port()), *args])
        started.append(r)
        return r

    yield start
    for r in started:
        r.stop()


def wait_for(what: Callable[[], Any], message: str) -> Any:
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        got = what()
        if got:
            return got
        time.sleep(0.02)
    raise AssertionError(f"timed out: {message}")


def page_state(d: Any) -> Any:
    return d.execute_script("return window.rafle && window.rafle.state")


def ready(d: Any, ply: int | None = None) -> Any:
    """The page's state once it shows `ply` (any) and no engine is thinking."""
    def done() -> Any:
        st = page_state(d)
        thinking = d.find_element(By.ID, "stop").is_enabled()
        if st and not thinking and (ply is None or st["ply"] == ply):
            return st
        return None
    return wait_for(done, f"the page at ply {ply}")


def click_square(d: Any, s: int) -> None:
    """Clicks square s (again if the board was redrawn under the click)."""
    for _ in range(50):
        try:
            d.find_element(By.CSS_SELECTOR, f'#overlay rect[data-square="{s}"]').click()
            return
        except StaleElementReferenceException:
            time.sleep(0.01)
    raise AssertionError(f"square {s} kept being redrawn")


def click_move(d: Any, move: dict[str, Any]) -> None:
    """Clicks the piece, then each landing square until the move is played.

    A redraw between two clicks (the page's state arriving late on a loaded
    machine) can drop the selection, so the clicks are made again if the move
    is not played within a few seconds.
    """
    ply = page_state(d)["ply"]
    for _ in range(3):
        click_square(d, move["path"][0])
        for s in move["path"][1:]:
            click_square(d, s)
            if page_state(d)["ply"] != ply:
                break
        deadline = time.monotonic() + 5.0
        while time.monotonic() < deadline:
            if page_state(d)["ply"] > ply:
                return
            time.sleep(0.02)
    raise AssertionError(f"timed out: move {move['move']} played")


def pieces_on_board(d: Any) -> dict[int, str]:
    """What the board's squares hold (read in one go: the board may be redrawn)."""
    got = d.execute_script(
        "return [...document.querySelectorAll('#overlay rect[data-square]')]"
        ".filter(r => r.dataset.piece).map(r => [r.dataset.square, r.dataset.piece]);")
    return {int(s): p for s, p in got}


def set_fen(d: Any, fen: str) -> Any:
    box = d.find_element(By.ID, "fen")
    box.clear()
    box.send_keys(fen)
    d.find_element(By.ID, "set-fen").click()
    want = expected_pieces(fen)
    wait_for(lambda: pieces_on_board(d) == want, f"the pieces of {fen} on the board")
    return ready(d, 0)


def expected_pieces(fen: str) -> dict[int, str]:
    """Squares of a numeric FEN like W:W33,K20:B17,28 as the page codes them."""
    out: dict[int, str] = {}
    for part in fen.split(":")[1:]:
        colour = part[0].lower()
        for tok in filter(None, part[1:].split(",")):
            king = tok.startswith("K")
            out[int(tok.lstrip("K"))] = colour.upper() if king else colour
    return out


# A position per board size where White, to move, has a multi-capture, and
# the game ends within a few moves of greedy captures against random.
ENDGAMES = {
    "thai": "W:W22,K30:B18,11,12",
    "international": "W:W33,K46:B28,17,4",
}


@pytest.mark.parametrize("variant", list(ENDGAMES))
def test_a_game_by_clicks_against_random(browser: Any, serve: Callable[..., Rafle], variant: str) -> None:
    d = browser
    r = serve("--variant", variant, "--player", "random")
    d.get(r.url)
    st = ready(d)
    assert st["variant"] == variant
    # White is the human, Black `random`: a few moves from the start.
    for _ in range(2):
        st = ready(d)
        if st["turn"] == "white":
            click_move(d, st["legal"][0])
    # A short game from a set-up position: its pieces, a multi-capture
    # clicked landing by landing, then captures first until the end.
    fen = ENDGAMES[variant]
    st = set_fen(d, fen)
    assert st["turn"] == "white" and st["ply"] == 0
    multi = [m for m in st["legal"] if len(m["path"]) > 2]
    assert multi, f"{fen}: no multi-capture"
    click_move(d, multi[0])
    for _ in range(60):
        st = ready(d)
        if st["outcome"]:
            break
        if st["turn"] == "white":
            best = max(st["legal"], key=lambda m: len(m["captured"]))
            click_move(d, best)
    assert st["outcome"], "the game did not end"
    assert d.find_element(By.ID, "result").text == st["outcome"]["text"]
    # Back through the move list: the first move's position again.
    d.find_elements(By.CSS_SELECTOR, "#moves li")[0].click()
    assert ready(d, 1)["fen"] != st["fen"]


def test_inspect_a_model_policy(browser: Any, serve: Callable[..., Rafle],
                                tiny_run: Callable[[str], Path]) -> None:
    d = browser
    model = tiny_run("thai") / "latest.safetensors"
    r = serve("--variant", "thai", "--player", f"model:{model}:4", "--player", "alphabeta:2")
    d.get(r.url)
    ready(d)
    # Both sides played by hand (Black, thai's first player, was the model).
    Select(d.find_element(By.ID, "black")).select_by_value("human")
    d.find_element(By.ID, "new").click()
    st = ready(d, 0)
    d.find_element(By.ID, "inspect").click()
    rows = wait_for(lambda: d.execute_script(
        "return [...document.querySelectorAll('#inspect-out tr[data-p]')]"
        ".map(r => [r.dataset.move, Number(r.dataset.p)]);"), "the policy table")
    probs = dict(rows)
    assert sorted(probs) == sorted(m["move"] for m in st["legal"])
    assert abs(sum(probs.values()) - 1.0) < 1e-3
    arrows = d.find_elements(By.CSS_SELECTOR, "#overlay polyline.arrow")
    assert len(arrows) == len(st["legal"])
    assert "Network value" in d.find_element(By.ID, "inspect-out").text


def test_watch_a_match_to_its_end(browser: Any) -> None:
    d = browser
    port = free_port()
    # 50 ms a move: the match lasts long enough for the page to join it.
    a = "alphabeta:t=0.05s"
    r = Rafle(["eval", "--variant", "thai", "--a", a, "--b", "random", "--games", "2",
               "--quiet", "--watch", str(port)], url_on="stderr")
    try:
        d.get(r.url)
        wait_for(lambda: d.execute_script("return document.body.dataset.done"), "the match's end")
        boards = d.find_elements(By.CSS_SELECTOR, ".wboard")
        assert len(boards) == 2
        assert all(b.get_attribute("data-result") for b in boards)
        cells = [td.text for td in d.find_elements(By.CSS_SELECTOR, "#scores tbody td")]
        assert cells[:3] == [a, "random", "2"]
        assert a in d.find_element(By.ID, "final").text
        out, _ = r.proc.communicate(timeout=WAIT)
        assert r.proc.returncode == 0 and a in out
    finally:
        r.stop()


def test_api_errors_reach_the_page(browser: Any, serve: Callable[..., Rafle]) -> None:
    d = browser
    r = serve("--variant", "international", "--player", "random")
    d.get(r.url)
    ready(d, 0)  # White, the human, to move
    box = d.find_element(By.ID, "fen")
    box.clear()
    box.send_keys("W:Wnonsense")
    d.find_element(By.ID, "set-fen").click()
    status = d.find_element(By.ID, "status")
    wait_for(lambda: "FEN" in status.text, "the FEN error shown")
    assert "error" in status.get_attribute("class")
    # The page goes on: the start position is still there.
    assert page_state(d)["ply"] == 0
    with urllib.request.urlopen(r.url + "api/info") as f:
        assert json.load(f)["players"] == ["random"]
