"""Charts a compromised model, a hostile analysis job or a planted database row could hand the page.

Written from plotly.js's attribute reference (``src/plots/*/layout_attributes.js``, ``src/traces/*/attributes.js``,
``src/lib/svg_text_utils.js``): every key that takes a URL (image ``source``, map ``style``/``sprite``/``tiles``,
``geojson``), markup (titles, labels, hover and table text, names, tick text) or a template that plotly.js fills
in from ``meta``/``customdata``/``text`` before parsing, and the menus that change any of them with a click.

``refused`` charts must raise ``UnsafeFigure``; the others are drawn (some with their ``<`` shown as text)
and, in Chromium, may not make any request off 127.0.0.1 or show any link.
"""

from __future__ import annotations

from dataclasses import dataclass

from tests.render_safety.corpus import EXFIL, PIXEL, URL


@dataclass(frozen=True)
class HostileChart:
    name: str
    chart: dict
    refused: bool


def _bar(trace: dict | None = None, **layout: object) -> dict:
    base = {"type": "bar", "x": ["Q00", "Q01"], "y": [41.5, 38.2]}
    return {"data": [{**base, **(trace or {})}], "layout": {"title": {"text": "T1"}, **layout}}


def _menu(method: str, args: list) -> dict:
    return _bar(updatemenus=[{"type": "buttons", "buttons": [{"label": "go", "method": method, "args": args}]}])


def _slider(method: str, args: list) -> dict:
    return _bar(sliders=[{"steps": [{"label": "s", "method": method, "args": args}]}])


def _deep(depth: int) -> list:
    node: list = []
    for _ in range(depth):
        node = [node]
    return node


GEOJSON = {"type": "FeatureCollection", "features": []}
SPAN = "<span style=\"background:{}\">T1</span>"

CHARTS: tuple[HostileChart, ...] = (
    # images
    HostileChart("layout image https", _bar(images=[{"source": URL, "x": 0, "y": 1, "sizex": 1, "sizey": 1}]), True),
    HostileChart("layout image protocol-relative", _bar(images=[{"source": f"//{EXFIL}/i.png"}]), True),
    HostileChart("layout image svg data", _bar(images=[{"source": "data:image/svg+xml;base64,PHN2Zz4="}]), True),
    HostileChart("layout image svg utf8", _bar(images=[{"source": f"data:image/svg+xml,<svg><image href='{URL}'/>"}]),
                 True),
    HostileChart("layout image javascript", _bar(images=[{"source": "javascript:alert(1)"}]), True),
    HostileChart("layout image with spaces", _bar(images=[{"source": f" https://{EXFIL}/i.png"}]), True),
    HostileChart("image trace source url", {"data": [{"type": "image", "source": URL}], "layout": {}}, True),
    HostileChart("template image", _bar(template={"layout": {"images": [{"source": URL}]}}), True),
    HostileChart("imagedefaults source", _bar(imagedefaults={"source": URL}), True),
    HostileChart("frame layout image", {**_bar(), "frames": [{"name": "f", "layout": {"images": [{"source": URL}]}}]},
                 True),
    HostileChart("embedded png image drawn", _bar(images=[{"source": PIXEL, "xref": "paper", "yref": "paper", "x": 0,
                                                           "y": 1, "sizex": 0.1, "sizey": 0.1}]), False),
    # maps and geo: plotly.js fetches styles, tiles, sprites, topojson and geojson itself
    HostileChart("choropleth geojson string", {"data": [{"type": "choropleth", "geojson": f"https:{EXFIL}/g.json",
                                                         "locations": ["a"], "z": [1]}], "layout": {}}, True),
    HostileChart("choropleth geojson UNC", {"data": [{"type": "choropleth", "geojson": f"\\\\{EXFIL}\\g.json",
                                                      "locations": ["a"], "z": [1]}], "layout": {}}, True),
    HostileChart("choropleth geojson object", {"data": [{"type": "choropleth", "geojson": GEOJSON, "locations": ["a"],
                                                         "z": [1]}], "layout": {}}, True),
    HostileChart("scattergeo topojson CDN", {"data": [{"type": "scattergeo", "lon": [1], "lat": [2]}], "layout": {}},
                 True),
    HostileChart("scattermap default style", {"data": [{"type": "scattermap", "lon": [1], "lat": [2]}], "layout": {}},
                 True),
    HostileChart("map style url", {"data": [], "layout": {"map": {"style": f"https://{EXFIL}/style.json"}}}, True),
    HostileChart("map style object sprite", {"data": [], "layout": {"map": {"style": {
        "version": 8, "sprite": f"https://{EXFIL}/s", "sources": {"t": {"type": "raster", "tiles": [URL]}},
        "layers": []}}}}, True),
    HostileChart("mapbox style and token", {"data": [{"type": "scattermapbox", "lon": [1], "lat": [2]}],
                                            "layout": {"mapbox": {"style": URL, "accesstoken": "pk.x"}}}, True),
    HostileChart("map layer source", {"data": [], "layout": {"map": {"layers": [{"source": URL,
                                                                                "sourcetype": "raster"}]}}}, True),
    HostileChart("densitymap", {"data": [{"type": "densitymap", "lon": [1], "lat": [2]}], "layout": {}}, True),
    HostileChart("geo layout", {"data": [], "layout": {"geo": {"scope": "world"}}}, True),
    HostileChart("restyle to a map trace", _menu("restyle", [{"type": "scattergeo"}]), True),
    # markup in text plotly.js parses
    HostileChart("title link", _bar(title={"text": f"<a href='{URL}'>T1</a>"}), True),
    HostileChart("title link without scheme", _bar(title={"text": f"<a href='//{EXFIL}/x'>T1</a>"}), True),
    HostileChart("title javascript", _bar(title={"text": "<a href='javascript:alert(1)'>T1</a>"}), True),
    HostileChart("title span url", _bar(title={"text": SPAN.format(f"url({URL})")}), True),
    HostileChart("title span image-set", _bar(title={"text": SPAN.format(f"image-set('{URL}' 1x)")}), True),
    HostileChart("title span webkit image-set", _bar(title={"text": SPAN.format(f"-webkit-image-set('{URL}' 1x)")}),
                 True),
    HostileChart("title span css escape u\\rl", _bar(title={"text": SPAN.format(f"u\\rl(//{EXFIL}/a)")}), True),
    HostileChart("title span css escape \\75rl", _bar(title={"text": SPAN.format(f"\\75rl(//{EXFIL}/a)")}), True),
    HostileChart("title span css escape u\\72l", _bar(title={"text": SPAN.format(f"u\\72l(//{EXFIL}/a)")}), True),
    HostileChart("title bold with style", _bar(title={"text": "<b style='background:red'>T1</b>"}), True),
    HostileChart("title font tag", _bar(title={"text": "<font color=red>T1</font>"}), True),
    HostileChart("axis title img", _bar(xaxis={"title": {"text": f"<img src={URL}>"}}), True),
    HostileChart("annotation link", _bar(annotations=[{"text": f"<a href=\"{URL}\">see</a>", "x": 0, "y": 0}]), True),
    HostileChart("annotation url text", _bar(annotations=[{"text": f"see {URL}", "x": 0, "y": 0}]), True),
    HostileChart("legend name link", _bar({"name": f"<a href='{URL}'>Q</a>", "showlegend": True}), True),
    HostileChart("category label link", _bar({"x": [f"<a href='{URL}'>Q00</a>", "Q01"]}), True),
    HostileChart("ticktext link", _bar(xaxis={"tickmode": "array", "tickvals": [0], "ticktext": [
        f"<a href='{URL}'>t</a>"]}), True),
    HostileChart("labelalias link", _bar(xaxis={"labelalias": {"Q00": f"<a href='{URL}'>x</a>"}}), True),
    HostileChart("hovertext link", _bar({"hovertext": [f"<a href='{URL}'>open</a>", "b"]}), True),
    HostileChart("hovertemplate link", _bar({"hovertemplate": f"<a href=\"{URL}\">%{{y}}</a>"}), True),
    HostileChart("texttemplate iframe", _bar({"texttemplate": "<iframe srcdoc='x'>%{y}"}), True),
    HostileChart("table cell link", {"data": [{"type": "table", "header": {"values": ["q"]},
                                               "cells": {"values": [[f"<a href='{URL}'>Q00</a>"]]}}], "layout": {}},
                 True),
    HostileChart("pie label svg", {"data": [{"type": "pie", "labels": ["<svg onload=alert(1)>"], "values": [1]}],
                                   "layout": {}}, True),
    HostileChart("indicator prefix link", {"data": [{"type": "indicator", "value": 1, "number": {
        "prefix": f"<a href='{URL}'>"}}], "layout": {}}, True),
    HostileChart("tick prefix link", _bar(yaxis={"tickprefix": f"<a href='{URL}'>"}), True),
    HostileChart("meta holds a whole tag", _bar({"meta": [f"<a href='{URL}'>x</a>"], "hovertemplate": "%{meta[0]}"}),
                 True),
    HostileChart("customdata holds a whole tag", _bar({"customdata": [["<img src=x>"], ["y"]],
                                                       "hovertemplate": "%{customdata[0]}"}), True),
    # markup that only exists once plotly.js fills a template: each piece escaped, so none opens a tag
    HostileChart("tag assembled from meta pieces", _bar({"meta": ["<a href='/", f"/{EXFIL}/x'>"],
                                                         "hovertemplate": "%{meta[0]}%{meta[1]}open",
                                                         "texttemplate": "%{meta[0]}%{meta[1]}%{y}"}), False),
    HostileChart("tag assembled from layout meta in title", _bar(meta=["<img src='/", f"/{EXFIL}/t.png' x='"],
                                                                 title={"text": "%{meta[0]}%{meta[1]}'"}), False),
    HostileChart("tag assembled from customdata and text", _bar({"customdata": [["<a href='/"], ["<a href='/"]],
                                                                 "text": [f"/{EXFIL}/c'>", f"/{EXFIL}/d'>"],
                                                                 "texttemplate": "%{customdata[0]}%{text}go",
                                                                 "textposition": "inside"}), False),
    HostileChart("lone angle brackets in data", _bar({"x": ["Q<00", "Q01>"], "text": ["<", "T1 < 5 us"],
                                                      "textposition": "outside"}), False),
    HostileChart("allowed bare tags", _bar({"hovertemplate": "<b>%{x}</b><br><i>%{y:.1f}</i> us<extra></extra>"},
                                           title={"text": "T<sub>1</sub> <em>by</em> qubit<sup>2</sup>"}), False),
    # updatemenus and sliders: one click may only set what a chart may hold
    HostileChart("button sets layout image", _menu("relayout", [{"images[0].source": URL}]), True),
    HostileChart("button sets images list", _menu("relayout", [{"images": [{"source": URL}]}]), True),
    HostileChart("button builds link title", _menu("relayout", [{"title.text": f"<a href='{URL}'>click</a>"}]), True),
    HostileChart("button sets template", _menu("relayout", [{"template": {"layout": {"images": [
        {"source": URL}]}}}]), True),
    HostileChart("button sets map style", _menu("relayout", [{"map.style": URL}]), True),
    HostileChart("update restyles hovertext link", _menu("update", [{"hovertext": [[f"<a href='{URL}'>x</a>"]]},
                                                                    {}]), True),
    HostileChart("slider step sets image", _slider("relayout", [{"images[0].source": URL}]), True),
    HostileChart("slider animate bad option", _slider("animate", [None, {"frame": {"url": URL}}]), True),
    HostileChart("button rewrites buttons", _menu("relayout", [{"updatemenus[0].buttons[0].args": [URL]}]), True),
    HostileChart("button unknown method", _menu("open", [URL]), True),
    HostileChart("button restyles colour and visibility", _menu("update", [{"visible": [True], "marker.color": "red"},
                                                                           {"title.text": "<b>T1</b> again"}]), False),
    HostileChart("slider animates frames", {**_slider("animate", [["f1"], {"frame": {"duration": 0, "redraw": False},
                                                                            "mode": "immediate"}]),
                                            "frames": [{"name": "f1", "data": [{"y": [30.0, 31.0]}]}]}, False),
    # the (name, value) form of button and slider args, drawn and clicked in Chromium
    HostileChart("button (name, value) sets image source", _menu("relayout", ["images[0].source", URL]), True),
    HostileChart("button (name, value) sets images list", _menu("relayout", ["images", [{"source": URL}]]), True),
    HostileChart("button (name, value) builds link title", _menu("relayout", ["title.text",
                                                                              f"<a href='{URL}'>click</a>"]), True),
    HostileChart("button (name, value) sets map style", _menu("relayout", ["map.style", URL]), True),
    HostileChart("button (name, value) sets mapbox style", _menu("relayout", ["mapbox.style", URL]), True),
    HostileChart("button (name, value) restyles to a map", _menu("restyle", ["type", "scattermap"]), True),
    HostileChart("button (name, value) restyles hovertemplate link", _menu("restyle", [
        "hovertemplate", f"<a href='{URL}'>%{{y}}</a>", [0]]), True),
    HostileChart("slider (name, value) sets image source", _slider("relayout", ["images[0].source", URL]), True),
    HostileChart("button args2 (name, value) sets image", _bar(updatemenus=[{"type": "buttons", "buttons": [
        {"label": "go", "method": "relayout", "args": ["title.text", "T1"], "args2": ["images[0].source", URL]}]}]),
                 True),
    HostileChart("button (name, value) sets a bold title and a colour", {**_bar(updatemenus=[{"type": "buttons", "buttons": [
        {"label": "bold", "method": "relayout", "args": ["title.text", "<b>T1</b> &lt;a href='//x'&gt;"]},
        {"label": "red", "method": "restyle", "args": ["marker.color", "red", [0]]}]}])}, False),
    # an outside attacker's reading of plotly.js's attribute reference: every other text that takes markup
    HostileChart("legend title link", _bar(legend={"title": {"text": f"<a href='{URL}'>L</a>"}}), True),
    HostileChart("legendgrouptitle link", _bar({"legendgroup": "g", "legendgrouptitle": {
        "text": f"<a href='{URL}'>g</a>"}}), True),
    HostileChart("shape label link", _bar(shapes=[{"type": "line", "x0": 0, "x1": 1, "y0": 0, "y1": 1,
                                                   "label": {"text": f"<a href='{URL}'>s</a>"}}]), True),
    HostileChart("shape label texttemplate link", _bar(shapes=[{"type": "line", "x0": 0, "x1": 1, "y0": 0, "y1": 1,
                                                                "label": {"texttemplate": f"<a href='{URL}'>%{{x0}}</a>"}}]),
                 True),
    HostileChart("newshape label link", _bar(newshape={"label": {"text": f"<a href='{URL}'>n</a>"}}), True),
    HostileChart("selections key", _bar(selections=[{"type": "rect", "x0": 0, "x1": 1, "y0": 0, "y1": 1}]), True),
    HostileChart("title subtitle link", _bar(title={"text": "T1", "subtitle": {"text": f"<a href='{URL}'>s</a>"}}),
                 True),
    HostileChart("colorbar title link", {"data": [{"type": "heatmap", "z": [[1, 2]], "colorbar": {"title": {
        "text": f"<a href='{URL}'>c</a>"}}}], "layout": {}}, True),
    HostileChart("colorbar tickprefix link", {"data": [{"type": "heatmap", "z": [[1, 2]], "colorbar": {
        "tickprefix": f"<a href='{URL}'>"}}], "layout": {}}, True),
    HostileChart("annotation hovertext link", _bar(annotations=[{"text": "a", "x": 0, "y": 0,
                                                                 "hovertext": f"<a href='{URL}'>h</a>"}]), True),
    HostileChart("slider currentvalue prefix link", {**_slider("animate", [["f1"]]), "frames": [{"name": "f1"}],
                                                     "layout": {**_slider("animate", [["f1"]])["layout"],
                                                                "sliders": [{"currentvalue": {
                                                                    "prefix": f"<a href='{URL}'>"},
                                                                    "steps": [{"label": "s", "method": "skip"}]}]}},
                 True),
    HostileChart("button label link", _bar(updatemenus=[{"buttons": [{"label": f"<a href='{URL}'>b</a>",
                                                                       "method": "skip"}]}]), True),
    HostileChart("table header link", {"data": [{"type": "table", "header": {"values": [f"<a href='{URL}'>q</a>"]},
                                                 "cells": {"values": [["Q00"]]}}], "layout": {}}, True),
    HostileChart("table cell prefix link", {"data": [{"type": "table", "header": {"values": ["q"]}, "cells": {
        "values": [["Q00"]], "prefix": f"<a href='{URL}'>"}}], "layout": {}}, True),
    HostileChart("indicator title link", {"data": [{"type": "indicator", "value": 1, "title": {
        "text": f"<a href='{URL}'>i</a>"}}], "layout": {}}, True),
    HostileChart("upper-case link tag", _bar(title={"text": f"<A HREF='{URL}'>T1</A>"}), True),
    HostileChart("br with attributes", _bar(title={"text": "T1<br style='background:red'>"}), True),
    HostileChart("link inside extra", _bar({"hovertemplate": f"%{{y}}<extra><a href='{URL}'>x</a></extra>"}), True),
    HostileChart("template layout annotation link", _bar(template={"layout": {"annotations": [
        {"text": f"<a href='{URL}'>t</a>", "x": 0, "y": 0}]}}), True),
    HostileChart("font family css escape", _bar(font={"family": f"\\75rl(//{EXFIL}/f)"}), True),
    HostileChart("hoverlabel font family url", _bar({"hoverlabel": {"font": {"family": f"a,url({URL})"}}}), True),
    # pieces that only become markup once plotly.js fills the template: each escaped, none opens a tag
    HostileChart("tag assembled from meta object keys", _bar({"meta": {"a": "<a href='/", "b": f"/{EXFIL}/m'>"},
                                                              "hovertemplate": "%{meta.a}%{meta.b}open<extra></extra>"}),
                 False),
    HostileChart("tag assembled from trace name and category", _bar({"name": "<img src='/", "x": [
        f"/{EXFIL}/n.png'>", "Q01"], "hovertemplate": "%{fullData.name}%{x}<extra></extra>"}), False),
    HostileChart("tag assembled in pie labels", {"data": [{"type": "pie", "labels": ["<a href='/", f"/{EXFIL}/p'>"],
                                                          "values": [1, 1], "texttemplate": "%{label}%{label}",
                                                          "hovertemplate": "%{label}<extra></extra>"}], "layout": {}},
                 False),
    HostileChart("entity-written link shown as text", _bar(title={"text": f"&lt;a href='//{EXFIL}/e'&gt;T1&lt;/a&gt;"},
                                                           annotations=[{"text": f"&#60;img src='//{EXFIL}/e.png'&#62;",
                                                                         "x": 0, "y": 40}]), False),
    HostileChart("shape label template from data", _bar(shapes=[{"type": "rect", "x0": 0, "x1": 1, "y0": 0, "y1": 30,
                                                                 "label": {"texttemplate": "%{x0}<b>%{y1}</b>"}}],
                                                         meta=["<a href='/"]), False),
    # CSS-bearing values
    HostileChart("font family url", _bar(font={"family": f"x; background:url({URL})"}), True),
    HostileChart("font family image-set", _bar(font={"family": f"-webkit-image-set('{URL}' 1x)"}), True),
    HostileChart("colour url", _bar(paper_bgcolor=f"url({URL})"), True),
    HostileChart("marker colour image-set", _bar({"marker": {"color": f"image-set('{URL}' 1x)"}}), True),
    HostileChart("colorscale entry url", {"data": [{"type": "heatmap", "z": [[1, 2]], "colorscale": [
        [0, "red"], [1, f"url({URL})"]]}], "layout": {}}, True),
    HostileChart("shape path with url", _bar(shapes=[{"type": "path", "path": f"M0 0 L1 1 url({URL})"}]), True),
    HostileChart("pattern path with url", _bar({"marker": {"pattern": {"path": f"url({URL})"}}}), True),
    # not allowed at all
    HostileChart("unknown trace attribute", _bar({"onclick": "alert(1)"}), True),
    HostileChart("proto key", {"data": [], "layout": {"__proto__": {"x": 1}}}, True),
    HostileChart("config key", {"data": [], "layout": {}, "config": {"editable": True}}, True),
    HostileChart("sankey trace", {"data": [{"type": "sankey", "node": {"label": ["a"]}}], "layout": {}}, True),
    HostileChart("3d surface trace", {"data": [{"type": "surface", "z": [[1]]}], "layout": {}}, True),
    HostileChart("typed array not base64", {"data": [{"type": "scatter", "y": {"dtype": "f8", "bdata": URL}}],
                                            "layout": {}}, True),
    # cost: refused before any work a hostile size would make expensive
    HostileChart("two million nodes", {"data": [{"type": "scatter", "y": [[0]] * 2_000_000}], "layout": {}}, True),
    HostileChart("many traces", {"data": [{"type": "scatter", "y": [1]}] * 5_000, "layout": {}}, True),
    HostileChart("many frames", {**_bar(), "frames": [{"name": str(i), "data": [{"y": [1, 2]}]}
                                                     for i in range(2_000)]}, True),
    HostileChart("many annotations", _bar(annotations=[{"text": "a", "x": 0, "y": 0}] * 20_000), True),
    HostileChart("many shapes", _bar(shapes=[{"type": "line", "x0": 0, "x1": 1, "y0": 0, "y1": 1}] * 20_000), True),
    HostileChart("deep nesting", {"data": [{"type": "scatter", "meta": _deep(5_000)}], "layout": {}}, True),
    HostileChart("huge string", _bar(title={"text": "T" * 6_000_000}), True),
)


ACCEPTED = tuple(c for c in CHARTS if not c.refused)
# Too big to send through a model reply in a browser test (they test the caps, not the page).
COSTLY = frozenset({"two million nodes", "many traces", "many frames", "many annotations", "many shapes", "deep nesting",
                    "huge string"})
