"""Every text that reaches the page from ``pages/`` and ``ui/`` comes from the render-safety module.

The rule, checked on the AST of every ``.py`` file under ``pages/`` and ``ui/``:

* A *text call* is a method call ``<anything>.<m>(...)`` with ``m`` in ``TEXT_METHODS`` (``st.markdown``,
  ``st.sidebar.caption``, ``container.warning``, ``status.markdown``, ...; receivers named ``log``, ``logger``
  or ``logging`` are not the page).  Its first positional argument, or its ``body=`` keyword, is checked.
* A *label call* is a method call with ``m`` in ``LABEL_METHODS`` (widgets, expanders, statuses, dialogs,
  ``st.column_config.*``, ``status.update``; ``st.Page(title=)``).  Its first positional argument or ``label=``
  keyword is checked, and takes only ``safe_label`` (or a constant): Streamlit draws labels in its label mode
  (``render_safety/sinks.py``), whose rewrite document markdown is not checked for.  Table column titles are drawn
  as plain text on a canvas and take ``safe_text``.
* The ``help=`` keyword of every call is checked.
* ``st.tabs`` takes a list written in the code: each of its labels is checked.
* An *options call* shows its options as labels: ``radio``, ``pills`` and ``segmented_control`` as markdown,
  ``selectbox``, ``multiselect`` and ``select_slider`` as plain text.  It either has a ``format_func=`` whose
  label is checked (a ``lambda`` whose body is allowed, or a function defined in the same file whose every
  ``return`` is allowed; for the plain-text ones only ``safe_text``, since escaped markdown would show its
  backslashes there), or its options are a list or tuple of constants written in the code.
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
from copilot_core.render_safety import SafeLabel, SafeMarkdown, SafeText

ROOT = Path(__file__).resolve().parents[2]
TEXT_METHODS = {"markdown", "caption", "warning", "error", "info", "success", "toast", "code", "text", "title",
                "header", "subheader", "write", "badge", "exception"}
LABEL_METHODS = {"dialog", "button", "download_button", "selectbox", "multiselect", "radio", "text_input", "text_area",
                 "checkbox", "toggle", "expander", "status", "popover", "number_input", "slider", "select_slider",
                 "date_input", "time_input", "page_link", "form_submit_button", "metric", "file_uploader",
                 "chat_input", "color_picker", "pills", "segmented_control", "feedback", "tabs", "update",
                 "Column", "TextColumn", "NumberColumn", "CheckboxColumn", "SelectboxColumn", "DatetimeColumn",
                 "DateColumn", "TimeColumn", "ListColumn", "LinkColumn", "ImageColumn", "LineChartColumn",
                 "BarChartColumn", "ProgressColumn", "AreaChartColumn", "JsonColumn", "MultiselectColumn"}
MARKDOWN_OPTIONS = {"radio", "pills", "segmented_control"}
PLAIN_OPTIONS = {"selectbox", "multiselect", "select_slider"}
NOT_THE_PAGE = {"log", "logger", "logging", "re", "str", "pd", "np"}
SAFE_CALLS = {"safe_markdown", "escape", "safe_label", "safe_text"}
PLAIN_CALLS = {"safe_text"}  # plain text: selectbox options and table column titles (drawn on a canvas, no markdown)
COLUMN_METHODS = {"Column", "TextColumn", "NumberColumn", "CheckboxColumn", "SelectboxColumn", "DatetimeColumn",
                  "DateColumn", "TimeColumn", "ListColumn", "LinkColumn", "ImageColumn", "LineChartColumn",
                  "BarChartColumn", "ProgressColumn", "AreaChartColumn", "JsonColumn", "MultiselectColumn"}
LABEL_CALLS = {"safe_label"}  # label mode (sinks.py): one line of plain text, checked as Streamlit renders labels


def _root(node: ast.expr) -> str:
    while isinstance(node, (ast.Attribute, ast.Call, ast.Subscript)):
        node = node.func if isinstance(node, ast.Call) else node.value
    return node.id if isinstance(node, ast.Name) else ""


def _allowed(node: ast.expr, calls: frozenset[str] | set[str] = SAFE_CALLS) -> bool:
    if isinstance(node, ast.Constant):
        return node.value is None or isinstance(node.value, str)
    if isinstance(node, ast.Call):
        func = node.func
        name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
        return name in calls
    if isinstance(node, ast.IfExp):
        return _allowed(node.body, calls) and _allowed(node.orelse, calls)
    return False


def _labeller_allowed(node: ast.expr, defs: dict[str, ast.FunctionDef], calls: set[str]) -> bool:
    """A ``format_func``: a lambda whose body is allowed, or a function of this file whose returns all are."""
    if isinstance(node, ast.Lambda):
        return _allowed(node.body, calls)
    if isinstance(node, ast.Name) and node.id in defs:
        returns = [n.value for n in ast.walk(defs[node.id]) if isinstance(n, ast.Return)]
        return bool(returns) and all(r is not None and _allowed(r, calls) for r in returns)
    return False


def _constants(node: ast.expr | None) -> bool:
    return isinstance(node, (ast.List, ast.Tuple)) and all(
        isinstance(e, ast.Constant) and isinstance(e.value, (str, int, float)) for e in node.elts)


def _checked(call: ast.Call, defs: dict[str, ast.FunctionDef]) -> list[tuple[str, ast.expr, set[str]]]:
    """The arguments of ``call`` that reach the page as text; an argument that breaks a rule outright is
    returned as ``ast.Starred`` of itself (never allowed)."""
    func = call.func
    if not isinstance(func, ast.Attribute) or _root(func.value) in NOT_THE_PAGE:
        return []
    keywords = {k.arg: k.value for k in call.keywords if k.arg}
    out = [("help", keywords["help"], SAFE_CALLS)] if "help" in keywords else []
    if func.attr == "tabs":  # its labels are a list written here, or a comprehension of allowed labels
        labels = call.args[0] if call.args else keywords.get("tabs")
        if isinstance(labels, (ast.ListComp, ast.GeneratorExp)):
            return out + [("tabs", labels.elt, LABEL_CALLS)]
        if isinstance(labels, (ast.List, ast.Tuple)):
            return out + [("tabs", e, LABEL_CALLS) for e in labels.elts]
        return out + [("tabs", ast.Starred(labels or call, lineno=call.lineno), LABEL_CALLS)]
    if func.attr == "Page" and "title" in keywords:  # navigation entries are drawn in label mode
        out.append(("Page", keywords["title"], LABEL_CALLS))
    if func.attr in MARKDOWN_OPTIONS | PLAIN_OPTIONS:
        calls = LABEL_CALLS if func.attr in MARKDOWN_OPTIONS else PLAIN_CALLS
        if "format_func" in keywords:
            if not _labeller_allowed(keywords["format_func"], defs, calls):
                out.append(("format_func", ast.Starred(keywords["format_func"], lineno=call.lineno), calls))
        else:
            options = call.args[1] if len(call.args) > 1 else keywords.get("options")
            if not _constants(options):
                out.append(("options", ast.Starred(options or call, lineno=call.lineno), calls))
    if func.attr in TEXT_METHODS:
        first, calls = call.args[0] if call.args else keywords.get("body"), SAFE_CALLS
    elif func.attr in LABEL_METHODS:
        first = call.args[0] if call.args else keywords.get("label")
        calls = PLAIN_CALLS if func.attr in COLUMN_METHODS else LABEL_CALLS
    else:
        return out
    return out + ([(func.attr, first, calls)] if first is not None else [])


def _raw_sinks(node: ast.Call) -> str | None:
    """Calls that would hand text to the browser outside every sink: a table column that loads or links its
    cells (``ImageColumn``, ``LinkColumn``), markdown with HTML switched on, and ``st.html`` of anything but a
    file of the project's own ``ASSETS``."""
    func = node.func
    name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
    if name in ("ImageColumn", "LinkColumn"):
        return f"{name} (a table cell is plain text: it never loads or links)"
    if any(k.arg in ("unsafe_allow_html", "allow_html") for k in node.keywords):
        return "HTML switched on"
    if name == "html" and isinstance(func, ast.Attribute) and _root(func.value) not in NOT_THE_PAGE:
        arg = node.args[0] if node.args else None
        own = (isinstance(arg, ast.BinOp) and isinstance(arg.op, ast.Div) and isinstance(arg.left, ast.Name)
               and arg.left.id == "ASSETS" and isinstance(arg.right, ast.Constant))
        return None if own else "st.html of something other than a project asset"
    return None


def violations(source: str, filename: str) -> list[str]:
    found = []
    tree = ast.parse(source, filename)
    defs = {n.name: n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)}
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and (raw := _raw_sinks(node)) is not None:
            found.append(f"{filename}:{node.lineno}: {raw}")
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "to_csv":
            found.append(f"{filename}:{node.lineno}: to_csv (CSV downloads go through render_safety.csv_bytes)")
        if isinstance(node, ast.Call):
            for what, arg, calls in _checked(node, defs):
                if not _allowed(arg, calls):
                    shown = arg.value if isinstance(arg, ast.Starred) else arg
                    found.append(f"{filename}:{arg.lineno}: {what}({ast.unparse(shown)[:90]})")
    return found


def test_every_text_on_the_page_comes_from_render_safety():
    files = sorted([ROOT / "app.py", *(ROOT / "pages").rglob("*.py"), *(ROOT / "ui").rglob("*.py")])
    assert len(files) >= 15
    found = [v for path in files for v in violations(path.read_text(), str(path.relative_to(ROOT)))]
    assert not found, "text reaching the page without render_safety:\n" + "\n".join(found)


@pytest.mark.parametrize("name,kind", [("safe_markdown", SafeMarkdown), ("escape", SafeMarkdown),
                                       ("safe_label", SafeLabel), ("safe_text", SafeText)])
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
    ('col.selectbox(safe_label(label), options)', True),
    ('col.selectbox(safe_label(label), options, format_func=lambda o: safe_text(o))', False),
    ('st.button("Go", help=f"id {x}")', True),
    ('status.update(label=f"Calling {name}")', True),
    ('st.column_config.NumberColumn(title)', True),
    ('st.error(plain(exc))', True),
    ('st.info("a" if x else escape(y))', False),
    ('log.error("failed %s", exc)', False),
    ('st.tabs([name])', True),
    ('st.tabs(["Overview", safe_label(name)])', False),
    ('st.tabs([safe_label(r["name"]) for r in rows])', False),
    ('st.tabs(names)', True),
    ('st.radio(escape(x), chips)', True),
    ('st.radio("Chip", chips, format_func=lambda c: safe_label(c))', False),
    ('st.radio("Chip", chips, format_func=lambda c: safe_text(c))', True),
    ('st.radio("Chip", chips, format_func=str)', True),
    ('st.radio("Chip", ("a", "b"))', False),
    ('st.selectbox("Chip", chips, format_func=lambda c: safe_text(titles[c]))', False),
    ('st.selectbox("Chip", chips, format_func=lambda c: escape(c))', True),
    ('st.multiselect("Chips", chips)', True),
    ('st.pills("Chip", (3, 7), format_func=lambda c: f"{c} days")', True),
    ('def lab(c):\n    return safe_label(c)\nst.pills("Chip", chips, format_func=lab)', False),
    ('def lab(c):\n    return c\nst.pills("Chip", chips, format_func=lab)', True),
    ('st.metric(name, 3)', True),
    ('st.column_config.TextColumn(f"{name}")', True),
    ('st.download_button(name, data)', True),
    ('st.expander(title)', True),
    ('st.download_button("CSV", frame.to_csv(index=False).encode())', True),
    # label mode (sinks.py): a label takes safe_label or a constant, never document markdown
    ('column.button(safe_markdown(safe_text(option, 80)))', True),
    ('column.button(escape(option))', True),
    ('column.button(safe_label(option, 80))', False),
    ('st.expander(safe_markdown(title))', True),
    ('st.tabs([escape(n) for n in names])', True),
    ('st.radio("Chip", chips, format_func=lambda c: escape(c))', True),
    ('status.update(label=escape(text))', True),
    ('st.Page("p.py", title=name)', True),
    ('st.Page("p.py", title="Overview")', False),
    ('st.dialog(escape(name))', True),
    ('st.column_config.NumberColumn(safe_text(title))', False),
    ('st.column_config.NumberColumn(safe_label(title))', True),
    ('st.caption(safe_label(x))', False),
    ('st.dataframe(f, column_config={"u": st.column_config.LinkColumn("Link")})', True),
    ('st.dataframe(f, column_config={"u": st.column_config.ImageColumn("Figure")})', True),
    ('st.markdown(safe_markdown(x), unsafe_allow_html=True)', True),
    ('st.html(ASSETS / "charts.css")', False),
    ('st.html(text)', True),
])
def test_the_rule_on_small_examples(code, bad):
    assert bool(violations(code, "example.py")) is bad
