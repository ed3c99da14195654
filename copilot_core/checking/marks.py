"""Fail closed on claims: every sentence that states a value, a ranking, a comparison or a count is either verified
by the claim check or marked, visibly, where it stands.

A sentence holding a number the check found wrong or in no tool result is left out, and a short constant says so in
its place (it never quotes the model, and carries no digit for the grounding check to trip on).  A sentence that
states something the check has no rule for ("Q05 has the highest T1", "64Qv3 is better than 144Qv2", a number it
could not read) and holds no verified number gets :data:`NOT_CHECKED` right after it, and so does one that ranks a
named subject no tool ranked (an ``unchecked`` claim), whatever numbers in it are verified.  Table rows are units too.
"""

from __future__ import annotations

from collections.abc import Sequence
from collections.abc import Set as AbstractSet

from copilot_core.checking.claim_facts import Claim
from copilot_core.checking.claim_reading import numbers_read
from copilot_core.checking.claim_units import spelled_value
from copilot_core.language.answer_words import ANSWER_WORDS, opening
from copilot_core.language.question_words import CHIP_ID, MENTION
from copilot_core.language.sentences import sentences

NOT_CHECKED = "*(not checked)*"
LEFT_OUT = "*(a sentence was left out here: the data does not support it)*"
ROW_LEFT_OUT = "*(left out: not in the data)*"  # a table row's last cell


def states_something(sentence: str) -> bool:
    """True when a sentence states a value, a ranking, a comparison or a count (a number, a ranking word, or a
    number written as a word with a unit: "about three microseconds"); a closing courtesy with no number states
    nothing ("Let me know if you need more."), unless it names a qubit, coupling or chip."""
    if opening(ANSWER_WORDS["courtesy"], sentence.strip(" *_")) is not None and not numbers_read(sentence) and \
            MENTION.search(sentence) is None and CHIP_ID.search(sentence) is None:  # a courtesy naming a subject: read
        return False
    return bool(numbers_read(sentence)) or ANSWER_WORDS["ranking"].search(sentence) is not None \
        or spelled_value(sentence)


def _is_row(unit: str) -> bool:
    return unit.lstrip().startswith("|") and unit.rstrip().endswith("|")


def _row_left_out(row: str) -> str:
    """A table row whose claim is unsupported: every cell emptied, the last one saying why."""
    cells = row.strip().strip("|").split("|")
    return "| " + " | ".join(["—"] * (len(cells) - 1) + [ROW_LEFT_OUT]) + " |"


def _marked(unit: str, mark: str) -> str:
    if _is_row(unit):  # a table row: the mark goes in its last cell
        body = unit.rstrip()
        return f"{body[:-1].rstrip()} {mark} |"
    return f"{unit.rstrip()} {mark}"


def _blanked(text: str, spans: Sequence[tuple[int, int]]) -> str:
    chars = list(text)
    for start, end in spans:
        chars[start:end] = " " * (end - start)
    return "".join(chars)


def mark_claims(text: str, claims: Sequence[Claim], *, unsupported: AbstractSet[str] = frozenset(),
                names: Sequence[tuple[int, int]] = ()) -> tuple[str, int, int]:
    """``text`` with unsupported sentences left out and unverified ones marked; how many of each.  ``claims``: the
    check's verdicts, at positions of ``text``; ``unsupported``: numbers (as written) that no tool result holds at
    all.  A sentence with a wrong claim or an unsupported number is left out; one the check could not verify
    (no rule for it, or a number in some result but not in a role the check can read) is marked.
    ``names``: spans of ``text`` that name something (dates written in words): their digits are no claim."""
    claims = [c for c in claims if not any(s <= c.start < e for s, e in names)]
    plain = _blanked(text, names)
    out: list[str] = []
    last = 0
    left_out = marked = 0
    for start, end in sentences(text):  # a table row is a line, so a unit too
        unit = text[start:end]
        inside = [c for c in claims if start <= c.start < end]
        out.append(text[last:start])
        last = end
        if any(c.verdict == "wrong" or (c.verdict == "unbacked" and c.written in unsupported) for c in inside) or (
                not claims and any(w in unsupported for w in numbers_read(plain[start:end]))):
            out.append(_row_left_out(unit) if _is_row(unit) else LEFT_OUT)
            left_out += 1
        elif (any(c.verdict == "unchecked" for c in inside) or states_something(plain[start:end])
              and not any(c.verdict == "ok" for c in inside)) and NOT_CHECKED not in unit:
            out.append(_marked(unit, NOT_CHECKED))
            marked += 1
        else:
            out.append(unit)
    out.append(text[last:])
    return "".join(out), left_out, marked
