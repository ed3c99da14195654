"""A tool call's below/above limits held to the limits the question wrote for the same metric: the one place this is
decided.

Tools take limits in the metric's display unit (the catalogue's).  A question may write its limit in another unit of
the same kind ("above 5100 MHz" of a frequency kept in GHz), as a fraction of a fidelity shown in % ("above 0.995"),
or with no unit (the display unit); a small model then passes the number unchanged and the tool answers "0 qubits
above 5100 GHz".  It may also put one metric's number on another's condition, or a range's two ends the wrong way
round.  Every call the turn makes (the router's, the model's, a retry) passes through :func:`settle_limits`: each
limit is held to the question's limit *of that metric* (:attr:`Threshold.metric`, the metric written next to it),
never to an equal number written for another; it is converted, moved to the side the question wrote, or replaced by
the metric's own (and the model is told), and a unit that cannot belong to the metric ("5 μs" of a frequency)
refuses the call with a message that says why.  A limit the model already converted passes as it is.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace

from copilot_core.domain.metrics import CATALOGUE, Metric, unit_suffix
from copilot_core.domain.topology import runs_named
from copilot_core.domain.units import canonical, family
from copilot_core.language.numbers import number_spans, signed_value, unit_after
from copilot_core.language.question import Question, Threshold
from copilot_core.language.spoken import as_typed
from copilot_core.tools.compact import to_model_json
from copilot_core.tools.toolkit import ToolOutcome

SIDES = ("below", "above")
REFUSED = "The question's limit"  # how a refusal for a unit starts, so the answer can show it
# The tools that take limits, and where: top-level ``below``/``above`` of one metric, or a list of conditions.
_ONE_METRIC = frozenset({"filter_metric", "compare_chips"})  # compare_chips: a share past a limit
_CONDITIONS = frozenset({"filter_metrics"})


@dataclass(frozen=True)
class Settled:
    """The call's arguments after the check: ``notes`` say what was converted, ``refusal`` why the call cannot run
    (``hint``: what to do instead)."""

    args: dict
    notes: tuple[str, ...] = ()
    refusal: str | None = None
    hint: str = ""


def _number(value: object) -> float | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        return float(value)
    if isinstance(value, str):
        try:
            return float(value.strip())
        except ValueError:
            return None
    return None


def _bounds(name: str, args: dict) -> Iterator[tuple[dict, str, Metric]]:
    """Each (holder, side, metric) whose ``holder[side]`` is a limit of a catalogue metric."""
    holders = [args] if name in _ONE_METRIC else args.get("conditions") if name in _CONDITIONS else []
    for holder in holders if isinstance(holders, list) else []:
        entry = CATALOGUE.get(str(holder.get("metric_name"))) if isinstance(holder, dict) else None
        if entry is None:
            continue
        for side in SIDES:
            if holder.get(side) is not None:
                yield holder, side, entry


def in_display_unit(t: Threshold, entry: Metric) -> float | None:
    """``t`` in the metric's display unit; None when its unit cannot be the metric's (:meth:`Metric.in_display`)."""
    return entry.in_display(t.value, t.unit)


def quality_conditions(asked: Question) -> list[tuple[str, str, float]] | None:
    """The question's conditions in words ("short T1") as ``(metric, side, value)`` at the lab's band limits, a
    metric the question also limits with a number left to that number; None when one has no clear metric or no
    band (the person is asked which limit)."""
    written = {t.metric for t in asked.limits}
    out = []
    for q in asked.qualities:
        entry = CATALOGUE.get(q.metric) if q.metric is not None else None
        found = entry.band_limit(q.direction, q.word) if entry is not None else None
        if found is None or entry is None:
            return None
        if entry.name not in written:
            out.append((entry.name, found[0], found[1]))
    return list(dict.fromkeys(out))


def _pool(entry: Metric, limits: tuple[Threshold, ...]) -> tuple[list[Threshold], bool]:
    """The question's limits a limit of ``entry`` is held to: its own (True), else those written next to no metric,
    else another metric's whose unit fits (a limit shared: "both T1 and T2 echo above 60 μs")."""
    own = [t for t in limits if t.metric == entry.name]
    if own:
        return own, True
    loose = [t for t in limits if t.metric is None]
    return loose or [t for t in limits if in_display_unit(t, entry) is not None], False


def _said(t: Threshold) -> str:
    return f"{t.value:g}{' ' + canonical(t.unit) if t.unit not in ('', '%') else t.unit}"


def cannot_hold(t: Threshold, entry: Metric) -> str:
    """Why the question's limit ``t`` cannot be a limit of ``entry`` (its unit, or a value the metric never takes),
    and what the person may say instead."""
    written = f"{REFUSED} {_said(t)}"
    shown = entry.in_display(t.value, t.unit)
    unit = unit_suffix(entry.unit)
    ask = f"say which metric it limits, or give {entry.name}'s limit in {entry.unit or 'no unit'}"
    if shown is None:
        kind = family(t.unit)
        return (f"{written} is {'a ' + kind if kind else 'in ' + canonical(t.unit)}, so it cannot be a limit of "
                f"{entry.name}, which is in {entry.unit or 'no unit'}: {ask}")
    low, high = entry.span or (shown, shown)
    as_shown = "" if f"{shown:g}{unit}" == _said(t) else f" {shown:g}{unit},"  # "7 GHz is 7000 MHz, a value ..."
    return (f"{written} is{as_shown} a value {entry.name} never takes (between {low:g} and {high:g}{unit}), "
            f"so it cannot be its limit: {ask}")


def unfit_note(asked: Question) -> str | None:
    """The limits a metric the question writes next to them cannot hold, as one line the person reads; None when
    there is none."""
    said = [f"{cannot_hold(t, CATALOGUE[t.metric])}." for t in asked.unfit if t.metric in CATALOGUE]
    return " ".join(dict.fromkeys(said)) or None


def error_note(asked: Question) -> str | None:
    """An error held to a number, said in the person's words and the fidelity's the data holds ("readout error
    below 2% (fidelity above 98%)"), so a count of fidelities above 98% reads as the answer to the error asked."""
    said = [f"{h.said} ({h.fidelity})" for h in asked.held_errors]
    return f"Read on the fidelity the data holds: {'; '.join(said)}." if said else None


def unbound_note(asked: Question, outcomes: Sequence[ToolOutcome] = ()) -> str | None:
    """The limits bound to no metric, as one line the person reads (None when there is none): those whose unit no
    metric the question names can hold (its metric written in words nothing reads), and those of a phrase that names
    several metrics ("coherence above 30 μs") when no filter ran (a filter that leaves one out carries the restate
    check's note).  Each is said with the metrics its unit and size could belong to, so a count made without it never
    passes for the whole question."""
    said = []
    filtered = any(o.ok and o.name in _ONE_METRIC | _CONDITIONS for o in outcomes)
    for t in asked.unbound + tuple(t for t in asked.limits if t.metric is None and not filtered):
        fits = [m.name for m in CATALOGUE.values() if m.span is not None and m.can_hold(t.value, t.unit)
                and not m.name.endswith("_average")]
        which = f" (perhaps {' or '.join(fits)})" if 0 < len(fits) <= 3 else ""
        said.append(f"I could not tell which metric '{t.side} {_said(t)}' limits{which}, so no count here applies "
                    f"that condition: ask again with its metric named.")
    return " ".join(dict.fromkeys(said)) or None


def _filter_limits(outcomes: Sequence[ToolOutcome]) -> list[tuple[Metric, str, float]]:
    """``(metric, side, value)`` of every limit a successful filter call applied."""
    return [(entry, side, value) for o in outcomes if o.ok for holder, side, entry in _bounds(o.name, o.args)
            if (value := _number(holder[side])) is not None]


def unread_side_note(asked: Question, outcomes: Sequence[ToolOutcome] = ()) -> str | None:
    """A note when a filter ran with a limit at a number the question writes but no limit the question's words
    give a side to: which side is the model's reading alone, and the person is told which it took."""
    if asked.limits or asked.ranges or asked.unfit or asked.unbound or asked.qualities:
        return None
    written = {v for v in (_number(w) for w in asked.values) if v is not None}
    taken = [f"{entry.name} {side} {value:g}" for entry, side, value in _filter_limits(outcomes) if value in written]
    if not taken:
        return None
    return (f"_Note: no word of the question says on which side of its number the values it asks for lie; the filter "
            f"read {', '.join(dict.fromkeys(taken))}: not checked against the question._")


_DURATIONS = frozenset({"s", "sec", "secs", "second", "seconds"})  # a wait, not a metric's value


def unread_value_note(asked: Question, outcomes: Sequence[ToolOutcome] = ()) -> str | None:
    """A note when a filter ran and the question writes a value that a metric it names can hold, which no limit of
    the question's words and no filter took ("readout fidelity: 92 %" with no comparison word): a condition the answer
    may have left out is said, never dropped silently."""
    used = {value for _, _, value in _filter_limits(outcomes)}
    if not used:
        return None
    errors = " ".join(h.said for h in asked.held_errors)  # "error below 4%": read as the fidelity above 96%
    read = {t.value for t in (*asked.limits, *asked.unfit, *asked.unbound)} | \
        {v for r in asked.ranges for v in (r.low, r.high)} | {signed_value(w) for _, _, w, _ in number_spans(errors)}
    metrics = [CATALOGUE[m] for m in asked.metrics if m is not None and m in CATALOGUE]
    text = as_typed(asked.text)
    left = []
    for _, end, written, _ in number_spans(text):
        unit = (unit_after(text[end:]) or ("", 0))[0]
        value = signed_value(written)
        if unit and unit.lower() not in _DURATIONS and value not in read | used and \
                any(m.can_hold(value, unit) for m in metrics):
            left.append(f"{written} {unit.strip()}")
    if not left:
        return None
    return (f"_Note: the question also writes {', '.join(dict.fromkeys(left))}, which no filter here applies: the "
            f"answer above is not limited by it (no word of the question was read as its condition)._")


def _settle(holder: dict, entry: Metric, limits: tuple[Threshold, ...],
            unfit: tuple[Threshold, ...] = ()) -> tuple[list[str], str | None]:
    """``holder``'s limits held to the question's limits of its metric, in place: the notes, or a refusal."""
    pool, own = _pool(entry, limits)
    given = {side: v for side in SIDES if holder.get(side) is not None and (v := _number(holder[side])) is not None}
    wrong = next((t for t in unfit if t.metric == entry.name and t.value in given.values()), None)
    if wrong is not None:  # the model put on a metric the limit the question wrote next to it, which it cannot hold
        return [], cannot_hold(wrong, entry)
    by_side = {side: [t for t in pool if t.side == side] for side in SIDES}
    matched: dict[str, Threshold] = {}
    for side, value in given.items():
        same = next((t for t in by_side[side] if value in (t.value, in_display_unit(t, entry))), None)
        other = next((t for t in pool if t.side != side and value in (t.value, in_display_unit(t, entry))), None)
        elsewhere = next((t for t in limits if t not in pool and value in (t.value, in_display_unit(t, entry))), None)
        if same is None and other is not None and len(by_side[other.side]) == 1:
            matched[side] = other  # the side the question wrote it on
        elif same is not None:
            matched[side] = same
        elif own and elsewhere is not None and len(by_side[side]) == 1:
            matched[side] = by_side[side][0]  # another metric's limit: this metric's own instead
    targets = {side: matched[side].side if side in matched else side for side in given}
    if len(set(targets.values())) < len(targets):
        return [], None
    notes: list[str] = []
    settled: dict[str, object] = {}
    for side, value in given.items():
        t = matched.get(side)
        if t is None:
            settled[side] = holder[side]
            continue
        shown = in_display_unit(t, entry)
        if shown is None or not entry.can_hold(t.value, t.unit):
            return [], cannot_hold(t, entry)
        settled[t.side] = shown if value != shown else holder[side]
        unit = unit_suffix(entry.unit)
        if side != t.side:
            notes.append(f"the question asks for {entry.name} {t.side} {_said(t)}, not {side} it: the call's "
                         f"below and above were the wrong way round")
        elif value == shown:
            continue
        elif value == t.value:
            notes.append(f"the question's {_said(t)} is {shown:g}{unit}: the {entry.name} limit was "
                         f"{'read as a fraction' if not t.unit else 'converted'}")
        else:
            notes.append(f"the question's {entry.name} limit is {t.side} {_said(t)}, not {value:g}, a limit it "
                         f"wrote for another metric")
    for side in given:
        holder.pop(side)
    holder.update(settled)
    included = sorted({t.side for t in matched.values() if t.inclusive})
    if included:
        holder["including"] = included  # a value at the question's "at least"/"no more than" limit counts
    return notes, None


_OVER_A_SET = frozenset({"metric_spread", "rank_metric", "filter_metric", "filter_metrics", "correlate_metrics"})


def over_qubit_set(name: str, args: dict, asked: Question) -> dict:
    """``args`` of a statistic, a ranking or a filter held to the set of qubits the question writes: a run ("Q10
    through Q19") as ``qubits``, the ones it leaves out ("except Q5") as ``leaving_out``; other calls unchanged."""
    if name not in _OVER_A_SET | {"count_in_window"} or not (asked.span or asked.left_out) or \
            name == "count_in_window" and args.get("what") == "notes":
        return args  # a count of notes reads no qubit's results (runs: those holding a result of the set)
    return {**args, **({"qubits": [int(q) for q in asked.span]} if asked.span else {}),
            **({"leaving_out": [int(q) for q in asked.left_out]} if asked.left_out else {})}


# Tools that read a whole chip: a figure of theirs over a question's set of qubits is over every qubit unless the call
# carries the set.
_CHIP_WIDE = _OVER_A_SET | {"get_chip_summary", "compare_chips", "count_in_window", "generate_chip_heatmap",
                            "missing_metric", "failure_ranking"}


def unapplied_set_note(asked: Question, outcomes: Sequence[ToolOutcome], size: int = 0) -> str | None:
    """A note when the question asks over a set of qubits (a run, or some left out) and a figure shown comes from a
    call over every qubit of the chip: the person is told, never shown a chip-wide number as the set's."""
    if not (asked.span or asked.left_out):
        return None
    wide = [o for o in outcomes if o.ok and o.name in _CHIP_WIDE and not {"qubits", "leaving_out", "qid", "qids"}
            & set(o.args)]
    held = any(o.ok and {"qubits", "leaving_out"} & set(o.args) for o in outcomes)
    named = [o for o in outcomes if o.ok and {"qid", "qids"} & set(o.args)] if asked.span and not held else []
    if not wide and not named:
        return None
    asked_for = " and ".join(filter(None, [runs_named(sorted(int(q) for q in asked.span), size) if asked.span else "",
                                           f"leaving out {runs_named(sorted(int(q) for q in asked.left_out), size)}"
                                           if asked.left_out else ""]))
    if not wide:  # "Q32 to Q63": read as the two qubits at its ends, or as any qubits named one by one
        return (f"_Note: the question asks over a set of qubits ({asked_for}), but {named[0].name} read only the "
                f"qubits it names: its figures are not the set's._")
    return (f"_Note: the question asks over a set of qubits ({asked_for}), but {wide[0].name} read every qubit of "
            f"the chip: its figures are not restricted to that set._")


def settle_limits(name: str, args: dict, asked: Question) -> Settled:
    """``args`` with every limit held to the question's limit of the same metric: a number written in another unit
    (or as a fraction of a metric in %) converted, a below and an above passed the wrong way round swapped, another
    metric's number replaced by this metric's own; a refusal when the unit cannot be the metric's.  Calls of other
    tools, and limits the question did not write, come back unchanged; a statistic over a set of qubits is held to
    the set the question writes (:func:`over_qubit_set`)."""
    args = over_qubit_set(name, args, asked)
    if name not in _ONE_METRIC | _CONDITIONS or not asked.limits and not asked.unfit:
        return Settled(args)
    out = {**args, "conditions": [dict(c) if isinstance(c, dict) else c for c in args["conditions"]]} \
        if name in _CONDITIONS and isinstance(args.get("conditions"), list) else dict(args)
    notes: list[str] = []
    done: set[int] = set()
    for holder, _, entry in _bounds(name, out):
        if id(holder) in done:
            continue
        done.add(id(holder))
        said, refusal = _settle(holder, entry, asked.limits, asked.unfit)
        if refusal is not None:
            return Settled(args, refusal=refusal, hint=f"tell the user the limit's unit does not fit {entry.name} "
                                                       f"(in {entry.unit}) and ask for the limit in {entry.unit}")
        notes += said
    return Settled(out, tuple(notes))


def noted(outcome: ToolOutcome, notes: tuple[str, ...]) -> ToolOutcome:
    """``outcome`` with what was converted put in front of the result the model reads, and in its summary."""
    if not notes:
        return outcome
    try:
        body = json.loads(outcome.model_text)
    except ValueError:
        return outcome
    if not isinstance(body, dict):
        return outcome
    text = "; ".join(notes)
    return replace(outcome, model_text=to_model_json({"note": text, **body}), summary=f"{outcome.summary} ({text})")


def unit_refusals(outcomes: Sequence[ToolOutcome]) -> str | None:
    """The turn's refusals for a limit's unit, as one line the person reads next to the answer; None without any."""
    said = list(dict.fromkeys(o.error for o in outcomes if not o.ok and o.error and o.error.startswith(REFUSED)))
    return " ".join(f"{line}." for line in said) or None
