"""``python -m copilot_core sandbox --code-file F [--data-file D.json]``: run one job, print JSON.

D.json maps each data key to a list of row dicts (``{"t1": [{"qid": "0", ...}, ...]}``).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from copilot_core.sandbox.host import run_analysis


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m copilot_core sandbox",
                                     description="Run analysis code in the sandbox and print the result as JSON.")
    parser.add_argument("--code-file", required=True, type=Path, help="Python file with the analysis code")
    parser.add_argument("--data-file", type=Path, help='JSON: {"key": [row dicts]} exposed as data[key]')
    parser.add_argument("--timeout", type=float, default=10.0, help="wall-clock limit in seconds (default 10)")
    return parser


def main(argv: list[str]) -> int:
    """Exit 0 when the job ran without error, 1 for unusable input (as every subcommand), 3 when the code failed."""
    args = list(argv)
    if args[:1] == ["sandbox"]:
        args = args[1:]
    try:
        options = _parser().parse_args(args)
    except SystemExit as exc:  # argparse already printed the usage message
        return 1 if exc.code else 0
    try:
        code = options.code_file.read_text(encoding="utf-8")
        data = json.loads(options.data_file.read_text(encoding="utf-8")) if options.data_file else {}
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        print(json.dumps({"output": "", "charts": [], "error": f"cannot read input: {exc}", "layers": []}))
        return 1
    if not isinstance(data, dict):
        print(json.dumps({"output": "", "charts": [], "error": "data file must hold a JSON object", "layers": []}))
        return 1
    result = run_analysis(code, data, timeout_s=options.timeout)
    print(json.dumps({"output": result.output, "charts": result.charts, "error": result.error,
                      "layers": result.layers}, ensure_ascii=False))
    return 0 if result.error is None else 3


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
