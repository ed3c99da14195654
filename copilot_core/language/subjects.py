"""What an answer names as the subject of a ranking, and the words that rank it.

A subject is a qubit ("Q05"), a coupling ("Q04-Q05"), a run (an execution id), a task ("CheckT1") or a chip
("64Qv3"), each with a key that two spellings share ("Q05" and "qubit 5": ``"5"``).  A ranking word is a
superlative ("most", "worst", "highest", "fails most often") or a comparative said against something ("more than
CheckT1", "higher than any other"); "at most", "at least", "most recent" and a comparison with a number ("more than
10") are no ranking.  One reader for every kind, so a kind the check has not met before is read the same way.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from copilot_core.language.question import mentions
from copilot_core.language.question_words import CHIP_ID, WORDS, task_words, tokens_of

SUPERLATIVE_UP = frozenset({"highest", "most", "largest", "longest", "greatest", "top", "tops", "leads", "strongest"})
SUPERLATIVE_DOWN = frozenset({"lowest", "least", "fewest", "smallest", "shortest", "weakest", "bottom"})
BEST = frozenset({"best"})
WORST = frozenset({"worst"})
COMPARATIVE_UP = frozenset({"higher", "more", "larger", "longer", "greater", "stronger"})
COMPARATIVE_DOWN = frozenset({"lower", "less", "fewer", "smaller", "shorter", "weaker"})
BETTER = frozenset({"better", "outperforms", "beats"})
WORSE = frozenset({"worse"})
_EVERY_OTHER = frozenset({"any", "all", "every", "each", "the", "others", "anything", "everything", "everyone"})
_NOT_RANKING_AFTER = {"most": ("recent", "recently", "of"), "least": ("one",), "top": ()}
_NOT_RANKING_BEFORE = ("at",)


@dataclass(frozen=True)
class Subject:
    start: int
    end: int
    kind: str  # "qubit", "coupling", "run", "chip", "task", or a ranking's own kind for a name it lists
    key: str  # "5", "4-5", "20261030-001", "64qv3", "checkt1"


@dataclass(frozen=True)
class RankWord:
    start: int
    word: str  # lower case
    against_all: bool  # a superlative, or a comparative said against every other ("more than any other")


def subjects(text: str, known: Iterable[tuple[str, str]] = ()) -> list[Subject]:
    """Every subject ``text`` names, in order; ``known``: ``(kind, name)`` of names a tool listed (read as words)."""
    found = [Subject(m.start, m.end, "coupling" if "-" in m.subject else "qubit", m.subject) for m in mentions(text)]
    runs = WORDS["execution id"]
    for m in CHIP_ID.finditer(text):
        is_run = runs.fullmatch(m.group(0)) is not None  # type: ignore[union-attr]
        found.append(Subject(m.start(), m.end(), "run" if is_run else "chip", m.group(0).lower()))
    found += [Subject(a, b, "task", w.lower()) for a, b, w in task_words(text)]
    names = {name.lower(): kind for kind, name in known if " " not in name.strip()}
    found += [Subject(a, b, names[w], w) for a, b, w in tokens_of(text) if w in names]
    out: list[Subject] = []
    for s in sorted(found, key=lambda s: (s.start, -(s.end - s.start))):
        if not any(s.start < o.end and o.start < s.end for o in out):
            out.append(s)
    return out


def subject_key(name: str) -> tuple[str | None, str]:
    """A ranked name's kind and key as :func:`subjects` reads it ("Q05": qubit "5"); ``(None, lower case)`` when it
    reads as none."""
    found = subjects(name)
    if len(found) == 1 and not name[:found[0].start].strip() and not name[found[0].end:].strip():
        return found[0].kind, found[0].key
    return None, name.strip().lower()


def rank_word(sentence: str) -> RankWord | None:
    """The first word of ``sentence`` that ranks a subject, None when it ranks nothing."""
    tokens = tokens_of(sentence)
    for i, (start, _, word) in enumerate(tokens):
        before = tokens[i - 1][2] if i else ""
        after = tokens[i + 1][2] if i + 1 < len(tokens) else ""
        if before in _NOT_RANKING_BEFORE or after in _NOT_RANKING_AFTER.get(word, ()):
            continue
        if word in SUPERLATIVE_UP | SUPERLATIVE_DOWN | BEST | WORST:
            return RankWord(start, word, True)
        if word in COMPARATIVE_UP | COMPARATIVE_DOWN | BETTER | WORSE:
            rest = [w for _, _, w in tokens[i + 1:]]
            than = next((j for j, w in enumerate(rest) if w == "than"), None)
            if than is None and word not in BETTER:
                continue
            following = rest[than + 1] if than is not None and than + 1 < len(rest) else ""
            if following.isdigit():  # "more than 10 times": a limit
                continue
            return RankWord(start, word, following in _EVERY_OTHER)
    return None


def side(word: str) -> str:
    """Which end a ranking word points at: "up" (most, higher), "down" (fewest, lower), "best" or "worst"."""
    if word in SUPERLATIVE_UP | COMPARATIVE_UP:
        return "up"
    if word in SUPERLATIVE_DOWN | COMPARATIVE_DOWN:
        return "down"
    return "best" if word in BEST | BETTER else "worst"
