"""The chart cost budgets: each costly chart is refused by the guard named in the corpus, each chart just under a
budget is accepted (Chromium draws those in tests/e2e/test_chart_cost_e2e.py)."""

from __future__ import annotations

import pytest

from copilot_core.render_safety import figures
from copilot_core.render_safety.figure_limits import UnsafeFigure
from copilot_core.render_safety.figures import validate_figure
from tests.render_safety.costly_charts import ACCEPTED, REFUSED, CostlyChart


@pytest.mark.parametrize("case", REFUSED, ids=[c.name for c in REFUSED])
def test_a_costly_chart_is_refused_by_its_budget(case: CostlyChart):
    figures.forget()
    with pytest.raises(UnsafeFigure) as refused:
        validate_figure(case.chart)
    assert case.refused in str(refused.value), str(refused.value)


@pytest.mark.parametrize("case", ACCEPTED, ids=[c.name for c in ACCEPTED])
def test_a_chart_under_every_budget_is_accepted(case: CostlyChart):
    figures.forget()
    checked = validate_figure(case.chart)
    assert len(checked["data"]) == len(case.chart["data"])


def test_the_corpus_reaches_every_budget():
    words = " ".join(c.refused for c in REFUSED)
    for guard in ("declares", "dimensions", "tags or line breaks", "nests style tags", "line breaks and style tags",
                  "too long to draw", "bandwidth", "bins along", "heatmap/image cells", "contour levels",
                  "contour cell-levels", "legend entry", "animated images", "pixels", "the limit is 2,500",
                  "the limit is 20,000"):
        assert guard in words, guard


def test_a_chart_is_hashed_as_exactly_its_json_text_in_pieces():
    """The digest that remembers verdicts is taken over pieces whose concatenation is ``json.dumps`` of the chart
    (keys of every kind, long lists split, lists of objects), so two charts share a verdict only if their JSON is
    the same."""
    import json

    from copilot_core.render_safety.figures import _PIECE_ITEMS, _json_pieces

    charts = [c.chart for c in REFUSED + ACCEPTED] + [
        {"a": {1: [1, {"b": [2.5] * (_PIECE_ITEMS * 2 + 3)}], 2.5: True, None: {"c": [[1] * (_PIECE_ITEMS + 1), "x"]}}},
        {"data": [{"y": [float("nan"), 1e308, -0.0]}], "layout": {}}, [], {}, {"a": {}}, [[], [{}]]]
    for chart in charts:
        pieces = list(_json_pieces(chart))
        assert "".join(pieces) == json.dumps(chart, allow_nan=True)
        assert all(p.count(",") <= _PIECE_ITEMS for p in pieces)  # no piece encodes more than a slice of a list
