"""Eval harness: questions on the demo data with required tools and facts computed from the database."""

from copilot_core.evals.harness import (DEFAULT_QUESTIONS, Outcome, Question, QuestionFileError, format_table,
                                        load_questions, make_runner, resolve, resolve_all, run_eval, score, summary)

__all__ = ["DEFAULT_QUESTIONS", "Outcome", "Question", "QuestionFileError", "format_table", "load_questions",
           "make_runner", "resolve", "resolve_all", "run_eval", "score", "summary"]
