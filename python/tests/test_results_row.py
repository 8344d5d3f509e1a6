"""tools/results_row.py, the rows of configs/results/<variant>.tsv: every
row names its machine, and a file written before a column existed gets it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import BINARY, ROOT

sys.path.insert(0, str(ROOT / "tools"))
import results_row as R  # noqa: E402

SCRIPT = ROOT / "tools" / "results_row.py"


def test_the_machine_label_is_what_ab_sh_reads() -> None:
    r = subprocess.run([sys.executable, str(SCRIPT), "--machine"], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    label = r.stdout.strip()
    assert label == R.machine() and "\t" not in label and "\n" not in label
    assert label.endswith(("bf16", "no fast bf16")) and " cores, " in label


def test_an_older_header_gets_the_new_columns(tmp_path: Path) -> None:
    out = tmp_path / "thai.tsv"
    old = R.COLUMNS[:-1]
    out.write_text("\t".join(old) + "\n" + "\t".join(f"x{i}" for i in range(len(old))) + "\n")
    row = [f"y{i}" for i in range(len(R.COLUMNS))]
    R.append(out, row)
    lines = [line.split("\t") for line in out.read_text().splitlines()]
    assert lines[0] == R.COLUMNS
    assert lines[1] == [f"x{i}" for i in range(len(old))] + [""]
    assert lines[2] == row
    R.append(tmp_path / "new.tsv", row)
    assert (tmp_path / "new.tsv").read_text().splitlines() == ["\t".join(R.COLUMNS), "\t".join(row)]


def test_a_file_of_other_columns_is_refused(tmp_path: Path) -> None:
    out = tmp_path / "thai.tsv"
    out.write_text("when\twhat\n1\t2\n")
    with pytest.raises(ValueError, match="not a start of"):
        R.append(out, ["1"] * len(R.COLUMNS))
    assert out.read_text() == "when\twhat\n1\t2\n"


STAT = """cpu  100 5 20 800 10 0 5 60 7 0
cpu0 50 2 10 400 5 0 2 30 7 0
intr 12345
"""


def test_steal_is_the_hosts_share_of_the_cpu_time_between_two_readings() -> None:
    # user nice system idle iowait irq softirq steal; guest (7) is inside user.
    assert R.cpu_ticks(STAT) == (60, 1000)
    assert R.cpu_ticks("intr 1\n") == (0, 0)
    assert R.steal_pct("60 1000", "110 1200") == "25.0"
    assert R.steal_pct("60 1000", "60 1000") == ""
    with pytest.raises(ValueError, match="two integers"):
        R.steal_pct("60", "110 1200")


def test_cpu_ticks_prints_the_counters_that_the_row_takes() -> None:
    r = subprocess.run([sys.executable, str(SCRIPT), "--cpu-ticks"], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    steal, total = (int(x) for x in r.stdout.split())
    assert 0 <= steal <= total
    assert R.steal_pct(r.stdout, f"{steal} {total + 100}") == "0.0"


def test_a_row_carries_the_steal_of_its_training(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run = tmp_path / "B-seed1"
    run.mkdir()
    (run / "latest.json").write_text('{"variant": "thai", "iteration": 24, "games": 2000, "elapsed_s": 300}')
    (run / "metrics.csv").write_text("step,name,value\n1,selfplay/game_length,60\n2,selfplay/game_length,64\n")
    ladder = tmp_path / "B-seed1.ladder.txt"
    ladder.write_text("model: 200 games against 6 rungs\nelo 1487 [1440, 1534]\n")
    out = tmp_path / "thai.tsv"
    if not BINARY.is_file():
        pytest.skip(f"{BINARY} not built (cargo build --release -p rafle-zero)")
    arm = ROOT / "configs" / "results" / "thai" / "net-depth.toml"
    args = ["--run", str(run), "--ladder", str(ladder), "--config", str(arm), "--lever", "x",
            "--arm", "B", "--seed", "1", "--budget", "5", "--out", str(out)]
    assert R.main(args + ["--ticks-before", "60 1000", "--ticks-after", "110 1200"]) == 0
    assert "warning: the host took 25.0%" in capsys.readouterr().err
    assert R.main(args) == 0
    rows = [dict(zip(R.COLUMNS, line.split("\t"))) for line in out.read_text().splitlines()[1:]]
    assert [r["steal_pct"] for r in rows] == ["25.0", ""]
    assert rows[0]["config_sha"] == R.config_sha(arm, BINARY)
    assert rows[0]["iterations"] == "24" and rows[0]["plies_per_game"] == "62.0" and rows[0]["ladder_elo"] == "1487"
    assert R.main(args + ["--ticks-before", "60", "--ticks-after", "110 1200"]) == 1
    assert "two integers" in capsys.readouterr().err


def test_the_config_sha_hashes_the_settings_not_the_file(tmp_path: Path) -> None:
    if not BINARY.is_file():
        pytest.skip(f"{BINARY} not built (cargo build --release -p rafle-zero)")
    arm = ROOT / "configs" / "results" / "thai" / "net-depth.toml"
    whole = tmp_path / "whole.toml"
    printed = subprocess.run([str(BINARY), "config", str(arm)], capture_output=True, text=True, check=True).stdout
    whole.write_text("# the same settings, written out\n" + printed)
    recipe = R.config_sha(ROOT / "configs" / "thai.toml", BINARY)
    assert R.config_sha(arm, BINARY) == R.config_sha(whole, BINARY) != recipe
    r = subprocess.run([sys.executable, str(SCRIPT), "--config-sha", str(arm)], capture_output=True, text=True,
                       env={**os.environ, "RAFLE": str(BINARY)})
    assert r.returncode == 0 and r.stdout.strip() == R.config_sha(arm, BINARY), r.stderr
    with pytest.raises(ValueError, match="rafle config"):
        R.config_sha(tmp_path / "missing.toml", BINARY)
