"""The words that put a limit on one side of a number, in one table: "beats 60 μs", "falls short of 99.5%", "doesn't
reach 90%", "no better than 92%".

A comparison is a verb or phrase of :data:`COMPARISONS` (its side, and whether a value at the limit counts),
maybe after a negation of :data:`NEGATIONS` ("not", "doesn't", "fails to", "never", "no"), which turns it to the other
side and the other inclusiveness: "exceeds 40" is above 40, "does not exceed 40" is 40 or less; "reaches 90%" is 90% or
more, "doesn't reach 90%" is below 90%.  "better" and "worse" are sides of the metric's own direction (a shorter gate
time is better), resolved once the limit's metric is known (:func:`~copilot_core.language.limits.read_limits`).
"""

from __future__ import annotations

from typing import Literal

Way = Literal["below", "above", "better", "worse"]

# phrase (words separated by spaces; an apostrophe is a space) -> (side, a value at the limit counts)
COMPARISONS: dict[str, tuple[Way, bool]] = {
    **{w: ("below", False) for w in (
        "below", "under", "less than", "lower than", "smaller than", "shorter than", "beneath", "short of",
        "shy of", "fewer than", "sub", "south of", "deeper than", "more negative than",
        "belw", "bellow", "belo", "undr", "les than", "less then", "lower then", "smaller then")},  # typed fast
    **{w: ("above", False) for w in (
        "above", "over", "greater than", "more than", "higher than", "larger than", "longer than", "bigger than",
        "beyond", "past", "exceed", "exceeds", "exceeding", "exceeded", "in excess of", "upwards of", "upward of",
        "north of", "shallower than", "less negative than",
        "tops", "topping", "topped", "surpass", "surpasses", "surpassing", "surpassed",
        "abov", "abve", "abvoe", "aboev", "obove", "ovr", "grater than", "greater then", "higher then", "higer than",
        "more then", "larger then", "longer then")},  # typed fast
    **{w: ("above", True) for w in (
        "at least", "reach", "reaches", "reaching", "reached", "hit", "hits", "hitting", "meet", "meets", "meeting",
        "a minimum of", "minimum of")},
    **{w: ("below", True) for w in ("at most", "up to", "a maximum of", "maximum of")},
    # a value at the limit counts, said in words ("greater or equal to 45 μs", "at or above 95%")
    **{f"{w} {tail}": ("above", True) for w in ("greater", "more", "higher", "larger", "longer")
       for tail in ("or equal to", "than or equal to")},
    **{f"{w} {tail}": ("below", True) for w in ("less", "lower", "smaller", "shorter", "fewer")
       for tail in ("or equal to", "than or equal to")},
    **{f"at or {w}": ("above", True) for w in ("above", "over", "beyond")},
    **{f"at or {w}": ("below", True) for w in ("below", "under")},
    **{f"equal to or {w} than": ("above", True) for w in ("greater", "more", "higher", "larger", "longer")},
    **{f"equal to or {w} than": ("below", True) for w in ("less", "lower", "smaller", "shorter")},
    **{w: ("better", False) for w in (
        "better than", "beat", "beats", "beating", "beaten", "clear", "clears", "clearing", "cleared",
        "outperform", "outperforms", "outperforming")},
    **{w: ("worse", False) for w in ("worse than",)},
}
# Words before a comparison that turn it round ("not above 40": 40 or less; "doesn't reach 90%": below 90%).
NEGATIONS = ("not", "no", "never", "doesn t", "does not", "don t", "do not", "didn t", "did not", "isn t", "is not",
             "aren t", "are not", "won t", "will not", "can t", "cannot", "can not", "fails to", "fail to",
             "failing to", "failed to")
# Words after a number that make it a limit with the number counted ("50 μs or more", "92% or worse", "35 μs tops":
# a one-word row is keyed with an empty second word).
TRAILING: dict[tuple[str, str], Way] = {
    **{("or", w): "above" for w in ("more", "higher", "above", "greater", "longer", "larger", "over")},
    **{("and", w): "above" for w in ("up", "above", "over", "higher")},
    **{("or", w): "below" for w in ("less", "lower", "below", "fewer", "shorter", "smaller", "under")},
    **{("and", w): "below" for w in ("below", "under", "lower")},
    ("or", "better"): "better", ("or", "worse"): "worse", ("at", "most"): "below", ("at", "least"): "above",
    **{(w, ""): "below" for w in ("tops", "max", "maximum")}, ("minimum", ""): "above"}
# Single words an answer puts a value on a side with, beside the table's ("T1 is lower, 45 μs"; "within 300 ns").
ANSWER_SIDES: dict[str, Way] = {**{w: "below" for w in ("lower", "shorter", "smaller", "less", "fewer", "within",
                                                         "faster")},
                                **{w: "above" for w in ("higher", "longer", "larger", "greater", "more", "slower")}}
_OTHER: dict[Way, Way] = {"below": "above", "above": "below", "better": "worse", "worse": "better"}
_LONGEST = max(len(p.split()) for p in (*COMPARISONS, *NEGATIONS))


def _pattern(phrases: tuple[str, ...] | list[str]) -> str:
    """An alternation of ``phrases``, longest first, a space matching spaces or an apostrophe ("doesn't")."""
    return "|".join(p.replace(" ", r"[\s'’]+") for p in sorted(phrases, key=len, reverse=True))


# The comparison part of the question's limit pattern (``question_words.WORDS["threshold"]``): one capture group.
COMPARISON_PATTERN = rf"((?:(?:{_pattern(NEGATIONS)})\s+)?(?:{_pattern(list(COMPARISONS))}))"


def _words(written: str) -> str:
    return " ".join(written.lower().replace("'", " ").replace("’", " ").split())


def comparison(written: str) -> tuple[Way, bool] | None:
    """The side and inclusiveness ``written`` (a match of :data:`COMPARISON_PATTERN`) puts a limit on; None for
    words the table does not hold."""
    said = _words(written)
    for negation in sorted(NEGATIONS, key=len, reverse=True):
        if said.startswith(negation + " ") and said[len(negation) + 1:] in COMPARISONS:
            way, inclusive = COMPARISONS[said[len(negation) + 1:]]
            return _OTHER[way], not inclusive
    return COMPARISONS.get(said)


def side_before(words: list[str], reach: int = 4) -> Way | None:
    """The side the comparison nearest the end of ``words`` (an answer's words before a number, apostrophes as
    spaces) puts that number on, turned by a negation just before it; None when no comparison ends within
    ``reach`` words of the number ("below the lab's 50 μs": yes; "over the week, … sat at 50 μs": no)."""
    for end in range(len(words), max(0, len(words) - reach - 1), -1):
        for size in range(min(_LONGEST, end), 0, -1):
            said = " ".join(words[end - size:end])
            way = COMPARISONS[said][0] if said in COMPARISONS else ANSWER_SIDES.get(said) if size == 1 else None
            if way is None:
                continue
            before = " ".join(words[max(0, end - size - _LONGEST):end - size])
            turned = any(before == n or before.endswith(" " + n) for n in NEGATIONS)
            return _OTHER[way] if turned else way
    return None
