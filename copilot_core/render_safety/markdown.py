"""Model and database markdown, rebuilt from a CommonMark parse into markdown that loads nothing.

A compromised model (or a prompt injection planted in a calibration note) can write markdown whose images
the viewer's browser fetches as soon as the answer renders, links that carry data away, raw HTML and
``javascript:`` URLs.  Regexes over markdown miss nesting, reference definitions and entities, so the text
is parsed by markdown-it (markdown-it-pyrs: the CommonMark-compliant Rust port of the parser behind
markdown-it-py) with raw HTML switched off, and its HTML output, which then holds only tags the parser wrote
itself, is written back as markdown:

- every piece of text is re-emitted with all ASCII punctuation backslash-escaped, so it can only ever be
  text (no emoji or colour directives, math, HTML or entities survive the escape); URLs, ``www.`` hosts and
  e-mail addresses become inline code, since Streamlit's renderer links them even when escaped;
- images become ``[image removed: alt — url]``;
- links are kept only when they point into the app itself (``/page``, ``?query``, ``#anchor``); any other
  target is shown as its label followed by the URL as inline code;
- raw HTML is shown as the text it is; code stays code behind a fence longer than anything inside it.

The escaping, inline markup and tables are rewritten over the whole document at once (C-speed string
passes); Python only visits links, images, code, URLs and block tags, so a 20 KB answer costs about as
much as parsing it.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache
from itertools import count, repeat
from urllib.parse import quote

from markdown_it_pyrs import MarkdownIt

from copilot_core.render_safety.markdown_check import is_app_link, loads_nothing, plain_text, unhtml

MAX_SHOWN_URL = 200
_ESCAPES = {c: "\\" + chr(c) for c in range(0x21, 0x7F) if not chr(c).isalnum()}  # all ASCII punctuation
# The same, one character at a time (a C-speed replace per character present beats ``str.translate``'s
# per-character lookup several times over), backslash first, sparing ``<`` and ``>``: the parser's HTML
# holds none in text, so they still mark its own tags after escaping.
_ESCAPED_BUT_TAGS = tuple((chr(c), e) for c, e in sorted(_ESCAPES.items(), key=lambda ce: ce[0] != ord("\\"))
                          if chr(c) not in "<>")
# Bidi overrides/isolates and zero-width characters: they disguise text, never carry meaning in an answer.
# Lone surrogates (JSON's "\\ud800" decodes to one) are no text at all, and no parser can encode them.
_INVISIBLE = re.compile(r"[\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff\ud800-\udfff]")
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
_CONTROL_BYTES = bytes(c for c in range(256) if _CONTROL.match(chr(c)))
_DISGUISE = re.compile(_INVISIBLE.pattern[:-1] + _CONTROL.pattern[1:])  # either kind, one character class
# Text a renderer links by itself (GFM autolink literals), each behind a case-sensitive substring it cannot lack
# (found at C speed, before any lowering) and the substrings it cannot lack in any case, so the pattern only runs
# on answers that could hold one.  URLs end at a tag or a set-aside placeholder.
_URL_CHARS = r"[^\s<\x00-\x03]"
# GFM links a scheme after anything but a letter and "www." after anything but a letter or digit ("Q5_https://",
# "a_www." included), so neither starts at a word boundary only.
_URLISH = (((":",), ("://",), re.compile(r"(?i)(?<![a-z])[a-z][a-z0-9+.\-]{0,30}://" + _URL_CHARS + "*")),
           ((":",), ("mailto:", "javascript:", "data:", "vbscript:", "file:", "tel:", "sms:"),
            re.compile(r"(?i)\b(?:mailto|javascript|data|vbscript|file|tel|sms):" + _URL_CHARS + "+")),
           (("w.", "W."), ("www.",), re.compile(r"(?i)(?<![a-z0-9])www\." + _URL_CHARS + "+")),
           (("@",), ("@",), re.compile(r"(?<![\w.+\-])[\w.+\-]+@[\w\-]+(?:\.[\w\-]+)+")))
_FENCE_INFO = re.compile(r"[^A-Za-z0-9_+-]")
_BACKTICKS = re.compile(r"`+")
_TILDES = re.compile(r"~+")

# CommonMark with tables and strikethrough, raw HTML off: HTML in the input stays text.
_PARSER = MarkdownIt("zero").enable_many([
    "blockquote", "code", "fence", "heading", "hr", "lheading", "list", "paragraph", "reference", "autolink",
    "backticks", "emphasis", "entity", "escape", "image", "link", "newline", "table", "strikethrough"])
# What Python must look at in the parser's HTML: code blocks, code spans, links and images.
_SPECIAL = re.compile(r'<pre><code(?: class="([^"]*)")?>([^<]*)</code></pre>'
                      r'|<code>([^<]*)</code>'
                      r'|<a href="([^"]*)"[^>]*>(.*?)</a>'
                      r'|<img src="([^"]*)" alt="([^"]*)"[^>]*>', re.DOTALL)
_WORDS = re.compile(r'<img src="[^"]*" alt="([^"]*)"[^>]*>|<[^>]*>')
# Tags the rewrite turns into markdown; anything else (a tag written in a way this module does not expect)
# is shown as text, never left as raw HTML.
_OTHER_TAG = re.compile(r'<(?!(?:/?(?:p|h[1-6]|blockquote|ul|ol|li|strong|em|s|table|tbody|thead|tr)|ol start="\d+"'
                        r'|br /|hr /)>)[^>]*>')
_UNSAFE_IN_TARGET = re.compile(r"[\s<>]")
_STASHED = re.compile("\x00(\\d+)\x01")
# After escaping, the parser's own inline tags and entities in their escaped spelling.
# Each group behind a substring all of its tags hold, so an answer without them is scanned once, not per tag.
_INLINE_TAGS = (("&", (("\\&lt\\;", "\\<"), ("\\&gt\\;", "\\>"), ("\\&quot\\;", '\\"'), ("\\&amp\\;", "\\&"))),
                ("strong>", (("<strong>", "**"), ("<\\/strong>", "**"))), ("em>", (("<em>", "*"), ("<\\/em>", "*"))),
                ("s>", (("<s>", "~~"), ("<\\/s>", "~~"))), ("<br", (("<br \\/>", "\\"),)), ("\x04", (("\x04", "|"),)))
# A "|" inside a table: written back as "\\|" at the very end, code spans included (GFM splits a row into cells
# on every unescaped "|", even inside a code span, before reading any inline markup).
_PIPE = "\ue005"
_ALIGN = {"left": ":---", "center": ":---:", "right": "---:"}
# Tables are rewritten before escaping (the escaping pass then has far less to walk); \x04 is a column rule.
_TABLE_START, _HEAD_END, _TABLE_END = "<table>\n<thead>\n<tr>\n", "</tr>\n</thead>\n", "</table>"
_BODY_START, _BODY_END = "<tbody>\n<tr>\n", "</tr>\n</tbody>\n"
_ALIGNED = re.compile(r'<th(?: style="text-align:([a-z]+)")?>')  # "" for a column without alignment
# A tight list whose items hold only text: most lists an answer has, written out in one step.
_SIMPLE_LIST = re.compile(r'<(ul|ol)(?: start\\=\\"(\d+)\\")?>\n((?:<li>[^<\x02]*<\\/li>\n)+)<\\/\1>')
# Read with every block placeholder behind a "<": a pattern that starts with one character is searched for
# far faster than one that starts with a choice of two.
_BLOCK = re.compile(r'<(?:(\\/)?(p|h[1-6]|blockquote|ul|ol|li|table)(?: start\\=\\"(\d+)\\")?>|hr \\/>|\x02(\d+)\x03)')


def escape(text: str) -> str:
    """Plain text that every markdown renderer shows as typed."""
    return text.translate(_ESCAPES)


def unescape(markdown: str) -> str:
    """The text a reader sees for escaped plain text (used by readability checks)."""
    return re.sub(r"\\([!-/:-@\[-`{-~])", r"\1", markdown)


def clean_text(text: str) -> str:
    """No control, zero-width or bidi-override characters (kept: newline, tab, carriage return)."""
    try:
        raw = text.encode("latin-1")  # every character below U+0100, so none of the invisible ones
    except UnicodeEncodeError:
        if not _DISGUISE.search(text):
            return text
    else:  # deleting bytes is a far quicker scan than a regex's character class
        if len(raw.translate(None, _CONTROL_BYTES)) == len(raw):
            return text
    return _INVISIBLE.sub("", _CONTROL.sub(" ", text))


def _shown_url(url: str) -> str:
    """A URL as visible text that no renderer turns into a link: inline code."""
    url = clean_text(url).replace("\n", " ")
    return _code_span(url if len(url) <= MAX_SHOWN_URL else url[:MAX_SHOWN_URL] + "…")


def _code_span(content: str) -> str:
    content = content.replace("\n", " ")
    if "`" not in content:
        return f"`{content}`" if content.strip() else f"` {content} `"
    ticks = "`" * (max((len(m) for m in _BACKTICKS.findall(content)), default=0) + 1)
    pad = " " if content.startswith("`") or content.endswith("`") or not content.strip() else ""
    return f"{ticks}{pad}{content}{pad}{ticks}"


def _percent(found: re.Match[str]) -> str:
    """A character a link target cannot hold, percent-encoded as its UTF-8 bytes (as a browser sends it)."""
    return quote(found.group(), safe="")


def _link(href: str, label: Callable[[], str], words: str) -> str:
    """An app link stays a link; any other target is its label followed by the URL as inline code.
    ``label`` (the escaped label) is only worked out when it is shown."""
    if is_app_link(href):
        target = _UNSAFE_IN_TARGET.sub(_percent, href) if _UNSAFE_IN_TARGET.search(href) else href
        return f"[{label() or escape(href)}](<{target}>)"
    words = words.strip()
    if not words or words == href.strip() or "mailto:" + words == href:  # autolinks show their URL once
        return _shown_url(words or href)
    return f"{label()} ({_shown_url(href)})"


def _image(alt: str, src: str) -> str:
    alt = alt.replace("\n", " ").strip()
    described = escape(alt[:MAX_SHOWN_URL]) or "no description"
    return f"\\[image removed: {described} — {_shown_url(src)}\\]" if src else f"\\[image removed: {described}\\]"


def _fence(content: str, info: str) -> list[str]:
    content = content.rstrip("\n")
    longest = max((len(m) for m in _BACKTICKS.findall(content) + _TILDES.findall(content)), default=0)
    fence = "`" * max(3, longest + 1)
    info = _FENCE_INFO.sub("", info.removeprefix("language-").split(" ")[0])[:30]
    return [fence + info, *content.split("\n"), fence]


def _rows(html: str, cell: str, aligns: set[str]) -> str:
    """Table rows as markdown lines from their HTML without the first ``<tr>`` and the last ``</tr>`` (every
    cell a ``cell``: th or td).  A handful of replaces over the rows, not one per tag kind the parser has."""
    rows = html.replace("</tr>\n<tr>\n", "\n\x04").replace(f"</{cell}>\n", " \x04").replace(f"<{cell}>", " ")
    for align in aligns:
        rows = rows.replace(f'<{cell} style="text-align:{align}">', " ")
    return "\x04" + rows + "\n"


def _tables(text: str, stash: list[str]) -> str:
    """Tables as markdown rows: the header, a row of alignment marks, the body (the cells' text is escaped
    afterwards).  Found with ``str.find``: a lazy regex over every cell costs more than the table's own work."""
    out, pos = [], 0
    while (start := text.find(_TABLE_START, pos)) >= 0:
        head_end = text.find(_HEAD_END, start)
        end = text.find(_TABLE_END, head_end)
        body = text[head_end + len(_HEAD_END):end]
        if head_end < 0 or end < 0 or body and not (body.startswith(_BODY_START) and body.endswith(_BODY_END)):
            break  # not a table the parser wrote: its tags are left to be shown as text
        head = text[start + len(_TABLE_START):head_end].replace("|", _PIPE)
        body = body.replace("|", _PIPE)
        aligns = _ALIGNED.findall(head)
        stash.append("|" + "".join(f" {_ALIGN.get(align, '---')} |" for align in aligns))
        kinds = _ALIGN.keys() & aligns
        rows = _rows(head, "th", kinds) + f"\x00{len(stash) - 1}\x01\n"
        if body:
            rows += _rows(body[len(_BODY_START):-len(_BODY_END)], "td", kinds)
        out += [text[pos:start], "<table>", rows]
        pos = end
    out.append(text[pos:])
    return "".join(out)


def _inline(html: str, stash: list[str], fences: list[list[str]], seen: dict[str, str]) -> str:
    """Escaped markdown for a stretch of the parser's HTML.  What needs Python (code, links, images, URLs) is
    set aside as a numbered placeholder first, so the escaping pass cannot touch it.  ``seen`` maps HTML
    already set aside in this document to its placeholder: an answer repeats the same link or code often
    (a row per qubit), and the same HTML always becomes the same markdown."""

    def set_aside(found: re.Match[str]) -> str:
        if (known := seen.get(whole := found.group())) is not None:
            return known
        code_block, code, href, label, src, alt = found.group(2, 3, 4, 5, 6, 7)
        if code_block is not None:
            fences.append(_fence(clean_text(unhtml(code_block)), unhtml(found.group(1) or "")))
            seen[whole] = placeholder = f"\x02{len(fences) - 1}\x03"
            return placeholder
        if code is not None:
            shown = _code_span(unhtml(code))
        elif href is not None:
            words = unhtml(_WORDS.sub(r"\1", label) if "<" in label else label).replace("\n", " ")
            plain = not ("<" in label or "&" in label or ":" in label or "@" in label or "." in label)
            shown = _link(unhtml(href), lambda: label.translate(_ESCAPES) if plain else
                          _expanded(_inline(label, stash, fences, seen), stash), words)
        else:
            shown = _image(unhtml(alt), unhtml(src))
        stash.append(shown.replace("\n", " "))  # one line: placeholders are filled in after indenting
        seen[whole] = placeholder = f"\x00{len(stash) - 1}\x01"
        return placeholder

    def url_aside(found: re.Match[str]) -> str:  # a URL holds no "<", so it never collides with set-aside HTML
        if (known := seen.get(url := found.group())) is not None:
            return known
        stash.append(_code_span(unhtml(url)))
        seen[url] = placeholder = f"\x00{len(stash) - 1}\x01"
        return placeholder

    if "<" in html:
        if "<table>" in html:  # first: a table's many tags then no longer slow the passes below
            html = _tables(html, stash)
        html = _SPECIAL.sub(set_aside, html)
        html = _OTHER_TAG.sub(lambda m: m.group().replace("<", "&lt;").replace(">", "&gt;"), html)
    lowered = ""
    for gates, needles, pattern in _URLISH:
        if any(gate in html for gate in gates):
            lowered = lowered or html.lower()
            if any(needle in lowered for needle in needles):
                html = pattern.sub(url_aside, html)
    text = html
    for char, escaped in _ESCAPED_BUT_TAGS:
        if char in text:
            text = text.replace(char, escaped)
    for needle, tags in _INLINE_TAGS:
        if needle in text:
            for tag, markdown in tags:
                text = text.replace(tag, markdown)
    return text


def _expanded(text: str, stash: list[str]) -> str:
    """``text`` with its placeholders filled in."""
    if "\x00" not in text:
        return text
    parts = _STASHED.split(text)
    parts[1::2] = [stash[int(i)] for i in parts[1::2]]
    return "".join(parts)


def _indent(lines: list[str], first: str, rest: str) -> list[str]:
    """``lines`` inside a container: a blank line keeps the container's marker (``>``), or a quoted fence
    holding a blank line would end the quote there and let the rest render live."""
    return [(first if i == 0 else rest) + line if line else (first if i == 0 else rest).rstrip()
            for i, line in enumerate(lines)] or [first.rstrip()]


def _joined(groups: list[list[str]], blank: bool = True) -> list[str]:
    out: list[str] = []
    for lines in groups:
        if out and blank:
            out.append("")
        out += lines
    return out


class _Box:
    """An open container of blocks while the document is read: the root, a blockquote, a list or an item."""

    __slots__ = ("groups", "kind", "loose", "number")

    def __init__(self, kind: str, number: int = 1) -> None:
        self.kind = kind
        self.groups: list[list[str]] = []  # blocks as lines; for a list, its items
        self.loose = False
        self.number = number


def _rewrite(html: str) -> str:
    stash: list[str] = []
    fences: list[list[str]] = []
    text = _inline(html, stash, fences, {})

    def simple_list(found: re.Match[str]) -> str:
        number = int(found.group(2) or 1)
        items = found.group(3)
        if items.count("\n") == items.count("<li>"):  # one line per item: each is its marker and its text
            texts = items[4:-7].split("<\\/li>\n<li>")
            markers = repeat("- ") if found.group(1) == "ul" else (f"{n}. " for n in count(number))
            fences.append([marker + text if text and not text.isspace() else marker.rstrip()
                           for marker, text in zip(markers, texts)])
            return f"\x02{len(fences) - 1}\x03"
        lines: list[str] = []
        for item in items.split("<\\/li>\n")[:-1]:
            text = item[4:]  # after "<li>"
            marker = f"{number}. " if found.group(1) == "ol" else "- "
            number += 1
            lines += _indent(text.strip("\n").split("\n") if text and not text.isspace() else [],
                             marker, " " * len(marker))
        fences.append(lines)
        return f"\x02{len(fences) - 1}\x03"

    if "<li>" in text:
        text = _SIMPLE_LIST.sub(simple_list, text)

    boxes = [_Box("root")]
    # The text between block tags (inline text a paragraph, heading, table or tight item closes), then each
    # tag's groups: five entries a tag.
    parts = _BLOCK.split(text.replace("\x02", "<\x02"))
    for pending, closing, name, start, fence in zip(*(parts[i::5] for i in range(5))):
        box = boxes[-1]
        if pending and not pending.isspace():
            if name and name[0] == "h" and closing:
                box.groups.append(["#" * int(name[1]) + " " + " ".join(pending.strip("\n").split("\n"))])
            else:
                box.groups.append(pending.strip("\n").split("\n"))
        if fence is not None:
            box.groups.append(fences[int(fence)])
        elif name is None:
            box.groups.append(["---"])
        elif not closing:
            if name == "p" and box.kind == "li":
                box.loose = True
            elif name in ("blockquote", "ul", "ol", "li"):
                boxes.append(_Box(name, int(start) if start else 1))
        elif name in ("blockquote", "ul", "ol", "li"):
            boxes.pop()
            parent = boxes[-1]
            if name == "li":
                marker = f"{parent.number}. " if parent.kind == "ol" else "- "
                parent.number += 1
                parent.loose = parent.loose or box.loose
                parent.groups.append(_indent(_joined(box.groups, box.loose), marker, " " * len(marker)))
            elif name == "blockquote":
                parent.groups.append(_indent(_joined(box.groups), "> ", "> "))
            else:
                parent.groups.append(_joined(box.groups, box.loose))
    if (pending := parts[-1]) and not pending.isspace():
        boxes[-1].groups.append(pending.strip("\n").split("\n"))
    while len(boxes) > 1:  # only for HTML the parser did not write: nothing is dropped
        boxes[-2].groups.append(_joined(boxes.pop().groups))
    return _expanded("\n".join(_joined(boxes[0].groups)), stash)


@lru_cache(maxsize=512)
def _rebuilt(text: str) -> str:
    text = clean_text(text)
    html = _PARSER.render(text)
    if "&" in text:  # an entity can name any character
        html = clean_text(html)
    if _PIPE in html:
        html = html.replace(_PIPE, "")
    out = _rewrite(html)
    if _PIPE in out:
        out = out.replace(_PIPE, "\\|")
    return out if loads_nothing(out) else plain_text(text)


def safe_markdown(text: str) -> str:
    """Markdown that renders the same words as ``text`` but shows no image, raw HTML or outside link.
    Results are remembered: Streamlit redraws every message of a chat on each rerun."""
    return _rebuilt(str(text))
