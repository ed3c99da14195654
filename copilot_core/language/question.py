"""A question read once into a typed :class:`Question` from one table of words (:mod:`.question_words`): chips, qubits,
couplings, metrics, extreme, N, limits, a window, a chart, its shape.  Callers read its fields, never the text."""
from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal, cast

from copilot_core.language.absent import not_held_spans
from copilot_core.language.corrections import taken_back
from copilot_core.language.dates import date_spans, written_window
from copilot_core.language.compared import compared_shape, opens_with_count
from copilot_core.language.count_units import Counted, counted_unit
from copilot_core.language.error_words import HeldError, as_fidelity
from copilot_core.language.failure_words import ranks_failures
from copilot_core.language.limits import Range, Threshold, read_limits
from copilot_core.language.misspelled import respelled
from copilot_core.language.numbers import number_spans
from copilot_core.language.pairs import couplings_written
from copilot_core.language.qualities import Quality, qualities
from copilot_core.language.qubit_sets import qubit_set
from copilot_core.language.ranked import EXTREME_WORDS, extreme_n, extreme_word
from copilot_core.language.task_words import loose_task_name, task_spelled
from copilot_core.language.window_words import (Window, anchored_to_today, counts_of_time, read_window, runs_back,
                                                unplaced_window)
from copilot_core.language.question_words import CHIP_ID, MENTION, QUBIT_LIST, SHAPES, TOKEN, WORDS, Phrases, Row, tokens_of
from copilot_core.language.sentences import quoted_names
from copilot_core.language.spelled import spelled_as_digits
from copilot_core.language.spoken import as_typed
from copilot_core.language.verdicts import Verdict, read_verdict
from copilot_core.language.stated_numbers import (COUNT_NOUNS, NOUN_AFTER, SELECTION_AFTER, SELECTION_BEFORE,
                                                  STATED_NUMBER, counts_as_digits)
from copilot_core.domain.metrics import CATALOGUE
from copilot_core.language.unit_asked import asked_unit, bare_percent, form_only, unit_counted
from copilot_core.domain.vocabulary import NUMBER_WORDS, chip_named, chips_meant, metrics_named, threshold_metrics

Extreme = Literal["lowest", "highest", "best", "worst"]
@dataclass(frozen=True)
class Mention:
    """A qubit ("5") or coupling ("4-1") named in a text, and where."""

    start: int
    end: int
    subject: str
    labelled: bool = True  # written with Q or "qubit" ("Q4-Q5"), not only with a word or an arrow ("4→5")


def mentions(text: str) -> list[Mention]:
    """Every qubit and coupling ``text`` names with a label ("Q5", "qubit 5", "Q4-Q1", "coupling 4-1", "4→1"), in
    order: the one grammar for questions and answers alike."""
    out = []
    for m in MENTION.finditer(text):
        g = m.groupdict()
        pair = next(((g[a], g[b]) for a, b in (("a", "b"), ("c", "d"), ("e", "f")) if g[a] is not None), None)
        subject = f"{int(pair[0])}-{int(pair[1])}" if pair else str(int(g["q"] or g["r"]))
        labelled = g["e"] is None and (g["c"] is None or text[m.start():m.start("c")].rstrip("0")[-1:] in ("Q", "q"))
        out.append(Mention(m.start(), m.end(), subject, labelled))
    return out


def qubits_in(text: str) -> set[int]:
    """Every qubit ``text`` names, a coupling's two ends included."""
    return {int(n) for m in mentions(text) for n in m.subject.split("-")}


def blank(text: str, spans: Sequence[tuple[int, int]]) -> str:
    """``text`` with the characters of ``spans`` made spaces (line breaks kept), so positions stay."""
    chars = list(text)
    for i in (i for start, end in spans for i in range(start, end) if chars[i] != "\n"):
        chars[i] = " "
    return "".join(chars)


def names_blanked(text: str) -> str:
    """``text`` with its qubit, coupling, chip and execution labels blanked: what is left are values and words."""
    return blank(text, [(m.start, m.end) for m in mentions(text)] + [m.span() for m in CHIP_ID.finditer(text)])


def count_word(word: str) -> int:
    """``"3"`` -> 3, ``"three"`` -> 3."""
    return int(word) if word.isdigit() else NUMBER_WORDS[word.lower()]


def noun_after(after: str) -> str | None:
    """What a count counts, from the words after it: ``qubits``, ``couplings``, ``tasks``, ``runs``, ``values``."""
    found = NOUN_AFTER.match(after)
    return COUNT_NOUNS[found.group(1).lower()] if found else None


def selects(before: str, after: str) -> bool:
    """The number between ``before`` and ``after`` sizes a selection ("last 3", "3 most recent")."""
    return bool(SELECTION_BEFORE.search(before) or SELECTION_AFTER.match(after))


def _stated_counts(text: str) -> frozenset[tuple[int, str]]:
    masked = names_blanked(text)
    out: set[tuple[int, str]] = set()
    for m in STATED_NUMBER.finditer(masked):
        n = count_word(m.group(1))
        before, after = masked[:m.start()], masked[m.end():]
        if selects(before, after):
            out.add((n, "selection"))
        if (noun := noun_after(after)) is not None:
            out.add((n, noun))
    return frozenset(out)


@dataclass(frozen=True)
class Question:
    text: str
    shape: str  # a row of :data:`SHAPES`, "lookup" (a qubit and a metric), or "other"
    chips: tuple[str, ...] = ()  # installed chips it names
    qubits: tuple[str, ...] = ()  # "5" (listed ones too: "qubits 3 and 7")
    couplings: tuple[str, ...] = ()  # "4-5"
    ends: tuple[str, ...] = ()  # the qubits and the ends of couplings written with Q ("Q4-Q5": "4", "5")
    metrics: tuple[str | None, ...] = ()  # None for an ambiguous phrase ("T2", "coherence")
    extreme: Extreme | None = None
    extreme_word: str | None = None  # as written, lower-case ("top", "weakest")
    n: int | None = None
    threshold: Threshold | None = None  # the first one, with its unit
    limits: tuple[Threshold, ...] = ()  # every one, a range's two included
    ranges: tuple[Range, ...] = ()  # two limits of one metric: "between 60 and 80 μs", "below 60 or above 80"
    join: Literal["and", "or"] = "and"  # how its conditions are joined ("or" of a range or of "50 μs or more": none)
    unfit: tuple[Threshold, ...] = ()  # limits the metric written next to them cannot hold ("T1 above 5 GHz")
    unbound: tuple[Threshold, ...] = ()  # limits no metric read can hold ("and a resonance above 5.1 GHz"): said so
    window: Window | None = None
    dates: tuple[str | None, str | None] | None = None  # a window written as dates, both ends included (None: open)
    since_weekday: str | None = None  # "since Monday", "this week" (monday): a window from that weekday on
    last_runs: int | None = None  # a window of the chip's newest runs ("over its last 5 runs")
    task_name: str | None = None  # a QDash task named as written ("CheckT1")
    chart: bool = False
    bare_t2: bool = False  # "T2" with no echo/star
    about_data: bool = False  # names a qubit, the chip, a metric or a chip-wide word
    many_chips: bool = False  # about several chips at once
    chip_ids: tuple[str, ...] = ()  # every chip written: the installed id it means ("64Q": "64Qv3"), else as written
    chip_options: tuple[str, ...] = ()  # the installed chips a chip written could be, when it could be several
    installed: tuple[str, ...] = ()  # the installed chips it was read against
    execution_id: str | None = None
    extreme_n: int | None = None  # "lowest 3", "which 5 qubits"
    recent_n: int | None = None  # "the last 5 values": 5; "the latest values": 0; None when not asked
    last_n: int | None = None  # "last 20 measurements"
    stated_counts: frozenset[tuple[int, str]] = frozenset()  # (3, "values"), (2, "selection")
    values: tuple[str, ...] = ()  # every number as written, labels and ids left out
    threshold_metrics: frozenset[str] = frozenset()  # scored metrics its words point at, each phrase on its own
    qualities: tuple[Quality, ...] = ()  # conditions in words, no number: "short T1", "poor T2 echo"
    unit_asked: str | None = None  # "in MHz": the unit an answer's value is asked in, as the catalogue spells it
    not_held: tuple[str, ...] = ()  # quantities no metric holds ("leakage rate"): keys of vocabulary.NOT_HELD
    unplaced: tuple[str, ...] = ()  # scope words no reading took ("during the last sprint"): the answer says so
    verdict: Verdict | None = None  # a yes/no asked against one limit ("is Q5's T1 over 50 μs?")
    counted: Counted | None = None  # what a count of failures counts (results, runs holding one ...), count or share
    held_errors: tuple[HeldError, ...] = ()  # an error's limits read as the fidelity's ("error below 2%": above 98%)
    span: tuple[str, ...] = ()  # the qubits of a run it writes ("Q10 through Q19"): a set, never a coupling
    left_out: tuple[str, ...] = ()  # qubits it leaves out ("except Q5"): of every set, and never asked about
    read_as: tuple[tuple[str, str], ...] = ()  # slipped words read as the lab word meant ("coherense": coherence)
    found: dict[str, str] = field(default_factory=dict, compare=False, hash=False)  # row -> its first match

    @property
    def window_days(self) -> float | None:
        return self.window.days if self.window is not None else None

    @property
    def chip(self) -> str | None:
        """The one installed chip it names, None when it names none or several."""
        return self.chips[0] if len(self.chips) == 1 else None

    @property
    def chips_compared(self) -> tuple[str, ...]:
        """The chips it sets side by side: two or more named, else every installed chip when it asks for each
        chip ("per chip", "on both chips"); empty otherwise."""
        named = tuple(dict.fromkeys(self.chip_ids))
        if len({c.lower() for c in named}) >= 2:
            return named
        return self.installed if self.has("each chip") and len(self.installed) >= 2 and not named else ()

    @property
    def chips_asked(self) -> tuple[str, ...]:
        """The chips a figure is asked of, each on its own: :attr:`chips_compared`, else every installed chip when
        it asks which chip ("which chip had fewer failed runs") and does not pool them."""
        which = self.has("which chip") and not self.has("pooled chips") and len(self.installed) >= 2
        return self.chips_compared or (self.installed if which and not self.chip_ids else ())

    @property
    def relates(self) -> bool:
        """It asks how two metrics go together: the correlation shape, or its words in any shape ("is T1 related
        to frequency", "do qubits with higher X have worse Y"), for the router and the checks alike."""
        link = str(self.said("correlation words")).lower() in ("link", "links") and bool(self.couplings)  # "the
        return self.shape == "correlation" or self.has("correlation words") and not link  # 4-5 link" names one

    @property
    def chip_scope(self) -> Literal["one", "each", "pooled"]:
        """Over which chips a statistic is asked: pooled over every qubit of the chips together ("across all
        chips", "fleet-wide", "over both devices", with no word setting them against each other), each chip side
        by side (a cross-chip question), else one chip."""
        if self.has("pooled chips") and not self.has("chip comparing"):
            return "pooled"
        return "each" if self.shape == "cross-chip" or self.chips_compared else "one"

    def names_qubit(self, qid: str) -> bool:
        """It names qubit ``qid`` ("Q5", "qubit 5") or says "this qubit"."""
        return (qid.isdigit() and str(int(qid)) in self.qubits) or self.has("this qubit")

    @property
    def names_lab_data(self) -> bool:
        """It asks about the lab's data: data words, a qubit or coupling, or a chip id."""
        return self.has("about data") or bool(self.ends) or bool(self.chip_ids)

    def has(self, row: str) -> bool:
        """The question holds words of ``row`` of the table."""
        if row not in WORDS:
            raise KeyError(row)
        return row in self.found

    def said(self, row: str) -> str | None:
        """The first words of ``row`` the question holds, as written."""
        return self.found.get(row)

    def without(self, row: str) -> Question:
        """The question read again with the words of ``row`` blanked ("executions of the chip" without "executions")."""
        rule, typed = WORDS[row], as_typed(self.text)  # the words as read: a Japanese question's in English
        if isinstance(rule, Phrases):
            return parse(blank(typed, rule.find(typed)), self.chips)
        return parse(rule.sub(" ", typed), self.chips)


def _first(rule: Row, text: str, tokens: list[tuple[int, int, str]]) -> str | None:
    """The first words of ``text`` the rule finds, as written (a phrase: its words in lower case)."""
    if isinstance(rule, Phrases):
        spans = rule.spans(tokens)
        return " ".join(t[2] for t in tokens[spans[0][0]:spans[0][1]]) if spans else None
    found = rule.search(text)
    return found.group(0) if found else None


def _rx(row: str) -> re.Pattern[str]:
    """A row the parse reads groups from: a pattern."""
    rule = WORDS[row]
    if not isinstance(rule, re.Pattern):
        raise TypeError(f"row {row!r} is no pattern")
    return rule


def _first_count(groups: Sequence[str | None]) -> int | None:
    return next((count_word(g) for g in groups if g and (g.isdigit() or g.lower() in NUMBER_WORDS)), None)


def _qubits(text: str) -> tuple[str, ...]:
    named = [m.subject for m in mentions(text) if "-" not in m.subject]
    listed = [str(int(n)) for m in QUBIT_LIST.finditer(text) for t in TOKEN.findall(m.group(0))
              if (n := t.lower().lstrip("q")).isdigit()]
    return tuple(dict.fromkeys(named + listed))


def _recent_n(text: str) -> int | None:
    return None if (found := _rx("recent n").search(text)) is None else (_first_count(found.groups()) or 0)


def _chips_written(text: str, chips: tuple[str, ...]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(every chip ``text`` writes, as the installed chip it means or as written; the installed chips one written
    could be when it could be several).  A chip is an id ("64Qv3", "64q", "99Qv9") or "<N>-qubit chip"; a bare
    "<N>Q" that means no installed chip is a chip only next to the word chip ("chip 999Q"; "2Q gates" is none)."""
    tokens = tokens_of(text)
    found: list[tuple[int, str, bool]] = []
    for m in _rx("chip id").finditer(text):
        if text[m.end():m.end() + 1] == "-" and text[m.end() + 1:m.end() + 2].isalnum():
            continue  # a label with the chip in it ("64Qv3-001"), not the chip
        near = [t[2] for t in tokens if t[1] <= m.start()][-1:] + [t[2] for t in tokens if t[0] >= m.end()][:1]
        found.append((m.start(), m.group(0), bool({"chip", "chips", "device"} & set(near))))
    if chips:
        sized = WORDS["sized chip"]
        found += [(start, f"{tokens_of(text[start:end])[0][2]}Q", True)
                  for start, end in (sized.find(text) if isinstance(sized, Phrases) else [])]
    ids: list[str] = []
    options: list[str] = []
    for _, written, says_chip in sorted(found):
        meant = chips_meant(written, chips)
        if len(meant) > 1:
            options += meant
        if len(meant) == 1:
            ids.append(meant[0])
        elif meant or says_chip or not chips or not written.lower().endswith("q"):
            ids.append(written)
    return tuple(ids), tuple(dict.fromkeys(options))


def parse(text: str, chips: Sequence[str] = ()) -> Question:
    """Read ``text`` once (``chips``: the installed chip ids it may name); the same text is read only once."""
    return _parse(text, tuple(chips))


def _since_weekday(text: str, found: dict[str, str]) -> str | None:
    """The weekday a window starts on: "since Tuesday": tuesday; "this week": monday."""
    if "since weekday" in found:
        return found["since weekday"].split()[-1]
    return "monday" if "this week" in found else None


_NOT_A_TASK = frozenset({"checks", "checked", "checking", "created", "creates", "creating", "creation", "checklist",
                         "checklists", "checkpoint", "checkpoints", "checkbox", "checkboxes", "checkup", "checkups",
                         "checkmark", "checkmarks", "checkout", "checkin"})  # plain words


def _task_name(text: str, found: dict[str, str]) -> str | None:
    """A QDash task's name as written ("CheckT1"), else None."""
    rule = WORDS["task name"]
    spans = rule.find(text) if isinstance(rule, Phrases) else []
    named = [text[a:b] for a, b in spans if text[a:b].lower() not in _NOT_A_TASK]
    return task_spelled(named[0]) if named else loose_task_name(text, "fail" in found)


@functools.lru_cache(maxsize=256)
def _parse(asked: str, chips: tuple[str, ...]) -> Question:
    typed, read_as = respelled(taken_back(as_typed(asked), chips))  # spoken names as typed, slips as meant, a
    # correction's words in place of those it takes back: every reading
    written, held = as_fidelity(anchored_to_today(typed))  # "zed x ninety error": the ZX90 fidelity, everywhere
    tokens = tokens_of(written)
    found = {row: said for row, rule in WORDS.items() if (said := _first(rule, written, tokens)) is not None}
    spelled = spelled_as_digits(written, 11)
    for row in ("window", "window form"):  # "over the last thirty-six hours": a number written in words
        if row not in found and (said := _first(WORDS[row], spelled, tokens_of(spelled))):
            found[row] = said
    dates = written_window(written) or (("month", None) if "this month" in found else None)  # since the 1st
    # a date's digits are never a qubit, a count or a limit; a value in words ("forty-five") is its digits
    text = spelled_as_digits(blank(written, date_spans(written)))
    timed = blank(text, counts_of_time(text))  # "over the 14 days": a window's size, no limit and no N
    limits, ranges, join, unfit, unbound = read_limits(timed)
    absent = not_held_spans(text)
    held_words = blank(text, [(s, e) for s, e, _ in absent])  # a name in quotes is talked about, not asked
    metrics = tuple(metrics_named(blank(held_words, quoted_names(held_words))) or metrics_named(held_words))
    paired = any(m is not None and CATALOGUE[m].kind == "coupling" for m in metrics)
    named, limits = blank(text, (sets := qubit_set(text, paired, limits, ranges)).spans), sets.limits  # runs: no
    labelled = [m.subject for m in mentions(named) if "-" in m.subject]  # pairs, no subjects; "up to 15": no limit
    bare = [f"{int(m.group(1))}-{int(m.group(2))}" for m in _rx("bare pair").finditer(named)  # "60-80" of a range
            if not any(float(m.group(1)) == r.low and float(m.group(2)) == r.high for r in ranges)]
    grouped = [] if len(labelled + bare) >= 2 else couplings_written(named, paired, frozenset(  # "between 16 and
        [t.value for t in limits if t.unit] + [v for r in ranges if r.unit for v in (r.low, r.high)]))  # 17 or 16 and 18"
    couplings = tuple(dict.fromkeys(labelled + bare + grouped))
    qubits = tuple(q for q in _qubits(named) if not any(q in c.split("-") for c in bare + grouped))
    chip_ids, chip_options = _chips_written(text, chips)
    named_chips = tuple(dict.fromkeys([c for c in chip_ids if c in chips] +
                                      [c for c in chips if chip_named(text, [c]) is not None]))
    if "fails most" not in found and not any(metrics) and (top := ranks_failures(tokens)) is not None:
        found["fails most"] = " ".join(t[2] for t in tokens[top[0]:top[1]])  # a failure word ranked, in any phrase
    word = extreme_word(blank(text, quoted_names(text))) or extreme_word(text)
    counting = counts_as_digits(timed)
    n_match = _rx("n").search(counting)
    last = _rx("last n").search(text)
    terse = opens_with_count(written, tokens)  # "failed tasks this week?": a sentence opens with what it counts
    runs = runs_back(text)  # "its last 5 runs": a window as much as dates are
    shape = compared_shape(found, qubits, chip_ids, dates is not None or runs is not None, terse) or \
        next((name for name, rule in SHAPES if (_first(rule, written, tokens) is not None or name == "percentage" and
              bare_percent(text)) and not (name == "percentage" and form_only(written, rule) or name == "count" and
                                            unit_counted(written, rule))), None)
    if shape is None:
        shape = "lookup" if (qubits or couplings) and any(metrics) else "other"
    window = read_window(text) or (Window(2, "week") if "fortnight" in found else None)
    if window is not None and window.vague == "recently" and shape not in ("window count", "fails most"):
        window = None  # a history "recently" is its recent values, not a window of days
    weekday = _since_weekday(text, found)
    ends = tuple(dict.fromkeys([*qubits, *(e for m in mentions(named) if m.labelled for e in m.subject.split("-"))]))
    return Question(
        text=asked, shape=shape, dates=dates, chips=named_chips, qubits=qubits, couplings=couplings, metrics=metrics,
        ends=ends, extreme=cast(Extreme, EXTREME_WORDS[word]) if word else None, extreme_word=word,
        n=_first_count(n_match.groups()) if n_match else None, threshold=limits[0] if limits else None,
        limits=limits, ranges=ranges, join=join, unfit=unfit, unbound=unbound, window=window,
        since_weekday=weekday, last_runs=runs[0] if runs else None,
        task_name=_task_name(text, found), chart="chart" in found,
        bare_t2="t2" in found and not {"t2_echo", "t2_star"} & set(metrics), many_chips="many chips" in found or len(
            named_chips) > 1, about_data="data" in found or bool(ends) or any(metrics),
        chip_ids=chip_ids, chip_options=chip_options, installed=chips, execution_id=found.get("execution id"),
        extreme_n=extreme_n(names_blanked(counting), word is not None, [t.value for t in limits] + [
            v for r in ranges for v in (r.low, r.high)], counting), recent_n=_recent_n(text),
        last_n=int(last.group(1)) if last else None, stated_counts=_stated_counts(text),
        threshold_metrics=frozenset(threshold_metrics(text)), qualities=qualities(text),
        not_held=tuple(dict.fromkeys(key for _, _, key in absent)), unplaced=unplaced_window(
            found, window is not None or dates is not None or weekday is not None),
        verdict=read_verdict(text, tokens_of(text), metrics, limits, ranges, qubits, couplings),
        unit_asked=asked_unit(text, found.get("unit asked")),
        values=tuple(w for _, _, w, _ in number_spans(blank(text, [(m.start, m.end) for m in mentions(text)]))),
        counted=counted_unit(found), held_errors=held, span=sets.span, left_out=sets.left_out,
        read_as=read_as, found=found)


__all__ = ["Mention", "Quality", "Question", "Range", "SHAPES", "Threshold", "Verdict", "WORDS", "Window", "blank",
           "count_word", "mentions", "names_blanked", "noun_after", "parse", "qubits_in", "selects"]
