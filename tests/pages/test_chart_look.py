"""Charts are sent so that a browser draws each one once per view: Streamlit's look written into the figure,
no template, Streamlit's theme off, and a data revision that changes only with the traces."""

from __future__ import annotations

import json

from streamlit.testing.v1 import AppTest

from copilot_core.render_safety import validate_figure
from tests.pages.conftest import TIMEOUT, open_couplings

PAGE = "pages/heatmap.py"
SOURCE_SANS = '"Source Sans", sans-serif'


def specs(at: AppTest) -> dict[str, tuple[str, str]]:
    """(spec JSON, theme) of each chart by element key suffix."""
    return {e.proto.id.rsplit("-", 1)[-1]: (e.proto.spec, e.proto.theme) for e in at.get("plotly_chart")}


def test_heatmap_page_charts_carry_the_look_and_no_template(open_page):
    at = open_page(PAGE)
    open_couplings(at)
    charts = specs(at)
    assert set(charts) == {"heatmap_chart", "heatmap_distribution", "coupling_chart"}
    for key, (spec, theme) in charts.items():
        layout = json.loads(spec)["layout"]
        assert theme == "", key  # Streamlit's theme pass would put a template back
        assert "template" not in layout, key
        assert layout["font"]["family"] == SOURCE_SANS, key
        assert layout["title"]["font"]["weight"] == 700, key  # bold, as Streamlit's theme draws titles
        assert layout["hoverlabel"]["bgcolor"] == "#FFFFFF", key
        assert len(layout["datarevision"]) == 16, key
    heatmap = json.loads(charts["heatmap_chart"][0])
    assert heatmap["layout"]["title"]["font"]["size"] == 14  # the builder's own value wins over the look's
    assert heatmap["layout"]["plot_bgcolor"] == "white"


def test_a_rerun_sends_byte_identical_charts_and_new_data_a_new_revision(open_page):
    at = open_page(PAGE)
    first = specs(at)
    at.run()
    assert specs(at) == first  # an unchanged element: the browser keeps the chart it drew
    at.selectbox(key="_w_heatmap_metric").set_value("t2_echo").run()
    assert not at.exception
    after = specs(at)
    revision = json.loads(after["heatmap_chart"][0])["layout"]["datarevision"]
    assert revision != json.loads(first["heatmap_chart"][0])["layout"]["datarevision"]
    assert json.loads(after["heatmap_chart"][0])["data"] != json.loads(first["heatmap_chart"][0])["data"]


def _draw_checked() -> None:
    """Three figures as the copilot's history holds them: the heatmap tool's own chart (built with the app's
    default template), a model's chart with its own template, and a chart the allowlist refuses."""
    import json as json_

    import plotly.graph_objects as go

    from ui.plot import checked_chart

    own = go.Figure(go.Heatmap(z=[[1, 2], [3, 4]], text=[["Q000", "Q001"], ["Q002", "Q003"]],
                               texttemplate="%{text}"))
    own.update_layout(title={"text": "T1 on chip"})
    model = go.Figure(go.Scatter(x=[1, 2], y=[3, 4]), layout={"template": "plotly_white"})
    checked_chart(json_.loads(own.to_json()), "own")
    checked_chart(json_.loads(model.to_json()), "model")
    checked_chart({"data": [{"type": "scattergeo", "lat": [1], "lon": [2]}], "layout": {}}, "refused")


def test_stored_charts_are_checked_again_with_the_look_and_model_templates_are_kept():
    at = AppTest.from_function(_draw_checked, default_timeout=TIMEOUT).run()
    assert not at.exception
    charts = specs(at)
    assert set(charts) == {"own", "model"}
    own, theme = charts["own"]
    figure = json.loads(own)
    assert theme == "" and "template" not in figure["layout"]
    assert figure["data"][0]["text"] == [["Q000", "Q001"], ["Q002", "Q003"]]
    assert figure["data"][0]["colorscale"][0] == [0.0, "#e4f5ff"]  # Streamlit's sequential scale, as its theme
    validate_figure(figure)  # what is drawn passes the chart check
    model, theme = charts["model"]
    assert theme == "streamlit"
    assert json.loads(model)["layout"]["template"]["layout"]["plot_bgcolor"] == "white"  # plotly_white's
    assert len(at.warning) == 1
    shown = at.warning[0].value.replace("\\", "")  # markdown escapes
    assert shown.startswith("A chart was withheld because it failed validation: data[0]: scattergeo traces")
