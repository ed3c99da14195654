"""The one table of question words: every pattern that reads a person's question, by what it finds.

:mod:`~copilot_core.agent.question` runs each row once over the question and keeps what matched; the router,
the prefetch, the lookups, clarification and the claim check read those results.  A new question word is a row
here (and a test in ``tests/agent/test_question.py``).  The qubit and coupling mention grammar here is also the
one the answer checks use to find which qubit or coupling a sentence names.
"""

from __future__ import annotations

import re

from copilot_core.domain.vocabulary import (CHIP_STAT_WORDS, LIMIT_WORDS, MAP_WORDS, MISSING_WORDS, NUMBER_WORDS,
                                           SUMMARY_WORDS, TREND_WORDS, UNIT_WORDS, words)

COUNT = rf"\d+|{'|'.join(NUMBER_WORDS)}"
_SMALL_COUNT = r"(\d{1,2}|one|two|three|four|five|six|seven|eight|nine|ten)"
_ARROW = r"(?:-|→|->|–|—)"
PLOT_WORDS = r"plot\w*|graph\w*|chart\w*|draw|visuali[sz]e\w*"

# A qubit or a coupling named in any text (a question or an answer): "Q5", "qubit #5", "Q4-Q1", "coupling 4-1",
# "4→1".  A bare "4-1" is a coupling only in a question (:data:`WORDS` ``"bare pair"``): in an answer it is a range.
MENTION = re.compile(
    rf"(?<![\w.])(?:[Qq]0*(?P<a>\d{{1,5}})\s*{_ARROW}\s*[Qq]0*(?P<b>\d{{1,5}})"
    rf"|(?:coupling|pair)\s+[Qq]?0*(?P<c>\d{{1,5}})\s*{_ARROW}\s*[Qq]?0*(?P<d>\d{{1,5}})"
    r"|(?<![\w.-])0*(?P<e>\d{1,3})\s*(?:→|->)\s*0*(?P<f>\d{1,3})(?!\w|\.\d)"
    r"|[Qq]\s?0*(?P<q>\d{1,5})(?!\w|\.\d)|qubits?\s*#?\s*0*(?P<r>\d{1,5})(?!\w|\.\d))", re.I)
# "qubits 3, 7 and 9": the numbers after the first.
QUBIT_LIST = re.compile(r"qubits?\s*#?\d{1,3}(?:\s*(?:,|and|&|or)\s*(?:q\s*)?#?\d{1,3}(?![0-9]))+", re.I)
DIGITS = re.compile(r"\d{1,3}")
# Chip ids and execution ids: names, never values ("64Qv3", "20261126-001").
CHIP_ID = re.compile(r"(?<![\w.])\d+Q[A-Za-z0-9_]*|\b\d{8}-\d{3,6}\b")

# Row name -> pattern.  :class:`~copilot_core.agent.question.Question` keeps the first match of every row.
WORDS: dict[str, re.Pattern[str]] = {
    # what the parse turns into typed fields
    "bare pair": re.compile(r"(?<![\w.])(?:coupling\s+|pair\s+)?q?0*(\d{1,4})\s*(?:-|→|->)\s*q?0*(\d{1,4})(?![\w.])",
                            re.I),
    "extreme": words("lowest|highest|best|worst|smallest|largest|longest|shortest|minimum|maximum|weakest|strongest|"
                     "top|bottom"),
    "n": re.compile(rf"\b(?:top|bottom|last|latest|first|past)\s+({COUNT})\b(?!\s*(?:days?|weeks?|hours?))"
                    rf"|\b({COUNT})\s+(?:most recent|latest|best|worst|lowest|highest|qubits|couplings|pairs)\b", re.I),
    "threshold": re.compile(rf"(?:\b({LIMIT_WORDS})|([<>]))\s*(-?\d+(?:\.\d+)?)\s*({UNIT_WORDS})?", re.I),
    "window": re.compile(rf"\b(?:last|past|previous|recent|over the (?:last|past))\s+(?:({COUNT})\s+)?"
                         r"(days?|weeks?|months?|hours?)\b|\b(today|yesterday)\b", re.I),
    "t2": words(r"t2(?![\s_-]*(\*|star|echo|e(?![a-z0-9])))"),
    "data": words(r"q\d+|qubits?|chip|heat ?map|median|trend|worst|best"),
    "many chips": words(r"chips|compare|comparison|every chip|all chips|which chip"),
    "chart": words(PLOT_WORDS),
    "show": words("show"),  # with several qubits named, "show" their history is a chart too
    "chip id": re.compile(r"(?<![A-Za-z0-9_])\d{1,4}Q[A-Za-z0-9_]*"),
    "execution id": re.compile(r"\b\d{8}-\d{3,6}\b"),
    "extreme n": re.compile(rf"\b(?:(?:lowest|worst|smallest|highest|best|largest|top|bottom)\s+{_SMALL_COUNT}|"
                            rf"{_SMALL_COUNT}\s+(?:lowest|worst|smallest|highest|best|largest|weakest|strongest)"
                            rf"|(?:which|the|list)\s+{_SMALL_COUNT}\s+(?:\w+\s+)?(?:qubits|couplings|pairs))\b", re.I),
    "recent n": re.compile(rf"\b(?:last|latest|most recent|{_SMALL_COUNT} most recent|{_SMALL_COUNT} latest)\s+"
                           rf"{_SMALL_COUNT}?\s*(?:[\w*]+\s+){{0,3}}(?:values|measurements|points|results|calibrations)\b",
                           re.I),
    "last n": re.compile(r"\blast (\d{1,3}) (?:measurements|points|values|results|calibrations|runs|executions)\b", re.I),
    # the router's rows: a match offers the row's tools (copilot_core.agent.router.RULES)
    "chip stat": re.compile(rf"\b({CHIP_STAT_WORDS})\b", re.I),
    "map": re.compile(rf"\b({MAP_WORDS})\b", re.I),
    "trend": re.compile(rf"\b({TREND_WORDS})\b", re.I),
    "why": re.compile(r"\b(why|provenance|lineage|derived|came from|comes from|depends? on|origin)\b", re.I),
    "changed": re.compile(
        r"(what changed|what has changed|\bchanged\b|since yesterday|\bdiff(erence)?s?\b|\bregress\w*"
        r"|compared? (to|with) (the )?(previous|last|yesterday)|\bvs\.? (the )?(previous|last)\b"
        r"|\b(last|latest|most recent) two (runs|executions|calibrations)\b"
        r"|\btwo (most recent|latest|last) (runs|executions)\b"
        r"|\b(since|from) the (previous|prior|preceding) (run|execution|calibration)\b)", re.I),
    "analysis": re.compile(r"\b(analy[sz]\w*|correlat\w*|regression|fit\w*|comput\w*|calculat\w*|percentile|std"
                           r"|standard deviation|statistic\w*|histogram|scatter|plot|python)\b", re.I),
    "compare": re.compile(r"\b(compare|versus|vs\.?)\b", re.I),
    "coupling words": re.compile(r"\b(coupling|couplings|cz|zx90|two[- ]qubit|pair|bell)\b|\b\d{1,3}-\d{1,3}\b",
                                 re.I),
    "execution": re.compile(r"\b(execution|executions|runs?|when was|last calibrat\w*|calibration runs?)\b", re.I),
    "search": re.compile(r"\b(fail\w*|search|errors?|which tasks?)\b", re.I),
    "notes": re.compile(r"\b(notes?|comments?)\b", re.I),
    "topology": re.compile(r"\b(topology|neighbou?rs?|connected|adjacent|connectivity)\b", re.I),
    "parameters": re.compile(r"\b(parameters|metrics|what can i ask|which params)\b", re.I),
    "memory": re.compile(r"\b(remember|last time|previously|earlier|you said|memory)\b", re.I),
    "tasks": re.compile(r"\b(tasks?|experiments?|latest result|raw result|fit result|figure)\b", re.I),
    "figure": re.compile(r"\b(figures?|fits?|decay curves?|fringes|rb curves?|spectr\w*)\b", re.I),
    "rank": re.compile(r"\b(lowest|highest|worst|best|smallest|largest|minimum|maximum|top \d+|bottom \d+)\b", re.I),
    "limit": re.compile(rf"\b({LIMIT_WORDS}) ?-?\d|[<>] ?\d", re.I),
    "missing": re.compile(rf"\b({MISSING_WORDS})\b", re.I),
    "fail": re.compile(r"\bfail\w*", re.I),
    # the prefetch's rows: when the question alone fixes the call
    "history": re.compile(r"\b(?:execution history|run history|executions|calibration runs|(?:recent|latest|last)"
                          r"(?: \d{1,3})? (?:runs|executions))\b", re.I),
    "history filter": re.compile(r"\b(?:today|yesterday|week|month|days?|hours?|ago|completed|running|scheduled"
                                 r"|status|tags?|daily|weekly|named?|longest|slowest|took)\b|\d{4}-\d{2}", re.I),
    "this qubit": re.compile(r"\bthis qubit\b", re.I),
    "other tool": re.compile(
        r"\b(tasks?|check[a-z0-9]+|experiments?|raw|fit(s|ted)?|figures?|results?|neighbou?rs?|topology|connected"
        r"|adjacent|connectivity|couplings?|cz|zx90|bell|pairs?|why|provenance|lineage|derived|came from|comes from"
        r"|depends? on|origin|notes?|comments?|executions?|runs?|when was|last calibrat\w*|python|code|correlat\w*"
        r"|regression|histogram|scatter|plot|analy[sz]\w*|percentile|std|standard deviation|which parameters"
        r"|what parameters|parameters are|remember|last time|previously|you said|memory|changed|diff(erence)?s?"
        r"|regress\w*|failed|failures?|errors?|search|within hours|since)\b|\b\d{1,3}-\d{1,3}\b", re.I),
    "summary": re.compile(rf"\b({SUMMARY_WORDS})\b", re.I),
    "statistic": words(r"median|mean|average|typical"),
    "plural": re.compile(r"\b(?:which|what|list)\s+(?:\w+\s+)?(?:qubits|couplings|pairs)\b", re.I),
    "run words": re.compile(r"\b(run|execution|calibration|latest|last|recent|most recent|today)\b", re.I),
    "last calibrated": re.compile(r"\bwhen\b.*\b(last )?(calibrat\w*|run|measured|executed|execution|start(ed)?)\b"
                                  r"|\blast calibrat\w*", re.I),
    "recent run": re.compile(r"\b(?:most )?recent (?:run|execution|calibration)s?\b", re.I),  # which run, no trend
    "two runs": re.compile(r"\b(?:(?:last|latest|two most recent|most recent) two|two (?:most recent|latest|last)"
                           r"|previous|prior|preceding) (?:runs|executions|calibrations|run|execution|calibration)\b",
                           re.I),
    "change": re.compile(r"\b(chang\w*|drop\w*|fell|fall\w*|rose|ris\w*|increas\w*|decreas\w*|improv\w*|worsen\w*"
                         r"|degrad\w*|went (?:up|down)|moved?|differ\w*|compare\w*)\b", re.I),
    "subject words": re.compile(r"\b(couplings?|pairs?)\b", re.I),  # what is ranked, not an (ambiguous) metric
    "provenance": re.compile(r"\b(come from|comes from|came from|which (?:task|execution|run) "
                             r"(?:produced|measured|set)|where did|where does)\b", re.I),
    "graph words": re.compile(r"\b(why|trace|graph|lineage|provenance)\b", re.I),
    # the prompt's rows: which thresholds and values the prompt carries
    "quality": re.compile(r"(?<![a-z0-9])(good|bad|health|healthy|quality|thresholds?|excellent|fair|poor|ok|okay|fine|"
                          r"acceptable|problems?|issues?|wrong|worse|worst|best|better|outliers?|anomal\w*|suspicious|"
                          r"normal|expected|bands?|scores?|assess\w*|judge\w*|review\w*|degrad\w*|drift\w*)(?![a-z0-9])"
                          r"|良|悪|問題|健全|品質|閾値|しきい値|異常|評価", re.I),
    "chip wide": re.compile(r"(?<![a-z0-9])(chip|qubits|all|every|each|which|median|mean|average|distribution|heatmap|"
                            r"map|outliers?|across|overall|summary|compare|ranking|rank)(?![a-z0-9])", re.I),
    # the scope guard's rows: a request plainly not about the lab, and the signs of a lab question
    "off topic": re.compile(
        r"\b(recipes?|bak(e|ing)|cook(ing)?|banana bread|cakes?|cookies|poems?|poetry|haikus?|limericks?|sonnets?"
        r"|songs?|lyrics|jokes?|riddles?|(bedtime|short|fairy) (story|stories|tale)|horoscopes?|weather forecast"
        r"|football|soccer|movies?|restaurants?|dating|love letter)\b", re.I),
    "lab": re.compile(
        r"\b(q\s?\d{1,3}|qubits?\s*#?\d{1,3}|\d{1,3}-\d{1,3}|\d{1,4}q\w*|calibrat\w*|heat ?map|median|chip[- ]wide"
        r"|tasks?|check[a-z0-9]+|executions?|provenance|lineage|thresholds?|couplings?|topology|readout|gates?)\b",
        re.I),
    # the lookups' rows: a data question is answered from a call
    "why failed": re.compile(r"\bwhy\b.*\b(fail\w*|errors?|broke|broken)\b|\bwhat (went wrong|happened)\b", re.I),
    "about data": re.compile(r"\b(q\s?\d{1,3}|qubits?|chips?|couplings?|median|mean|average|latest|current\w*|now"
                             r"|today|trend\w*|histor\w*|over time|chang\w*|fail\w*|worst|best|lowest|highest"
                             r"|how many|values?|measured|plot\w*|graph\w*|chart\w*|runs?|executions?|calibrat\w*)\b"
                             r"|\d{1,4}Q\w*", re.I),
    "definition": re.compile(r"^\s*(what (is|are|does)|define|explain|meaning of)\b(?!.*\b(q\s?\d|qubit \d|chip|our"
                             r"|my|the latest|current))", re.I),
}

# Question shapes, first match wins: (shape, words that make it).
SHAPES: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("plot", WORDS["chart"]),
    ("correlation", words(r"correlat\w*|pearson|track\w*|move together")),
    ("percentage", words(r"percent\w*|percentage|fraction|share|proportion")),
    ("compare runs", words(r"last two runs|two (?:most recent|latest) (?:runs|executions)|previous (?:run|execution)|"
                           r"last two executions|between (?:the )?runs")),
    ("when", words(r"when|what date|what time")),
    ("failures", words(r"fail\w*|errors?")),
    ("missing", words(MISSING_WORDS)),
    ("spread", words(r"spread|standard deviation|std|vary|variation|range|gap between")),
    ("count", words(r"how many|count|number of")),
    ("extreme", WORDS["extreme"]),
    ("statistic", WORDS["statistic"]),
    ("trend", words(TREND_WORDS)),
    ("provenance", words(r"come from|provenance|lineage|where does")),
    ("health", words(r"health\w*|shape|condition|wrong|look|doing|status|summary|overview")),
)

# A number the question states, and what sizes or counts it: "the last 3 values", "the two most recent", "which 5
# qubits".  The claim check reads answers with the same words (a count that sizes a selection is no claim).
STATED_NUMBER = re.compile(rf"(?<![\w.])(\d+|{'|'.join(NUMBER_WORDS)})(?![\w.])", re.I)
SELECTION_BEFORE = re.compile(r"\b(?:last|latest|most recent|newest|recent|past|previous|first|top|bottom)\s+$", re.I)
SELECTION_AFTER = re.compile(r"^\s+(?:most recent|latest|newest|last|recent|previous)\b", re.I)
COUNT_NOUNS = {"qubit": "qubits", "coupling": "couplings", "pair": "couplings", "task": "tasks", "failure": "tasks",
               "run": "runs", "execution": "runs", "calibration": "runs", "result": "values", "point": "values",
               "value": "values", "measurement": "values"}
NOUN_AFTER = re.compile(rf"^\s+(?:[\w*-]+\s+){{0,3}}?({'|'.join(COUNT_NOUNS)})s?\b", re.I)
