"""The words an answer's claims are read with: the same kind of rows as the question's, matched on the answer's tokens.

:mod:`~copilot_core.checking.claim_reading` and :mod:`~copilot_core.checking.marks` read a sentence's roles, limits,
counts and statistics with these rows; :func:`opening` and :func:`closing` anchor a row at a text's first or last word.
"""

from __future__ import annotations

from copilot_core.language.question_words import Phrases, tokens_of

_BELOW_WORDS = "below|under|less than|lower than|shorter than|smaller than"
_ABOVE_WORDS = "above|over|greater than|more than|higher than|longer than|larger than|exceed/exceeds/exceeding/exceeded"
_SEVERAL = "values/points/measurements/results/calibrations"
# the nouns a count counts ("14 qubits", "failed 14 times", "3 errors")
_COUNTED = ("qubit/qubits/coupling/couplings/pair/pairs/task/tasks/failure/failures/run/runs/execution/executions"
            "/result/results/point/points/value/values/measurement/measurements/time/times/error/errors/attempt"
            "/attempts/occurrence/occurrences/retry/retries")
ANSWER_WORDS: dict[str, Phrases] = {
    # the role the nearest word gives a number
    "min": Phrases("lowest|minimum|min|smallest|shortest|least"),  # "at least" is a limit: the reader skips it
    "max": Phrases("highest|maximum|max|largest|longest|greatest|best"),
    "median": Phrases("median"),
    "mean": Phrases("mean|average|avg"),
    "latest": Phrases("latest|most recent|newest|current|currently"),
    "several latest": Phrases(f"latest/newest/current/currently *? *? {_SEVERAL}|most recent *? *? {_SEVERAL}"),
    # a limit right before a number, a count's words around it
    "below or above": Phrases(f"{_BELOW_WORDS}|{_ABOVE_WORDS}"),
    "limit": Phrases(f"{_BELOW_WORDS}|{_ABOVE_WORDS}|at least|at most|threshold of?"),
    "count before": Phrases("how many|count/counted|number of|total of"),
    "counted": Phrases(f"of the? # *? {_COUNTED}|*? {_COUNTED}|of the? #|out of the? #"),
    # a share's denominator right before a number: "out of 64", "of the 62", "13 failures in 750 tasks"
    "denominator": Phrases("out of the? all?|of the? all?|# *? in/among/across the? all?"),
    # a number said to be the sum of several: held to a total the tools gave, never to one side's value
    "aggregate": Phrases("total/totals/totaling/totalling|combined|sum/summed|together|altogether|overall|in all"
                         "|all told|cumulative/cumulatively|aggregate|both/two chips/qubits/runs/tasks/sides"),
    "compared": Phrases("compared|better|worse"),  # "(60 compared, 27 better, 33 worse)"
    # what a count counts
    "missing": Phrases("no valid*|not valid*|invalid*|missing*|without a? valid*/usable*/value*/data*"
                       "|no usable? data*|no value*|never measured*|lack*"),
    "failed": Phrases("fail*|error/errors"),
    "below": Phrases(f"{_BELOW_WORDS}|at most"),
    "above": Phrases(f"{_ABOVE_WORDS}|at least"),
    "band": Phrases("excellent|good|fair|bad|poor"),
    # which way a count of compared items moved ("worse on 33 of 60", "27 better", "fell on 33")
    "better": Phrases("better|improved|improving"),
    "worse": Phrases("worse|degraded|degrading|deteriorated"),
    "fell": Phrases("fell|dropped|decreased|declined|went down"),
    "rose": Phrases("rose|increased|went up|grew"),
    "moved on": Phrases("better/worse/improved/degraded/fell/rose/dropped/increased/decreased/declined on/for/in"),
    # a span of time the values were taken over: "over the last 7 days" is a window, not a limit ("over 7")
    "window": Phrases("over/in/during/for/within/across the? last/past/previous #? hour/hours/day/days/week/weeks"
                      "/month/months/run/runs/calibration/calibrations|over time"),
    # a sentence that ranks or compares
    # the statistics of a spread, a share and a correlation
    "std": Phrases("standard deviation|std|stdev|sd|sigma|σ"),
    "pstd": Phrases("population standard deviation|population sd/std/stdev/sigma/σ"),
    "mad": Phrases("median absolute deviation|mad"),
    "iqr": Phrases("interquartile range|iqr"),
    "cv": Phrases("coefficient of variation|cv"),
    "range": Phrases("range"),  # not in "interquartile range": the reader skips it
    "spread": Phrases("spread/spreads|vary/varies/varied/varying|variation|variance|variability|dispersion|scatter"
                      "|ranges/ranged/spans/spanned over|differ/differs by|fluctuate/fluctuates by"),
    "r": Phrases("pearson|spearman|correlat*|r|rho|ρ"),
    "coefficient": Phrases("pearson|spearman|rho|ρ"),
    "percent": Phrases("percent|percentage|share|fraction"),
    # a closing courtesy ("Let me know if you need more."): says nothing of the data, whatever words it holds
    "courtesy": Phrases("let me know|hope this/that helps|feel free|happy to help|glad to help|if you need/want/have"
                        "|do not hesitate|don't hesitate"),
    "ranking": Phrases("highest|lowest|most|least|best|worst|top|bottom|higher|lower|greater|smaller|larger|longer"
                       "|shorter|better|worse|more|fewer|less|exceed/exceeds|outperform/outperforms|rank/ranks"
                       "|ranked|lead/leads|win/wins|trail/trails|stronger|weaker|healthier|sturdier|superior|inferior"
                       "|beat/beats|outranks|surpass/surpasses/surpassed|outperformed|more/less reliable"),
}


def opening(row: Phrases, text: str) -> tuple[int, int] | None:
    """Where ``row`` matches from the first word of ``text`` (only spaces before it and between its words), as
    ``(start, end)`` in ``text``; None when it does not."""
    tokens = tokens_of(text)
    spans = row.spans(tokens)
    if not spans or spans[0][0] != 0:
        return None
    _, end = spans[0]
    if any(text[a:b].strip() for a, b in [(0, tokens[0][0])] + [(tokens[i][1], tokens[i + 1][0]) for i in range(end - 1)]):
        return None
    return tokens[0][0], tokens[end - 1][1]


def closing(row: Phrases, text: str) -> tuple[int, int] | None:
    """Where ``row`` matches up to the last word of ``text`` (only spaces after it), as ``(start, end)``."""
    tokens = tokens_of(text)
    ends = [(tokens[a][0], tokens[b - 1][1]) for a, b in row.spans(tokens) if b == len(tokens)]
    return ends[-1] if ends and not text[ends[-1][1]:].strip() else None
