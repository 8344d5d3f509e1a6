"""scripts/results_row.py, the rows of configs/results/<variant>.tsv: every
row names its machine, and a file written before a column existed gets it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT

sys.path.insert(0, str(ROOT / "scripts"))
import results_row as R  # noqa: E402

SCRIPT = ROOT / "scripts" / "results_row.py"


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
