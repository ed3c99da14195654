"""Charts whose values (not their counts) make plotly.js work hard, written after the budgets in ``chart_cost``.

``REFUSED`` charts must raise ``UnsafeFigure`` with the given words (the guard that refused them);
``ACCEPTED`` charts sit just under a budget and are drawn in Chromium (tests/e2e/test_chart_cost_e2e.py), where
none may take two seconds.  Sizes are built from numbers, so the corpus stays small in the repository.
"""

from __future__ import annotations

import base64
import io
import struct
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class CostlyChart:
    name: str
    chart: dict
    refused: str = ""  # words of the refusal; empty: accepted


def _typed(values: np.ndarray, shape: str | None = None, dtype: str = "f8") -> dict:
    out = {"dtype": dtype, "bdata": base64.b64encode(values.astype(np.dtype(dtype).newbyteorder("<")).tobytes())
           .decode()}
    return {**out, "shape": shape} if shape else out


def _scatter(n: int, **trace: object) -> dict:
    rng = np.random.default_rng(n)
    return {"data": [{"type": "scatter", "x": list(range(n)), "y": rng.random(n).round(3).tolist(), **trace}],
            "layout": {}}


def _gif(frames: int, side: int = 1) -> str:
    """A GIF with ``frames`` 1x1 frames on a ``side`` x ``side`` screen (built byte by byte)."""
    head = b"GIF89a" + struct.pack("<HHBBB", side, side, 0x80, 0, 0) + b"\x00\x00\x00\xff\xff\xff"
    frame = b"\x21\xf9\x04\x00\x01\x00\x00\x00" + b"\x2c" + struct.pack("<HHHHB", 0, 0, 1, 1, 0) + b"\x02\x02\x44\x01\x00"
    return "data:image/gif;base64," + base64.b64encode(head + frame * frames + b"\x3b").decode()


def _png(width: int, height: int, animated: bool = False) -> str:
    from PIL import Image

    buffer = io.BytesIO()
    image = Image.new("RGB", (width, height), (30, 90, 200))
    if animated:
        image.save(buffer, format="PNG", save_all=True, append_images=[Image.new("RGB", (width, height))])
    else:
        image.save(buffer, format="PNG")
    return "data:image/png;base64," + base64.b64encode(buffer.getvalue()).decode()


def _png_header_claiming(width: int, height: int) -> str:
    """A PNG whose header claims ``width`` x ``height`` (a decompression bomb's first bytes)."""
    raw = bytearray(base64.b64decode(_png(1, 1).split(",", 1)[1]))
    raw[16:24] = struct.pack(">II", width, height)
    return "data:image/png;base64," + base64.b64encode(bytes(raw)).decode()


def _webp_animated() -> str:
    from PIL import Image

    buffer = io.BytesIO()
    Image.new("RGB", (8, 8)).save(buffer, format="WEBP", save_all=True, append_images=[Image.new("RGB", (8, 8), "red")])
    return "data:image/webp;base64," + base64.b64encode(buffer.getvalue()).decode()


def _grid(rows: int, cols: int) -> list[list[float]]:
    x, y = np.meshgrid(np.linspace(0, 6, cols), np.linspace(0, 6, rows))
    return (np.sin(x) * np.cos(y)).round(3).tolist()


def _annotations(count: int, text: str) -> list[dict]:
    return [{"text": text, "x": i / max(count, 1), "y": 0.5, "xref": "paper", "yref": "paper", "showarrow": False}
            for i in range(count)]


RNG = np.random.default_rng(7)
SAMPLES = RNG.random(1000).round(4).tolist()

REFUSED = (
    CostlyChart("typed-shape-larger-than-data", {"data": [{"type": "heatmap", "z": _typed(np.ones(8), "1000,1000")}]},
                "declares 1,000,000 values but its data holds 8"),
    CostlyChart("typed-shape-smaller-than-data", {"data": [{"type": "scatter", "y": _typed(np.ones(64), "2")}]},
                "declares 2 values but its data holds 64"),
    CostlyChart("typed-3d-shape", {"data": [{"type": "heatmap", "z": _typed(np.ones(8), "2,2,2")}]},
                "typed arrays may have one or two dimensions"),
    CostlyChart("typed-ragged-bytes", {"data": [{"type": "scatter", "y": {"dtype": "f8", "bdata": "AAAAAAAA"}}]},
                "is not a whole number of f8 values"),
    CostlyChart("br-flood-title", {"data": [], "layout": {"title": {"text": "a<br>" * 3000}}},
                "tags or line breaks; the limit is 200"),
    CostlyChart("nested-bold-title", {"data": [], "layout": {"title": {"text": "<b>" * 50 + "x"}}},
                "nests style tags more than 8 deep"),
    CostlyChart("br-spread-over-annotations", {"data": [], "layout": {"annotations": _annotations(300, "a<br>" * 10)}},
                "line breaks and style tags; the limit is 2,000"),
    CostlyChart("many-annotations", {"data": [], "layout": {"annotations": _annotations(500, "note")}},
                "would take a browser too long to draw"),
    CostlyChart("violin-tiny-bandwidth", {"data": [{"type": "violin", "y": SAMPLES, "bandwidth": 1e-5}]},
                "use a larger bandwidth"),
    CostlyChart("violin-manual-span", {"data": [{"type": "violin", "y": SAMPLES, "bandwidth": 1, "span": [0, 1e6],
                                                 "spanmode": "manual"}]}, "use a larger bandwidth"),
    CostlyChart("violin-bandwidth-on-text", {"data": [{"type": "violin", "y": ["a", "b"], "bandwidth": 0.001}]},
                "leave bandwidth out"),
    CostlyChart("histogram2d-huge-nbins", {"data": [{"type": "histogram2d", "x": SAMPLES, "y": SAMPLES,
                                                     "nbinsx": 10_000, "nbinsy": 10_000}]}, "bins along x"),
    CostlyChart("histogram2d-tiny-bin-size", {"data": [{"type": "histogram2d", "x": SAMPLES, "y": SAMPLES,
                                                        "xbins": {"start": 0, "end": 1, "size": 1e-6}}]},
                "1,000,000 bins along x"),
    CostlyChart("histogram2d-many-cells", {"data": [{"type": "histogram2d", "x": SAMPLES, "y": SAMPLES,
                                                     "nbinsx": 1000, "nbinsy": 1000}]}, "heatmap/image cells or bins"),
    CostlyChart("histogram-size-from-data", {"data": [{"type": "histogram", "x": SAMPLES, "xbins": {"size": 1e-7}}]},
                "bins along x"),
    CostlyChart("histogram-size-on-dates", {"data": [{"type": "histogram", "x": ["2026-01-01", "2026-02-01"],
                                                      "xbins": {"size": 1}}]}, "bin count cannot be told"),
    CostlyChart("heatmap-huge-canvas", {"data": [{"type": "heatmap", "z": [[1, 2], [3, 4]], "zsmooth": "best"}],
                                        "layout": {"width": 100_000, "height": 600}}, "the limit is 2,500"),
    CostlyChart("heatmap-canvas-area", {"data": [{"type": "heatmap", "z": [[1, 2], [3, 4]], "zsmooth": "best"}],
                                        "layout": {"width": 2500, "height": 2500}}, "in all"),
    CostlyChart("heatmap-many-cells", {"data": [{"type": "heatmap", "z": _typed(np.zeros(600 * 600), "600,600")}]},
                "360,000 heatmap/image cells"),
    CostlyChart("contour-tiny-level-size", {"data": [{"type": "contour", "z": _grid(20, 20),
                                                      "contours": {"start": 0, "end": 1, "size": 1e-6}}]},
                "contour levels; the limit is 200"),
    CostlyChart("contour-level-size-from-typed-z", {"data": [{"type": "contour", "z": _typed(np.arange(400.0), "20,20"),
                                                              "contours": {"size": 0.01}}]},
                "contour levels; the limit is 200"),
    CostlyChart("contour-cells-times-levels", {"data": [{"type": "contour", "z": _grid(100, 100), "ncontours": 100}]},
                "contour cell-levels"),
    CostlyChart("pie-150k-legend-entries", {"data": [{"type": "pie", "labels": [f"q{i}" for i in range(150_000)],
                                                      "values": [1] * 150_000}]}, "slices, each a legend entry"),
    CostlyChart("image-gif-65535-frames", {"data": [{"type": "image", "source": _gif(65_535)}]},
                "animated images (65,535 frames)"),
    CostlyChart("layout-image-animated-png", {"data": [], "layout": {"images": [
        {"source": _png(4, 4, animated=True), "xref": "paper", "yref": "paper", "x": 0, "y": 1, "sizex": 1,
         "sizey": 1}]}}, "animated images"),
    CostlyChart("image-animated-webp", {"data": [{"type": "image", "source": _webp_animated()}]}, "animated images"),
    CostlyChart("image-png-bomb-header", {"data": [{"type": "image", "source": _png_header_claiming(40_000, 40_000)}]},
                "40000x40000 pixels"),
    CostlyChart("svg-scatter-190k", _scatter(190_000, mode="markers"), "190,000 points"),
    CostlyChart("svg-scatter-typed-50k", {"data": [{"type": "scatter", "mode": "markers",
                                                    "x": _typed(np.arange(50_000.0)), "y": _typed(np.ones(50_000))}]},
                "50,000 points"),
    CostlyChart("bars-20k", {"data": [{"type": "bar", "y": list(range(20_000))}]}, "20,000 bars"),
    CostlyChart("frame-with-50k-markers", {"data": [{"type": "scatter", "y": [1, 2]}],
                                           "frames": [{"name": "f", "data": [_scatter(50_000, mode="markers")["data"][0]]}]},
                "frames[0] would take a browser too long"),
    CostlyChart("text-mode-markers-as-labels", _scatter(10_000, mode="text", text=["x"] * 10_000), "10,000 points"),
    CostlyChart("meta-over-20k-characters", {"data": [], "layout": {"meta": "a" * 200_000}}, "the limit is 20,000"),
)

ACCEPTED = (
    CostlyChart("svg-scatter-3500", _scatter(3500, mode="markers")),
    CostlyChart("bars-3500", {"data": [{"type": "bar", "y": list(range(3500))}]}),
    CostlyChart("lines-350k", {"data": [{"type": "scatter", "y": RNG.random(350_000).round(2).tolist()}]}),
    CostlyChart("pie-95-slices", {"data": [{"type": "pie", "labels": [f"q{i}" for i in range(95)], "values": [1] * 95}]}),
    CostlyChart("heatmap-490x490", {"data": [{"type": "heatmap", "z": _typed(RNG.random(490 * 490), "490,490")}]}),
    CostlyChart("contour-60x60-100-levels", {"data": [{"type": "contour", "z": _grid(60, 60),
                                                       "contours": {"start": -1, "end": 1, "size": 0.0202}}]}),
    CostlyChart("histogram2d-240x240", {"data": [{"type": "histogram2d", "x": SAMPLES, "y": SAMPLES,
                                                  "nbinsx": 240, "nbinsy": 240}]}),
    CostlyChart("violin-bandwidth-at-edge", {"data": [{"type": "violin", "y": SAMPLES, "bandwidth": 0.0007}]}),
    CostlyChart("title-150-breaks-8-deep", {"data": [], "layout": {"title": {
        "text": "<b><i><b><i><b><i><b><i>T</i></b></i></b></i></b></i></b>" + "x<br>" * 140}}}),
    CostlyChart("annotations-20x95-tags", {"data": [], "layout": {"annotations": _annotations(20, "a<br>" * 95)}}),
    CostlyChart("annotations-350", {"data": [], "layout": {"annotations": _annotations(350, "note")}}),
    CostlyChart("canvas-2000x1500-best-heatmap", {"data": [{"type": "heatmap", "z": _grid(50, 50), "zsmooth": "best"}],
                                                  "layout": {"width": 2000, "height": 1500}}),
    CostlyChart("image-png-1000x1000", {"data": [{"type": "image", "source": _png(1000, 1000)}]}),
    CostlyChart("image-gif-one-frame", {"data": [{"type": "image", "source": _gif(1, 64)}]}),
    CostlyChart("frames-20x3000-markers", {"data": [{"type": "scatter", "mode": "markers", "y": [1, 2]}],
                                           "frames": [{"name": f"f{i}", "data": [_scatter(3000, mode="markers")["data"][0]]}
                                                      for i in range(20)]}),
    CostlyChart("scattergl-39k", {"data": [{"type": "scattergl", "mode": "markers", "x": list(range(39_000)),
                                            "y": RNG.random(39_000).round(3).tolist()}]}),
    CostlyChart("url-like-meta-20k", {"data": [], "layout": {"meta": "a" * 19_999 + ":"}}),
)
GL_BASELINE = {"data": [{"type": "scattergl", "mode": "markers", "x": [1, 2], "y": [1, 2]}]}
