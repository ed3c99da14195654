"""Answers aimed at the in-app link shortcut of the second look and at the cmark-gfm check behind it: targets
that look like a path but reach another host once a browser reads them (encoded or escaped slashes,
backslashes, tabs, entities), schemes in disguise, GFM autolink literals at their edges, footnotes,
reference definitions far from their use, and HTML blocks of every CommonMark kind.

``words`` are what a reader must still see and ``app_links`` the links that must stay clickable, both worked
out by hand from the text as CommonMark/GFM reads it."""

from __future__ import annotations

from tests.render_safety.corpus import EXFIL, URL, Case

FAR = "\n\n".join(f"Q{i:02d} T1 stayed near its seven-day median." for i in range(40))

SHORTCUT_ANSWERS: tuple[Case, ...] = (
    # a path only as written: percent-, entity- or backslash-encoded slashes and backslashes
    Case("link to an encoded double slash", f"Open [p](/%2F%2F{EXFIL}/x) now", ("Open", "now", f"%2F%2F{EXFIL}")),
    Case("link to a lowercase encoded backslash", f"Open [p](/%5c{EXFIL}/x) now", ("Open", "now", f"%5c{EXFIL}")),
    Case("link to an entity slash", f"Open [p](/&#47;/{EXFIL}/x) now", ("Open", "now", f"///{EXFIL}/x")),
    Case("link to an escaped slash", f"Open [p](/\\/{EXFIL}/x) now", ("Open", "now", f"//{EXFIL}/x")),
    Case("link to a double backslash", f"Open [p](/\\\\{EXFIL}/x) now", ("Open", "now", f"{EXFIL}/x")),
    Case("link with a tab after the slash", f"Open [p](</\t/{EXFIL}/x>) now", ("Open", "now", f"/%09/{EXFIL}/x")),
    Case("link with an entity tab after the slash", f"Open [p](/&#9;/{EXFIL}/x) now", ("Open", "now", EXFIL)),
    Case("link with a bare tab after the slash", f"Open [p](/\t/{EXFIL}/x) now", ("Open", "now", EXFIL)),
    Case("protocol-relative link", f"Open [p](//{EXFIL}/x) now", ("Open", "now", f"//{EXFIL}/x")),
    Case("protocol-relative link in angle brackets", f"Open [p](<//{EXFIL}/x>) now", ("Open", "now", EXFIL)),
    Case("backslash host link", f"Open [p](\\\\{EXFIL}\\x) now", ("Open", "now", EXFIL)),
    Case("angle-bracketed protocol-relative text", f"Open <//{EXFIL}/x> now", ("Open", "now", f"<//{EXFIL}/x>")),
    Case("fullwidth slashes", f"Open [p](\uff0f\uff0f{EXFIL}/x) now", ("Open", "now", EXFIL)),
    Case("double-encoded slashes stay a path", f"Open [p](/%252F%252F{EXFIL}) now", ("Open", "p", "now"),
         app_links=(f"/%252F%252F{EXFIL}",)),
    Case("query holding a host stays in the app", f"Open [p](?next=//{EXFIL}/x) and [q](#//{EXFIL}) now",
         ("Open", "p", "q", "now"), app_links=(f"?next=//{EXFIL}/x", f"#//{EXFIL}")),
    Case("app link with a title", f'See [heatmap](/heatmap "Sign in again at {EXFIL}") now', ("See", "heatmap", "now"),
         app_links=("/heatmap",)),
    Case("image right after an app link", f"See [heatmap](/heatmap)![x]({URL}) now", ("See", "heatmap", "now"),
         app_links=("/heatmap",)),
    Case("raw anchor to an app path", 'See <a href="/heatmap">heatmap</a> now', ("See", "heatmap", "now")),
    Case("raw anchor after a link", f'[ok](/heatmap) <a href="//{EXFIL}/x">x</a> now', ("ok", "now"),
         app_links=("/heatmap",)),
    # schemes in disguise
    Case("javascript in mixed case", "Run [p](JaVaScRiPt:alert(1)) now", ("Run", "now")),
    Case("javascript with an entity tab", "Run [p](java&#9;script:alert(1)) now", ("Run", "now")),
    Case("javascript with an entity letter", "Run [p](&#106;avascript:alert(1)) now", ("Run", "now")),
    Case("javascript with a hex entity colon", "Run [p](javascript&#x3a;alert(1)) now", ("Run", "now")),
    Case("javascript autolink", "Run <javascript:alert(1)> now", ("Run", "now")),
    Case("data URL link", "Run [p](data:text/html;base64,PHNjcmlwdD4=) now", ("Run", "now")),
    Case("vbscript link in upper case", "Run [p](VBSCRIPT:msgbox) now", ("Run", "now")),
    # GFM autolink literals at their edges
    Case("mixed-case www", f"See WwW.{EXFIL}/x now", ("See", "now")),
    Case("www with a short host", "See www.x.y now", ("See", "now")),
    Case("www after an underscore", f"See a_www.{EXFIL}/x now", ("See", "now")),
    Case("www in brackets", f"See [www.{EXFIL}] now", ("See", "now")),
    Case("URL after an underscore", f"See Q5_https://{EXFIL}/x now", ("See", "now")),
    Case("URL right after a digit", f"See 5https://{EXFIL}/x now", ("See", "now")),
    Case("angle autolink", f"See <https://{EXFIL}/h> now", ("See", "now")),
    Case("upper-case angle autolink", f"See <HTTPS://{EXFIL.upper()}/H> now", ("See", "now")),
    Case("mailto autolink", f"See <mailto:lab@{EXFIL}> now", ("See", "now")),
    Case("e-mail after an underscore", f"See x_lab@{EXFIL} now", ("See", "now")),
    Case("URL in an entity-written link", f"See &#91;x&#93;(https://{EXFIL}) now", ("See", "now")),
    # footnotes and reference definitions far from their use
    Case("footnote whose definition holds an image", f"Q05 drifted[^1].\n\n[^1]: ![x]({URL})", ("Q05 drifted",)),
    Case("footnote whose definition holds a link", f"Q05 drifted[^n] now.\n\n[^n]: See [s](https://{EXFIL}/f)",
         ("Q05 drifted", "now")),
    Case("reference image defined far away", f"Chip ![map][far] ok\n\n{FAR}\n\n[far]: {URL}", ("Chip", "ok", "Q39")),
    Case("reference link defined far away in another case", f"[Sign in][FaR] now\n\n{FAR}\n\n[far]: https://{EXFIL}/l",
         ("Sign in", "now", "Q39")),
    Case("reference defined in a later list item", f"- [go][d] one\n- two\n\n{FAR}\n\n- [d]: https://{EXFIL}/d",
         ("go", "one", "two")),
    # HTML blocks of each CommonMark kind, with markdown a reader might expect to be live after them
    Case("html block kind 1 pre", f"<pre>\n![x]({URL})\n</pre>\n\nok", ("ok",)),
    Case("html block kind 1 textarea", f"<textarea>\n<img src=\"{URL}\">\n</textarea>\n\nok", ("ok",)),
    Case("html block kind 2 comment holding a tag", f"<!--\n<img src=\"{URL}\">\n-->\n\nok", ("ok",)),
    Case("html block kind 3 with a link", f"<?xml-stylesheet href=\"{URL}\"?>\n\nok", ("ok",)),
    Case("html block kind 4 with a URL", f"<!ENTITY x SYSTEM \"{URL}\">\n\nok", ("ok",)),
    Case("html block kind 5 holding a tag", f"<![CDATA[\n<img src=\"{URL}\">\n]]>\n\nok", ("ok",)),
    Case("html block kind 6 table with an image", f"<table><tr><td>\n<img src=\"{URL}\">\n</td></tr></table>\n\nok",
         ("ok",)),
    Case("html block kind 7 anchor alone on its line", f"<a href=\"//{EXFIL}/x\">\nclick\n</a>\n\nok", ("click", "ok")),
    Case("html block kind 7 app anchor", "<a href=\"/heatmap\">\nheatmap\n</a>\n\nok", ("heatmap", "ok")),
)
