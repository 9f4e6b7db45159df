"""No long pauses (issue 8, item 5): the collector is tuned after start-up, and timed."""

from __future__ import annotations

import gc
import json
from pathlib import Path

from dineri.server import gcpause
from tests.server.harness import Server


def test_pauses_are_timed_by_generation() -> None:
    pauses = gcpause.Pauses()
    pauses.install()
    try:
        gc.collect()
        gc.collect(0)
    finally:
        pauses.remove()
    summary = pauses.summary()
    assert summary["collections"] >= 2
    assert summary["by_generation"][2] >= 1 and summary["by_generation"][0] >= 1
    assert 0 < summary["max_ms"] <= summary["total_ms"]
    assert pauses not in gc.callbacks


def test_tune_freezes_what_is_alive_and_raises_the_thresholds() -> None:
    before = gc.get_threshold()
    try:
        gcpause.tune((12_345, 11, 77))
        assert gc.get_threshold() == (12_345, 11, 77)
        assert gc.get_freeze_count() > 1000  # every module, class and function loaded so far
    finally:
        gc.unfreeze()
        gc.set_threshold(*before)


def _lines(log: Path, msg: str) -> list[dict]:
    out = []
    for line in log.read_text(errors="replace").splitlines():
        try:
            doc = json.loads(line)
        except ValueError:
            continue
        if isinstance(doc, dict) and doc.get("msg") == msg:
            out.append(doc)
    return out


def test_the_server_tunes_after_start_up_and_reports_its_pauses(tmp_path: Path) -> None:
    srv = Server(f"sqlite:///{tmp_path / 'gc.db'}")
    srv.log_path = tmp_path / "server.log"
    srv.start()
    srv.stop()
    tuned = _lines(srv.log_path, "gc tuned")
    assert tuned and tuned[-1]["frozen"] > 1000 and tuned[-1]["thresholds"] == list(gcpause.THRESHOLDS)
    report = _lines(srv.log_path, "gc pauses")
    assert report and report[-1]["tuned"] is True
    # Counted from after tune(): its own full collection is not a pause of serving.
    assert report[-1]["by_generation"][2] == 0


def test_the_setting_turns_tuning_off(tmp_path: Path) -> None:
    srv = Server(f"sqlite:///{tmp_path / 'gc.db'}", DINERI_GC_TUNING="0")
    srv.log_path = tmp_path / "server.log"
    srv.start()
    srv.stop()
    assert not _lines(srv.log_path, "gc tuned")
    assert _lines(srv.log_path, "gc pauses")[-1]["tuned"] is False
