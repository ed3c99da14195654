"""Labels a database value or the model could hand to a button, tab, option or status, written after the label
sink (``render_safety/sinks.py``): each aims at what Streamlit's label mode does differently from document mode
(its rewrite of list, heading and quote markers at every line start, its ``:material/`` rewrite, the elements it
unwraps) or at the line breaks only one renderer sees."""

from __future__ import annotations

from tests.render_safety.corpus import EXFIL, PIXEL, URL

IMG = f"![x](https://{EXFIL}/p.png)"
HOSTILE_LABELS: dict[str, str] = {
    "fence in a list item": f"64Qv9\n- ```\n  {IMG}\n  ```",
    "fence in a numbered item": f"1. ```\n   {IMG}\n   ```",
    "fence in a quote": f"> ```\n> {IMG}\n> ```",
    "indented code after a heading marker": f"#\n    {IMG}",
    "setext heading": f"{IMG}\n===",
    "plus marker lazy line": f"+ ~~~\n  {IMG}",
    "carriage returns": f"Q1\r- ```\r  {IMG}\r  ```",
    "line separator": f"Q1\u2028- ```\u2028  {IMG}\u2028  ```",
    "paragraph separator": f"Q1\u2029{IMG}",
    "next line character": f"Q1\x85- ```\x85  {IMG}",
    "vertical tab and form feed": f"Q1\x0b- ```\x0c  {IMG}",
    "byte order mark indent": f"\ufeff- ```\n\ufeff  {IMG}",
    "plain image": IMG,
    "reference image": f"![x][r]\n\n[r]: https://{EXFIL}/r.png",
    "footnote holding an image": f"[^1]\n\n[^1]: {IMG}",
    "raw html image": f'<img src="https://{EXFIL}/h.png">',
    "autolink": f"<https://{EXFIL}/a>",
    "bare url": URL,
    "www host": f"www.{EXFIL}/w",
    "e-mail": f"leak@{EXFIL}",
    "data pixel": f"![p]({PIXEL})",
    "material icon": ":material/warning: Q05",
    "material underscore spelling": ":material_warning: Q05",
    "colour directive": ":red[Q05] :blue-background[x]",
    "math": "$\\href{https://" + EXFIL + "}{x}$",
    "entity spelled image": f"&#33;[x](https://{EXFIL}/e.png)",
    "escaped then newline": f"\\\n- ```\n  {IMG}",
    "table": f"| a |\n|---|\n| {IMG} |",
    "html comment": f"<!-- x -->{IMG}",
    "zero width joiner in marker": f"-\u200b ```\n  {IMG}",
    "bidi override": "Q\u202e05",
    "long": "Q" * 500 + IMG,
}
