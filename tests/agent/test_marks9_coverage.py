"""The coverage table (:mod:`copilot_core.checking.coverage`) over the dev questions of ``tests/dev_marks9.py``: each
call made for real on the demo chip, its own answer sentence as the answer, and the notes under it exactly the ones
written by hand (none when the call covers every part of the question)."""

from __future__ import annotations

import pytest

from copilot_core.answer.blocks import TextBlock
from copilot_core.checking.coverage import covered_blocks
from copilot_core.language.question import parse
from copilot_core.tools import DataStore, Toolkit
from copilot_core.tools.toolkit import answer_line
from tests import dev_marks9
from tests.public_eval import CHIP


@pytest.fixture(scope="module")
def kit(repo):
    made = Toolkit(repo, store=DataStore())
    made.begin_request(CHIP)
    return made


@pytest.mark.parametrize("case", dev_marks9.CASES, ids=lambda c: c.id)
def test_each_part_the_call_does_not_cover_gets_its_note(case, kit):
    name, args = case.call
    outcome = kit.execute(name, dev_marks9.with_chip(args))
    assert outcome.ok, outcome.error
    said = answer_line(outcome) or outcome.summary
    blocks = covered_blocks([TextBlock(said)], parse(case.text), [outcome])
    assert blocks[0] == TextBlock(said)
    assert [b.text for b in blocks[1:]] == list(case.notes)


def test_a_part_an_earlier_note_names_gets_no_second_note(kit):
    outcome = kit.execute("count_in_window", {"chip_id": CHIP, "what": "failed tasks"})
    earlier = "_Note: this counts failed task results only; your question asks for the last 7 days, not every " \
              "stored run, which it does not cover._"
    blocks = covered_blocks([TextBlock("278 failed."), TextBlock(earlier)],
                            parse("How many tasks failed in the last 7 days?"), [outcome])
    assert [b.text for b in blocks] == ["278 failed.", earlier]


def test_a_unit_the_answer_converted_to_itself_is_covered(kit):
    outcome = kit.execute("get_chip_summary", {"chip_id": CHIP})
    asked = parse("What is the median qubit frequency in MHz?")
    said = "The median qubit frequency is 4997.4 MHz."
    assert [b.text for b in covered_blocks([TextBlock(said)], asked, [outcome])] == [said]
    other = "The median qubit frequency is 4.9974 GHz; the anharmonicity median is -284.9 MHz."
    assert [b.text for b in covered_blocks([TextBlock(other)], asked, [outcome])][1:] == [
        "_Not answered: the question asks for the value in MHz; the figures above are in GHz._"]


def test_code_that_ran_or_no_data_read_leaves_the_answer_as_it_is(kit):
    code = kit.execute("execute_python_analysis", {"code": "result = 1"})
    asked = parse("What are the 5 lowest T1 qubits?")
    assert covered_blocks([TextBlock("x")], asked, [code]) == [TextBlock("x")]
    assert covered_blocks([TextBlock("x")], asked, []) == [TextBlock("x")]


def test_no_dev_question_of_the_earlier_sets_gets_a_note_with_its_own_router_call(demo_db, kit):
    """Every dev question of the earlier sets with the router call written for it by hand (the right call): none
    gets a coverage note.  A false note would be a wrong answer of its own."""
    from tests import (dev_compound8, dev_cover_b, dev_crosschip7, dev_fails7, dev_fails8, dev_limits7, dev_scope8,
                       dev_windows8)
    pairs = [(q.text, c) for mod in (dev_fails7, dev_fails8) for q, c in mod.planned(demo_db)]
    pairs += [(q.text, c) for mod in (dev_crosschip7, dev_limits7, dev_scope8, dev_windows8, dev_cover_b)
              for q, c in mod.cases(demo_db) if c is not None]
    pairs += [(c.text, (c.call[0], {"chip_id": c.chip, **c.call[1]})) for c in dev_compound8.CASES]
    noted, run = [], 0
    for text, (name, args) in pairs:
        kit.begin_request(args.get("chip_id") or CHIP)
        outcome = kit.execute(name, args)
        if outcome.ok:
            run += 1
            said = answer_line(outcome) or outcome.summary
            if extra := covered_blocks([TextBlock(said)], parse(text), [outcome])[1:]:
                noted.append((text, name, args, [b.text for b in extra]))
    assert run >= 200 and not noted, noted
