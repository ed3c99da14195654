"""Pick at most three skills per request and render them as one system-prompt section.

Scoring (AXIS): each distinct trigger found in the message counts 2, one found only in the recent
turns counts 1; ties go to the higher ``priority``.  Skills without triggers are always eligible but
rank after any skill that matched.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from copilot_core.skills.loader import Skill, load_skills

MAX_SKILLS = 3
RECENT_TURNS = 3


@dataclass(frozen=True)
class SkillMatch:
    skill: Skill
    score: float
    matched: tuple[str, ...]


def _turn_text(turn: object) -> str:
    """Text of one history turn ({role, content}); non-text content is flattened to JSON."""
    content = turn.get("content") if isinstance(turn, Mapping) else turn
    if isinstance(content, str):
        return content
    try:
        return json.dumps(content, default=str)
    except (TypeError, ValueError):
        return ""


def score_skill(skill: Skill, message: str, recent: str) -> SkillMatch:
    matched: list[str] = []
    score = 0.0
    for trigger, pattern in zip(skill.triggers, skill.patterns):
        if pattern.search(message):
            score += 2
            matched.append(trigger)
        elif recent and pattern.search(recent):
            score += 1
            matched.append(trigger)
    return SkillMatch(skill, score, tuple(matched))


class SkillLibrary:
    """The loaded skills of this deployment; cheap to query, safe to share between sessions."""

    def __init__(self, skills: Mapping[str, Skill], problems: Sequence[str] = ()):
        self.skills = dict(skills)
        self.problems = list(problems)

    @classmethod
    def load(cls, site_dir: Path | str | None = None) -> SkillLibrary:
        skills, problems = load_skills(Path(site_dir) if site_dir else None)
        return cls(skills, problems)

    @classmethod
    def from_settings(cls, settings) -> SkillLibrary:
        """Built-ins plus the site folder named by ``COPILOT_SKILLS_DIR`` (relative to the project root)."""
        from copilot_core.settings import PROJECT_ROOT

        site = settings.get("COPILOT_SKILLS_DIR")
        if site and not Path(site).is_absolute():
            site = PROJECT_ROOT / site
        return cls.load(site)

    def select(self, message: str, history: Iterable[object] = (), *, limit: int = MAX_SKILLS) -> list[SkillMatch]:
        """Best skills for this message and the last few turns, at most ``limit``."""
        recent = "\n".join(_turn_text(t) for t in list(history)[-RECENT_TURNS:])
        matches = []
        for skill in self.skills.values():
            match = score_skill(skill, message or "", recent)
            if match.score > 0 or skill.always_on:
                matches.append(match)
        matches.sort(key=lambda m: (-m.score, m.skill.always_on, -m.skill.priority, m.skill.name))
        return matches[:max(0, limit)]


def render_skills(skills: Sequence[Skill]) -> str:
    """Skill bodies wrapped in XML-like blocks so the model sees where each one starts and ends."""
    if not skills:
        return ""
    parts = ["## Skills for this request",
             "Follow these procedures when they fit the question; tools and data still decide the answer.",
             "<skills>"]
    for skill in skills:
        parts.append(f'<skill name="{skill.name}">\n{skill.body}\n</skill>')
    parts.append("</skills>")
    return "\n".join(parts)
