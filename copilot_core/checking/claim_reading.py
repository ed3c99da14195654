"""An answer read as claims: each number with its clause, the words around it and the qubit named next to it.

The answer is cut into clauses; qubit, coupling, chip and execution labels are blanked first (they are names, not
values, :func:`~copilot_core.language.question.names_blanked`).  For each number :func:`read_words` says what its words
claim (lowest, highest, median, average, latest, how many, below/above, a band word); the judging is
:mod:`~copilot_core.checking.claim_judge`'s.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass

from copilot_core.checking.claim_facts import Fact, Role
from copilot_core.language.numbers import list_markers, number_spans
from copilot_core.checking.matcher import written_decimals, written_value
from copilot_core.language.question import blank, names_blanked, noun_after, selects
from copilot_core.language.question import mentions as find_mentions
from copilot_core.language.sentences import sentence_at
from copilot_core.language.answer_words import ANSWER_WORDS, closing, opening
from copilot_core.language.question_words import TOKEN
from copilot_core.domain.vocabulary import metrics_named

_CLAUSE_END = re.compile(r"[.!?:](?=\s|$)|;|\n|,\s+(?=\D)|\s+but\s+|\s+while\s+|\s+whereas\s+")
# "mad" before "median" and "pstd" before "std": a "median absolute deviation" is no median
_ROLES: tuple[Role, ...] = ("min", "max", "mad", "median", "mean", "latest", "pstd", "std", "iqr", "cv", "range",
                            "spread", "r", "percent", "total")
_QUALIFIERS = ("missing", "failed", "below", "above")
_SIGNS = {"below": "<", "above": ">"}
_BAND_ALIASES = {"poor": "bad"}
_DIGITS = "0123456789"


def without_windows(text: str) -> str:
    """``text`` with every window phrase ("over the last 7 days", "over time") blanked to spaces of the same length:
    its "over" is not a limit and its number not a count, wherever a limit or qualifier is read."""
    for start, end in ANSWER_WORDS["window"].find(text):
        text = text[:start] + " " * (end - start) + text[end:]
    return text


def limits_after(after: str) -> list[tuple[str, str]]:
    """Every "below 20", "more than 99.5" in ``after``: the comparison words (lower case) and the number."""
    out = []
    after = without_windows(after)
    for start, end in ANSWER_WORDS["below or above"].find(after):
        number = after[end:].lstrip()
        if len(number) < len(after) - end and (written := _decimal_opening(number)):
            out.append((after[start:end].lower(), written))
    return out


def _decimal_opening(text: str) -> str:
    """The plain decimal ``text`` starts with ("20", "99.5"; a point with no digit after is not in it), else ""."""
    whole = len(text) - len(text.lstrip(_DIGITS))
    fraction = len(text) - whole - 1 - len(text[whole + 1:].lstrip(_DIGITS))
    return text[:whole + 1 + fraction] if whole and text[whole:whole + 1] == "." and fraction else text[:whole]


def clauses(text: str, ends: re.Pattern[str] = _CLAUSE_END) -> list[tuple[int, int]]:
    """``(start, end)`` of each clause of ``text``, cut at every match of ``ends`` (the match belongs to neither)."""
    bounds, start = [], 0
    for m in ends.finditer(text):
        bounds.append((start, m.start()))
        start = m.end()
    bounds.append((start, len(text)))
    return bounds


def _role_words(role: Role, text: str) -> list[int]:
    """Where the words of ``role`` start in ``text`` ("at least" is a limit, not a minimum; "the most recent
    values" are several, not the latest)."""
    if role == "latest":
        several = {start for start, _ in ANSWER_WORDS["several latest"].find(text)}
        return [start for start, _ in ANSWER_WORDS["latest"].find(text) if start not in several]
    if role == "percent" and _percent_of(text):
        return [0]
    row = ANSWER_WORDS["aggregate" if role == "total" else role]  # "combined", "in total", "together", "overall"
    return [start for start, end in row.find(text)
            if not text[:start].lower().endswith(_NOT_THE_ROLE.get(text[start:end].lower(), "\0"))]


# A role word that is not that role after these words: "at least" is a limit, "interquartile range" not the range.
_NOT_THE_ROLE = {"least": "at ", "range": "interquartile ", "variation": "coefficient of ",
                 **{std: "population " for std in ("standard deviation", "sd", "std", "sigma", "σ")}}


def _percent_of(text: str) -> bool:
    """"% of" opens ``text``: "45.2% of the qubits" states a share."""
    rest = text.lstrip()
    words = rest[1:].split(None, 1)
    return rest[:1] == "%" and rest[1:2].isspace() and bool(words) and words[0].lower() == "of"


# The nouns a share's words name its denominator by ("21% of all tasks", "of the failed tasks", "of the qubits").
_DENOMINATOR_NOUNS = (("fail", "failed tasks"), ("qubit", "qubits"), ("coupling", "couplings"), ("pair", "couplings"),
                      ("task", "task results"), ("result", "task results"), ("run", "task results"),
                      ("execution", "task results"), ("calibration", "task results"))
_DENOMINATOR_END = ".;:,()[]\n"


def share_words(after: str) -> str:
    """The words a share written just before ``after`` names its total with, to the clause's end ("% of all
    readout task results; ...": "all readout task results"); empty when it names none ("% of them" names "them")."""
    rest = after.lstrip()
    rest = rest[1:] if rest[:1] == "%" else rest[len("percent"):] if rest[:7].lower() == "percent" else ""
    words = rest.split(None, 1)
    if not words or words[0].lower() != "of" or len(words) < 2:
        return ""
    return words[1][:next((i for i, c in enumerate(words[1]) if c in _DENOMINATOR_END), len(words[1]))]


def share_denominator(after: str) -> str | None:
    """What a share written just before ``after`` is a share of ("% of all tasks": task results, "% of the failed
    tasks": failed tasks, "% of the qubits": qubits); None when its words name no denominator ("% of them")."""
    tokens = [t.lower() for t in share_words(after).split()[:8]]
    kind = next((kind for stem, kind in _DENOMINATOR_NOUNS if any(t.startswith(stem) for t in tokens)), None)
    if kind in ("qubits", "couplings") and set(tokens) & _WITH_VALUE:
        return f"{kind} with a value"  # "of the 62 qubits with a value", "of all qubits with data"
    if kind in ("qubits", "couplings") and set(tokens) & _WHOLE_CHIP:
        return f"{kind} on the chip"  # "of all 64 qubits", "of the chip's qubits"
    if kind is None and set(tokens) & _WITH_VALUE:
        return "with a value"  # "of those with a value": the qubits' or couplings' share, whichever was computed
    if kind is None and set(tokens) & {"chip", "chip's"}:
        return "on the chip"  # "of all 64 on the chip"
    return kind


# Words that name which qubits (couplings) a share is of: those with a value, or every one on the chip.
_WITH_VALUE = frozenset({"with", "having", "measured", "valid"})
_WHOLE_CHIP = frozenset({"all", "every", "chip", "chip's", "entire", "whole", "total"})


def _role_from_words(before: str, after: str, clause: str) -> Role | None:
    """The role the nearest claim word gives a number: the last one before it in its clause, else one after."""
    best: tuple[int, Role] | None = None
    for role in _ROLES:
        for start in _role_words(role, before):
            if best is None or start > best[0]:
                best = (start, role)
    if best is not None:
        return best[1]
    after = after[:40].partition("(")[0]  # "36 of the 59 compared (largest drop first": the aside has its own words
    return next((role for role in _ROLES if _role_words(role, after)), None)


def _says(row: str, clause: str) -> bool:
    sign = _SIGNS.get(row)
    clause = without_windows(clause)
    return ANSWER_WORDS[row].search(clause) is not None or (sign is not None and sign in clause)


def _qualifier(clause: str) -> str | None:
    return next((name for name in _QUALIFIERS if _says(name, clause)), None)


def count_qualifier(text: str) -> str | None:
    """Which items a count in ``text`` counts: "below", "above", "missing", "failed", else None."""
    return _qualifier(text)


def counts_after(after: str) -> bool:
    """The words after a number say it counts something ("3 qubits", "of the 59 couplings", "out of 64", "failed 14
    times"), or it is the numerator of "12/64"."""
    if after[:1] == "/" and after[1:2].isdigit():  # "13/750 tasks", "13/750 failed"; not a date ("11/26: 52.3 μs")
        ratio = after[1:].lstrip(_DIGITS)
        return ratio[:1].isspace() and (counts_after(after[1:]) or opening(ANSWER_WORDS["failed"], ratio) is not None)
    return opening(ANSWER_WORDS["counted"], after) is not None


@dataclass
class Reading:
    written: str
    value: float
    decimals: int
    start: int
    end: int
    clause: str
    before: str
    after: str
    derived: bool
    listed: int | None = None  # "CheckRamsey 2 (Q03, Q07)": how many qubits/couplings the brackets after it name
    sentence: str = ""  # the sentence up to the number ("Median X90 fidelity 99.78% (good: above ")
    remark: str = ""  # the clause after a comma that grades this one (", which is good": no number, no name)


def read_numbers(answer: str) -> tuple[list[Reading], list[tuple[int, int, str]]]:
    mentions = [(m.start, m.end, m.subject) for m in find_mentions(answer)]
    masked = blank(names_blanked(answer), list_markers(answer))  # "1. Q59: 21.7 μs": the "1." opens no clause
    out = []
    bounds = clauses(_names_held(answer, masked))
    for i, (cstart, cend) in enumerate(bounds):
        spans = number_spans(masked[cstart:cend])
        remark = _remark(answer, masked, bounds[i + 1] if i + 1 < len(bounds) else None, cend, mentions) \
            if spans else ""
        for start, end, written, derived in spans:
            try:
                value = written_value(written)
            except ValueError:
                continue
            s, e = cstart + start, cstart + end
            out.append(Reading(written, value, written_decimals(written), s, e, answer[cstart:cend].strip(),
                                answer[cstart:s], answer[e:cend], derived, _listed(answer, e, mentions),
                                _sentence_before(answer, s), remark))
    return out, mentions


def _names_held(answer: str, masked: str) -> str:
    """``masked`` with each blanked name filled with letters instead of spaces: a clause cut (", ") never takes the
    name that opens the next clause with it ("…, Q14 has 44.0 μs" keeps Q14 in the clause of 44.0)."""
    return "".join("x" if m == " " and a != " " else m for m, a in zip(masked, answer))


def _remark(answer: str, masked: str, following: tuple[int, int] | None, end: int,
            mentions: list[tuple[int, int, str]]) -> str:
    """The next clause when a comma joins it to this one and it holds no number, no qubit and no metric: it can
    only grade what this clause states ("20.5 μs, which is good")."""
    if following is None or "," not in masked[end:following[0]]:
        return ""
    nstart, nend = following
    if number_spans(masked[nstart:nend]) or any(nstart <= m[0] < nend for m in mentions):
        return ""
    text = answer[nstart:nend]
    return "" if any(n is not None for n in metrics_named(text)) else text.strip()


def numbers_read(text: str) -> list[str]:
    """The numbers the claim check reads in ``text``, as written (ids, labels, dates and list markers are not)."""
    return [r.written for r in read_numbers(text)[0]]


def _sentence_before(answer: str, start: int) -> str:
    """The answer from the end of the sentence before (";" does not end one here) up to ``start``."""
    first, _ = sentence_at(answer, start, ".!?")
    while first and answer[first - 1] in " \t":
        first -= 1
    return answer[first:start]


def _listed(answer: str, end: int, mentions: list[tuple[int, int, str]]) -> int | None:
    """How many qubits or couplings the brackets right after a number name, when they name nothing else."""
    start = len(answer) - len(answer[end:].lstrip())
    close = answer.find(")", start)
    if answer[start:start + 1] != "(" or close < 0 or "(" in answer[start + 1:close]:
        return None
    start += 1
    inside = [m for m in mentions if start <= m[0] and m[1] <= close]
    rest = blank(answer[start:close], [(s - start, e - start) for s, e, _ in inside])
    only_names = all(t == "and" for t in TOKEN.findall(rest)) and set(TOKEN.sub("", rest)) <= set(" \t\n\r,;&")
    return len(inside) if inside and only_names else None


def subject_for(reading: Reading, mentions: list[tuple[int, int, str]], answer: str) -> str | None:
    """The qubit or coupling a number belongs to within its clause: the nearest named before it when the clause
    names its subjects before their values ("Q12 has 44.7 μs and Q25 71.8 μs"), the nearest after it when it writes
    its values first ("44.7 μs for Q12 and 71.8 μs for Q25"), else the nearest on the other side."""
    clause_start = reading.start - len(reading.before)
    clause_end = reading.end + len(reading.after)
    inside = sorted((s, e, subject) for s, e, subject in mentions if s >= clause_start and e <= clause_end)
    if not inside:
        return _labelled(answer, clause_start, mentions)
    values = number_spans(blank(answer[clause_start:clause_end], [(s - clause_start, e - clause_start)
                                                                   for s, e, _ in inside]))
    first_value = clause_start + values[0][0] if values else reading.start
    before = [m for m in inside if m[1] <= reading.start]
    after = [m for m in inside if m[0] >= reading.end]
    lead, other = (before[::-1], after) if inside[0][0] < first_value else (after, before[::-1])
    return (lead or other or inside)[0][2]


def _labelled(answer: str, clause_start: int, mentions: list[tuple[int, int, str]]) -> str | None:
    """The subject a label names for the clause after its colon ("Q27: 25.5 μs", "- **Q04-Q05**: 96.3%"): a line
    or sentence that opens with nothing but the name and a colon."""
    head = answer[:clause_start].rstrip()
    if not head.endswith(":"):
        return None
    named = [m for m in mentions if m[1] <= len(head) and not answer[m[1]:len(head) - 1].strip(" *_`")]
    if not named:
        return None
    start, _, subject = named[-1]
    line = answer[:start].rsplit("\n", 1)[-1]
    opener = line.strip(" \t*_`-+#").rstrip(".)")
    return subject if not opener or opener.isdigit() or line.rstrip().endswith((".", ";")) else None


def claimed_metric(clause: str, candidates: Sequence[Fact]) -> str | None:
    named = [n for n in metrics_named(clause) if n is not None]
    if len(named) == 1:
        return named[0]
    metrics = {f.metric for f in candidates if f.metric}
    return metrics.pop() if len(metrics) == 1 else None


def asked_count(reading: Reading, stated: AbstractSet[tuple[int, str]]) -> bool:
    """True when the number sizes a selection ("last 3", "3 most recent") or counts what the question itself
    asked for ("the 3 values" after "the last 3 values"): it is not a claimed value.  A count of something else
    ("3 qubits" after "the last 3 values") and a selection of failed, missing, below or above items stay claims."""
    if reading.decimals or not math.isfinite(reading.value) or reading.value != int(reading.value):
        return False
    if _qualifier(reading.clause) is not None:  # "the last 3 tasks failed": a claim about those items
        return False
    n = int(reading.value)
    noun = noun_after(reading.after)
    if selects(reading.before, reading.after):
        return any(count == n for count, _ in stated) or noun in (None, "values")
    return noun is not None and ((n, noun) in stated or (noun == "values" and (n, "selection") in stated))


@dataclass(frozen=True)
class Words:
    """What the words around a number claim: its role, what a count counts, and a band word of its clause."""

    role: Role | None
    qualifier: str | None
    band: str | None


def read_words(reading: Reading) -> Words:
    """The role the words give the number (a threshold, a total, a count, else the nearest claim word), the count's
    qualifier (below, above, missing, failed) and the band its clause names."""
    before, after = without_windows(reading.before), reading.after
    threshold = before.rstrip()[-1:] in ("<", ">", "≤", "≥") or closing(ANSWER_WORDS["limit"], before) is not None
    is_count = not threshold and (counts_after(after) or _counted_before(before)
                                  or (not reading.decimals and (_compared_after(after) or _moved_on(before))))
    role: Role | None = "threshold" if threshold else "total" if (is_count and _of_before(before)) else \
        "count" if is_count else _role_from_words(before, after, reading.clause)
    if role == "percent" and not _written_as_share(reading) and (_of_before(before) or _of_after(after)):
        role = "total" if _of_before(before) else None  # "a fraction of 0.71 (44 of 62)": 44 and 62 are no share
    qualifier = (_qualifier(reading.clause) or _moved(before, after)) if role == "count" else None
    return Words(role, qualifier, _band(reading.clause) or _band(reading.remark))


_MOVES = ("better", "worse", "fell", "rose")


def _moved(before: str, after: str) -> str | None:
    """Which way the compared items a count counts moved: the word right after the number ("27 better"), else the
    nearest before it ("worse on 33 of 60 and better on 27"), else the first after it."""
    before = before[max((i + 1 for i, c in enumerate(before) if c.isdigit()), default=0):]  # since the last number
    after = after[:next((i for i, c in enumerate(after) if c.isdigit()), len(after))]  # up to the next one
    right_after = next((row for row in _MOVES if opening(ANSWER_WORDS[row], after) is not None), None)
    if right_after is not None:  # "33 worse and 27 better": the word right after the number is its own
        return right_after
    found = [(spans[-1][0], row) for row in _MOVES if (spans := ANSWER_WORDS[row].find(before))]
    if found:
        return max(found)[1]
    found = [(spans[0][0], row) for row in _MOVES if (spans := ANSWER_WORDS[row].find(after))]
    return min(found)[1] if found else None


def _written_as_share(reading: Reading) -> bool:
    """A share is written as a percent ("71%", "71 percent") or as a fraction (0.71); a whole number above 1 with
    neither is a count or a total, whatever share word its clause holds."""
    rest = reading.after.lstrip()
    return rest[:1] == "%" or rest[:7].lower() == "percent" or reading.decimals > 0 or reading.value <= 1


def _of_after(after: str) -> bool:
    """"44 of 62": a numerator, with its denominator next."""
    words = after.split(None, 2)
    return len(words) >= 2 and words[0].lower() == "of" and words[1][:1].isdecimal()


def _counted_before(before: str) -> bool:
    """"how many", "count", "number of" before the number, with no other number between."""
    found = ANSWER_WORDS["count before"].find(before)
    return bool(found) and not any(c.isdecimal() for c in before[found[-1][1]:])


def _moved_on(before: str) -> bool:
    """"better on 27", "fell for 33": a count of the compared items that moved that way."""
    return closing(ANSWER_WORDS["moved on"], before) is not None


def _compared_after(after: str) -> bool:
    """"(60 compared, 27 better, 33 worse)": a count of compared items."""
    return after[:1].isspace() and opening(ANSWER_WORDS["compared"], after) is not None


def _of_before(before: str) -> bool:
    """"36 of 59", "out of 59", "of the 62", "12/64", "13 failures in 750 tasks": the number is a total (the
    denominator of a share), not the count."""
    if before.rstrip()[-1:] == "/" and before.rstrip()[-2:-1].isdigit():
        return True
    return closing(ANSWER_WORDS["denominator"], before) is not None


def _band(clause: str) -> str | None:
    """The first band word of the clause ("good", "poor" as "bad"), unless it follows "not" or "than"."""
    for start, end in ANSWER_WORDS["band"].find(clause):
        if not clause[:start].lower().endswith(("not ", "than ")):
            word = clause[start:end].lower()
            return _BAND_ALIASES.get(word, word)
    return None
