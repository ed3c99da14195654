"""``python -m copilot_core.demo``: seed the embedded (or configured) database with demo chips."""

from __future__ import annotations

import argparse
import sys
from dataclasses import replace
from pathlib import Path

from copilot_core.data.connection import DatabaseUnavailable, describe_target, open_embedded
from copilot_core.demo.seed import chip_specs, seed_database
from copilot_core.figures.paths import FigureRoot
from copilot_core.settings import ConfigError, load_settings


def _sizes(text: str) -> tuple[int, ...]:
    try:
        sizes = tuple(int(part) for part in text.split(",") if part.strip())
    except ValueError:
        raise argparse.ArgumentTypeError(f"--chips takes sizes like 64,144; got {text!r}") from None
    bad = [s for s in sizes if s not in (16, 64, 144, 256, 1024)]
    if not sizes or bad:
        raise argparse.ArgumentTypeError("chip sizes must be among 16, 64, 144, 256, 1024")
    return sizes


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m copilot_core.demo", description=__doc__)
    parser.add_argument("--if-empty", action="store_true", help="seed only when the database holds no chip")
    parser.add_argument("--chips", type=_sizes, default=(64, 144), help="chip sizes, e.g. 64,144")
    parser.add_argument("--days", type=int, default=30, help="daily executions per chip (1-365)")
    parser.add_argument("--stress", action="store_true", help="also add a 1024-qubit chip (<= 7 days)")
    parser.add_argument("--seed", type=int, default=7, help="random seed (same seed -> same documents)")
    parser.add_argument("--data-dir", type=Path, help="embedded database directory (default DATA_DIR or .data/)")
    args = parser.parse_args(argv)
    if not 1 <= args.days <= 365:
        parser.error("--days must be between 1 and 365")
    try:
        settings = load_settings()
        if args.data_dir is not None:  # an explicit directory always means the embedded engine
            settings = replace(settings, mongodb_uri=None, data_dir=args.data_dir.resolve())
        elif not settings.embedded and args.if_empty:  # `make run` against a real QDash database
            print(f"MONGODB_URI is set ({describe_target(settings)}): using it, no demo data written")
            return 0
        elif not settings.embedded:
            print(f"refusing to write demo data into {describe_target(settings)}: unset MONGODB_URI "
                  "(or pass --data-dir) to seed the embedded database", file=sys.stderr)
            return 2
        db = open_embedded(settings)
        report = seed_database(db, chip_specs(args.chips, args.days, args.stress), seed=args.seed,
                               if_empty=args.if_empty,
                               figures=FigureRoot(settings.data_dir / "calib_data"))  # never into CALIB_DATA_DIR
        db.close()
    except (DatabaseUnavailable, ConfigError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    print(f"{describe_target(settings)}: {report.summary()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
