"""The namespace model code runs in: the sandbox's builtins (``policy_guards.SANDBOX_BUILTINS``), one print
buffer shared by every ``print``, an ``__import__`` that hands out curated namespaces, the guards as
RestrictedPython's hooks, the preloaded libraries and ``data``."""

from __future__ import annotations

import builtins
from collections.abc import Callable, Mapping
from typing import Any

from RestrictedPython.Guards import guarded_iter_unpack_sequence, guarded_unpack_sequence

from copilot_core.sandbox.memsafe import SecurityError
from copilot_core.sandbox.policy_compile import MODEL_FUNCTION
from copilot_core.sandbox.policy_guards import (
    SANDBOX_BUILTINS,
    ModelFunction,
    apply_call,
    guarded_getattr,
    guarded_getitem,
    guarded_inplacevar,
    guarded_iter,
    guarded_write,
)
from copilot_core.sandbox.proxies import PRELOADED, Namespace

MAX_PRINT_CHARS = 64 * 1024


class PrintLimitExceeded(SecurityError):
    """Model code printed more than the cap."""


class PrintBuffer:
    """One buffer per job shared by every ``print`` (RP makes a collector per function; we share one)."""

    def __init__(self, limit: int = MAX_PRINT_CHARS) -> None:
        self.parts: list[str] = []
        self.size = 0
        self.limit = limit

    def __call__(self) -> str:  # RP compiles the ``printed`` name to ``_print()``
        return self.text()

    def write(self, text: str) -> None:
        if self.size + len(text) > self.limit:
            raise PrintLimitExceeded(f"printed output exceeded {self.limit // 1024} KiB; print a summary instead")
        self.parts.append(text)
        self.size += len(text)

    def _call_print(self, *objects: object, **kwargs: Any) -> None:  # print's own keywords (sep, end, flush)
        if kwargs.pop("file", None) is not None:
            raise SecurityError("print(file=...) is not allowed")
        builtins.print(*objects, **kwargs, file=self)

    def text(self) -> str:
        return "".join(self.parts)


def make_importer(namespaces: Mapping[str, Namespace]) -> Callable[..., Any]:
    """``__import__`` that hands out curated namespaces, never modules."""

    def sandbox_import(name: str, globals: Any = None, locals: Any = None, fromlist: Any = (), level: int = 0):
        if level:
            raise ImportError("relative imports are not available in the sandbox")
        if name not in namespaces:
            raise ImportError(f"import of {name!r} is not allowed; available: "
                              f"{', '.join(sorted(n for n in namespaces if '.' not in n))}, plotly.graph_objects, "
                              "plotly.express, plotly.subplots")
        if fromlist:
            return namespaces[name]
        return namespaces[name.split(".", 1)[0]]

    return sandbox_import


def build_globals(namespaces: Mapping[str, Namespace], data: Mapping[str, object], printer: PrintBuffer) -> dict:
    """The complete namespace model code runs in: safe builtins, guards, curated libraries, ``data``."""
    allowed_builtins = {**SANDBOX_BUILTINS, "__import__": make_importer(namespaces)}
    env = {
        "__builtins__": allowed_builtins,
        "__name__": "__sandbox__",
        "_getattr_": guarded_getattr,
        "_getitem_": guarded_getitem,
        "_getiter_": guarded_iter,
        "_iter_unpack_sequence_": guarded_iter_unpack_sequence,
        "_unpack_sequence_": guarded_unpack_sequence,
        "_write_": guarded_write,
        "_inplacevar_": guarded_inplacevar,
        "_print_": lambda _getattr_=None: printer,  # RP calls _print_(_getattr_) once per scope
        "_apply_": apply_call,
        MODEL_FUNCTION: ModelFunction,
        "data": data,
    }
    env.update({alias: namespaces[module] for alias, module in PRELOADED.items()})
    env["make_subplots"] = namespaces["plotly.subplots"].make_subplots
    return env
