"""What a turn will do, decided once before the first model call: the chip (and the chip the prompt describes),
the earlier turns the model reads, the tools (all, or the routed few), the call the question plainly fixes,
and the secrets every text is cleaned of.

The loop (:mod:`~copilot_core.agent.loop`) and the answer's assembly (:mod:`~copilot_core.agent.finish`) read the
plan; neither decides any of it again.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from copilot_core.routing.clarify import ASK_SCHEMA, ASK_TOOL, may_ask
from copilot_core.agent.contracts import AgentRequest
from copilot_core.guardrails import configured_secrets
from copilot_core.agent.history import prepare_history
from copilot_core.agent.lookups import fallback_plan, lookup_plan
from copilot_core.routing.planned import PlannedCall
from copilot_core.routing.fill import FillCall
from copilot_core.routing.prefetch import plan_prefetch
from copilot_core.domain.metrics import CATALOGUE
from copilot_core.language.question import Question, parse
from copilot_core.llm.fill import model_filler
from copilot_core.llm.provider import ProviderConfig
from copilot_core.routing.router import MORE_TOOLS, Route, all_tools, offered_tools, route
from copilot_core.errors import CopilotError
from copilot_core.tools.subjects import absence
from copilot_core.checking.missing import Missing

if TYPE_CHECKING:
    from copilot_core.data.chip_reads import ChipLayout
    from copilot_core.data.repository import CalibrationRepository
    from copilot_core.settings import Settings

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class TurnPlan:
    """One turn's decisions.  ``route`` None: every tool is offered; ``prefetch``: the call made before the first
    round; ``skills``: the procedures the prompt carries (none when the router made the call: the model then only
    writes the answer); ``tabular``: tool results reach the model as tables (a small model); ``prompt_chip``: the
    chip the prompt's context describes (the chip in question, else the newest installed one; the loop reads its
    layout where it writes the prompt); ``clarify``: the page asks ambiguous questions
    back; ``ask_offered``: the model may end this turn with ``ask_user`` (an ambiguity the data cannot settle, see
    :func:`~copilot_core.routing.clarify.may_ask`)."""

    request: AgentRequest
    chip_id: str | None
    prompt_chip: str | None
    history: tuple[dict, ...]
    tools: tuple[dict, ...]
    route: Route | None
    prefetch: PlannedCall | None
    clarify: bool
    tabular: bool
    secrets: tuple[str, ...]
    skills: tuple[str, ...]
    ask_offered: bool = False
    chips: tuple[str, ...] = ()  # the installed chip ids, which a chip written short is read against
    described: str | None = None  # the installed chip the question describes in words ("the bigger chip")
    missing: tuple[Missing, ...] = ()  # the chips, qubits and couplings the question names that the data lacks
    holds_named: bool = True  # the question names some subject the data holds (beside the missing ones)
    layout: ChipLayout | None = None  # the prompt chip's size and topology, read once here (None: not read)

    @property
    def asked(self) -> Question:
        """The question, read against the installed chips ("64Q" is the installed 64Qv3); a chip it describes in
        words is read as named, so a call on another chip is re-made on it."""
        asked = parse(self.request.message, self.chips)
        if self.described is None or asked.chip_ids:
            return asked
        return replace(asked, chips=(self.described,), chip_ids=(self.described,))

    @property
    def known(self) -> frozenset[str]:
        """Tool names a call the model wrote as text may use."""
        return frozenset({t["name"] for t in self.tools} | ({MORE_TOOLS} if self.route is not None else set())
                         | ({ASK_TOOL} if self.clarify else set()))

    def offered(self, expanded: bool) -> list[dict] | None:
        """A round's tools: all of them, or the routed few (+ ``more_tools``) until the model asked for more."""
        tools = list(self.tools)
        ask = [ASK_SCHEMA] if self.ask_offered and tools else []
        if self.route is None or not tools:
            return [*tools, *ask] or None
        return [*(all_tools(tools, self.route) if expanded else offered_tools(tools, self.route)), *ask]

    def every_tool(self) -> list[dict] | None:
        """Every tool in the toolkit's order (the same list for every question, so a prompt cache keeps it; the
        rounds that offer it make no call, so ``ask_user`` is listed whenever the page clarifies)."""
        return [*self.tools, *([ASK_SCHEMA] if self.clarify and self.tools else [])] or None


def turn_secrets(provider: ProviderConfig, settings: Settings | None = None) -> tuple[str, ...]:
    """The configured secrets and the provider's key: what no text of the turn may show (collected once a turn)."""
    return tuple(s for s in (*configured_secrets(settings), provider.api_key) if s)


def plan_turn(request: AgentRequest, *, provider: ProviderConfig, tools: Sequence[dict],
              repo: CalibrationRepository | None, chips: Sequence[str] | None = None, router: bool = False,
              clarify: bool = False, skills: Sequence[str] = (), history: Sequence[dict] | None = None,
              secrets: tuple[str, ...] | None = None, described: str | None = None) -> TurnPlan:
    """The plan for ``request``; ``tools`` the toolkit's schemas ([] without tools).  ``chips``: the installed chip
    ids when the caller has read them (else read here); ``history``: the earlier turns already prepared by the caller
    (else prepared here); ``secrets``: already collected by the caller; ``described``: the installed chip the question
    describes in words (the request's chip).  The chip the question names and the prompt's chip are decided here,
    once."""
    chip_id, prompt_chip = request.chip_id, request.chip_id
    layout: ChipLayout | None = None
    installed = list(chips or ())
    if repo is not None:
        try:
            installed = repo.chip_ids() if chips is None else installed
            chip_id = parse(request.message, installed).chip or chip_id
        except CopilotError:  # an unreachable database is reported by the tools themselves
            pass
        prompt_chip = chip_id
        try:  # the prompt's context is best effort: the tools can still fetch the chip
            prompt_chip = chip_id or repo.default_chip_id()
            layout = repo.chip_layout(prompt_chip) if prompt_chip else None
        except Exception as exc:  # noqa: BLE001
            log.warning("context chip unavailable: %s", exc)
    resolved = missing_subjects(request.message, chip_id, repo, installed)
    chosen: Route | None = None
    planned: PlannedCall | None = None
    if router and tools:
        try:
            chosen, planned = _routed(request, chip_id, [t["name"] for t in tools], repo, installed,
                                      model_filler(provider), resolved)
        except Exception:  # noqa: BLE001  (a router bug offers every tool; the turn goes on)
            log.exception("the router failed on a question")
    names = [t["name"] for t in tools]
    answerable = planned is not None or fallback_plan(request.message, chip_id=chip_id, qid=request.qid,
                                                      available=names, chips=installed) is not None
    ask = clarify and may_ask(parse(request.message, installed), chip_id=chip_id, chips=installed,
                              planned=answerable)
    return TurnPlan(request=request, chip_id=chip_id, prompt_chip=prompt_chip,
                    history=tuple(prepare_history(request.history) if history is None else history),
                    tools=tuple(tools), route=chosen, prefetch=planned, clarify=clarify, tabular=router,
                    secrets=turn_secrets(provider) if secrets is None else secrets,
                    skills=tuple(skills) if planned is None else (), ask_offered=ask, chips=tuple(installed),
                    described=described, missing=resolved[0], holds_named=resolved[2], layout=layout)


Resolved = tuple[tuple[Missing, ...], str | None, bool]  # the missing subjects, the chip read on, any subject held


def missing_subjects(question: str, chip_id: str | None, repo: CalibrationRepository | None,
                     installed: Sequence[str] | None = None) -> Resolved:
    """Every chip, qubit and coupling the question names resolved against the data, once a turn: the missing ones
    (each with the data's sentence), the chip they were read on, and whether the question names any subject the
    data holds.  A chip written short ("64Q") is the installed one it means; one that could be several is asked
    about, never said not to exist."""
    if repo is None:
        return (), None, True
    try:
        chips = list(installed) if installed else repo.chip_ids()
        asked = parse(question, chips)
        named_chips = list(asked.chip_ids)
        if asked.chip_options or not (asked.qubits or asked.couplings or named_chips):
            return (), None, True
        by_lower = {c.lower(): c for c in chips}
        unknown = [c for c in named_chips if c.lower() not in by_lower]
        if unknown:
            missing = tuple(Missing(c, "chip", absence(chips, c, 0, None, None, None) or "") for c in unknown)
            return missing, None, len(unknown) < len(named_chips)
        target = by_lower[named_chips[0].lower()] if len(named_chips) == 1 else chip_id
        if target is None:
            return (), None, True
        row = repo.chip_layout(target)  # the layout the prompt and the tools read too: one read a turn
        size = int(row["size"] or 0) if row else 0
        topology = row["topology_id"] if row else None
        couplings = list(asked.couplings)
        if not couplings and len(asked.qubits) == 2 and asked.has("coupling words"):  # "the coupling between Q0 and Q9"
            couplings = ["-".join(asked.qubits)]
        in_pairs = {q for c in couplings for q in c.split("-")}
        named = [(q, None) for q in asked.qubits if q not in in_pairs] + [(None, c) for c in couplings]
        found = [(q or c, "qubit" if q else "coupling", absence(chips, target, size,
                                                                None if topology is None else str(topology), q, c))
                 for q, c in named]
        missing = tuple(Missing(str(s), kind, said) for s, kind, said in found if said is not None)  # type: ignore[arg-type]
        return missing, target, len(missing) < len(found)
    except CopilotError:  # an unreachable database or an unknown topology: the tools report it
        return (), None, True


def absent_plan(question: str, chip_id: str | None, repo: CalibrationRepository | None,
                installed: Sequence[str] | None = None, resolved: Resolved | None = None) -> PlannedCall | None:
    """When a chip, qubit or coupling the question names does not exist: the call that says so, which settles the
    turn (no model round: there is no value to state); a qubit with no value of the one metric asked: why.
    ``resolved``: the plan's :func:`missing_subjects`, when the plan has them (else resolved here)."""
    missing, target, _ = resolved if resolved is not None else missing_subjects(question, chip_id, repo, installed)
    if missing and missing[0].kind == "chip":
        return PlannedCall("check_target", {"chip_id": missing[0].subject}, "a chip that does not exist", settles=True)
    if missing and target is not None:
        key = "coupling_id" if missing[0].kind == "coupling" else "qid"
        return PlannedCall("check_target", {"chip_id": target, key: missing[0].subject}, "a name that does not exist",
                           settles=True)
    if target is None or repo is None:
        return None
    try:
        return _no_value_plan(parse(question, list(installed) if installed else repo.chip_ids()), target, repo)
    except CopilotError:
        return None


def _no_value_plan(asked: Question, chip_id: str, repo: CalibrationRepository) -> PlannedCall | None:
    """One qubit that exists and one qubit metric it has no usable latest value of: why, from the data."""
    metrics = [m for m in asked.metrics if m is not None]
    if asked.shape != "lookup" or len(asked.qubits) != 1 or len(metrics) != 1 or len(asked.metrics) != 1 or \
            CATALOGUE[metrics[0]].kind != "qubit":
        return None
    qid = asked.qubits[0]
    found = repo.metric_values(chip_id, metrics[0], qid=qid).get(qid)
    if found is not None and found["value"] is not None:
        return None
    return PlannedCall("check_target", {"chip_id": chip_id, "qid": qid, "metric_name": metrics[0]},
                       f"the qubit asked about has no {metrics[0]}", settles=True)


def _routed(request: AgentRequest, chip_id: str | None, names: list[str], repo: CalibrationRepository | None = None,
            chips: Sequence[str] = (), filler: FillCall | None = None,
            resolved: Resolved = ((), None, True)) -> tuple[Route | None, PlannedCall | None]:
    """The routed tools (None: none left out) and the call the question plainly fixes (``filler``: the model
    fills the fields of a question the parse leaves unrouted; ``resolved``: the subjects the data lacks)."""
    planned: PlannedCall | None = None
    picked = route(request.message, qid=request.qid, mode=request.mode, available=names)
    if request.mode == "chat":
        absent = absent_plan(request.message, chip_id, repo, chips, resolved) if "check_target" in names else None
        planned = absent or lookup_plan(request.message, chip_id, names) or plan_prefetch(
            request.message, chip_id=chip_id, qid=request.qid, available=names, chips=chips, filler=filler)
    if planned is not None and planned.name not in picked.names:
        picked = Route(tuple(n for n in names if n in {*picked.names, planned.name}), (*picked.reasons, planned.reason))
    return (picked if len(picked.names) < len(names) else None), planned  # nothing left out: no escape hatch
