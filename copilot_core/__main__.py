"""Command line: ``python -m copilot_core ask|tool|import|report|owners|sandbox``.

    ask "QUESTION" [--chip C] [--qid Q] [--analysis] [--task TASK]
        one JSON object on stdout: {answer, blocks, assessment, tool_calls: [{tool, args, result}],
        usage: {rounds, input_tokens, output_tokens, cached_tokens}, unverified_numbers: [numbers in the answer
        that no tool result backs]} (+ "error" when the model API failed)
    ask --analysis --qid Q [--chip C]
        the page's one-click analysis: blocks = [the qubit's health report, the checked review], plus
        review: {status: checked|trimmed|replaced|missing|stopped, reason}
    tool NAME --args JSON [--full]
        runs one tool: what the model would see, or with --full the full (stored) result
    import DIR
        loads a QDash export (one file per collection) into the embedded store, replacing its QDash data
    report --chip C [--date D] --out report.html [--summary]
        the daily chip report as one self-contained HTML file (deterministic; --summary adds a paragraph
        from the configured model, kept only when every number in it is in the report)
    owners
        who owns the saved chats and copilot memory, with counts (what sign-in hides is marked)
    owners assign (--from NAME | --unowned) --to OWNER_ID [--yes]
        gives OWNER_ID (a signed-in user's id, shown in the app's sidebar) those chats and memory entries;
        a dry run unless --yes
    export SESSION_ID --out chat.ipynb|chat.html [--user NAME]
        a saved chat as a runnable notebook (refetches each tool's data, reruns sandbox jobs; no secrets written),
        or (--out *.html) as one self-contained HTML page
    sandbox --code-file F [--data-file D.json]
        delegates to copilot_core.sandbox.cli

Logs go to stderr.  Exit codes: 0 success, 1 usage or configuration error, 2 LLM/API error.
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
from typing import TYPE_CHECKING, Any, NoReturn

from copilot_core.errors import CopilotError

if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator

    from copilot_core.data.repository import CalibrationRepository
    from copilot_core.settings import Settings
    from copilot_core.tools import ToolOutcome

EXIT_OK, EXIT_USAGE, EXIT_API = 0, 1, 2
log = logging.getLogger("copilot_core.cli")


class UsageError(CopilotError):
    """Bad command line or configuration: exit 1 with this message."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:  # argparse exits 2, which here means an API error
        self.print_usage(sys.stderr)
        raise UsageError(message)


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="python -m copilot_core", description="Calibration Copilot command line")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    ask = sub.add_parser("ask", help="ask the copilot a question (JSON answer on stdout)")
    ask.add_argument("question", nargs="?", help="the question (optional with --analysis)")
    ask.add_argument("--chip", help="chip id (default: the most recently installed chip)")
    ask.add_argument("--qid", help="qubit id, e.g. 5 or Q05")
    ask.add_argument("--analysis", action="store_true", help="analysis mode (needs --qid)")
    ask.add_argument("--task", help="analysis mode: the calibration task under review, e.g. CheckT1")
    from copilot_core.tools.registry import TOOLS

    listing = "\n".join(f"  {spec.name:<30} {spec.description.split('. ')[0][:90]}" for spec in TOOLS)
    tool = sub.add_parser("tool", help="run one copilot tool", epilog=f"tools:\n{listing}",
                          formatter_class=argparse.RawDescriptionHelpFormatter)
    tool.add_argument("name", help="tool name (listed below)")
    tool.add_argument("--args", default="{}", help="tool arguments as a JSON object")
    tool.add_argument("--full", action="store_true", help="print the full result instead of what the model sees")
    load = sub.add_parser("import", help="load a QDash export (one JSON file per collection) into the embedded store")
    load.add_argument("directory", help="folder of mongoexport / Extended JSON files named by collection, "
                                        "e.g. task_result_history.json")
    report = sub.add_parser("report", help="write the daily chip report (self-contained HTML)")
    report.add_argument("--chip", help="chip id (default: the most recently installed chip)")
    report.add_argument("--date", help="report the run of this day: YYYY-MM-DD or -Nd (default: the last run)")
    report.add_argument("--out", required=True, help="HTML file to write")
    report.add_argument("--summary", action="store_true", help="add a checked summary paragraph from the model")
    owners = sub.add_parser("owners", help="list who owns saved chats and copilot memory; reassign them")
    owners_sub = owners.add_subparsers(dest="owners_command", parser_class=_Parser)
    assign = owners_sub.add_parser("assign", help="give one owner's (or the unowned) chats and memory to another")
    source = assign.add_mutually_exclusive_group(required=True)
    source.add_argument("--from", dest="from_owner", metavar="NAME", help="the current owner, e.g. the old USERNAME")
    source.add_argument("--unowned", action="store_true", help="memory entries saved before memory had owners")
    assign.add_argument("--to", required=True, metavar="OWNER_ID",
                        help="the new owner: a signed-in user's id (shown under 'Signed in as' in the sidebar)")
    assign.add_argument("--yes", action="store_true", help="do it (without --yes: a dry run that only counts)")
    export = sub.add_parser("export", help="write a saved chat as a runnable Jupyter notebook")
    export.add_argument("session_id")
    export.add_argument("--out", required=True, help="the .ipynb (or .html) file to write")
    export.add_argument("--user", default=None, help="the chat's owner (default: USERNAME or 'local')")
    sub.add_parser("sandbox", help="run analysis code in the sandbox", add_help=False)
    return parser


def _json(obj: object) -> str:
    return json.dumps(obj, ensure_ascii=False, default=str)


def _open(settings: Settings) -> CalibrationRepository:
    """The repository, or a UsageError naming what to check."""
    from copilot_core.data.connection import DatabaseUnavailable, open_database
    from copilot_core.data.repository import CalibrationRepository

    try:
        repo = CalibrationRepository(open_database(settings), project_id=settings.project_id)
        repo.ping()
    except DatabaseUnavailable as exc:
        raise UsageError(f"database unavailable: {exc}") from exc
    return repo


class _LogListener:
    """Turn progress on stderr (stdout carries only the JSON answer)."""

    def phase(self, text: str) -> None:
        log.debug("status: %s", text)

    def notice(self, text: str) -> None:
        log.warning("%s", text)

    def tool_call(self, name: str, args: dict) -> None:
        log.info("tool %s %s", name, _json(args))

    def tool_result(self, outcome: ToolOutcome) -> None:
        log.debug("result %s", outcome.summary)


def _model_view(text: str) -> object:
    try:
        return json.loads(text)
    except ValueError:
        return text


def cmd_ask(args: argparse.Namespace, settings: Settings) -> int:
    from copilot_core.agent import provider_from_settings
    from copilot_core.answer.blocks import blocks_to_dicts
    from copilot_core.chat import ChatState, analysis_request
    from copilot_core.session import Copilot

    if args.analysis and not args.qid:
        raise UsageError("--analysis needs --qid")
    if not args.question and not args.analysis:
        raise UsageError("ask needs a QUESTION (or --analysis --qid Q)")
    check = Copilot.check(args.question) if args.question else None
    if check is not None and not check.ok:
        raise UsageError(check.message or "invalid question")
    provider = provider_from_settings(settings)
    if provider is None:
        raise UsageError("no model configured: set OPENAI_API_KEY (OpenAI) or OPENAI_BASE_URL (a local "
                         "OpenAI-compatible server) in the environment or .streamlit/secrets.toml")
    repo = _open(settings)
    chip = args.chip or (repo.default_chip_id() if args.analysis else None)
    row = repo.get_chip(chip) if chip else None
    size = int(row.get("size") or 0) if row else 0
    check = check or Copilot.check(analysis_request(chip or "?", args.qid, size))
    copilot = Copilot.from_settings(settings, repo)
    log.info("asking %s", provider.label())
    state = ChatState(username=settings.get("USERNAME") or "local", provider=provider, chip_id=chip,
                      qid=args.qid, mode="analysis" if args.analysis else "chat")
    turn = copilot.ask(state, check, _LogListener(), context={"task_name": args.task} if args.task else None)
    result = turn.result
    if result is None:
        raise UsageError(turn.notice or "the question was not sent")
    out: dict[str, object] = {
        "answer": result.answer, "blocks": blocks_to_dicts(result.blocks), "assessment": result.assessment,
        "tool_calls": [{"tool": o.name, "args": o.args, "result": _model_view(o.model_text)} for o in result.tool_calls],
        "usage": result.usage, "unverified_numbers": result.unverified_numbers}
    if result.review is not None:
        out["review"] = {"status": result.review.status, "reason": result.review.reason,
                         "added": list(result.review.added)}
    if result.error:
        out["error"] = result.error
        log.error("%s", result.error)
    print(_json(out))
    return EXIT_API if result.error else EXIT_OK


def cmd_tool(args: argparse.Namespace, settings: Settings) -> int:
    try:
        tool_args = json.loads(args.args)
    except ValueError as exc:
        raise UsageError(f"--args is not valid JSON: {exc}") from exc
    if not isinstance(tool_args, dict):
        raise UsageError("--args must be a JSON object, e.g. '{\"chip_id\": \"64Qv3\"}'")
    from copilot_core.figures import available_root
    from copilot_core.sandbox import run_analysis
    from copilot_core.tools import DataStore, Toolkit

    toolkit = Toolkit(_open(settings), store=DataStore(), sandbox=run_analysis, figures=available_root(settings))
    toolkit.begin_request()
    outcome = toolkit.execute(args.name, tool_args)
    if not outcome.ok:
        print(outcome.model_text)
        log.error("%s", outcome.error)
        return EXIT_USAGE
    print(_json(outcome.full) if args.full else outcome.model_text)
    return EXIT_OK


def cmd_import(args: argparse.Namespace, settings: Any) -> int:
    from pathlib import Path

    from tqdm import tqdm

    from copilot_core.data.importer import ImportFailed, import_export
    from copilot_core.data.engine import Document

    def progress(collection: str, total: int, docs: Iterator[Document]) -> Iterable[Document]:
        return tqdm(docs, total=total, desc=collection, unit="doc", file=sys.stderr, leave=True)

    try:
        summary = import_export(Path(args.directory), settings, progress=progress)
    except ImportFailed as exc:
        raise UsageError(f"import failed: {exc}") from exc
    print(summary.text())
    return EXIT_OK


def cmd_report(args: argparse.Namespace, settings: Settings) -> int:
    from pathlib import Path

    from copilot_core.figures import figure_root
    from copilot_core.report import ReportError, chip_report

    repo = _open(settings)
    chip_id = args.chip or repo.default_chip_id()
    chip = repo.get_chip(chip_id) if chip_id else None
    if chip is None:
        from copilot_core.analysis.overview import chip_name

        known = ", ".join(chip_name(c) for c in repo.list_chips()[:20]) or "none"
        missing = f"chip {chip_id!r} not found" if chip_id else "no active chip: name one with --chip"
        raise UsageError(f"{missing}; chips: {known}")
    try:
        report = chip_report(repo, chip, args.date, figures=figure_root(settings))
    except ReportError as exc:
        raise UsageError(str(exc)) from exc
    if args.summary:
        from copilot_core.agent import provider_from_settings
        from copilot_core.errors import ProviderError
        from copilot_core.report.summary import summarise

        provider = provider_from_settings(settings)
        if provider is None:
            log.warning("no model configured: the report has no summary paragraph")
        else:
            try:
                paragraph, why = summarise(report, provider)
            except ProviderError as exc:
                paragraph, why = None, f"model error: {exc}"
            log.info("summary: %s", why)
            if paragraph:
                report = report.with_summary(paragraph)
    out = Path(args.out)
    try:
        out.write_text(report.html, encoding="utf-8")
    except OSError as exc:
        raise UsageError(f"cannot write {out}: {exc.strerror}") from exc
    comp = report.comparison
    log.info("wrote %s (%d bytes): %s vs %s", out, len(report.html), comp.after.label, comp.before.label)
    return EXIT_OK


def cmd_owners(args: argparse.Namespace, settings: Settings) -> int:
    from copilot_core.data import owners
    from copilot_core.data.validation import InvalidArgument

    db = _open(settings).db
    if args.owners_command == "assign":
        try:
            moved = owners.assign(db, None if args.unowned else args.from_owner, args.to, apply=args.yes)
        except InvalidArgument as exc:
            raise UsageError(str(exc)) from exc
        source = "the unowned items" if moved.from_owner is None else repr(moved.from_owner)
        what = f"{moved.chats} chat(s) and {moved.memory_entries} memory entr{'y' if moved.memory_entries == 1 else 'ies'}"
        dropped = (f"; {moved.memory_merged} memory entr{'y' if moved.memory_merged == 1 else 'ies'} the new owner "
                   "already has (same chip, kind and key) dropped in favour of theirs" if moved.memory_merged else "")
        if moved.applied:
            print(f"Moved {what} of {source} to {moved.to_owner!r}{dropped}.")
        else:
            print(f"Dry run: would move {what} of {source} to {moved.to_owner!r}{dropped.replace(' dropped', ' to drop')}."
                  "\nRun again with --yes to move them.")
        if not owners.is_signed_in_owner(moved.to_owner):
            log.warning("%r is not a signed-in user's id (user-<40 hex>): with sign-in on, nobody will see these",
                        moved.to_owner)
        return EXIT_OK
    rows = owners.owners(db)
    if not rows:
        print("No saved chats and no copilot memory yet.")
        return EXIT_OK
    print(f"{'owner':<46} {'chats':>6} {'memory entries':>15}  note")
    for row in rows:
        note = "signed-in user" if row.signed_in else "hidden while sign-in is on"
        print(f"{row.owner or '(no owner)':<46} {row.chats:>6} {row.memory_entries:>15}  {note}")
    if any(not row.signed_in for row in rows):
        print("\nTo give hidden items to a signed-in user: python -m copilot_core owners assign "
              "--from NAME (or --unowned) --to OWNER_ID [--yes]")
    return EXIT_OK


def cmd_export(args: argparse.Namespace, settings: Settings) -> int:
    from pathlib import Path

    from copilot_core.chat.html_export import chat_html
    from copilot_core.chat.messages import ChatMessage
    from copilot_core.chat.notebook import chat_notebook
    from copilot_core.data.chat_sessions import ChatSessionStore

    owner = args.user or settings.get("USERNAME") or "local"
    doc = ChatSessionStore(_open(settings).db).get(owner, args.session_id)
    if doc is None:
        raise UsageError(f"no saved chat {args.session_id!r} for user {owner!r}")
    messages = [ChatMessage.from_document(m) for m in doc.get("messages") or [] if isinstance(m, dict)]
    title = str(doc.get("title") or "Chat")
    text = (chat_html(messages, title=title) if args.out.lower().endswith((".html", ".htm"))
            else chat_notebook(messages, title=title, settings=settings))
    Path(args.out).write_text(text, encoding="utf-8")
    print(_json({"out": args.out, "messages": len(messages)}))
    return EXIT_OK


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    logging.basicConfig(stream=sys.stderr, level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    logging.getLogger("copilot_core").setLevel(logging.INFO)
    if argv[:1] == ["sandbox"]:
        from copilot_core.sandbox.cli import main as sandbox_main

        return sandbox_main(argv[1:])
    from copilot_core.settings import ConfigError, load_settings

    try:
        args = _parser().parse_args(argv)
        settings = load_settings()
        commands = {"ask": cmd_ask, "tool": cmd_tool, "import": cmd_import, "report": cmd_report,
                    "owners": cmd_owners, "export": cmd_export}
        return commands[args.command](args, settings)
    except (UsageError, ConfigError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except BrokenPipeError:  # stdout closed early (e.g. piped into head): not an error of ours
        sys.stderr.close()
        return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
