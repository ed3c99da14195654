"""What a ranking question asks: which end (its extreme word) and how many (its N), in every way N is written.

"The five worst", "top-3", "bottom three", "a top ten", "half a dozen", "a couple of", "the worst 4", "the weakest
seven", "lowest eleven": a question that asks for N subjects and is read as asking for one gets one, and every check
after it holds the answer to one.  So N is read in the written patterns first, and then, failing those, from any
count the question states next to its ranking word that is no label, limit, window, unit value or chip size
(:func:`extreme_n`): a count the question states is never dropped silently.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from typing import Literal

from copilot_core.domain.vocabulary import NUMBER_WORDS
from copilot_core.language.phrases import Phrases, tokens_of
from copilot_core.language.question_words import WORDS

# The written word -> the end it asks for ("poorest" is the worst end, which depends on the metric).
EXTREME_WORDS: dict[str, str] = {
    "lowest": "lowest", "smallest": "lowest", "shortest": "lowest", "minimum": "lowest", "weakest": "lowest",
    "highest": "highest", "largest": "highest", "longest": "highest", "maximum": "highest", "strongest": "highest",
    "best": "best", "worst": "worst", "poorest": "worst", "top": "best", "bottom": "worst",
    # a person's own words: ahead or behind ("leading on T1", "trailing"), an awkward size ("the most
    # small"), a T1's own verb ("relax fastest": the shortest T1)
    "leading": "best", "lead on": "best", "leads on": "best", "lead in": "best", "leads in": "best",
    "trailing": "worst", "lagging": "worst", "champion": "best", "champ": "best", "laggard": "worst",
    "most small": "lowest", "least large": "lowest",
    "most large": "highest", "least small": "highest", "relax fastest": "lowest", "relaxes fastest": "lowest",
    "relax quickest": "lowest", "relaxes quickest": "lowest", "relax slowest": "highest", "relaxes slowest": "highest",
    # a time's own ends: the fastest gate or briefest pulse is its shortest time, the slowest its longest
    "fastest": "lowest", "quickest": "lowest", "briefest": "lowest", "slowest": "highest"}
# The words whose end is the same whatever the metric ("lowest"); "best" and "worst" turn with its direction.
LOW_WORDS = frozenset({"lowest", "worst", "poorest", "smallest", "minimum", "shortest", "bottom", "weakest", "fastest",
                       "quickest", "briefest"})
HIGH_WORDS = frozenset({"highest", "best", "largest", "maximum", "longest", "top", "strongest", "slowest"})
_PLACES = frozenset({"top", "bottom"})  # "top 3 worst": the place in a list, the word after it says which end
MAX_N = 50  # the most a ranking lists (rank_metric's maximum)

_N_OF_THE = Phrases("# of? the/those lowest/highest/best/worst/smallest/largest/shortest/longest/weakest/strongest"
                    "/poorest")
# Words next to a count that make it something else than a ranking's size.
_NOT_SIZE_BEFORE = frozenset({"last", "past", "previous", "recent", "latest", "first", "above", "below", "under", "over",
                              "than", "exceeding", "beyond", "least", "most", "all", "every", "among", "across",
                              "within", "since", "per", "each", "about", "around", "approximately"})
_NOT_SIZE_AFTER = frozenset({"day", "days", "week", "weeks", "month", "months", "hour", "hours", "h", "hrs", "minutes",
                             "us", "μs", "µs", "ns", "ms", "s", "ghz", "mhz", "khz", "hz", "percent", "pct", "sigma",
                             "measurements", "measurement", "values", "points", "results", "runs", "executions",
                             "calibrations", "times", "x", "db", "σ"})
_WHOLE_OF = frozenset({"of", "among", "across", "all", "on", "over"})  # "of the 64 qubits", "among the 144"
_DETERMINERS = frozenset({"the", "our", "its", "their", "all"})
_CHIP_NOUNS = frozenset({"chip", "chips", "device", "devices", "processor", "gate", "gates", "one"})


def extreme_word(text: str) -> str | None:
    """The ranking word of ``text``, lower-case: its first, unless that is a place ("top", "bottom") followed by an
    end ("top 3 worst": worst)."""
    rule, window = WORDS["extreme"], WORDS["window form"]
    windows = window.find(text) if isinstance(window, Phrases) else []  # "the trailing 4 days": a window, no end
    found = [" ".join(w.lower() for _, _, w in tokens_of(text[a:b]))  # "most  small": "most small"
             for a, b in (rule.find(text) if isinstance(rule, Phrases) else [])
             if not any(s <= a < e for s, e in windows)]
    if not found:
        return None
    ends = [w for w in found[1:] if w not in _PLACES]
    return ends[0] if found[0] in _PLACES and ends else found[0]


def _count(word: str) -> int | None:
    return int(word) if word.isdigit() else NUMBER_WORDS.get(word)


def _first_count(groups: tuple[str | None, ...]) -> int | None:
    return next((n for g in groups if g and (n := _count(g.lower())) is not None), None)


def _rx(row: str) -> re.Pattern[str]:
    rule = WORDS[row]
    if not isinstance(rule, re.Pattern):
        raise TypeError(f"row {row!r} is no pattern")
    return rule


def stated_size(counting: str, taken: Collection[float] = ()) -> int | None:
    """The first count (2 to :data:`MAX_N`) ``counting`` states that sizes nothing else: not a limit's value
    (``taken``), a window ("last 3 days"), a value with its unit, a share, a decimal, a chip's size ("the 64-qubit
    chip") or the count of a whole ("of the 64 qubits", "all 144")."""
    tokens = tokens_of(counting)
    for i, (start, end, word) in enumerate(tokens):
        n = _count(word)
        if n is None or not 2 <= n <= MAX_N or float(n) in taken:
            continue
        before = [t[2] for t in tokens[max(0, i - 2):i]]
        after = [t[2] for t in tokens[i + 1:i + 3]]
        rest = counting[end:].lstrip()
        if rest[:1] in ("%", ".", ",") and rest[1:2].isdigit() or rest[:1] == "%" or counting[start - 1:start] == ".":
            continue
        if before[-1:] and before[-1] in _NOT_SIZE_BEFORE or before[-2:] == ["out", "of"] or \
                before[-2:-1] and before[0] in _WHOLE_OF and before[-1] in _DETERMINERS:
            continue
        if after[:1] and after[0] in _NOT_SIZE_AFTER:
            continue
        if after[:1] == ["qubit"] and (counting[end:end + 1] == "-" or after[1:2] and after[1] in _CHIP_NOUNS):
            continue
        return n
    return None


def _of_whole(counting: str, found: re.Match[str]) -> bool:
    """The count found is the whole the ranking is taken from ("of the 64 qubits", "among 144 qubits")."""
    before = [t[2] for t in tokens_of(counting[:found.start()])][-2:]
    return bool(before) and (before[-1] in _WHOLE_OF or before[0] in _WHOLE_OF and before[-1] in _DETERMINERS)


_BLANK_MARKS = frozenset(" \t\n\r_.…-–—:")  # what a fill-in blank holds: nothing but lines and dots


def form_blanks(text: str) -> int | None:
    """How many numbered blanks a fill-in form of ``text`` holds ("1)\\n2)\\n3)", "1. ___ 2. ___"): the
    longest run of markers 1, 2, 3, ... each followed by ".", ")" or ":" and nothing but blank marks up to the next
    marker or the end; None under two.  The person asks for that many, whatever other count the text holds."""
    tokens = [t for t in tokens_of(text) if t[2].strip("_")]  # "___" is a blank, no word
    best = run = 0
    for i, (_, end, word) in enumerate(tokens):
        following = tokens[i + 1][0] if i + 1 < len(tokens) else len(text)
        gap = text[end + 1:following]
        blank = word.isdigit() and text[end:end + 1] in (".", ")", ":") and set(gap) <= _BLANK_MARKS and \
            (i + 1 == len(tokens) or tokens[i + 1][2].isdigit())
        run = run + 1 if blank and int(word) == run + 1 else (1 if blank and word == "1" else 0)
        best = max(best, run)
    return best if 2 <= best <= MAX_N else None


def extreme_n(counting: str, extreme: bool, taken: Collection[float] = (), written: str = "") -> int | None:
    """How many a ranking lists: the blanks of a numbered form (:func:`form_blanks`), "lowest 3", "the 5 worst",
    "which 4 qubits", "five qubits" of a question with an extreme word ("name five qubits with the lowest T1"),
    else any count it states (:func:`stated_size`).
    ``counting``: the question with its names blanked and its counts in words written as digits; ``written``: the
    same with its names kept (a form's line that holds a name is filled, no blank)."""
    if (blanks := form_blanks(written or counting)) is not None:
        return blanks
    for counted in _rx("extreme n").finditer(counting):  # "which three", never the whole ("of the 64 qubits")
        if not _of_whole(counting, counted):
            return _first_count(counted.groups())
    if not extreme:
        return None
    of_the = _N_OF_THE.find(counting)  # "a couple of the worst", "5 of the lowest"
    if of_the:
        return int(tokens_of(counting[of_the[0][0]:of_the[0][1]])[0][2])
    for sized in _rx("n").finditer(counting):
        if sized.group(2) and sized.group(0).split()[-1].lower() in ("qubits", "couplings", "pairs") and \
                not _of_whole(counting, sized):
            return _first_count((sized.group(2),))
    return stated_size(counting, taken)


def ranking_order(word: str | None, extreme: str | None, higher_is_better: bool) -> Literal["lowest", "highest"]:
    """The one sort order of a ranking: its extreme word × the metric's direction ("best" of a gate time is its
    lowest).  An error asked of a fidelity was read as that fidelity with its end turned
    (:func:`~copilot_core.language.error_words.as_fidelity`), so the lowest error arrives here as "highest"."""
    low = word in LOW_WORDS or extreme == "lowest"
    if extreme in ("worst", "best"):
        low = (extreme != "best") == higher_is_better
    return "lowest" if low else "highest"
