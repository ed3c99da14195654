"""Skill selection (word boundaries, message + recent turns, max 3, priority) and site overrides by name."""

from __future__ import annotations

from pathlib import Path

from copilot_core.skills import MAX_SKILLS, SkillLibrary, load_skills, parse_skill, render_skills
from copilot_core.skills.library import RECENT_TURNS

REQUIRED = {"coherence-trends", "chip-health-report", "coupling-analysis", "readout-analysis", "provenance-root-cause"}


def _write(folder: Path, name: str, triggers: list[str], body: str, priority: int = 0) -> None:
    (folder / name).mkdir(parents=True, exist_ok=True)
    (folder / name / "SKILL.md").write_text(
        f"---\nname: {name}\ndescription: test skill {name}\npriority: {priority}\n"
        f"triggers: {triggers!r}\n---\n{body}\n",
        encoding="utf-8")


def names(matches) -> list[str]:
    return [m.skill.name for m in matches]


def test_builtin_skills_load_cleanly():
    skills, problems = load_skills()
    assert problems == []
    assert REQUIRED <= set(skills)
    assert all(s.source == "builtin" and s.triggers and s.body for s in skills.values())


def test_triggers_match_whole_words_only():
    lib = SkillLibrary.load()
    assert "coherence-trends" in names(lib.select("What is the T1 of Q5?"))
    assert "coherence-trends" not in names(lib.select("Show qubit t10 and qt1x"))
    assert "readout-analysis" in names(lib.select("readout fidelity of MUX 3"))
    assert "readout-analysis" not in names(lib.select("the readouts were fine"))  # 'readouts' is another word
    assert names(lib.select("hello there")) == []


def test_multi_word_trigger_tolerates_spacing(tmp_path):
    _write(tmp_path, "drift-extra", ["over time"], "Look at drift.")
    lib = SkillLibrary.load(tmp_path)
    assert "drift-extra" in names(lib.select("How did it change over\n  time?"))
    assert "drift-extra" not in names(lib.select("it is overtime"))


def test_at_most_three_ranked_by_score_then_priority():
    lib = SkillLibrary.load()
    message = ("Why did the T1 trend, readout fidelity and the zx90 coupling of the chip drop? Give a health report "
               "with provenance")
    chosen = lib.select(message)
    assert len(chosen) == MAX_SKILLS == 3
    scores = [(m.score, m.skill.priority) for m in chosen]
    assert scores == sorted(scores, reverse=True)
    rest = [m for m in (lib.select(message, limit=10)) if m not in chosen]
    assert all((m.score, m.skill.priority) <= scores[-1] for m in rest)
    assert render_skills([m.skill for m in chosen]).count("<skill name=") == 3


def test_recent_turns_trigger_weaker_than_the_message():
    lib = SkillLibrary.load()
    history = [{"role": "user", "content": "Show the readout of Q3"},
               {"role": "assistant", "content": "Q3 reads out at 97 %."}]
    follow_up = lib.select("And for Q4?", history)
    assert names(follow_up) == ["readout-analysis"]
    assert follow_up[0].score == 1  # found only in the history
    assert lib.select("readout of Q4")[0].score == 2


def test_only_recent_turns_count():
    lib = SkillLibrary.load()
    old = [{"role": "user", "content": "readout please"}] + [{"role": "user", "content": "ok"}] * RECENT_TURNS
    assert names(lib.select("and now?", old)) == []


def test_site_skill_overrides_builtin_by_name(tmp_path):
    _write(tmp_path, "coherence-trends", ["t1"], "SITE PROCEDURE: ask the fridge log first.", priority=5)
    lib = SkillLibrary.load(tmp_path)
    skill = lib.skills["coherence-trends"]
    assert skill.source == "site" and "SITE PROCEDURE" in skill.body
    section = render_skills([m.skill for m in lib.select("T1 of Q5")])
    assert "SITE PROCEDURE" in section and "Coherence trend analysis" not in section
    assert REQUIRED <= set(lib.skills)  # the other built-ins stay


def test_site_skill_from_settings_and_broken_files_reported(tmp_path):
    from copilot_core.settings import load_settings

    _write(tmp_path, "fridge", ["fridge", "cryostat"], "Check the mixing chamber temperature.")
    (tmp_path / "broken").mkdir()
    (tmp_path / "broken" / "SKILL.md").write_text("no front matter here", encoding="utf-8")
    lib = SkillLibrary.from_settings(load_settings({"COPILOT_SKILLS_DIR": str(tmp_path)}))
    assert "fridge" in names(lib.select("Is the cryostat warm?"))
    assert any("broken" in p and "front matter" in p for p in lib.problems)


def test_missing_site_folder_is_a_problem_not_a_crash(tmp_path):
    lib = SkillLibrary.load(tmp_path / "nope")
    assert REQUIRED <= set(lib.skills)
    assert any("does not exist" in p for p in lib.problems)


def test_parse_rejects_bad_front_matter():
    import pytest

    from copilot_core.skills import SkillError

    with pytest.raises(SkillError, match="name"):
        parse_skill("---\nname: Bad Name\ndescription: x\n---\nbody", source="site")
    with pytest.raises(SkillError, match="triggers"):
        parse_skill("---\nname: ok\ndescription: x\ntriggers: t1\n---\nbody", source="site")
    skill = parse_skill("---\nname: always\ndescription: x\n---\nAlways do this.", source="site")
    assert skill.always_on and skill.triggers == ()
