"""The chart allowlist on the hostile chart corpus, and the text plotly.js assembles from what it lets through."""

from __future__ import annotations

import itertools
import re

import pytest

from copilot_core.render_safety import UnsafeFigure, validate_figure
from tests.render_safety.corpus import EXFIL, PIXEL
from tests.render_safety.hostile_charts import ACCEPTED, CHARTS, HostileChart

# plotly.js src/lib/svg_text_utils.js: text is split on this, and each piece that matches is a tag.
PLOTLY_TAG = re.compile(r"<[^<>]*>")
BARE = {"<b>", "</b>", "<i>", "</i>", "<em>", "</em>", "<br>", "<br/>", "<br />", "<sub>", "</sub>", "<sup>",
        "</sup>", "<extra>", "</extra>"}
# plotly.js templates: %{name}, %{name[0]}, %{name.key}, %{name:format}, %{name|dateformat}
PLACEHOLDER = re.compile(r"%\{[^}]*\}")


def test_the_corpus_covers_every_class():
    assert len(CHARTS) >= 60 and len(ACCEPTED) >= 6


@pytest.mark.parametrize("case", CHARTS, ids=[c.name for c in CHARTS])
def test_hostile_chart(case: HostileChart):
    if case.refused:
        with pytest.raises(UnsafeFigure) as refused:
            validate_figure(case.chart)
        assert len(str(refused.value)) < 400  # a message the model can read and act on
    else:
        assert validate_figure(case.chart)["data"]


def _strings(node: object) -> list[str]:
    if isinstance(node, str):
        return [node]
    if isinstance(node, dict):
        return [s for k, v in node.items() for s in (*_strings(k), *_strings(v))]
    if isinstance(node, list):
        return [s for v in node for s in _strings(v)]
    return []


def _assembled(template: str, pieces: list[str]) -> list[str]:
    """Every text plotly.js could assemble from ``template`` with any chart string in each placeholder."""
    slots = PLACEHOLDER.findall(template)[:3]
    texts = []
    for fill in itertools.product(pieces, repeat=len(slots)):
        text = template
        for slot, piece in zip(slots, fill):
            text = text.replace(slot, piece, 1)
        texts.append(text)
    return texts


@pytest.mark.parametrize("case", ACCEPTED, ids=[c.name for c in ACCEPTED])
def test_assembled_text_opens_no_tag_but_the_bare_ones(case: HostileChart):
    """Fill every template in the accepted chart with every string the chart holds (meta, customdata, text,
    categories, ...) and split the result as plotly.js does: only bare styling tags come out."""
    strings = _strings(validate_figure(case.chart))
    pieces = [s for s in strings if "%{" not in s][:40]
    for text in strings:
        for assembled in _assembled(text, pieces) if "%{" in text else [text]:
            tags = set(PLOTLY_TAG.findall(assembled))
            assert tags <= BARE, (text, assembled, tags - BARE)


def test_assembled_hostile_pieces_show_as_text():
    """The meta pieces that would spell ``<a href='//exfil...'>`` are drawn, their ``<`` escaped."""
    case = next(c for c in CHARTS if c.name == "tag assembled from meta pieces")
    trace = validate_figure(case.chart)["data"][0]
    assert trace["meta"] == ["&lt;a href='/", f"/{EXFIL}/x'>"]
    assert trace["hovertemplate"] == "%{meta[0]}%{meta[1]}open"


def test_lone_angle_brackets_are_escaped_and_bare_tags_kept():
    out = validate_figure(next(c for c in CHARTS if c.name == "lone angle brackets in data").chart)["data"][0]
    assert out["x"] == ["Q&lt;00", "Q01>"] and out["text"] == ["&lt;", "T1 &lt; 5 us"]
    out = validate_figure(next(c for c in CHARTS if c.name == "allowed bare tags").chart)
    assert out["layout"]["title"]["text"] == "T<sub>1</sub> <em>by</em> qubit<sup>2</sup>"


def test_a_template_styles_only_drawable_charts():
    """A template's map, geo and 3-D sections are dropped (they style nothing that can be drawn); its images
    are not: a template image is drawn on every chart."""
    fig = {"data": [{"type": "bar", "y": [1]}], "layout": {"template": {
        "data": {"scattergeo": [{"marker": {"size": 3}}], "bar": [{"marker": {"color": "#123456"}}]},
        "layout": {"geo": {"showland": True}, "font": {"family": "Arial"}}}}}
    assert validate_figure(fig)["layout"]["template"] == {"data": {"bar": [{"marker": {"color": "#123456"}}]},
                                                          "layout": {"font": {"family": "Arial"}}}
    fig["layout"]["template"]["layout"]["images"] = [{"source": f"https://{EXFIL}/t.png"}]
    with pytest.raises(UnsafeFigure, match="template.layout.images"):
        validate_figure(fig)


def test_numbered_axes_titles_as_strings_and_typed_arrays():
    fig = {"data": [{"type": "scatter", "x": {"dtype": "f8", "bdata": "AAAAAAAA8D8="}, "y": [1], "xaxis": "x2",
                     "yaxis": "y2"}],
           "layout": {"xaxis2": {"title": "qubit", "anchor": "y2"}, "yaxis2": {"title": {"text": "T1"}},
                      "images": [{"source": PIXEL}], "legend2": {"x": 1}}}
    out = validate_figure(fig)
    assert out["layout"]["xaxis2"]["title"] == {"text": "qubit"} and out["data"][0]["xaxis"] == "x2"
    for bad in ({"xaxis": "x0"}, {"xaxis": "y2"}, {"x": {"dtype": "object", "bdata": "AA=="}},
                {"marker": {"symbol": "url(#a)"}}, {"mode": "lines+href"}, {"visible": "yes"}):
        with pytest.raises(UnsafeFigure):
            validate_figure({"data": [{"type": "scatter", "y": [1], **bad}], "layout": {}})


def test_every_menu_change_is_checked_against_every_trace_it_may_reach():
    """``restyle`` without indices reaches every trace: an attribute one of them lacks is refused."""
    fig = {"data": [{"type": "bar", "y": [1]}, {"type": "pie", "values": [1]}],
           "layout": {"updatemenus": [{"buttons": [{"method": "restyle", "args": [{"visible": [True, False]}]}]}]}}
    assert validate_figure(fig)
    fig["layout"]["updatemenus"][0]["buttons"][0]["args"] = [{"orientation": "h"}]  # a bar's, not a pie's
    with pytest.raises(UnsafeFigure, match="orientation"):
        validate_figure(fig)



def test_a_menu_in_the_name_and_value_form_is_checked_like_the_object_form():
    """plotly.js also takes ``args=['visible', [True]]`` (restyle) and ``['yaxis.type', 'log']`` (relayout)."""
    def menu(method: str, args: list) -> dict:
        return {"data": [{"type": "table", "header": {"values": ["qid"]}, "cells": {"values": [["0"]]}}],
                "layout": {"updatemenus": [{"type": "buttons", "buttons": [{"label": "x", "method": method,
                                                                              "args": args}]}]}}

    shown = validate_figure(menu("restyle", ["visible", [True]]))
    assert shown["layout"]["updatemenus"][0]["buttons"][0]["args"] == ["visible", [True]]
    assert validate_figure(menu("relayout", ["yaxis.type", "log"]))["layout"]["updatemenus"][0]["buttons"][0][
        "args"] == ["yaxis.type", "log"]
    with pytest.raises(UnsafeFigure, match="images"):
        validate_figure(menu("relayout", ["images[0].source", "https://attacker.example/x.png"]))
    with pytest.raises(UnsafeFigure):
        validate_figure(menu("restyle", ["header.values", ["<img src=https://attacker.example/x.png>"]]))
    with pytest.raises(UnsafeFigure, match="needs its value"):
        validate_figure(menu("restyle", ["visible"]))


def test_remembered_charts_are_bounded_by_the_json_they_hold():
    from copilot_core.render_safety import figures

    figures.forget()
    big = {"data": [{"type": "scatter", "y": [0.123456789] * 300_000}], "layout": {}}  # ~4 MB of JSON
    for i in range(8):
        validate_figure({**big, "layout": {"title": {"text": f"T{i}"}}})
    held = sum(size for _, size in figures._VERDICTS.values())
    assert held <= figures._MAX_VERDICT_BYTES and len(figures._VERDICTS) < 8
    assert held == figures._held[0]
    figures.forget()


def test_a_checked_chart_is_read_only_and_handed_back_as_it_is():
    """A rerun draws what the chat holds: the checked figure comes back untouched, without a second check;
    a copy or a stored (pickled, JSON) form of it is a plain dict that is checked again."""
    import copy
    import json
    import pickle

    import plotly.graph_objects as go

    from copilot_core.render_safety import SafeFigure, plotly_input

    chart = {"data": [{"type": "bar", "x": ["Q00", "Q01"], "y": [41.5, 38.2]}], "layout": {"title": {"text": "T1"}}}
    checked = validate_figure(chart)
    assert type(checked) is SafeFigure and validate_figure(checked) is checked
    for change in (lambda: checked["layout"].update(images=[]), lambda: checked["data"].append({}),
                   lambda: checked["data"][0].__setitem__("x", ["<a href='//e.x'>"]), lambda: checked.pop("data")):
        with pytest.raises(TypeError, match="read-only"):
            change()
    for plain in (copy.deepcopy(checked), pickle.loads(pickle.dumps(checked)), json.loads(json.dumps(checked))):
        assert type(plain) is dict and plain == chart
        plain["layout"]["images"] = [{"source": "https://e.x/i.png"}]
        with pytest.raises(UnsafeFigure, match="images must be embedded"):
            validate_figure(plain)
    drawn = go.Figure(plotly_input(checked))  # plotly.py takes each trace's type out and back: on copies
    assert drawn.data[0].type == "bar" and list(drawn.data[0].y) == [41.5, 38.2]
    assert checked == chart and checked["data"][0]["type"] == "bar"
