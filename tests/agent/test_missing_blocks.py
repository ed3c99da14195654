"""What the data lacks leads the answer, a value given to the missing subject is taken out, and a value of a held
subject stays (texts written by hand; the missing subjects as the plan resolves them)."""

from __future__ import annotations

from copilot_core.answer.blocks import TextBlock, answer_text
from copilot_core.checking.missing import Missing, missing_blocks

COUPLING = Missing("3-9", "coupling", "There is no such coupling: Q03 and Q09 are not neighbours on 64Qv3.")
QUBIT = Missing("70", "qubit", "There is no such qubit: qubit 70 does not exist on 64Qv3.")
CHIP = Missing("64Qv9", "chip", "There is no chip 64Qv9 in the database; the chips are 64Qv3, 144Qv2.")


def _said(text: str, missing: Missing, only: bool = True) -> str:
    return answer_text(missing_blocks([TextBlock(text)], [missing], only_missing=only, chips=("64Qv3", "144Qv2")))


def test_the_missing_couplings_value_goes_and_the_note_leads():
    said = _said("Coupling Q09-Q03 has a ZX90 fidelity of 99.49 %.", COUPLING)
    assert said.startswith(COUPLING.sentence) and "99.49" not in said and "taken out" in said


def test_a_held_couplings_value_stays_beside_the_note():
    said = _said("Q03-Q09 is at 99.49 %. Q01-Q04 is at 97.42 %.", COUPLING, only=False)
    assert said.startswith(COUPLING.sentence) and "99.49" not in said and "97.42" in said


def test_a_value_naming_nothing_goes_when_the_question_names_only_the_missing():
    said = _said("The best value is 99.49 %.", QUBIT)
    assert said.startswith(QUBIT.sentence) and "99.49" not in said


def test_a_value_naming_nothing_stays_when_the_question_also_names_a_held_subject():
    assert "45.1" in _said("The median is 45.1 μs.", QUBIT, only=False)


def test_a_missing_chips_value_goes_and_a_held_chips_stays():
    said = _said("64Qv9 has a median T1 of 51.2 μs. 64Qv3 has a median T1 of 48.3 μs.", CHIP)
    assert said.startswith(CHIP.sentence) and "51.2" not in said and "48.3" in said


def test_the_datas_note_is_said_once_and_first():
    said = _said(f"Here is what I found. {QUBIT.sentence}", QUBIT)
    assert said.startswith(QUBIT.sentence) and said.count("no such qubit") == 1


def test_nothing_missing_leaves_the_answer_alone():
    blocks = [TextBlock("Q05's T1 is 45 μs.")]
    assert missing_blocks(blocks, [], only_missing=False) == blocks
