"""The policy's source pass: RestrictedPython's rules plus ours, applied when model code is compiled.

RestrictedPython only guards what is written in the model's source; the value, name and argument rules
(``policy_values``, ``policy_calls``) and the guards that apply them at run time (``policy_guards``) cover
what pandas, numpy and plotly do with their own ``getattr``/``open``/``eval``.  The OS layer
(``isolation``) backs this up.
"""

from __future__ import annotations

import ast
import types
import warnings

from RestrictedPython import RestrictingNodeTransformer, compile_restricted

FILENAME = "<llm>"
MAX_SOURCE_CHARS = 20_000
MODEL_FUNCTION = "_model_function_"  # every ``def`` and ``lambda`` model code writes is made a ``ModelFunction``


class AnalysisPolicy(RestrictingNodeTransformer):
    """RP's rules plus ours: no classes, decorators or ``global`` (nothing that outlives a call); every function
    model code writes checks what it is called with (``ModelFunction``)."""

    def visit_ClassDef(self, node: ast.ClassDef) -> ast.AST:
        self.error(node, "Class definitions are not allowed; use functions, dicts and DataFrames.")
        return node

    def _no_decorators(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        if node.decorator_list:
            self.error(node, "Decorators are not allowed.")

    def visit_FunctionDef(self, node: ast.FunctionDef) -> ast.AST:
        self._no_decorators(node)
        node = super().visit_FunctionDef(node)  # type: ignore[assignment]
        node.decorator_list = [ast.copy_location(ast.Name(MODEL_FUNCTION, ast.Load()), node)]
        return node

    def visit_Lambda(self, node: ast.Lambda) -> ast.AST:
        node = super().visit_Lambda(node)  # type: ignore[assignment]
        return ast.copy_location(ast.Call(ast.copy_location(ast.Name(MODEL_FUNCTION, ast.Load()), node), [node], []),
                                 node)

    def visit_Global(self, node: ast.Global) -> ast.AST:
        self.error(node, "'global' is not allowed; return values instead.")
        return node

    def visit_Nonlocal(self, node: ast.Nonlocal) -> ast.AST:
        self.error(node, "'nonlocal' is not allowed; return values instead.")
        return node


def compile_analysis(source: str) -> types.CodeType:
    """Compile model code under the policy; SyntaxError lists every refused construct with its line."""
    if not isinstance(source, str):
        raise SyntaxError("code must be a string")
    if len(source) > MAX_SOURCE_CHARS:
        raise SyntaxError(f"code is {len(source)} characters; the limit is {MAX_SOURCE_CHARS}")
    with warnings.catch_warnings():  # RP warns "prints but never reads 'printed'": expected here
        warnings.simplefilter("ignore", SyntaxWarning)
        try:
            return compile_restricted(source, filename=FILENAME, mode="exec", policy=AnalysisPolicy)
        except SyntaxError as exc:
            details = exc.args[0] if exc.args and isinstance(exc.args[0], (tuple, list)) else [str(exc)]
            raise SyntaxError("; ".join(map(str, details))) from None
