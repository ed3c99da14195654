"""The turn's call ledger: every tool call of one turn, so the same call is answered from it and never runs twice.

One record serves both questions the loop asks: was this exact call made (the model circling back), and does an
earlier call already hold this one's answer (the same tool with its arguments spelled as the tool normalised them,
``"Q05"`` -> ``"5"`` or a default written out).  The router's call before the first round is recorded like any
other.  A failed call answers only its exact repeat (a failure may be transient, so another spelling runs again);
other spellings match only for tools whose ``ToolSpec.cacheable`` is set (not the sandbox: model code is only ever
its exact text).
"""

from __future__ import annotations

import json

from copilot_core.checking.claim_facts import Fact, tool_facts
from copilot_core.tools.args import validate_args
from copilot_core.tools.registry import TOOLS_BY_NAME, cacheable
from copilot_core.tools.spec import ToolError
from copilot_core.tools.toolkit import ToolOutcome


def cache_key(name: str, args: object) -> str | None:
    """``name`` + canonical JSON of the arguments; None when the arguments are not a JSON object."""
    if isinstance(args, str):
        try:
            args = json.loads(args) if args.strip() else {}
        except ValueError:
            return None
    if args is None:
        args = {}
    if not isinstance(args, dict):
        return None
    try:
        return f"{name}:" + json.dumps(args, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str)
    except (TypeError, ValueError):
        return None


def _normalised_key(name: str, args: dict) -> str | None:
    """The key of ``args`` as the tool will normalise them ("Q04" is "4", a default written out or left out), for a
    tool whose answer a normalised repeat may reuse; None when the arguments do not validate."""
    spec = TOOLS_BY_NAME.get(name)
    if spec is None or not cacheable(name):
        return None
    try:
        return cache_key(name, validate_args(spec, args))
    except ToolError:
        return None


class CallLedger:
    """The calls of one turn in order (``outcomes``) and what answers a later call (:meth:`earlier`)."""

    def __init__(self) -> None:
        self.outcomes: list[ToolOutcome] = []
        self.hits = 0  # calls answered from the ledger instead of running
        self._keys: dict[str, ToolOutcome] = {}
        self._facts: tuple[int, list[Fact]] = (0, [])

    def facts(self) -> list[Fact]:
        """The facts of every call so far, built once per set of calls (the checks of one turn share them)."""
        if self._facts[0] != len(self.outcomes) or not self._facts[1]:
            self._facts = (len(self.outcomes), tool_facts(self.outcomes))
        return self._facts[1]

    @property
    def charts(self) -> list[dict]:
        return [chart for o in self.outcomes for chart in (o.charts or [])]

    def earlier(self, name: str, args: dict) -> ToolOutcome | None:
        """The outcome of an earlier call that answers this one, counted as a hit; None: the call must run."""
        keys = (cache_key(name, args), _normalised_key(name, args))
        found = next((self._keys[key] for key in keys if key is not None and key in self._keys), None)
        if found is not None:
            self.hits += 1
        return found

    def record(self, outcome: ToolOutcome, asked: dict) -> None:
        """A call that ran with ``asked`` arguments."""
        self.outcomes.append(outcome)
        key = cache_key(outcome.name, asked)
        if key is not None:
            self._keys.setdefault(key, outcome)
        if not outcome.ok or not cacheable(outcome.name):
            return
        normalised = cache_key(outcome.name, outcome.args)
        if normalised is not None:
            self._keys.setdefault(normalised, outcome)
