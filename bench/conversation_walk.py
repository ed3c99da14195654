"""Issue 39's walk, repeatable: a lab scientist's conversation with the copilot in real Chromium, checked step by step.

``python bench/conversation_walk.py [--scripted] [--answer-timeout S] [--data-dir DIR]`` seeds the demo into an
embedded store (or uses ``--data-dir``), starts the app (``streamlit run server.py``) and, by default, the project's
local model (``scripts/local_llm.py serve``; ``--scripted``: the tests' scripted OpenAI-compatible server, fast),
then walks: T1 of Q070 over the last 7 days; why Q069's tasks failed; a plot of Q021 and Q070 over 14 days; a
clarifying option then its answer; a follow-up; stop mid-turn then ask again in the same chat; the notebook and
HTML exports; the one-click analysis of two qubits (one with failed tasks); a dead model server; a wrong database
address.  Each step is checked against truths read with pymongo calls from the same store (a tool call was made,
numbers are the data's, no tool-call markup, nothing drawn twice, the stop mark at once and never fed back, failure
messages quoted, one chart with a line per qubit over the window, no None/nan, labels as the tables write them,
readiness did not hold the first question).  Prints step -> PASS/FAIL + reasons; the exit code is the number of
failed steps.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import traceback
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from statistics import mean, median

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

CHIP = "144Qv2"
SIZE = 144
SHORT = re.compile(r"\bQ\d{1,2}(?!\d)")                 # Q70: a two-digit label on a 144-qubit chip
BARE = re.compile(r"\bqubits? \d+\b", re.IGNORECASE)      # "qubit 70"
MARKUP = re.compile(r"<\|?/?(tool_call|tool_response|function)", re.IGNORECASE)
NONE_NAN = re.compile(r"(?<![\w-])(None|nan|NaN)(?![\w-])")
MICRO = re.compile(r"(-?\d+(?:\.\d+)?)\s*μs")
STOPPED = "Stopped by you"
LEFT_OUT = "a sentence was left out here"
SLOW_QUESTION = f"Summarise the health of chip {CHIP} in detail"
# The page records, on the browser's clock, when a Stop button first appears (a fast turn may show it briefly).
WATCH_STOP = """
window.__stopSeen = null;
new MutationObserver(() => {
  if (window.__stopSeen === null && [...document.querySelectorAll('button')].some(b => b.innerText.trim().endsWith('Stop')))
    window.__stopSeen = performance.now();
}).observe(document, {subtree: true, childList: true, characterData: true});
"""


# ------------------------------------------------------------------------------------------------ truths (pymongo)

class Truth:
    """What the demo store says, read with pymongo calls on the same store the app serves."""

    def __init__(self, db) -> None:  # noqa: ANN001  (a pymongo Database)
        self.db = db
        newest = db["execution_history"].find_one({"chip_id": CHIP}, sort=[("start_at", -1)])
        self.now = newest["start_at"]

    def values(self, qid: str, param: str, days: int) -> list[float]:
        """Completed, not excluded values of ``param`` (display unit as stored) of ``qid`` over the last ``days``
        whole UTC days ending on the day of the chip's newest run."""
        start = datetime(self.now.year, self.now.month, self.now.day) + timedelta(days=1 - days)
        out = []
        for doc in self.db["task_result_history"].find({"chip_id": CHIP, "qid": qid, "status": "completed",
                                                        "start_at": {"$gte": start}}):
            item = (doc.get("output_parameters") or {}).get(param)
            if not doc.get("excluded") and isinstance(item, dict) and isinstance(item.get("value"), (int, float)):
                out.append(float(item["value"]))
        return out

    def supported(self, qid: str, param: str, days: int) -> list[float]:
        """Every number an answer about ``param`` of ``qid`` may state: the values, their median, mean, extremes,
        the current value and the differences between any two of them."""
        vals = self.values(qid, param, days)
        doc = self.db["qubit"].find_one({"chip_id": CHIP, "qid": qid}) or {}
        current = ((doc.get("data") or {}).get(param) or {}).get("value")
        base = vals + ([float(current)] if isinstance(current, (int, float)) else [])
        if vals:
            base += [median(vals), mean(vals), min(vals), max(vals)]
        return base + [a - b for a in base for b in base]

    def failure_messages(self, qid: str) -> list[str]:
        return sorted({str(d["message"]) for d in self.db["task_result_history"].find(
            {"chip_id": CHIP, "qid": qid, "status": "failed", "message": {"$nin": [None, ""]}})})


# ------------------------------------------------------------------------------------------------ checks

@dataclass
class Result:
    step: str
    problems: list[str] = field(default_factory=list)

    def check(self, ok: bool, why: str) -> None:
        if not ok:
            self.problems.append(why)


def common(r: Result, text: str) -> None:
    """What no answer may hold: tool-call markup, None/nan, labels other than the tables'."""
    r.check(not MARKUP.search(text), "raw tool-call markup on the page")
    found = NONE_NAN.findall(text)
    r.check(not found, f"'{found[0] if found else ''}' shown")
    bare = SHORT.findall(text) + BARE.findall(text)
    r.check(not bare, f"label not as the tables write it: {bare[:3]}")


def numbers_supported(r: Result, text: str, allowed: list[float], what: str) -> None:
    """Every μs number in ``text`` is one of ``allowed`` (to the display's rounding); at least one is stated."""
    stated = [float(x) for x in MICRO.findall(text)]
    r.check(bool(stated), f"no {what} value stated")
    for x in stated:
        if not any(abs(x - a) <= max(0.051, 0.006 * abs(a)) for a in allowed):
            r.problems.append(f"{x} μs is not in the data ({what})")


# ------------------------------------------------------------------------------------------------ the page

class Chat:
    """The Copilot page in one browser tab, with what each step needs."""

    def __init__(self, page, url: str, timeout_s: float, quotes_tools: bool = False) -> None:  # noqa: ANN001
        self.page, self.url, self.timeout_ms = page, url, int(timeout_s * 1000)
        self.quotes_tools = quotes_tools  # the scripted model writes only its tools' own sentences
        self.shown: list[str] = []  # each reply's text, to see a reply drawn twice
        self.log: list[str] = []  # every reply as read, written next to the downloads

    def open(self, path: str = "copilot", heading: str = "Copilot") -> None:
        self.page.goto(f"{self.url.rstrip('/')}/{path}")
        self.page.get_by_role("heading", name=heading).first.wait_for(timeout=self.timeout_ms)
        self.idle()

    def idle(self) -> None:
        self.page.locator('[data-testid="stApp"][data-test-script-state="notRunning"]').wait_for(
            state="attached", timeout=self.timeout_ms)

    def messages(self):  # noqa: ANN201
        return self.page.get_by_test_id("stChatMessage")

    def started(self) -> float:
        self.page.evaluate("window.__stopSeen = null")
        return self.page.evaluate("performance.now()")

    def settle(self, count: int) -> None:
        """Wait until ``count`` chat messages stand, the turn's Stop button came and went and the page run ended
        (a turn answered before any model call, e.g. a clarifying question, may never show one: 20 s grace)."""
        self.messages().nth(count - 1).wait_for(timeout=self.timeout_ms)
        try:
            self.page.wait_for_function("window.__stopSeen !== null", timeout=20_000)
        except Exception:  # noqa: BLE001  (no Stop button: checked by the steps that need one)
            pass
        self.page.wait_for_function(
            "!document.querySelector('[data-testid=stApp][data-test-script-state=running]') && "
            "![...document.querySelectorAll('button')].some(b => b.innerText.trim().endsWith('Stop'))",
            timeout=self.timeout_ms)
        self.idle()

    def ask(self, question: str) -> tuple[object, float | None]:
        """Type ``question``; the reply message and the seconds until its turn showed a Stop button."""
        count = self.messages().count()
        box = self.page.get_by_test_id("stChatInputTextArea")
        box.wait_for(timeout=self.timeout_ms)
        t0 = self.started()
        box.fill(question)
        box.press("Enter")
        self.settle(count + 2)
        return self.messages().nth(count + 1), self.stop_after(t0)

    def click(self, button) -> tuple[object, float | None]:  # noqa: ANN001
        count = self.messages().count()
        t0 = self.started()
        button.click()
        self.settle(count + 2)
        return self.messages().nth(count + 1), self.stop_after(t0)

    def stop_after(self, t0: float) -> float | None:
        seen = self.page.evaluate("window.__stopSeen")
        return None if seen is None else (seen - t0) / 1000

    def reply_text(self, reply) -> str:  # noqa: ANN001
        """The answer as shown, without the Show work panel (opened separately)."""
        return reply.inner_text()

    def work(self, reply) -> str:  # noqa: ANN001
        expander = reply.get_by_test_id("stExpander").filter(has_text="Show work")
        if expander.count() == 0:
            return ""
        expander.first.locator("summary").click()
        return expander.first.inner_text()

    def once(self, r: Result, reply) -> str:  # noqa: ANN001
        """The reply's text; checks it was not drawn twice (same text twice on the page, or an earlier reply's
        text inside it)."""
        text = self.reply_text(reply)
        body = text.split("Show work")[0].strip()
        head = body[:80]
        page_text = self.page.locator("body").inner_text()
        same = 1 + sum(1 for e in self.shown if e[:160] == body[:160])  # an identical answer to another question
        r.check(len(head) < 20 or page_text.count(body[:160]) <= same, "the reply is drawn twice")
        for earlier in self.shown:
            twins = sum(1 for e in [*self.shown, body] if e[:160] == earlier[:160])
            r.check(len(earlier) < 40 or page_text.count(earlier[:160]) <= twins, "an earlier reply is drawn twice")
        if self.quotes_tools:
            r.check(LEFT_OUT not in body, "the claim check left out a sentence the model quoted from a tool")
        self.shown.append(body)
        self.log.append(text)
        return text


def tool_called(r: Result, chat: Chat, reply, names: tuple[str, ...] = ()) -> str:  # noqa: ANN001
    work = chat.work(reply)
    r.check(bool(work), "no Show work panel")
    r.check("No tools were called" not in work, "no tool call")
    if names:
        r.check(any(n in work for n in names), f"none of {names} was called")
    return work


def readiness(r: Result, seconds: float | None, limit: float) -> None:
    r.check(seconds is not None, "the turn never showed its Stop button")
    if seconds is not None:
        r.check(seconds < limit, f"the turn started after {seconds:.0f} s (readiness held it?)")


# ------------------------------------------------------------------------------------------------ the walk

def walk(page, url: str, truth: Truth, timeout_s: float, downloads: Path,  # noqa: ANN001
         quotes_tools: bool = False) -> list[Result]:
    """Every step in one browser tab (the chat steps in one chat, as a person goes)."""
    page.add_init_script(WATCH_STOP)
    chat = Chat(page, url, timeout_s, quotes_tools)
    results: list[Result] = []

    def step(name: str, run: Callable[[Result], None]) -> None:
        r = Result(name)
        try:
            run(r)
        except Exception as exc:  # noqa: BLE001  (a step that cannot finish is a failed step; the walk goes on)
            r.problems.append(_why(exc))
            page.screenshot(path=str(downloads / f"{name.split()[0]}.png"))
        results.append(r)
        print(f"{'PASS' if not r.problems else 'FAIL'} {name}: {'; '.join(r.problems)}", flush=True)

    chat.open()

    def t1_q070(r: Result) -> None:
        reply, seconds = chat.ask(f"How has the T1 of Q070 changed over the last 7 days on {CHIP}?")
        readiness(r, seconds, 20)
        text = chat.once(r, reply)
        tool_called(r, chat, reply, ("timeseries", "Parameter", "parameter"))
        common(r, text)
        numbers_supported(r, text.split("Show work")[0], truth.supported("70", "t1", 7), "T1 of Q070")

    def why_q069(r: Result) -> None:
        reply, _ = chat.ask(f"Why did Q069's tasks fail on {CHIP}, and what should I re-run first?")
        text = chat.once(r, reply)
        tool_called(r, chat, reply)
        common(r, text)
        messages = truth.failure_messages("69")
        r.check(bool(messages), "the data has no failure message for Q069 (demo changed?)")
        quoted = [m for m in messages if m in text]
        r.check(bool(quoted), f"no stored failure message quoted (the data says {messages[:2]})")

    def plot(r: Result) -> None:
        reply, _ = chat.ask(f"Plot the T1 of Q021 and Q070 over the last 14 days on {CHIP}")
        text = chat.once(r, reply)
        tool_called(r, chat, reply)
        common(r, text)
        charts = reply.locator(".js-plotly-plot")
        opener = reply.get_by_role("button", name="Show chart")
        if opener.count():
            opener.first.click()
        try:
            charts.first.wait_for(timeout=30_000)
        except Exception:  # noqa: BLE001  (no chart: the check below says so)
            pass
        r.check(charts.count() == 1, f"{charts.count()} charts drawn, not one")
        if charts.count():
            lines = charts.first.evaluate(
                "el => Object.fromEntries(el._fullData.map(t => [t.name, t.y ? t.y.length : null]))")
            expected = {"Q021": len(truth.values("21", "t1", 14)), "Q070": len(truth.values("70", "t1", 14))}
            drawn = {k: v for k, v in lines.items() if k in expected}
            r.check(drawn == expected, f"lines {lines} where the data has {expected} points over 14 days")

    def clarify(r: Result) -> None:
        reply, _ = chat.ask(f"What is the T2 of Q021 on {CHIP}?")
        option = reply.get_by_role("button", name="T2 echo (t2_echo)")
        r.check(option.count() == 1, "no clarifying option 'T2 echo'")
        if not option.count():
            return
        answer, seconds = chat.click(option)
        r.check(seconds is not None, "the option's turn had no Stop button")
        text = chat.once(r, answer)
        tool_called(r, chat, answer)
        common(r, text)
        numbers_supported(r, text.split("Show work")[0], truth.supported("21", "t2_echo", 30), "T2 echo of Q021")

    def follow_up(r: Result) -> None:
        last = chat.messages().nth(chat.messages().count() - 1)
        buttons = last.get_by_role("button").filter(has_not_text="Stop").filter(has_not_text="Show")
        nexts = [b for b in buttons.all() if "?" in b.inner_text()]
        r.check(bool(nexts), "no follow-up question under the last answer")
        if not nexts:
            return
        reply, seconds = chat.click(nexts[0])
        r.check(seconds is not None, "the follow-up's turn had no Stop button")
        text = chat.once(r, reply)
        tool_called(r, chat, reply)
        common(r, text)

    def stop_then_ask(r: Result) -> None:
        count = chat.messages().count()
        box = page.get_by_test_id("stChatInputTextArea")
        box.fill(SLOW_QUESTION)
        box.press("Enter")
        stop = page.get_by_role("button", name="Stop")
        stop.wait_for(timeout=chat.timeout_ms)
        clicked = time.monotonic()
        stop.click()
        stopped = chat.messages().nth(count + 1)
        stopped.get_by_text(STOPPED).first.wait_for(timeout=15_000)
        r.check(time.monotonic() - clicked < 10, "the stop mark took more than 10 s")
        chat.idle()
        r.check("Finalizing" not in stopped.inner_text(), "'Finalizing…' left on the stopped turn")
        reply, _ = chat.ask(f"How many qubits does {CHIP} have?")
        text = chat.once(r, reply)
        r.check("Stopped by the user" not in text and STOPPED not in text, "the stopped turn was fed back")
        r.check(STOPPED in chat.messages().nth(count + 1).inner_text(), "the stop mark is gone after the next turn")
        common(r, text)

    def exports(r: Result) -> None:
        for name, check in (("Download as notebook", _notebook_ok), ("Download as HTML", _html_ok)):
            button = page.get_by_role("button", name=name)
            button.wait_for(timeout=chat.timeout_ms)
            with page.expect_download(timeout=chat.timeout_ms) as info:
                button.click()
            saved = downloads / info.value.suggested_filename
            info.value.save_as(saved)
            check(r, saved.read_text(encoding="utf-8"))

    def analysis(qid: str, failed: bool) -> Callable[[Result], None]:
        label = f"Q{int(qid):03d}"

        def run(r: Result) -> None:
            chat.open(f"qubits?chip={CHIP}&qubit={qid}", "Qubits")
            button = page.get_by_role("button", name="Analyze with copilot")
            button.wait_for(timeout=chat.timeout_ms)
            chat.shown.clear()  # a new chat
            t0 = chat.started()
            button.click()
            page.get_by_role("heading", name="Copilot").first.wait_for(timeout=chat.timeout_ms)
            chat.settle(2)
            reply = chat.messages().nth(1)
            r.check(chat.stop_after(t0) is not None, "the one-click turn had no Stop button")
            text = chat.once(r, reply)
            common(r, text)
            r.check(f"{label} on {CHIP}" in text, f"no report heading '{label} on {CHIP}'")
            r.check("Review of" in text or "Review missing" in text, "the model's review neither shown nor missed")
            if failed:
                messages = truth.failure_messages(qid)
                r.check(any(m in text for m in messages), f"no failure message quoted ({messages[:2]})")
        return run

    step("1 T1 of Q070 over 7 days", t1_q070)
    step("2 why Q069's tasks failed", why_q069)
    step("3 plot Q021+Q070 over 14 days", plot)
    step("4 clarifying option, then answer", clarify)
    step("5 follow-up question", follow_up)
    step("6 stop mid-turn, ask again", stop_then_ask)
    step("7 exports (notebook, HTML)", exports)
    step("8 one-click analysis Q069 (failed tasks)", analysis("69", True))
    step("9 one-click analysis Q021", analysis("21", False))
    (downloads / "replies.txt").write_text("\n\n=====\n\n".join(chat.log), encoding="utf-8")
    return results


def _why(exc: Exception) -> str:
    """The exception and the walk's line that met it."""
    here = [f for f in traceback.extract_tb(exc.__traceback__) if f.filename == __file__]
    at = f" (line {here[-1].lineno})" if here else ""
    return f"{type(exc).__name__}{at}: {str(exc).splitlines()[0][:200]}"


def _notebook_ok(r: Result, raw: str) -> None:
    try:
        nb = json.loads(raw)
    except ValueError:
        r.problems.append("the notebook is not JSON")
        return
    cells = nb.get("cells") or []
    source = "\n".join("".join(c.get("source") or "") for c in cells)
    r.check(len(cells) > 3, "the notebook has almost no cells")
    r.check("unknown tool" not in source, "the notebook calls an unknown tool")
    r.check("Q070" in source and "Q069" in source, "the notebook lacks the questions asked")
    r.check("draw_answer_chart" in source, "the notebook does not redraw the answers' charts")
    common(r, re.sub(r"\"qid\": \"\d+\"|qids?=\[?['\"\d, ]+\]?", "", source))


def _html_ok(r: Result, raw: str) -> None:
    visible = re.sub(r"<[^>]+>", " ", re.sub(r"<(script|style)\b.*?</\1>", "", raw, flags=re.DOTALL))
    r.check("**" not in visible, "literal ** in the HTML export")
    r.check("<strong>" in raw or "<em>" in raw or "**" not in raw, "markdown not rendered in the HTML export")
    r.check("Q070" in visible, "the HTML export lacks the questions asked")
    r.check(not MARKUP.search(visible), "tool-call markup in the HTML export")


def failure_steps(page, dead_model_url: str, dead_port: int, wrong_db_url: str, db_port: int,  # noqa: ANN001
                  timeout_s: float) -> list[Result]:
    results = []
    r = Result("10 dead model server")
    try:
        chat = Chat(page, dead_model_url, timeout_s)
        chat.open()
        reply, _ = chat.ask(f"What is the T1 of Q021 on {CHIP}?")
        text = reply.inner_text()
        r.check(f"127.0.0.1:{dead_port}" in text, "the message does not name the model server's address")
        r.check("[redacted]" not in text, "the local address is shown as [redacted]")
        r.check("Traceback" not in page.locator("body").inner_text(), "a traceback on the page")
        common(r, text.split("Show work")[0])
    except Exception as exc:  # noqa: BLE001
        r.problems.append(_why(exc))
    results.append(r)
    print(f"{'PASS' if not r.problems else 'FAIL'} {r.step}: {'; '.join(r.problems)}", flush=True)
    r = Result("11 wrong database address")
    try:
        page.goto(wrong_db_url)
        main = page.locator("body")
        page.get_by_text(f"127.0.0.1:{db_port}").first.wait_for(timeout=int(timeout_s * 1000))
        r.check("Traceback" not in main.inner_text(), "a traceback on the page")
        shown = main.inner_text()
        at = shown.find(f"127.0.0.1:{db_port}")
        r.check(re.search(r"database|MongoDB", shown, re.IGNORECASE) is not None,
                f"the message does not say it is the database: {shown[max(0, at - 150):at + 100]!r}")
    except Exception as exc:  # noqa: BLE001
        r.problems.append(_why(exc))
    results.append(r)
    print(f"{'PASS' if not r.problems else 'FAIL'} {r.step}: {'; '.join(r.problems)}", flush=True)
    return results


# ------------------------------------------------------------------------------------------------ servers

def scripted_smart():  # noqa: ANN201
    """A model that calls the tool a question needs and answers with the tools' own sentences (quoting stored
    failure messages), and streams one slow answer that waits for the stop."""
    from tests.fakes.scripted_openai import answer, call, paused, text

    pauses = []

    def said(results) -> str:  # noqa: ANN001
        out = []
        for seen in results:
            try:
                data = json.loads(seen.output)
            except ValueError:
                continue
            if isinstance(data, dict) and data.get("answer"):
                out.append(str(data["answer"]))
        return " ".join(out) or "The tools returned no sentence."

    def smart(req):  # noqa: ANN001, ANN202
        q = req.user_text
        if q.startswith("Analyze Q"):
            return text("**Review of this report**: see the findings of the report above; re-run the failed tasks "
                        "first.")
        if SLOW_QUESTION in q:
            step, pause = paused(answer("I am summarising the chip's health, one metric at a time, and"), after=4)
            pauses.append(pause)
            return step
        if req.tool_results or not req.has_tools:
            return answer(said(req.tool_results))
        qids = [str(int(x)) for x in re.findall(r"Q(\d+)", q)]
        if "Why did" in q and qids:
            return call("search_task_results", {"chip_id": CHIP, "qid": qids[0], "status": "failed"})
        if "Plot" in q and len(qids) > 1:
            return call("get_chip_parameter_timeseries", {"chip_id": CHIP, "parameter_name": "t1", "qids": qids,
                                                          "days": 14})
        if "T1" in q and qids:
            return call("get_parameter_timeseries", {"chip_id": CHIP, "parameter_name": "t1", "qid": qids[0],
                                                     "days": 7})
        if "t2_echo" in q and qids:
            return call("get_qubit_params", {"chip_id": CHIP, "qid": qids[0]})
        if qids:
            return call("get_qubit_params", {"chip_id": CHIP, "qid": qids[0]})
        return call("get_chip_summary", {"chip_id": CHIP})

    return smart, pauses


@contextmanager
def local_model(timeout_s: float) -> Iterator[dict[str, str]]:
    """``scripts/local_llm.py serve`` at low priority, as bench/eval_copilot.py starts it; the app's settings."""
    sys.path.insert(0, str(ROOT / "scripts"))
    import local_llm

    from tests.e2e.conftest import free_port

    port = free_port()
    server = subprocess.Popen(["nice", "-n", "15", sys.executable, str(ROOT / "scripts" / "local_llm.py"), "serve",
                               "--port", str(port), "--stop-on-eof"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              text=True, env={**os.environ, "OMP_WAIT_POLICY": "PASSIVE"}, cwd=ROOT)
    try:
        assert server.stdout is not None
        line = server.stdout.readline()
        if not line.startswith("READY "):
            raise RuntimeError(f"the local model server did not start ({server.poll()})")
        env = local_llm.parse_env("\n".join(local_llm.env_lines(port)))
        yield env | {"COPILOT_TIMEOUT_S": str(int(timeout_s))}
    finally:
        if server.stdin:
            server.stdin.close()
        server.terminate()
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


def seeded_store(folder: Path) -> Path:
    from copilot_core.data.connection import open_database
    from copilot_core.demo.seed import chip_specs, demo_clock, seed_database
    from copilot_core.settings import Settings

    db = open_database(Settings(data_dir=folder))
    try:
        seed_database(db, chip_specs(), seed=7, now=demo_clock())
    finally:
        db.close()
    return folder


def base_env(data_dir: Path, work: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if k not in ("MONGODB_URI", "MONGO_DB_NAME", "QDASH_PROJECT_ID", "OPENAI_API_KEY", "OPENAI_BASE_URL",
                        "COPILOT_API_STYLE", "COPILOT_MODEL")}
    return env | {"DATA_DIR": str(data_dir), "TRACE_DIR": str(work / "traces"), "USERNAME": "walker",
                  "CALIBRATION_COPILOT_SECRETS": str(work / "no-secrets.toml"),
                  "PYTHONPATH": os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH", "")) if p)}


def run(scripted: bool, answer_timeout: float, data_dir: Path | None = None) -> list[Result]:
    """The whole walk; the results of every step."""
    from playwright.sync_api import sync_playwright

    from copilot_core.data.connection import open_database
    from copilot_core.settings import Settings
    from tests.e2e.conftest import CHROMIUM, free_port, start_streamlit
    from tests.fakes.scripted_openai import ScriptedOpenAI, answer, call

    work = Path(tempfile.mkdtemp(prefix="conversation-walk-"))
    print(f"walk files (downloads, screenshots of failed steps): {work}", flush=True)
    store = work / "store"
    if data_dir is not None:
        shutil.copytree(data_dir, store)
    else:
        seeded_store(store)
    truth_db = open_database(Settings(data_dir=store))
    truth = Truth(truth_db)
    env = base_env(store, work)
    with ExitStack() as stack:
        if scripted:
            smart, pauses = scripted_smart()

            def reply(req):  # noqa: ANN001, ANN202  (the readiness probe's two requests, then the walk's model)
                if req.tool_names == ["report_number"]:
                    return call("report_number", {"value": 42})
                if req.system_text.startswith("You are a test harness."):
                    return answer("The probe worked.")
                return smart(req)

            model = stack.enter_context(ScriptedOpenAI(smart=reply))
            stack.callback(lambda: [p.release.set() for p in pauses])
            env |= {"OPENAI_BASE_URL": model.base_url, "COPILOT_MODEL": "scripted-model"}
        else:
            env |= stack.enter_context(local_model(answer_timeout))
        url = stack.enter_context(start_streamlit(env, app=ROOT / "server.py", start_timeout=300))
        dead_port, db_port = free_port(), free_port()
        dead_env = env | {"OPENAI_BASE_URL": f"http://127.0.0.1:{dead_port}/v1", "COPILOT_TIMEOUT_S": "20"}
        wrong_db_env = env | {"MONGODB_URI": f"mongodb://127.0.0.1:{db_port}/?serverSelectionTimeoutMS=3000"}
        pw = stack.enter_context(sync_playwright())
        browser = pw.chromium.launch(executable_path=CHROMIUM)
        stack.callback(browser.close)
        page = browser.new_context(viewport={"width": 1500, "height": 1000}, accept_downloads=True).new_page()
        results = walk(page, url, truth, answer_timeout, work, quotes_tools=scripted)
        dead_url = stack.enter_context(start_streamlit(dead_env, app=ROOT / "server.py", start_timeout=300))
        db_url = stack.enter_context(start_streamlit(wrong_db_env, app=ROOT / "server.py", start_timeout=300))
        fresh = browser.new_context(viewport={"width": 1500, "height": 1000}).new_page()
        results += failure_steps(fresh, dead_url, dead_port, db_url, db_port, 120)
    truth_db.client.close() if hasattr(truth_db, "client") else None
    return results


def table(results: list[Result]) -> str:
    width = max(len(r.step) for r in results)
    rows = [f"{'step':<{width}}  result  reason"]
    rows += [f"{r.step:<{width}}  {'PASS' if not r.problems else 'FAIL'}    {'; '.join(r.problems)}" for r in results]
    return "\n".join(rows)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scripted", action="store_true", help="the scripted model instead of the local one")
    parser.add_argument("--answer-timeout", type=float, default=0.0,
                        help="seconds per answer (default 120 scripted, 1800 with the local model)")
    parser.add_argument("--data-dir", default="", help="a seeded embedded store to copy (default: seed one)")
    args = parser.parse_args(argv)
    timeout = args.answer_timeout or (120.0 if args.scripted else 1800.0)
    started = time.monotonic()
    results = run(args.scripted, timeout, Path(args.data_dir) if args.data_dir else None)
    print(f"\n{table(results)}\n\n{sum(1 for r in results if r.problems)} of {len(results)} steps failed "
          f"({'scripted' if args.scripted else 'local'} model, {time.monotonic() - started:.0f} s)")
    return sum(1 for r in results if r.problems)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
