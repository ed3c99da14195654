"""A chip, qubit or coupling the question names that the data does not hold, said first in every answer.

The turn's plan resolves each named subject against the data once (:func:`~copilot_core.agent.plan.missing_subjects`);
whatever tool ran and whatever the model wrote, a value must never stand as the answer about a subject that is not
there ("Q03-Q09" are no neighbours, yet a ranking's top coupling value was shown for them).  :func:`missing_blocks`
leads the answer with what the data lacks, and takes out every sentence that gives a value of the missing subject, or,
when the question names nothing the data holds, any value at all of no subject it holds (fail closed: the value
would be read as the missing one's).  Sentences that name a held subject (the couplings Q03 does have) stay.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from copilot_core.answer.blocks import Block, TextBlock
from copilot_core.checking.taken_out import take_out
from copilot_core.checking.absence import says_absent
from copilot_core.language.numbers import answer_numbers
from copilot_core.language.question import mentions
from copilot_core.language.question_words import CHIP_ID

MissingKind = Literal["chip", "qubit", "coupling"]


@dataclass(frozen=True)
class Missing:
    """One subject the question names that the data lacks: ``subject`` a chip id, qubit "70" or coupling "3-9";
    ``sentence`` what the data says instead (the couplings the qubit does have, the chips there are)."""

    subject: str
    kind: MissingKind
    sentence: str


def _same(named: str, missing: Missing) -> bool:
    if missing.kind == "coupling":
        return named in (missing.subject, "-".join(missing.subject.split("-")[::-1]))
    return missing.kind == "qubit" and named == missing.subject


def _names_missing(sentence: str, missing: Sequence[Missing]) -> bool:
    subjects = {m.subject for m in mentions(sentence)}
    chips = {c.group(0).lower() for c in CHIP_ID.finditer(sentence)}
    return any(_same(s, m) for s in subjects for m in missing) or \
        any(m.kind == "chip" and m.subject.lower() in chips for m in missing)


def _names_held(sentence: str, missing: Sequence[Missing], chips: Sequence[str]) -> bool:
    held_chips = {c.lower() for c in chips} - {m.subject.lower() for m in missing if m.kind == "chip"}
    named_chips = {c.group(0).lower() for c in CHIP_ID.finditer(sentence)}
    return any(not any(_same(m.subject, x) for x in missing) for m in mentions(sentence)) or \
        bool(named_chips & held_chips)


def _states_value(sentence: str) -> bool:
    """A measured number outside the chip ids ("64Qv3" is a name); a sentence that says something is absent
    states none of the absent subject."""
    named = CHIP_ID.sub(" ", sentence)
    return not says_absent(named) and any(not derived for _, derived in answer_numbers(named))


def _kept(sentence: str, missing: Sequence[Missing], chips: Sequence[str], only_missing: bool) -> bool:
    """Whether a sentence of the answer may stay: it is one of the data's own notes, or states no value, or states
    values only of subjects the data holds (when the question names nothing held, a value of no named subject
    would read as the missing one's)."""
    if any(sentence.strip() and sentence.strip() in m.sentence for m in missing):
        return False  # the data's note, said first
    if not _states_value(sentence):
        return True
    if _names_missing(sentence, missing):
        return False
    return not only_missing or _names_held(sentence, missing, chips)


def missing_blocks(blocks: list[Block], missing: Sequence[Missing], *, only_missing: bool,
                   chips: Sequence[str] = ()) -> list[Block]:
    """``blocks`` led by what the data lacks of the subjects the question names, every value given to a missing
    subject taken out (``only_missing``: the question names no subject the data holds, so an unnamed value goes too);
    unchanged when nothing named is missing."""
    if not missing:
        return blocks
    out, dropped = take_out(blocks, lambda s: _kept(s, missing, chips, only_missing))
    removed = any(_states_value(s) and not any(s.strip() in m.sentence for m in missing) for s in dropped)
    lead = " ".join(dict.fromkeys(m.sentence for m in missing))
    if removed:
        lead = (lead + " " if lead else "") + "A value the answer gave for it was taken out: the data holds none."
    return [TextBlock(lead), *out] if lead else out
