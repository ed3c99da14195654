"""Timeseries page: lines equal the stored history; the chip band and outliers are computed from it."""

from __future__ import annotations

from datetime import timedelta

import pandas as pd
import pytest

from copilot_core.domain.metrics import metric
from copilot_core.domain.topology import qubit_label
from tests.expected import robust_band, shown
from tests.pages.conftest import decode, figures, texts
from ui.widgets import metric_label

PAGE = "pages/timeseries.py"


def history(app_repo, chip, name, days):
    rows = app_repo.chip_parameter_timeseries(chip["chip_id"], name,
                                              since=chip["last_execution_at"] - timedelta(days=days))
    return [(r["qid"], r["calibrated_at"], shown(name, r["value"])) for r in rows
            if shown(name, r["value"]) is not None]


def test_lines_band_and_outliers_equal_the_history(open_page, app_repo, demo_chip):
    at = open_page(PAGE)
    assert at.selectbox(key="_w_timeseries_metric").value == "t1"
    assert at.selectbox(key="_w_timeseries_days").value == 30
    picked = ["3", "5", "70"]
    at.multiselect(key="_w_timeseries_qubits").set_value(picked).run()
    assert not at.exception
    fig = figures(at)["timeseries_chart"]
    rows = history(app_repo, demo_chip, "t1", 30)
    size = demo_chip["size"]
    for qid in picked:
        line = next(t for t in fig["data"] if t.get("name") == qubit_label(qid, size))
        expected = sorted((t, v) for q, t, v in rows if q == qid)
        assert decode(line["y"]) == pytest.approx([v for _, v in expected])
    assert {t.get("name") for t in fig["data"]} >= {qubit_label(q, size) for q in picked}
    assert not any(t.get("name") == qubit_label("4", size) for t in fig["data"])  # not picked, not drawn

    frame = pd.DataFrame(rows, columns=["qid", "at", "value"])
    medians = frame.groupby(frame["at"].dt.floor("D"))["value"].median()  # every qubit, not only the picked
    median_line = next(t for t in fig["data"] if t.get("name") == "chip median")
    assert decode(median_line["y"]) == pytest.approx(list(medians))

    expected_outliers = 0
    for qid in picked:
        values = [v for q, _, v in rows if q == qid]
        bounds = robust_band(values, 3.0)
        if bounds:
            expected_outliers += sum(v < bounds[0] or v > bounds[1] for v in values)
    marked = next((t for t in fig["data"] if t.get("name") == "outlier"), None)
    assert (0 if marked is None else len(decode(marked["y"]))) == expected_outliers
    assert any(f"{expected_outliers} outlier" in t for t in texts(at)) or expected_outliers == 0


def test_parameter_without_history_says_so(open_page, app_repo, demo_chip):
    at = open_page(PAGE)
    empty = next(n for n in ("x180_gate_fidelity", "t1_average", "average_gate_fidelity")
                 if not history(app_repo, demo_chip, n, 30))
    options = at.selectbox(key="_w_timeseries_metric").options
    if metric_label(empty) in options:  # it has a latest value, only no history in the window
        at.selectbox(key="_w_timeseries_metric").set_value(empty).run()
        assert not at.exception
        assert any(f"No {metric(empty).title} values on {demo_chip['chip_id']}" in t for t in texts(at))
    else:  # no value on the chip at all: not offered
        assert not app_repo.metric_values(demo_chip["chip_id"], empty)


def test_two_people_share_the_chip_frame_but_never_their_picks(open_page, app_repo, demo_chip):
    """The chip's frame is built once for everyone (one process cache); what one person picks and sees stays
    theirs, whatever the other does in between."""
    size = demo_chip["size"]
    alice = open_page(PAGE)
    alice.multiselect(key="_w_timeseries_qubits").set_value(["3"]).run()
    bob = open_page(PAGE)
    bob.multiselect(key="_w_timeseries_qubits").set_value(["70"]).run()
    alice.run()
    assert not alice.exception and not bob.exception

    frame = pd.DataFrame(history(app_repo, demo_chip, "t1", 30), columns=["qid", "at", "value"])
    medians = list(frame.groupby(frame["at"].dt.floor("D"))["value"].median())
    for at, own, other in ((alice, "3", "70"), (bob, "70", "3")):
        fig = figures(at)["timeseries_chart"]
        names = {t.get("name") for t in fig["data"]}
        assert qubit_label(own, size) in names and qubit_label(other, size) not in names
        line = next(t for t in fig["data"] if t.get("name") == qubit_label(own, size))
        assert decode(line["y"]) == pytest.approx(list(frame[frame["qid"] == own].sort_values("at")["value"]))
        median_line = next(t for t in fig["data"] if t.get("name") == "chip median")
        assert decode(median_line["y"]) == pytest.approx(medians)  # the whole chip's band for both
