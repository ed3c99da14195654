"""Skills: SKILL.md procedures chosen per request by trigger words and injected into the prompt."""

from copilot_core.skills.library import MAX_SKILLS, SkillLibrary, SkillMatch, render_skills
from copilot_core.skills.loader import BUILTIN_DIR, Skill, SkillError, load_skills, parse_skill

__all__ = ["BUILTIN_DIR", "MAX_SKILLS", "Skill", "SkillError", "SkillLibrary", "SkillMatch", "load_skills",
           "parse_skill", "render_skills"]
