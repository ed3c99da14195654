"""Chores written around the ask ("To do today:", "- restart the AWG", "- order helium") are the writer's list, not
the question: a chore's "today" is no window, its verbs no task.  :func:`without_chores` keeps the one line that
asks (it ends with "?"), list marker and to-do heading taken off, and every other line that is neither a to-do
heading nor a list item with words that name nothing of the data (no metric, qubit, coupling or chip; an empty item,
"1)", is a blank to fill in); a text with no asking line, or more than one, keeps its lines.
"""

from __future__ import annotations

from copilot_core.domain.vocabulary import metrics_named
from copilot_core.language.phrases import Phrases, tokens_of
from copilot_core.language.question_words import CHIP_ID, MENTION

# A to-do list's heading, first on its line and closed by a colon ("To do today:", "TODO for the shift:").
_HEADING = Phrases("to do|todo|todos|to dos|chores|checklist|reminders|errands|action items|agenda|my list"
                   "|things to do|tasks for today/tomorrow/the shift/the day")
_MARKERS = ("- ", "* ", "• ", "+ ", "[ ] ", "[x] ", "[X] ", "☐ ", "☑ ")


def _unmarked(line: str) -> str:
    """``line`` without its list marker ("- ", "[ ] ", "3. ", "3) ")."""
    bare = line.strip()
    for marker in _MARKERS:
        if bare.startswith(marker):
            return bare[len(marker):].strip()
    head, _, rest = bare.partition(" ")
    return rest.strip() if head[:-1].isdigit() and head[-1:] in ".)" else bare


def _item(line: str) -> bool:
    return _unmarked(line) != line.strip()


def without_heading(line: str) -> str:
    """``line`` without a to-do heading before its first colon ("To do today: ..." is "...")."""
    head, colon, rest = line.partition(":")
    tokens = tokens_of(head)
    spans = _HEADING.spans(tokens)
    return rest.strip() if colon and spans and spans[0][0] == 0 else line


def _chore(line: str) -> bool:
    """A list item with words of its own that name nothing of the data ("- order helium"); an empty item ("1)") is
    a blank to fill in, kept."""
    return _item(line) and any(c.isalpha() for c in _unmarked(line)) and not _names_data(line)


def _names_data(line: str) -> bool:
    return any(m is not None for m in metrics_named(line)) or bool(MENTION.search(line) or CHIP_ID.search(line))


def without_chores(text: str) -> str:
    """``text`` without the chores around its one asking line (see the module's note)."""
    lines = [line for line in text.splitlines() if line.strip()]
    asking = [i for i, line in enumerate(lines) if line.rstrip().endswith("?")]
    if len(asking) != 1:
        return text if len(lines) != 1 else without_heading(text)
    kept = []
    for i, line in enumerate(lines):
        if i == asking[0]:
            kept.append(without_heading(_unmarked(line)))
        elif not (without_heading(line) != line and not without_heading(line)) and not _chore(line):
            kept.append(without_heading(line))
    return "\n".join(k for k in kept if k)
