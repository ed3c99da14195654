"""Every text that reaches the page from ``pages/`` and ``ui/`` comes from the render-safety module.

The rule, checked on the AST of every ``.py`` file under ``pages/`` and ``ui/``:

* A *text call* is a method call ``<anything>.<m>(...)`` with ``m`` in ``TEXT_METHODS`` (``st.markdown``,
  ``st.sidebar.caption``, ``container.warning``, ``status.markdown``, ...; receivers named ``log``, ``logger``
  or ``logging`` are not the page).  Its first positional argument, or its ``body=`` keyword, is checked.
* A *label call* is a method call with ``m`` in ``LABEL_METHODS`` (widgets, expanders, statuses,
  ``st.column_config.*``, ``status.update``).  Its first positional argument or ``label=`` keyword is checked.
* The ``help=`` keyword of every call is checked.
* ``DataFrame.to_csv`` is not called at all: every CSV download is ``render_safety.csv_bytes(frame)``, which
  neutralises formula cells.

A checked argument is allowed only when it is
  1. a string constant written in the code (``"No saved chats yet."``; no f-string, no ``+``, no ``%``), or
  2. a call of ``safe_markdown``, ``escape``, ``safe_label`` or ``safe_text`` (the functions of
     ``copilot_core.render_safety`` that return ``SafeMarkdown``/``SafeText``), whatever is inside it, or
  3. ``a if cond else b`` where ``a`` and ``b`` are each allowed, or ``None``.

So a text that mixes constants with data is written ``escape(f"...{value}...")`` (shown as typed) or
``safe_markdown(f"**{escape(name)}** ...")`` (markdown from the code, data escaped inside).  The second
test proves that those four functions do return the safe types, so rule 2 is a type check by name.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from copilot_core import render_safety
from copilot_core.render_safety import SafeMarkdown, SafeText

ROOT = Path(__file__).resolve().parents[2]
TEXT_METHODS = {"markdown", "caption", "warning", "error", "info", "success", "toast", "code", "text", "title",
                "header", "subheader", "write", "badge", "exception"}
LABEL_METHODS = {"button", "download_button", "selectbox", "multiselect", "radio", "text_input", "text_area",
                 "checkbox", "toggle", "expander", "status", "popover", "number_input", "slider", "select_slider",
                 "date_input", "time_input", "page_link", "form_submit_button", "metric", "file_uploader",
                 "chat_input", "color_picker", "pills", "segmented_control", "feedback", "tabs", "update",
                 "Column", "TextColumn", "NumberColumn", "CheckboxColumn", "SelectboxColumn", "DatetimeColumn",
                 "DateColumn", "TimeColumn", "ListColumn", "LinkColumn", "ImageColumn", "LineChartColumn",
                 "BarChartColumn", "ProgressColumn", "AreaChartColumn", "JsonColumn", "MultiselectColumn"}
NOT_THE_PAGE = {"log", "logger", "logging", "re", "str", "pd", "np"}
SAFE_CALLS = {"safe_markdown", "escape", "safe_label", "safe_text"}


def _root(node: ast.expr) -> str:
    while isinstance(node, (ast.Attribute, ast.Call, ast.Subscript)):
        node = node.func if isinstance(node, ast.Call) else node.value
    return node.id if isinstance(node, ast.Name) else ""


def _allowed(node: ast.expr) -> bool:
    if isinstance(node, ast.Constant):
        return node.value is None or isinstance(node.value, str)
    if isinstance(node, ast.Call):
        func = node.func
        name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
        return name in SAFE_CALLS
    if isinstance(node, ast.IfExp):
        return _allowed(node.body) and _allowed(node.orelse)
    return False


def _checked(call: ast.Call) -> list[tuple[str, ast.expr]]:
    func = call.func
    if not isinstance(func, ast.Attribute) or _root(func.value) in NOT_THE_PAGE:
        return []
    keywords = {k.arg: k.value for k in call.keywords if k.arg}
    out = [("help", keywords["help"])] if "help" in keywords else []
    if func.attr in TEXT_METHODS:
        first = call.args[0] if call.args else keywords.get("body")
    elif func.attr in LABEL_METHODS:
        first = call.args[0] if call.args and func.attr != "tabs" else keywords.get("label")
    else:
        return out
    return out + ([(func.attr, first)] if first is not None else [])


def violations(source: str, filename: str) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(source, filename)):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "to_csv":
            found.append(f"{filename}:{node.lineno}: to_csv (CSV downloads go through render_safety.csv_bytes)")
        if isinstance(node, ast.Call):
            for what, arg in _checked(node):
                if not _allowed(arg):
                    found.append(f"{filename}:{arg.lineno}: {what}({ast.unparse(arg)[:90]})")
    return found


def test_every_text_on_the_page_comes_from_render_safety():
    files = sorted([*(ROOT / "pages").rglob("*.py"), *(ROOT / "ui").rglob("*.py")])
    assert len(files) >= 15
    found = [v for path in files for v in violations(path.read_text(), str(path.relative_to(ROOT)))]
    assert not found, "text reaching the page without render_safety:\n" + "\n".join(found)


@pytest.mark.parametrize("name,kind", [("safe_markdown", SafeMarkdown), ("escape", SafeMarkdown),
                                       ("safe_label", SafeMarkdown), ("safe_text", SafeText)])
def test_the_allowed_calls_return_the_safe_types(name, kind):
    result = getattr(render_safety, name)("chip ![x](https://host.example/u.png) =HYPERLINK()\n")
    assert type(result) is kind
    assert set(SAFE_CALLS) == {"safe_markdown", "escape", "safe_label", "safe_text"}


@pytest.mark.parametrize("code,bad", [
    ('st.warning(f"The link asks for {raw}")', True),
    ('st.warning("fixed text")', False),
    ('st.sidebar.caption(escape(f"model {m}"))', False),
    ('st.caption("a" + name)', True),
    ('col.selectbox(label, options)', True),
    ('col.selectbox(safe_label(label), options)', False),
    ('st.button("Go", help=f"id {x}")', True),
    ('status.update(label=f"Calling {name}")', True),
    ('st.column_config.NumberColumn(title)', True),
    ('st.error(plain(exc))', True),
    ('st.info("a" if x else escape(y))', False),
    ('log.error("failed %s", exc)', False),
    ('st.tabs([name])', False),
    ('st.download_button("CSV", frame.to_csv(index=False).encode())', True),
])
def test_the_rule_on_small_examples(code, bad):
    assert bool(violations(code, "example.py")) is bad
