"""The held-out eval stays sealed: other templates than dev, never read by product code, never quoted by it.

The twenty-one sealed sets (``heldout.py`` to ``heldout21.py``) are covered.  A held-out
question's 4-word sequences (ids and digits taken out) must appear in no product file: code, prompts, skills, tool
descriptions, the CLI eval's questions, pages, scripts.  When one does, either the product names a held-out wording
(generalise the product code) or a held-out question shares wording with a dev one.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests import dev_shapes_a, dev_shapes_b
from tests.public_eval import build, template
from tests.sealed.heldout import build_heldout
from tests.sealed.heldout2 import build_heldout2
from tests.sealed.heldout3 import build_heldout3
from tests.sealed.heldout4 import build_heldout4
from tests.sealed.heldout5 import build_heldout5
from tests.sealed.heldout6 import build_heldout6
from tests.sealed.heldout7 import build_heldout7
from tests.sealed.heldout8 import build_heldout8
from tests.sealed.heldout9 import build_heldout9
from tests.sealed.heldout10 import build_heldout10
from tests.sealed.heldout11 import build_heldout11
from tests.sealed.heldout12 import build_heldout12
from tests.sealed.heldout13 import build_heldout13
from tests.sealed.heldout14 import build_heldout14
from tests.sealed.heldout15 import build_heldout15
from tests.sealed.heldout16 import build_heldout16
from tests.sealed.heldout17 import build_heldout17
from tests.sealed.heldout18 import build_heldout18
from tests.sealed.heldout19 import build_heldout19
from tests.sealed.heldout20 import build_heldout20
from tests.sealed.heldout21 import build_heldout21
from tests.sealed.calendar import answerable_day

# The first test builds every sealed set on the embedded engine (many unindexed reads): minutes on a loaded machine.
pytestmark = pytest.mark.timeout(2400)

ROOT = Path(__file__).resolve().parents[2]
PRODUCT = ("copilot_core", "pages", "ui", "scripts", "app.py", "server.py")
TEXT_SUFFIXES = {".py", ".md", ".yaml", ".yml", ".json", ".txt", ".jinja", ".toml", ".j2"}


_DATE_NAMES = frozenset({"monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday", "january",
                         "february", "march", "april", "june", "july", "august", "september", "october", "november",
                         "december", "jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct", "nov",
                         "dec", "mon", "tue", "tues", "wed", "thu", "thur", "thurs", "fri", "sat", "sun"})
BREAK = "|"


def words(text: str) -> list[str]:
    """Lower-case words with chip ids, qubit ids, execution ids and every digit taken out, and a weekday or month name
    left as a break: those are written from the day the demo is seeded, so no 4-word sequence may span one (taking
    them out would join the words either side into a sequence that exists on some days only)."""
    text = re.sub(r"\b\d+Q[vV]\d+\b|\bQ\d+\b|\b\d{8}-\d{3}\b", " ", text)
    tokens = re.findall(r"\d+|[^\W\d_]+(?:'[^\W\d_]+)?", text.lower())
    out = []
    for i, w in enumerate(tokens):
        beside_digit = any(t.isdigit() for t in tokens[max(i - 1, 0):i + 2])
        if w in _DATE_NAMES or (w == "may" and beside_digit):
            out.append(BREAK)
        elif not w.isdigit():
            out.append(w)
    return out


def grams(seq: list[str], n: int = 4) -> set[tuple[str, ...]]:
    """Every n-word sequence that spans no break."""
    return {g for g in (tuple(seq[i:i + n]) for i in range(len(seq) - n + 1)) if BREAK not in g}


def product_files() -> list[Path]:
    out = []
    for name in PRODUCT:
        path = ROOT / name
        out += [path] if path.is_file() else [p for p in path.rglob("*") if p.is_file() and p.suffix in TEXT_SUFFIXES]
    return out


def leaks(questions: list[str], files: list[Path]) -> list[str]:
    """``file: 4-gram`` for every held-out 4-gram found in a product file (the question itself is not printed)."""
    wanted = {g for q in questions for g in grams(words(q))}
    found = []
    for path in files:
        for g in grams(words(path.read_text(encoding="utf-8", errors="ignore"))) & wanted:
            found.append(f"{path.relative_to(ROOT)}: {' '.join(g)!r}")
    return found


@pytest.fixture(scope="module")
def public_dev(demo_db) -> tuple:
    """The public eval's dev questions, built once for the module's tests."""
    return tuple(build(demo_db))


@pytest.fixture(scope="module")
def tuned_dev(demo_db) -> tuple:
    """The dev questions of the shapes issue 37's helpers tune on purpose."""
    return tuple(dev_shapes_a.build(demo_db) + dev_shapes_b.build(demo_db))


@pytest.fixture(scope="module")
def dev_set(public_dev, tuned_dev) -> tuple:
    return public_dev + tuned_dev


@pytest.fixture(scope="module")
def heldout(demo_db, demo_now):
    return answerable_day(build_heldout, demo_db, demo_now).questions


@pytest.fixture(scope="module")
def heldout2(demo_db, demo_now):
    return answerable_day(build_heldout2, demo_db, demo_now).questions


@pytest.fixture(scope="module")
def heldout3(demo_db, demo_now):
    return answerable_day(build_heldout3, demo_db, demo_now).questions


@pytest.fixture(scope="module")
def heldout4(demo_db, demo_now):
    return answerable_day(build_heldout4, demo_db, demo_now).questions


@pytest.fixture(scope="module")
def heldout5(demo_db, demo_now):
    return answerable_day(build_heldout5, demo_db, demo_now).questions


@pytest.fixture(scope="module")
def heldout6(demo_db, demo_now):
    return answerable_day(build_heldout6, demo_db, demo_now).questions


@pytest.fixture(scope="module")
def heldout7(demo_db, demo_now):
    return answerable_day(build_heldout7, demo_db, demo_now).questions


@pytest.fixture(scope="module")
def heldout8(demo_db, demo_now):
    return answerable_day(build_heldout8, demo_db, demo_now).questions


@pytest.fixture(scope="module")
def heldout9(demo_db, demo_now):
    return answerable_day(build_heldout9, demo_db, demo_now).questions


@pytest.fixture(scope="module")
def heldout10(demo_db, demo_now):
    return answerable_day(build_heldout10, demo_db, demo_now).questions


@pytest.fixture(scope="module")
def heldout11(demo_db, demo_now):
    return answerable_day(build_heldout11, demo_db, demo_now).questions


@pytest.fixture(scope="module")
def heldout12(demo_db, demo_now):
    return answerable_day(build_heldout12, demo_db, demo_now).questions


@pytest.fixture(scope="module")
def heldout13(demo_db, demo_now):
    return answerable_day(build_heldout13, demo_db, demo_now).questions


@pytest.fixture(scope="module")
def heldout14(demo_db, demo_now):
    return answerable_day(build_heldout14, demo_db, demo_now).questions


@pytest.fixture(scope="module")
def heldout15(demo_db, demo_now):
    return answerable_day(build_heldout15, demo_db, demo_now).questions


@pytest.fixture(scope="module")
def heldout16(demo_db, demo_now):
    return answerable_day(build_heldout16, demo_db, demo_now).questions


@pytest.fixture(scope="module")
def heldout17(demo_db, demo_now):
    return answerable_day(build_heldout17, demo_db, demo_now).questions


@pytest.fixture(scope="module")
def heldout18(demo_db, demo_now):
    return answerable_day(build_heldout18, demo_db, demo_now).questions


@pytest.fixture(scope="module")
def heldout19(demo_db, demo_now):
    return answerable_day(build_heldout19, demo_db, demo_now).questions


@pytest.fixture(scope="module")
def heldout20(demo_db, demo_now):
    return answerable_day(build_heldout20, demo_db, demo_now).questions


@pytest.fixture(scope="module")
def heldout21(demo_db, demo_now):
    return answerable_day(build_heldout21, demo_db, demo_now).questions


@pytest.mark.parametrize("first, last", [("Friday", "Monday"), ("Tue", "Sun"), ("Nov 2", "Dec 9")])
def test_a_day_or_month_name_breaks_word_sequences_on_any_seeding_day(first, last):
    """A day's name is written from the day the demo is seeded: the sequences either side of it never join, so a clash
    between two sets cannot appear on one day and not on another (hand-listed sequences)."""
    text = f"count the failed tasks from {first} through {last}. [1] both days included"
    assert grams(words(text)) == {("count", "the", "failed", "tasks"), ("the", "failed", "tasks", "from")}
    assert ("through", "both", "days", "included") in grams(words("dated 2026-11-15 through 2026-11-22, both days included"))


def test_the_held_out_set_is_large_and_in_its_own_templates(heldout, public_dev, tuned_dev):
    dev = list(public_dev)
    assert len(heldout) >= 40 and all(q.split == "held-out" for q in heldout)
    assert all(q.split == "dev" for q in dev)
    shapes = {q.shape for q in heldout}
    assert len(shapes) >= 10 and all(sum(q.shape == s for q in heldout) >= 4 for s in shapes)
    assert not {template(q) for q in heldout} & {template(q) for q in dev}
    # the shapes issue 37's helpers tune on purpose have dev questions of their own (other templates, asserted above)
    tuned = {q.shape for q in tuned_dev}
    assert not shapes & ({q.shape for q in dev} - tuned), "held-out shapes are new shapes"


def test_the_second_set_has_the_same_shapes_in_wordings_of_its_own(heldout, heldout2, dev_set):
    """Ten shapes × 4, none in a dev or first-set template, and no 4-word sequence shared with a question of either
    (the failing sequence is named, never the question)."""
    assert len(heldout2) == 40 and all(q.split == "held-out-2" for q in heldout2)
    assert {q.shape for q in heldout2} == {q.shape for q in heldout}
    assert all(sum(q.shape == s for q in heldout2) == 4 for s in {q.shape for q in heldout2})
    dev = list(dev_set)
    assert not {template(q) for q in heldout2} & {template(q) for q in dev + heldout}
    mine = {g: q.id for q in heldout2 for g in grams(words(q.text))}
    shared = sorted({f"{mine[g]}: {' '.join(g)!r}" for q in dev + heldout for g in grams(words(q.text)) if g in mine})
    assert not shared, "\n".join(shared)


def test_the_third_set_has_the_same_shapes_in_wordings_of_its_own(heldout, heldout2, heldout3, dev_set):
    """Ten shapes × 4, none in a dev, first- or second-set template, and no 4-word sequence shared with a question
    of any of them (the failing sequence is named, never the question)."""
    assert len(heldout3) == 40 and all(q.split == "held-out-3" for q in heldout3)
    assert {q.shape for q in heldout3} == {q.shape for q in heldout}
    assert all(sum(q.shape == s for q in heldout3) == 4 for s in {q.shape for q in heldout3})
    dev = list(dev_set)
    assert not {template(q) for q in heldout3} & {template(q) for q in dev + heldout + heldout2}
    mine = {g: q.id for q in heldout3 for g in grams(words(q.text))}
    shared = sorted({f"{mine[g]}: {' '.join(g)!r}" for q in dev + heldout + heldout2 for g in grams(words(q.text))
                     if g in mine})
    assert not shared, "\n".join(shared)


def test_the_fourth_set_has_the_same_shapes_in_wordings_of_its_own(heldout, heldout2, heldout3, heldout4, dev_set):
    """Ten shapes × 4, none in a dev, first-, second- or third-set template, and no 4-word sequence shared with a
    question of any of them (the failing sequence is named, never the question)."""
    assert len(heldout4) == 40 and all(q.split == "held-out-4" for q in heldout4)
    assert {q.shape for q in heldout4} == {q.shape for q in heldout}
    assert all(sum(q.shape == s for q in heldout4) == 4 for s in {q.shape for q in heldout4})
    dev = list(dev_set)
    assert not {template(q) for q in heldout4} & {template(q) for q in dev + heldout + heldout2 + heldout3}
    mine = {g: q.id for q in heldout4 for g in grams(words(q.text))}
    shared = sorted({f"{mine[g]}: {' '.join(g)!r}" for q in dev + heldout + heldout2 + heldout3
                     for g in grams(words(q.text)) if g in mine})
    assert not shared, "\n".join(shared)


def test_the_fifth_set_has_the_same_shapes_in_wordings_of_its_own(heldout, heldout2, heldout3, heldout4, heldout5,
                                                                  dev_set):
    """Ten shapes × 4, none in a dev or earlier-set template, and no 4-word sequence shared with a question of any
    of them (the failing sequence is named, never the question)."""
    assert len(heldout5) == 40 and all(q.split == "held-out-5" for q in heldout5)
    assert {q.shape for q in heldout5} == {q.shape for q in heldout}
    assert all(sum(q.shape == s for q in heldout5) == 4 for s in {q.shape for q in heldout5})
    dev = list(dev_set)
    earlier = dev + heldout + heldout2 + heldout3 + heldout4
    assert not {template(q) for q in heldout5} & {template(q) for q in earlier}
    mine = {g: q.id for q in heldout5 for g in grams(words(q.text))}
    shared = sorted({f"{mine[g]}: {' '.join(g)!r}" for q in earlier for g in grams(words(q.text)) if g in mine})
    assert not shared, "\n".join(shared)


def test_the_sixth_set_has_the_same_shapes_in_wordings_of_its_own(heldout, heldout2, heldout3, heldout4, heldout5,
                                                                  heldout6, dev_set):
    """Ten shapes × 4, none in a dev or earlier-set template, and no 4-word sequence shared with a question of any
    of them (the failing sequence is named, never the question)."""
    assert len(heldout6) == 40 and all(q.split == "held-out-6" for q in heldout6)
    assert {q.shape for q in heldout6} == {q.shape for q in heldout}
    assert all(sum(q.shape == s for q in heldout6) == 4 for s in {q.shape for q in heldout6})
    dev = list(dev_set)
    earlier = dev + heldout + heldout2 + heldout3 + heldout4 + heldout5
    assert not {template(q) for q in heldout6} & {template(q) for q in earlier}
    mine = {g: q.id for q in heldout6 for g in grams(words(q.text))}
    shared = sorted({f"{mine[g]}: {' '.join(g)!r}" for q in earlier for g in grams(words(q.text)) if g in mine})
    assert not shared, "\n".join(shared)


def test_the_seventh_set_has_the_same_shapes_in_wordings_of_its_own(heldout, heldout2, heldout3, heldout4, heldout5,
                                                                    heldout6, heldout7, dev_set):
    """Ten shapes × 4, none in a dev or earlier-set template, and no 4-word sequence shared with a question of any
    of them (the failing sequence is named, never the question)."""
    assert len(heldout7) == 40 and all(q.split == "held-out-7" for q in heldout7)
    assert {q.shape for q in heldout7} == {q.shape for q in heldout}
    assert all(sum(q.shape == s for q in heldout7) == 4 for s in {q.shape for q in heldout7})
    dev = list(dev_set)
    earlier = dev + heldout + heldout2 + heldout3 + heldout4 + heldout5 + heldout6
    assert not {template(q) for q in heldout7} & {template(q) for q in earlier}
    mine = {g: q.id for q in heldout7 for g in grams(words(q.text))}
    shared = sorted({f"{mine[g]}: {' '.join(g)!r}" for q in earlier for g in grams(words(q.text)) if g in mine})
    assert not shared, "\n".join(shared)


def test_the_eighth_set_has_the_same_shapes_in_wordings_of_its_own(heldout, heldout2, heldout3, heldout4, heldout5,
                                                                   heldout6, heldout7, heldout8, dev_set):
    """Ten shapes × 4, none in a dev or earlier-set template, and no 4-word sequence shared with a question of any
    of them (the failing sequence is named, never the question)."""
    assert len(heldout8) == 40 and all(q.split == "held-out-8" for q in heldout8)
    assert {q.shape for q in heldout8} == {q.shape for q in heldout}
    assert all(sum(q.shape == s for q in heldout8) == 4 for s in {q.shape for q in heldout8})
    dev = list(dev_set)
    earlier = dev + heldout + heldout2 + heldout3 + heldout4 + heldout5 + heldout6 + heldout7
    assert not {template(q) for q in heldout8} & {template(q) for q in earlier}
    mine = {g: q.id for q in heldout8 for g in grams(words(q.text))}
    shared = sorted({f"{mine[g]}: {' '.join(g)!r}" for q in earlier for g in grams(words(q.text)) if g in mine})
    assert not shared, "\n".join(shared)


def test_the_ninth_set_has_the_same_shapes_in_wordings_of_its_own(heldout, heldout2, heldout3, heldout4, heldout5,
                                                                  heldout6, heldout7, heldout8, heldout9, dev_set):
    """Ten shapes × 4, none in a dev or earlier-set template, and no 4-word sequence shared with a question of any
    of them (the failing sequence is named, never the question)."""
    assert len(heldout9) == 40 and all(q.split == "held-out-9" for q in heldout9)
    assert {q.shape for q in heldout9} == {q.shape for q in heldout}
    assert all(sum(q.shape == s for q in heldout9) == 4 for s in {q.shape for q in heldout9})
    dev = list(dev_set)
    earlier = dev + heldout + heldout2 + heldout3 + heldout4 + heldout5 + heldout6 + heldout7 + heldout8
    assert not {template(q) for q in heldout9} & {template(q) for q in earlier}
    mine = {g: q.id for q in heldout9 for g in grams(words(q.text))}
    shared = sorted({f"{mine[g]}: {' '.join(g)!r}" for q in earlier for g in grams(words(q.text)) if g in mine})
    assert not shared, "\n".join(shared)


def test_the_tenth_set_has_the_same_shapes_in_wordings_of_its_own(heldout, heldout2, heldout3, heldout4, heldout5,
                                                                  heldout6, heldout7, heldout8, heldout9, heldout10,
                                                                  dev_set):
    """Ten shapes × 4, none in a dev or earlier-set template, and no 4-word sequence shared with a question of any
    of them (the failing sequence is named, never the question)."""
    assert len(heldout10) == 40 and all(q.split == "held-out-10" for q in heldout10)
    assert {q.shape for q in heldout10} == {q.shape for q in heldout}
    assert all(sum(q.shape == s for q in heldout10) == 4 for s in {q.shape for q in heldout10})
    dev = list(dev_set)
    earlier = dev + heldout + heldout2 + heldout3 + heldout4 + heldout5 + heldout6 + heldout7 + heldout8 + heldout9
    assert not {template(q) for q in heldout10} & {template(q) for q in earlier}
    mine = {g: q.id for q in heldout10 for g in grams(words(q.text))}
    shared = sorted({f"{mine[g]}: {' '.join(g)!r}" for q in earlier for g in grams(words(q.text)) if g in mine})
    assert not shared, "\n".join(shared)


def test_the_eleventh_set_has_the_same_shapes_in_wordings_of_its_own(heldout, heldout2, heldout3, heldout4, heldout5,
                                                                     heldout6, heldout7, heldout8, heldout9, heldout10,
                                                                     heldout11, dev_set):
    """Ten shapes × 4, none in a dev or earlier-set template, and no 4-word sequence shared with a question of any
    of them (the failing sequence is named, never the question)."""
    assert len(heldout11) == 40 and all(q.split == "held-out-11" for q in heldout11)
    assert {q.shape for q in heldout11} == {q.shape for q in heldout}
    assert all(sum(q.shape == s for q in heldout11) == 4 for s in {q.shape for q in heldout11})
    dev = list(dev_set)
    earlier = (dev + heldout + heldout2 + heldout3 + heldout4 + heldout5 + heldout6 + heldout7 + heldout8 + heldout9
               + heldout10)
    assert not {template(q) for q in heldout11} & {template(q) for q in earlier}
    mine = {g: q.id for q in heldout11 for g in grams(words(q.text))}
    shared = sorted({f"{mine[g]}: {' '.join(g)!r}" for q in earlier for g in grams(words(q.text)) if g in mine})
    assert not shared, "\n".join(shared)


def test_the_twelfth_set_has_the_same_shapes_in_wordings_of_its_own(heldout, heldout2, heldout3, heldout4, heldout5,
                                                                    heldout6, heldout7, heldout8, heldout9, heldout10,
                                                                    heldout11, heldout12, dev_set):
    """Ten shapes × 4, none in a dev or earlier-set template, and no 4-word sequence shared with a question of any
    of them (the failing sequence is named, never the question)."""
    assert len(heldout12) == 40 and all(q.split == "held-out-12" for q in heldout12)
    assert {q.shape for q in heldout12} == {q.shape for q in heldout}
    assert all(sum(q.shape == s for q in heldout12) == 4 for s in {q.shape for q in heldout12})
    dev = list(dev_set)
    earlier = (dev + heldout + heldout2 + heldout3 + heldout4 + heldout5 + heldout6 + heldout7 + heldout8 + heldout9
               + heldout10 + heldout11)
    assert not {template(q) for q in heldout12} & {template(q) for q in earlier}
    mine = {g: q.id for q in heldout12 for g in grams(words(q.text))}
    shared = sorted({f"{mine[g]}: {' '.join(g)!r}" for q in earlier for g in grams(words(q.text)) if g in mine})
    assert not shared, "\n".join(shared)


def test_the_thirteenth_set_has_the_same_shapes_in_wordings_of_its_own(heldout, heldout2, heldout3, heldout4,
                                                                       heldout5, heldout6, heldout7, heldout8,
                                                                       heldout9, heldout10, heldout11, heldout12,
                                                                       heldout13, dev_set):
    """Ten shapes × 4, none in a dev or earlier-set template, and no 4-word sequence shared with a question of any
    of them (the failing sequence is named, never the question)."""
    assert len(heldout13) == 40 and all(q.split == "held-out-13" for q in heldout13)
    assert {q.shape for q in heldout13} == {q.shape for q in heldout}
    assert all(sum(q.shape == s for q in heldout13) == 4 for s in {q.shape for q in heldout13})
    dev = list(dev_set)
    earlier = (dev + heldout + heldout2 + heldout3 + heldout4 + heldout5 + heldout6 + heldout7 + heldout8 + heldout9
               + heldout10 + heldout11 + heldout12)
    assert not {template(q) for q in heldout13} & {template(q) for q in earlier}
    mine = {g: q.id for q in heldout13 for g in grams(words(q.text))}
    shared = sorted({f"{mine[g]}: {' '.join(g)!r}" for q in earlier for g in grams(words(q.text)) if g in mine})
    assert not shared, "\n".join(shared)


def test_the_fourteenth_set_has_the_same_shapes_in_wordings_of_its_own(heldout, heldout2, heldout3, heldout4,
                                                                       heldout5, heldout6, heldout7, heldout8,
                                                                       heldout9, heldout10, heldout11, heldout12,
                                                                       heldout13, heldout14, dev_set):
    """Ten shapes × 4, none in a dev or earlier-set template, and no 4-word sequence shared with a question of any
    of them (the failing sequence is named, never the question)."""
    assert len(heldout14) == 40 and all(q.split == "held-out-14" for q in heldout14)
    assert {q.shape for q in heldout14} == {q.shape for q in heldout}
    assert all(sum(q.shape == s for q in heldout14) == 4 for s in {q.shape for q in heldout14})
    dev = list(dev_set)
    earlier = (dev + heldout + heldout2 + heldout3 + heldout4 + heldout5 + heldout6 + heldout7 + heldout8 + heldout9
               + heldout10 + heldout11 + heldout12 + heldout13)
    assert not {template(q) for q in heldout14} & {template(q) for q in earlier}
    mine = {g: q.id for q in heldout14 for g in grams(words(q.text))}
    shared = sorted({f"{mine[g]}: {' '.join(g)!r}" for q in earlier for g in grams(words(q.text)) if g in mine})
    assert not shared, "\n".join(shared)


def test_the_fifteenth_set_has_the_same_shapes_in_wordings_of_its_own(heldout, heldout2, heldout3, heldout4,
                                                                      heldout5, heldout6, heldout7, heldout8,
                                                                      heldout9, heldout10, heldout11, heldout12,
                                                                      heldout13, heldout14, heldout15, dev_set):
    """Ten shapes × 4, none in a dev or earlier-set template, and no 4-word sequence shared with a question of any
    of them (the failing sequence is named, never the question)."""
    assert len(heldout15) == 40 and all(q.split == "held-out-15" for q in heldout15)
    assert {q.shape for q in heldout15} == {q.shape for q in heldout}
    assert all(sum(q.shape == s for q in heldout15) == 4 for s in {q.shape for q in heldout15})
    dev = list(dev_set)
    earlier = (dev + heldout + heldout2 + heldout3 + heldout4 + heldout5 + heldout6 + heldout7 + heldout8 + heldout9
               + heldout10 + heldout11 + heldout12 + heldout13 + heldout14)
    assert not {template(q) for q in heldout15} & {template(q) for q in earlier}
    mine = {g: q.id for q in heldout15 for g in grams(words(q.text))}
    shared = sorted({f"{mine[g]}: {' '.join(g)!r}" for q in earlier for g in grams(words(q.text)) if g in mine})
    assert not shared, "\n".join(shared)


def test_the_sixteenth_set_has_the_same_shapes_in_wordings_of_its_own(heldout, heldout2, heldout3, heldout4,
                                                                      heldout5, heldout6, heldout7, heldout8,
                                                                      heldout9, heldout10, heldout11, heldout12,
                                                                      heldout13, heldout14, heldout15, heldout16,
                                                                      dev_set):
    """Ten shapes × 4, none in a dev or earlier-set template, and no 4-word sequence shared with a question of any
    of them (the failing sequence is named, never the question)."""
    assert len(heldout16) == 40 and all(q.split == "held-out-16" for q in heldout16)
    assert {q.shape for q in heldout16} == {q.shape for q in heldout}
    assert all(sum(q.shape == s for q in heldout16) == 4 for s in {q.shape for q in heldout16})
    dev = list(dev_set)
    earlier = (dev + heldout + heldout2 + heldout3 + heldout4 + heldout5 + heldout6 + heldout7 + heldout8 + heldout9
               + heldout10 + heldout11 + heldout12 + heldout13 + heldout14 + heldout15)
    assert not {template(q) for q in heldout16} & {template(q) for q in earlier}
    mine = {g: q.id for q in heldout16 for g in grams(words(q.text))}
    shared = sorted({f"{mine[g]}: {' '.join(g)!r}" for q in earlier for g in grams(words(q.text)) if g in mine})
    assert not shared, "\n".join(shared)


def test_the_seventeenth_set_has_the_same_shapes_in_wordings_of_its_own(heldout, heldout2, heldout3, heldout4,
                                                                        heldout5, heldout6, heldout7, heldout8,
                                                                        heldout9, heldout10, heldout11, heldout12,
                                                                        heldout13, heldout14, heldout15, heldout16,
                                                                        heldout17, dev_set):
    """Ten shapes × 4, none in a dev or earlier-set template, and no 4-word sequence shared with a question of any
    of them (the failing sequence is named, never the question)."""
    assert len(heldout17) == 40 and all(q.split == "held-out-17" for q in heldout17)
    assert {q.shape for q in heldout17} == {q.shape for q in heldout}
    assert all(sum(q.shape == s for q in heldout17) == 4 for s in {q.shape for q in heldout17})
    dev = list(dev_set)
    earlier = (dev + heldout + heldout2 + heldout3 + heldout4 + heldout5 + heldout6 + heldout7 + heldout8 + heldout9
               + heldout10 + heldout11 + heldout12 + heldout13 + heldout14 + heldout15 + heldout16)
    assert not {template(q) for q in heldout17} & {template(q) for q in earlier}
    mine = {g: q.id for q in heldout17 for g in grams(words(q.text))}
    shared = sorted({f"{mine[g]}: {' '.join(g)!r}" for q in earlier for g in grams(words(q.text)) if g in mine})
    assert not shared, "\n".join(shared)


def test_the_eighteenth_set_has_the_same_shapes_in_wordings_of_its_own(heldout, heldout2, heldout3, heldout4,
                                                                       heldout5, heldout6, heldout7, heldout8,
                                                                       heldout9, heldout10, heldout11, heldout12,
                                                                       heldout13, heldout14, heldout15, heldout16,
                                                                       heldout17, heldout18, dev_set):
    """Ten shapes × 4, none in a dev or earlier-set template, and no 4-word sequence shared with a question of any
    of them (the failing sequence is named, never the question)."""
    assert len(heldout18) == 40 and all(q.split == "held-out-18" for q in heldout18)
    assert {q.shape for q in heldout18} == {q.shape for q in heldout}
    assert all(sum(q.shape == s for q in heldout18) == 4 for s in {q.shape for q in heldout18})
    dev = list(dev_set)
    earlier = (dev + heldout + heldout2 + heldout3 + heldout4 + heldout5 + heldout6 + heldout7 + heldout8 + heldout9
               + heldout10 + heldout11 + heldout12 + heldout13 + heldout14 + heldout15 + heldout16 + heldout17)
    assert not {template(q) for q in heldout18} & {template(q) for q in earlier}
    mine = {g: q.id for q in heldout18 for g in grams(words(q.text))}
    shared = sorted({f"{mine[g]}: {' '.join(g)!r}" for q in earlier for g in grams(words(q.text)) if g in mine})
    assert not shared, "\n".join(shared)


def test_the_nineteenth_set_has_the_same_shapes_in_wordings_of_its_own(heldout, heldout2, heldout3, heldout4,
                                                                       heldout5, heldout6, heldout7, heldout8,
                                                                       heldout9, heldout10, heldout11, heldout12,
                                                                       heldout13, heldout14, heldout15, heldout16,
                                                                       heldout17, heldout18, heldout19, dev_set):
    """Ten shapes × 4, none in a dev or earlier-set template, and no 4-word sequence shared with a question of any
    of them (the failing sequence is named, never the question)."""
    assert len(heldout19) == 40 and all(q.split == "held-out-19" for q in heldout19)
    assert {q.shape for q in heldout19} == {q.shape for q in heldout}
    assert all(sum(q.shape == s for q in heldout19) == 4 for s in {q.shape for q in heldout19})
    dev = list(dev_set)
    earlier = (dev + heldout + heldout2 + heldout3 + heldout4 + heldout5 + heldout6 + heldout7 + heldout8 + heldout9
               + heldout10 + heldout11 + heldout12 + heldout13 + heldout14 + heldout15 + heldout16 + heldout17
               + heldout18)
    assert not {template(q) for q in heldout19} & {template(q) for q in earlier}
    mine = {g: q.id for q in heldout19 for g in grams(words(q.text))}
    shared = sorted({f"{mine[g]}: {' '.join(g)!r}" for q in earlier for g in grams(words(q.text)) if g in mine})
    assert not shared, "\n".join(shared)


def test_the_twentieth_set_has_the_same_shapes_in_wordings_of_its_own(heldout, heldout2, heldout3, heldout4,
                                                                      heldout5, heldout6, heldout7, heldout8,
                                                                      heldout9, heldout10, heldout11, heldout12,
                                                                      heldout13, heldout14, heldout15, heldout16,
                                                                      heldout17, heldout18, heldout19, heldout20,
                                                                      dev_set):
    """Ten shapes × 4, none in a dev or earlier-set template, and no 4-word sequence shared with a question of any
    of them (the failing sequence is named, never the question)."""
    assert len(heldout20) == 40 and all(q.split == "held-out-20" for q in heldout20)
    assert {q.shape for q in heldout20} == {q.shape for q in heldout}
    assert all(sum(q.shape == s for q in heldout20) == 4 for s in {q.shape for q in heldout20})
    dev = list(dev_set)
    earlier = (dev + heldout + heldout2 + heldout3 + heldout4 + heldout5 + heldout6 + heldout7 + heldout8 + heldout9
               + heldout10 + heldout11 + heldout12 + heldout13 + heldout14 + heldout15 + heldout16 + heldout17
               + heldout18 + heldout19)
    assert not {template(q) for q in heldout20} & {template(q) for q in earlier}
    mine = {g: q.id for q in heldout20 for g in grams(words(q.text))}
    shared = sorted({f"{mine[g]}: {' '.join(g)!r}" for q in earlier for g in grams(words(q.text)) if g in mine})
    assert not shared, "\n".join(shared)


def test_the_twenty_first_set_has_the_same_shapes_in_wordings_of_its_own(heldout, heldout2, heldout3, heldout4,
                                                                         heldout5, heldout6, heldout7, heldout8,
                                                                         heldout9, heldout10, heldout11, heldout12,
                                                                         heldout13, heldout14, heldout15, heldout16,
                                                                         heldout17, heldout18, heldout19, heldout20,
                                                                         heldout21, dev_set):
    """Ten shapes × 4, none in a dev or earlier-set template, and no 4-word sequence shared with a question of any
    of them (the failing sequence is named, never the question)."""
    assert len(heldout21) == 40 and all(q.split == "held-out-21" for q in heldout21)
    assert {q.shape for q in heldout21} == {q.shape for q in heldout}
    assert all(sum(q.shape == s for q in heldout21) == 4 for s in {q.shape for q in heldout21})
    dev = list(dev_set)
    earlier = (dev + heldout + heldout2 + heldout3 + heldout4 + heldout5 + heldout6 + heldout7 + heldout8 + heldout9
               + heldout10 + heldout11 + heldout12 + heldout13 + heldout14 + heldout15 + heldout16 + heldout17
               + heldout18 + heldout19 + heldout20)
    assert not {template(q) for q in heldout21} & {template(q) for q in earlier}
    mine = {g: q.id for q in heldout21 for g in grams(words(q.text))}
    shared = sorted({f"{mine[g]}: {' '.join(g)!r}" for q in earlier for g in grams(words(q.text)) if g in mine})
    assert not shared, "\n".join(shared)


def test_no_product_file_reads_the_held_out_questions():
    readers = [str(p.relative_to(ROOT)) for p in product_files()
               if re.search(r"tests[./]sealed|heldout|build_heldout", p.read_text(encoding="utf-8", errors="ignore"))]
    assert not readers


def test_no_held_out_wording_appears_in_product_code(heldout, heldout2, heldout3, heldout4, heldout5, heldout6,
                                                    heldout7, heldout8, heldout9, heldout10, heldout11, heldout12,
                                                    heldout13, heldout14, heldout15, heldout16, heldout17,
                                                    heldout18, heldout19, heldout20, heldout21):
    found = leaks([q.text for q in heldout + heldout2 + heldout3 + heldout4 + heldout5 + heldout6 + heldout7
                   + heldout8 + heldout9 + heldout10 + heldout11 + heldout12 + heldout13 + heldout14
                   + heldout15 + heldout16 + heldout17 + heldout18 + heldout19 + heldout20 + heldout21],
                  product_files())
    assert not found, "\n".join(found)


@pytest.mark.parametrize("which", range(21))
def test_the_leak_check_finds_a_quoted_wording(heldout, heldout2, heldout3, heldout4, heldout5, heldout6, heldout7,
                                               heldout8, heldout9, heldout10, heldout11, heldout12, heldout13,
                                               heldout14, heldout15, heldout16, heldout17, heldout18, heldout19,
                                               heldout20, heldout21, tmp_path, which):
    """The check itself: a product file quoting one held-out question (other ids and digits) is caught."""
    questions = (heldout, heldout2, heldout3, heldout4, heldout5, heldout6, heldout7, heldout8, heldout9,
                 heldout10, heldout11, heldout12, heldout13, heldout14, heldout15, heldout16, heldout17,
                 heldout18, heldout19, heldout20, heldout21)[which]
    quoted = re.sub(r"\d+", "7", questions[5].text).replace("64Qv3", "20Qv1").replace("144Qv2", "20Qv1")
    planted = tmp_path / "router.py"
    planted.write_text(f'_PHRASES = ("{quoted}",)\n')
    clean = tmp_path / "clean.py"
    clean.write_text('"""How many qubits does a chip have? Ask the tools."""\n')
    global ROOT  # noqa: PLW0603 - report paths relative to the temporary folder
    saved, ROOT = ROOT, tmp_path
    try:
        assert leaks([q.text for q in questions], [planted])
        assert not leaks([q.text for q in questions], [clean])
    finally:
        ROOT = saved
