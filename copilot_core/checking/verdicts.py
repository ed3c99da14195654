"""A yes/no question against a limit answered with its yes or no, from the tools' values, whoever wrote the answer.

A question the parse reads as a :class:`~copilot_core.language.verdicts.Verdict` ("is Q05's T1 over 50 μs?") must
get its verdict word first, then the value, the limit and the unit, in one sentence; a tool's sentence or a model's answer
gives the value and leaves the verdict out, or says the wrong one.  :func:`verdict_blocks` leads the answer with
the verdict the data gives, and takes out a sentence of the answer that opens with the other word (a model's
"Yes" to a value below the limit).  The values are the tools' own: a subject's value of the metric
(:func:`~copilot_core.checking.claim_facts.tool_facts`), or, over a chip, ``filter_metric``'s count at that limit
and the ones it leaves out.  No value, no verdict: the sentence says the data holds none.

This is the one module that decides a yes or no: a router's call that held one coupling's value to the question's
limit (``held_to``) is a verdict too, when the question's words read as none; a sentence of the answer that puts the
value on the other side of the limit is taken out, as a sentence opening with the other word is.  A band word ("is
3-4 excellent?") is a limit at the lab's threshold for that band, worded as such.
"""

from __future__ import annotations

from collections.abc import Sequence

from copilot_core.answer.blocks import Block, TextBlock
from copilot_core.checking.claim_facts import Fact, canonical_subject, subject_label, tool_facts
from copilot_core.domain.display import format_value, unit_suffix
from copilot_core.domain.metrics import CATALOGUE
from copilot_core.language.pairs import stored_coupling
from copilot_core.language.phrases import tokens_of
from copilot_core.language.question import Question
from copilot_core.checking.taken_out import take_out
from copilot_core.language.limits import Side
from copilot_core.language.verdicts import BAND_WORDS, Verdict
from copilot_core.checking.sides import sides_said
from copilot_core.tools.toolkit import PLANNED, ToolOutcome

_VALUE_ROLES = frozenset({"value", "latest"})
_LISTED = 20  # names listed after a count, the rest counted


def _limit_text(v: Verdict) -> str:
    entry = CATALOGUE[v.metric]
    side = ("at most" if v.side == "below" else "at least") if v.inclusive else v.side
    return f"{side} {v.limit:g}{unit_suffix(entry.unit)}"


def _names(labels: Sequence[str]) -> str:
    shown = ", ".join(labels[:_LISTED])
    return shown + (f" and {len(labels) - _LISTED} more" if len(labels) > _LISTED else "")


def _value_of(facts: Sequence[Fact], metric: str, subject: str) -> Fact | None:
    return next((f for f in facts if f.metric == metric and f.subject == subject and f.role in _VALUE_ROLES
                 and f.qualifier is None), None) or \
        next((f for f in facts if f.metric == metric and f.subject == subject and f.role in _VALUE_ROLES), None)


def _one(v: Verdict, facts: Sequence[Fact], subject: str) -> tuple[bool, str] | None:
    """(passes, sentence) of one subject; None when no tool gave its value (nor said it has none)."""
    entry = CATALOGUE[v.metric]
    fact = _value_of(facts, v.metric, subject)
    size = next((f.size for f in facts if f.size), None)
    label = ("coupling " if entry.kind == "coupling" else "") + subject_label(subject, size)
    if fact is None:
        return None
    value = -fact.value if fact.negative else fact.value
    ok = v.passes(value)
    at = abs(value - v.limit) < 1e-12
    where = ("at" if at else v.side) if ok else ("only at" if at else "above" if v.side == "below" else "below")
    counted = f" ({_limit_text(v)})" if at else ""  # "at least 50 μs": a value at the limit passes
    return ok, (f"{'Yes' if ok else 'No'}: {label}'s {entry.title} is {format_value(entry, value)}, {where} the "
                f"{v.limit:g}{unit_suffix(entry.unit)} {_asked(v)}{counted}.")


def _asked(v: Verdict) -> str:
    """What the limit is: the number asked, or the lab's limit a band word stands for ("an 'excellent' needs")."""
    if v.band is None:
        return "asked"
    if BAND_WORDS[v.band] == "bad":
        return f"past which the lab counts it '{v.band}'"
    return f"{'an' if v.band[0] in 'aeiou' else 'a'} '{v.band}' needs"


def _filtered(v: Verdict, outcomes: Sequence[ToolOutcome]) -> dict | None:
    """The full result of a ``filter_metric`` call at the verdict's limit, when one ran."""
    for o in outcomes:
        full = o.full
        if o.ok and o.name == "filter_metric" and isinstance(full, dict) and full.get("metric") == v.metric and \
                isinstance(full.get(v.side), list) and isinstance(limit := full.get(f"{v.side}_limit"), (int, float)) \
                and abs(float(limit) - v.limit) < 1e-9:
            return full
    return None


def _over_chip(v: Verdict, outcomes: Sequence[ToolOutcome]) -> str | None:
    """The verdict over every subject of the chip, from a filter at that limit."""
    full = _filtered(v, outcomes)
    if full is None:
        return None
    title = CATALOGUE[v.metric].title
    kind, chip = str(full.get("share_of") or "qubits"), full.get("chip_id")
    with_data = int(full.get("with_data") or 0)
    met = [str(r.get("label")) for r in full[v.side] if isinstance(r, dict)]
    failing = [str(x) for x in full.get("not_meeting") or ()]
    where = f"{kind} with {title} data on {chip}"
    limit = _limit_text(v)
    if with_data == 0:
        return f"The data holds no {title} for any of the {kind} on {chip}, so there is no yes or no to give."
    if v.quantifier == "all":
        if len(met) == with_data:
            return f"Yes: all {with_data} {where} are {limit}."
        return f"No: {len(met)} of the {with_data} {where} are {limit}; {len(failing)} are not: {_names(failing)}."
    if met:
        return f"Yes: {len(met)} of the {with_data} {where} {'is' if len(met) == 1 else 'are'} {limit}: {_names(met)}."
    return f"No: none of the {with_data} {where} is {limit}."


def _named(v: Verdict, outcomes: Sequence[ToolOutcome]) -> str | None:
    """The verdict on the subjects the question names, one sentence each after the whole's yes or no."""
    facts = tool_facts(outcomes)
    held = {f.subject for f in facts if f.metric == v.metric}
    subjects = [stored_coupling(s, held) for s in v.subjects]  # "2-16" is the stored 16→2 when only it is held
    found = {s: _one(v, facts, s) for s in subjects}
    title = CATALOGUE[v.metric].title
    size = next((f.size for f in facts if f.size), None)
    missing = [subject_label(s, size) for s, r in found.items() if r is None]
    if len(subjects) == 1:
        r = found[subjects[0]]
        if r is not None:
            return r[1]
        read = any(o.ok and canonical_subject(a) in (v.subjects[0], subjects[0]) for o in outcomes
                   for a in o.args.values())
        return f"The data holds no {title} for {missing[0]}, so there is no yes or no to give." if read else None
    judged = {s: r for s, r in found.items() if r is not None}
    if not judged:
        return None
    passing = [s for s, r in judged.items() if r[0]]
    yes = len(passing) == len(v.subjects) if v.quantifier == "all" else bool(passing)
    kind = "couplings" if CATALOGUE[v.metric].kind == "coupling" else "qubits"
    head = (f"{'Yes' if yes else 'No'}: {len(passing)} of the {len(v.subjects)} {kind} named "
            f"{'has' if len(passing) == 1 else 'have'} {title} {_limit_text(v)}.")
    lines = [head] + [r[1].split(": ", 1)[1] for r in judged.values()]
    if missing:
        lines.append(f"The data holds no {title} for {_names(missing)}.")
    return " ".join(lines)


def _held(outcomes: Sequence[ToolOutcome]) -> Verdict | None:
    """The verdict a router's call held one coupling's metric to (``held_to`` of ``get_coupling_params``: "what is
    4-5's CR gate time, and is it below 300 ns"), when the question's words read as none."""
    for o in outcomes:
        held = o.full.get("held_to") if o.ok and o.origin in PLANNED and isinstance(o.full, dict) else None
        if isinstance(held, dict) and isinstance(limit := held.get("threshold"), (int, float)) and \
                held.get("side") in ("below", "above") and str(held.get("metric")) in CATALOGUE and \
                isinstance(held.get("coupling_id"), str):
            side: Side = "below" if held["side"] == "below" else "above"
            return Verdict(str(held["metric"]), side, float(limit), False, (held["coupling_id"],), "one")
    return None


def _verdict(asked: Question, outcomes: Sequence[ToolOutcome]) -> Verdict | None:
    return asked.verdict or _held(outcomes)


def verdict_sentence(asked: Question, outcomes: Sequence[ToolOutcome]) -> str | None:
    """The verdict's sentence from the tools' values; None when the question asks none or no tool gave the values."""
    v = _verdict(asked, outcomes)
    if v is None:
        return None
    return _named(v, outcomes) if v.subjects else _over_chip(v, outcomes)


def _wrong_side(sentence: str, v: Verdict, verdict: str) -> bool:
    """Whether a sentence puts the one subject's value on the side of the limit the verdict denies ("… which is
    below 300 ns" when the data's value is above it)."""
    if len(v.subjects) != 1 or not verdict.startswith(("Yes:", "No:")):
        return False
    passes = verdict.startswith("Yes:")
    actual = v.side if passes else "above" if v.side == "below" else "below"
    said = sides_said(sentence, {v.limit})
    return bool(said) and said != {actual}


def _said(sentence: str) -> str | None:
    """"yes"/"no" when the sentence opens with that word (past any markup)."""
    words = tokens_of(sentence)[:1]
    return words[0][2] if words and words[0][2] in ("yes", "no") else None


def verdict_blocks(blocks: list[Block], asked: Question, outcomes: Sequence[ToolOutcome]) -> list[Block]:
    """``blocks`` led by the verdict the data gives, every other sentence opening with a yes or no taken out (the
    other word is wrong; the same word, a tool's held-to-limit sentence or the model's, says it twice); unchanged when
    the question asks no verdict, or no tool gave the values, or the answer already leads with it."""
    sentence = verdict_sentence(asked, outcomes)
    v = _verdict(asked, outcomes)
    if sentence is None or v is None:
        return blocks
    out, _ = take_out(blocks, lambda s: (_said(s) is None or s.startswith(sentence))
                      and (s.startswith(sentence) or not _wrong_side(s, v, sentence)))
    first = next((b for b in out if isinstance(b, TextBlock)), None)
    return out if first is not None and first.text.startswith(sentence) else [TextBlock(sentence), *out]
