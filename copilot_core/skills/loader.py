"""Load ``SKILL.md`` files: YAML front matter (name, description, triggers, priority) + a Markdown body.

Built-in skills ship in ``skills/builtin/<name>/SKILL.md``; a site folder (``COPILOT_SKILLS_DIR``) may add
skills or override a built-in by using the same ``name``.  A broken file is reported, never fatal: the
copilot keeps working with the skills that did load.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from copilot_core.errors import CopilotError

BUILTIN_DIR = Path(__file__).resolve().parent / "builtin"
MAX_FILE_BYTES = 64_000
MAX_BODY_CHARS = 4_000
_NAME = re.compile(r"^[a-z0-9][a-z0-9_-]{0,63}$")
_FRONT = re.compile(r"\A---\s*\n(.*?)\n---\s*(?:\n|\Z)(.*)\Z", re.S)


class SkillError(CopilotError, ValueError):
    """A SKILL.md that cannot be used; the message names the file and the problem."""


@dataclass(frozen=True)
class Skill:
    name: str
    description: str
    body: str
    triggers: tuple[str, ...] = ()
    priority: int = 0
    source: str = "builtin"  # "builtin" | "site"
    path: str = ""
    patterns: tuple[re.Pattern, ...] = field(default=(), repr=False, compare=False)

    @property
    def always_on(self) -> bool:
        """A skill without triggers applies to every request (AXIS convention)."""
        return not self.triggers


def trigger_pattern(trigger: str) -> re.Pattern:
    """Whole-word, case-insensitive match; inner whitespace matches any run of spaces."""
    words = [re.escape(w) for w in trigger.split()]
    return re.compile(r"(?<!\w)" + r"\s+".join(words) + r"(?!\w)", re.I)


def parse_skill(text: str, *, source: str, path: str = "") -> Skill:
    """One SKILL.md text -> Skill; raises SkillError with a clear reason."""
    match = _FRONT.match(text.lstrip("\ufeff"))
    if not match:
        raise SkillError(f"{path}: missing YAML front matter between '---' lines")
    try:
        meta = yaml.safe_load(match.group(1)) or {}
    except yaml.YAMLError as exc:
        raise SkillError(f"{path}: front matter is not valid YAML ({exc.__class__.__name__})") from None
    if not isinstance(meta, dict):
        raise SkillError(f"{path}: front matter must be a mapping")
    name = str(meta.get("name", "")).strip()
    if not _NAME.match(name):
        raise SkillError(f"{path}: name {name!r} must be lowercase letters, digits, '-' or '_'")
    description = str(meta.get("description", "")).strip()
    if not description:
        raise SkillError(f"{path}: description is required")
    triggers = meta.get("triggers") or []
    if isinstance(triggers, str) or not isinstance(triggers, list) or not all(
            isinstance(t, (str, int, float)) and str(t).strip() for t in triggers):
        raise SkillError(f"{path}: triggers must be a list of words or phrases")
    try:
        priority = int(meta.get("priority", 0))
    except (TypeError, ValueError):
        raise SkillError(f"{path}: priority must be an integer") from None
    body = match.group(2).strip()
    if not body:
        raise SkillError(f"{path}: the skill has no body")
    if len(body) > MAX_BODY_CHARS:
        body = body[:MAX_BODY_CHARS].rstrip() + "\n[skill truncated]"
    clean = tuple(dict.fromkeys(str(t).strip() for t in triggers))
    return Skill(name=name, description=description, body=body, triggers=clean, priority=priority,
                 source=source, path=path, patterns=tuple(trigger_pattern(t) for t in clean))


def _skill_files(folder: Path) -> list[Path]:
    """``<folder>/<name>/SKILL.md`` and flat ``<folder>/*.md``, sorted for a stable override order."""
    return sorted({*folder.glob("*/SKILL.md"), *folder.glob("*.md")})


def load_skills(site_dir: Path | None = None, *, builtin_dir: Path = BUILTIN_DIR
                ) -> tuple[dict[str, Skill], list[str]]:
    """All skills by name (site overrides built-in) and a list of problems found while loading."""
    skills: dict[str, Skill] = {}
    problems: list[str] = []
    sources = [(builtin_dir, "builtin")]
    if site_dir is not None:
        if Path(site_dir).is_dir():
            sources.append((Path(site_dir), "site"))
        else:
            problems.append(f"site skills folder {site_dir} does not exist; using built-in skills only")
    for folder, source in sources:
        for path in _skill_files(folder):
            try:
                if path.stat().st_size > MAX_FILE_BYTES:
                    raise SkillError(f"{path}: larger than {MAX_FILE_BYTES} bytes")
                skill = parse_skill(path.read_text(encoding="utf-8"), source=source, path=str(path))
            except (OSError, UnicodeDecodeError) as exc:
                problems.append(f"{path}: cannot read ({exc.__class__.__name__})")
                continue
            except SkillError as exc:
                problems.append(str(exc))
                continue
            if skill.name in skills and skills[skill.name].source == source:
                problems.append(f"{path}: duplicate skill name {skill.name!r} (kept {skills[skill.name].path})")
                continue
            skills[skill.name] = skill
    return skills, problems
