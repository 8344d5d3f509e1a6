"""TensorBoard: both trainers write event files next to metrics.csv with the
same names (rafle-train's writer, which `rafle train` and the Python
learner's MetricsFile share); TensorBoard's own reader reads them back."""

from __future__ import annotations

import csv
from pathlib import Path
from typing import Callable

import pytest

import rafle

event_accumulator = pytest.importorskip("tensorboard.backend.event_processing.event_accumulator")


def scalars(run_dir: Path) -> dict[str, list[tuple[int, float]]]:
    acc = event_accumulator.EventAccumulator(str(run_dir), size_guidance={event_accumulator.SCALARS: 0})
    acc.Reload()
    return {tag: [(e.step, e.value) for e in acc.Scalars(tag)] for tag in acc.Tags()["scalars"]}


def test_the_metrics_file_writes_events_tensorboard_reads(tmp_path: Path) -> None:
    m = rafle._rafle.MetricsFile(tmp_path, fresh=True)
    m.log(1, 10, 5.0, {"loss/total": 2.5, "eval/score_vs_alphabeta:d=8,t=1s": 0.25})
    m.log(2, 20, 9.0, {"loss/total": 2.0})
    m.close()
    got = scalars(tmp_path)
    assert got["loss/total"] == [(1, 2.5), (2, 2.0)]
    assert got["eval/score_vs_alphabeta:d=8,t=1s"] == [(1, 0.25)]
    # A fresh start drops the old events with the old csv.
    m = rafle._rafle.MetricsFile(tmp_path, fresh=True)
    m.log(1, 1, 1.0, {"loss/total": 9.0})
    m.close()
    assert scalars(tmp_path)["loss/total"] == [(1, 9.0)]


def test_rafle_train_writes_the_csv_names_as_tensorboard_tags(tiny_run: Callable[[str], Path]) -> None:
    run = tiny_run("thai")
    with open(run / "metrics.csv") as f:
        rows = list(csv.DictReader(f))
    got = scalars(run)
    assert set(got) == {r["name"] for r in rows}
    for name in ["loss/total", "time/selfplay_s"]:
        want = [(int(r["iteration"]), float(r["value"])) for r in rows if r["name"] == name]
        assert [s for s, _ in got[name]] == [s for s, _ in want]
        assert [v for _, v in got[name]] == pytest.approx([v for _, v in want], rel=1e-6)
