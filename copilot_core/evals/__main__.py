"""``python -m copilot_core.evals run [--questions FILE] [--json] [--local-subset] [--only IDS] [--category C]
[--gate] [--min-score F]``: run the eval questions against whichever provider is configured.

Prints a table (pass/fail, rounds, tokens, seconds) and the score to stdout, progress to stderr.
Exit 0 when the run completed (and the score reached --min-score), 1 on a usage or configuration
error, 3 when the score is below --min-score.
"""

from __future__ import annotations

import argparse
import json
import logging
import sys

from copilot_core.evals.harness import (DEFAULT_QUESTIONS, LOCAL_SUBSET, QuestionFileError, format_table,
                                        load_questions, make_runner, resolve_all, run_eval, summary)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m copilot_core.evals", description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    run = sub.add_parser("run", help="run the eval questions against the configured provider")
    run.add_argument("--questions", default=str(DEFAULT_QUESTIONS), help="YAML questions file")
    run.add_argument("--json", action="store_true", help="print one JSON object instead of the table")
    run.add_argument("--only", default="", help="comma-separated question ids (within --local-subset, if given)")
    run.add_argument("--local-subset", action="store_true",
                     help=f"only the {len(LOCAL_SUBSET)} questions a small local model is measured on")
    run.add_argument("--category", default="", help="comma-separated categories")
    run.add_argument("--chip", default=None, help="chip to ask about (default: the smallest chip with data)")
    run.add_argument("--gate", action="store_true", help="apply the model-readiness tool gating, as the app does")
    run.add_argument("--min-score", type=float, default=None, help="exit 3 when the score is below this (0..1)")
    return parser


def _names(text: str) -> set[str]:
    return {s.strip() for s in text.split(",") if s.strip()}


def select(specs: list[dict], *, only: str = "", local_subset: bool = False, category: str = "") -> list[dict]:
    """The questions to run: each option narrows the ones before it (``--only`` within ``--local-subset``)."""
    ids, categories = _names(only), _names(category)
    return [s for s in specs if (not local_subset or s["id"] in LOCAL_SUBSET) and (not ids or s["id"] in ids)
            and (not categories or s.get("category") in categories)]


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr, format="%(levelname)s %(name)s: %(message)s")
    from copilot_core.agent import provider_from_settings
    from copilot_core.guardrails import configured_secrets
    from copilot_core.llm.provider import LOCAL_DUMMY_KEY
    from copilot_core.data.connection import DatabaseUnavailable, open_database
    from copilot_core.data.repository import CalibrationRepository
    from copilot_core.evals.facts import EvalContext, FactError
    from copilot_core.settings import ConfigError, load_settings

    try:
        settings = load_settings()
        provider = provider_from_settings(settings)
        if provider is None:
            print("No model is configured: set OPENAI_API_KEY (OpenAI) or OPENAI_BASE_URL (a local server) in the "
                  "environment or .streamlit/secrets.toml.", file=sys.stderr)
            return 1
        specs = load_questions(args.questions)
        specs = select(specs, only=args.only, local_subset=args.local_subset, category=args.category)
        if not specs:
            print("No question matches --only/--local-subset/--category.", file=sys.stderr)
            return 1
        repo = CalibrationRepository(open_database(settings), project_id=settings.project_id)
        questions = resolve_all(specs, EvalContext(repo, chip_id=args.chip))
    except (ConfigError, QuestionFileError, DatabaseUnavailable, FactError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    secrets = [*configured_secrets(settings)] + ([provider.api_key] if provider.api_key != LOCAL_DUMMY_KEY else [])
    print(f"Evaluating {len(questions)} questions against {provider.label()}", file=sys.stderr)

    def progress(outcome) -> None:  # noqa: ANN001
        state = "skip" if outcome.skipped else ("pass" if outcome.passed else "FAIL")
        print(f"  {outcome.qid}: {state} ({outcome.seconds:.1f} s)", file=sys.stderr, flush=True)

    if args.gate:  # probe the model once up front so its cost is not charged to the first question
        import time

        from copilot_core.readiness import readiness_for

        started = time.perf_counter()
        ready = readiness_for(provider)
        print(f"Model readiness: {ready.level} ({time.perf_counter() - started:.1f} s)", file=sys.stderr)
    runner = make_runner(repo=repo, provider=provider, settings=settings, gate=args.gate)
    outcomes = run_eval(questions, runner, secrets=secrets, on_result=progress)
    result = summary(outcomes)
    if args.json:
        print(json.dumps({"provider": provider.label(), "summary": result,
                          "questions": [o.as_dict() for o in outcomes]}, ensure_ascii=False, default=str))
    else:
        print(format_table(outcomes))
    if args.min_score is not None and result["score"] < args.min_score:
        return 3
    return 0


if __name__ == "__main__":
    sys.exit(main())
