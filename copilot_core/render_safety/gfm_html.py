"""CommonMark + GFM rendered to HTML by cmark-gfm, GitHub's reference C implementation, for the second look.

The second look parses the rewritten markdown with a different implementation from the one the rewrite is
built on (markdown-it-pyrs), so a quirk the rewrite relies on cannot hide itself, and at C speed.  The
``cmarkgfm`` package's own wrappers never free the parsed tree or the HTML, so the library it ships is called
here directly and both are freed.

Raw HTML is written as ``<!-- raw HTML omitted -->``, even raw HTML that looks like a tag plain markdown
produces (``<a href="/x">``), so the allowlist of tags refuses every piece of it; footnotes are on, as in GFM,
so a footnote definition is read as the block of markdown the browser renders (without them it reads as a
link definition whose "URL" can be a whole image).
"""

from __future__ import annotations

import ctypes
import threading
from importlib.util import find_spec

from cmarkgfm.cmark import Options

_OPTIONS = Options.CMARK_OPT_FOOTNOTES | Options.CMARK_OPT_VALIDATE_UTF8
_EXTENSIONS = (b"table", b"strikethrough")


def _library() -> ctypes.CDLL:
    spec = find_spec("cmarkgfm._cmark")
    if spec is None or spec.origin is None:
        raise ImportError("cmarkgfm's compiled library is missing")
    lib = ctypes.CDLL(spec.origin)
    pointer = ctypes.c_void_p
    for name, result, arguments in (
            ("cmark_gfm_core_extensions_ensure_registered", None, []),
            ("cmark_find_syntax_extension", pointer, [ctypes.c_char_p]),
            ("cmark_parser_new", pointer, [ctypes.c_int]),
            ("cmark_parser_attach_syntax_extension", ctypes.c_int, [pointer, pointer]),
            ("cmark_parser_feed", None, [pointer, ctypes.c_char_p, ctypes.c_size_t]),
            ("cmark_parser_finish", pointer, [pointer]),
            ("cmark_parser_get_syntax_extensions", pointer, [pointer]),
            ("cmark_render_html", pointer, [pointer, ctypes.c_int, pointer]),
            ("cmark_node_free", None, [pointer]),
            ("cmark_parser_free", None, [pointer])):
        function = getattr(lib, name)
        function.restype, function.argtypes = result, arguments
    return lib


_LIB = _library()
_LIB.cmark_gfm_core_extensions_ensure_registered()
_FOUND = tuple(_LIB.cmark_find_syntax_extension(name) for name in _EXTENSIONS)
if not all(_FOUND):
    raise ImportError("cmark-gfm lacks the table or strikethrough extension")
_FREE = ctypes.CDLL(None).free  # cmark's default allocator is the C library's
_FREE.restype, _FREE.argtypes = None, [ctypes.c_void_p]
# ctypes lets go of the GIL during a call, and cmark-gfm's extensions switch characters in one table shared by
# every parser while they parse (github/cmark-gfm#176): one parse at a time, as Streamlit runs sessions in threads.
_ONE_AT_A_TIME = threading.Lock()


def render(markdown: str) -> str:
    """``markdown`` as the HTML cmark-gfm writes for it (tables, strikethrough, footnotes, raw HTML marked)."""
    data = markdown.encode("utf-8", "surrogatepass")  # invalid UTF-8 is replaced by cmark (VALIDATE_UTF8)
    with _ONE_AT_A_TIME:
        return _render(data)


def _render(data: bytes) -> str:
    parser = _LIB.cmark_parser_new(_OPTIONS)
    if not parser:
        raise MemoryError("cmark-gfm could not start a parser")
    root = html = None
    try:
        for extension in _FOUND:
            _LIB.cmark_parser_attach_syntax_extension(parser, extension)
        _LIB.cmark_parser_feed(parser, data, len(data))
        root = _LIB.cmark_parser_finish(parser)
        if not root:
            raise MemoryError("cmark-gfm could not parse")
        html = _LIB.cmark_render_html(root, _OPTIONS, _LIB.cmark_parser_get_syntax_extensions(parser))
        if not html:
            raise MemoryError("cmark-gfm could not render")
        return ctypes.string_at(html).decode("utf-8", "replace")
    finally:
        if html:
            _FREE(html)
        if root:
            _LIB.cmark_node_free(root)
        _LIB.cmark_parser_free(parser)
