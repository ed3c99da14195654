"""The one table of question words: every pattern that reads a person's question, by what it finds.

:mod:`~copilot_core.language.question` runs each row once over the question and keeps what matched; the router,
the prefetch, the lookups, clarification and the claim check read those results.  A new question word is a row
here (and a test in ``tests/agent/test_question.py``).  The qubit and coupling mention grammar here is also the
one the answer checks use to find which qubit or coupling a sentence names.
"""

from __future__ import annotations

import re

from copilot_core.language.comparisons import COMPARISON_PATTERN
from copilot_core.domain.vocabulary import MISSING_WORDS, NUMBER_WORDS, UNIT_WORDS, words
from copilot_core.language.count_units import COUNT_WORDS
from copilot_core.language.failure_words import FAILURE_WORDS
from copilot_core.language.spelled import TEENS, TENS
from copilot_core.language.phrases import TOKEN, Phrases, Row, tokens_of  # noqa: F401  (read from here too)

COUNT = rf"\d+|{'|'.join(NUMBER_WORDS)}"
_SMALL_COUNT = r"(\d{1,2}|one|two|three|four|five|six|seven|eight|nine|ten)"
_ROLLING = "rolling|trailing|preceding|prior"  # "the trailing 48 hours": the last 48 hours
_ARROW, _RANKS = r"(?:-|→|->|–|—)", "lowest|worst|smallest|shortest|highest|best|largest|longest"

# A qubit or a coupling named in any text (a question or an answer): "Q5", "qubit #5", "Q4-Q1", "coupling 4-1",
# "4→1".  A bare "4-1" is a coupling only in a question (:data:`WORDS` ``"bare pair"``): in an answer it is a range.
MENTION = re.compile(
    rf"(?<![\w.])(?:[Qq]0*(?P<a>\d{{1,5}})\s*{_ARROW}\s*[Qq]0*(?P<b>\d{{1,5}})"
    rf"|(?:coupling|pair)\s+[Qq]?0*(?P<c>\d{{1,5}})\s*{_ARROW}\s*[Qq]?0*(?P<d>\d{{1,5}})"
    r"|(?<![\w.-])0*(?P<e>\d{1,3})\s*(?:→|->)\s*0*(?P<f>\d{1,3})(?!\w|\.\d)"
    r"|[Qq]\s?0*(?P<q>\d{1,5})(?!\w|\.\d)|qubits?\s*#?\s*0*(?P<r>\d{1,5})(?!\w|\.\d))", re.I)
# "qubits 3, 7 and 9": the numbers after the first.
QUBIT_LIST = re.compile(r"qubits?\s*#?\d{1,3}(?:\s*(?:,|and|&|or)\s*(?:q\s*)?#?\d{1,3}(?![0-9]))+", re.I)
# Chip ids and execution ids: names, never values ("64Qv3", "20261126-001").
CHIP_ID = re.compile(r"(?<![\w.])\d+Q[A-Za-z0-9_]*|\b\d{8}-\d{3,6}\b")



def _camel_case(word: str) -> bool:
    """One CamelCase word: a capital first, and a capital after a lower-case letter ("CheckT1", not "QDash")."""
    lower = next((i for i, c in enumerate(word) if c.islower()), None)
    return (word.isascii() and word.isalnum() and word[0].isupper() and lower is not None
            and any(c.isupper() for c in word[lower + 1:]))


def task_words(text: str) -> list[tuple[int, int, str]]:
    """A QDash task's name as an answer writes it, one CamelCase word not joined to another by a hyphen
    ("CheckT1", "X90InterleavedRandomizedBenchmarking"): ``(start, end, word)``."""
    return [(m.start(), m.end(), m.group(0)) for m in TOKEN.finditer(text) if _camel_case(m.group(0))
            and text[m.start() - 1:m.start()] != "-" and text[m.end():m.end() + 1] != "-"]


_R = "run/runs/execution/executions/calibration/calibrations"
_NEIGHBOURS = "neighbour/neighbours/neighbor/neighbors"
_DIFF = "diff/diffs/difference/differences"
_LOW, _HIGH = "lowest/min/minimum/smallest", "highest/max/maximum/largest"
_EDGE = ("highest/max/maximum/largest/best/top/lowest/min/minimum/smallest/worst/bottom/longest/shortest"  # the two
         "/strongest/weakest")  # ends of a range
_RANGE = (f"range|how wide|gap between|how far apart|far apart|peak to peak|ptp|{_EDGE} minus/less {_EDGE}"
          f"|{_EDGE} ... minus the? {_EDGE}"  # one end, its metric, then "minus" and the other end
          f"|separate/separates/separating the? {_EDGE} ... from the? {_EDGE}"
          f"|{_DIFF}/gap/distance/span/spread between the? {_EDGE} ... and|{_EDGE} and the? {_EDGE} ... apart/{_DIFF}"
          f"|from the? {_EDGE} to the? {_EDGE}|{_EDGE} to {_EDGE}|{_EDGE} {_EDGE} {_DIFF}/gap/span|span of"
          f"|{_LOW}/{_HIGH} and? the? {_HIGH}/{_LOW}")  # "min and max", "lowest and highest": the two ends
_CHIP, _CHIPS = "chip/device/processor", "chips/devices/processors"
_ENDS = "best/worst/top/bottom/weakest/strongest/poorest/highest/lowest/longest/shortest/smallest/largest"

# Row name -> words.  :class:`~copilot_core.language.question.Question` keeps the first match of every row.
WORDS: dict[str, Row] = {
    # what the parse turns into typed fields
    # (not a power of ten's "10-5" after a mantissa: "3.5 x 10-5")
    "bare pair": re.compile(r"(?<![\w.])(?<!\d[×x*·]\s)(?<!\d\s[×x*·]\s)(?<!\d[×x*·])(?<!\d\s[×x*·])"
                            r"(?:coupling\s+|pair\s+)?q?0*(\d{1,4})\s*(?:-|–|—|→|->|_)\s*q?0*(\d{1,4})(?![\w.])",
                            re.I),
    "extreme": Phrases("lowest|highest|best|worst|smallest|largest|longest|shortest|minimum|maximum|weakest|"
                       "strongest|poorest|top|bottom|leading|trailing|lagging|most small|most large|least small"
                       "|least large|relax/relaxes fastest/quickest/slowest|fastest|quickest|briefest"
                       "|slowest|lead/leads on/in|champion|champ|laggard"),  # own words: language/ranked.py
    "n": re.compile(rf"\b(?:top|bottom|last|latest|first|past)\s+({COUNT})\b"  # not a limit's "past 50 us"
                    rf"(?!\s*(?:days?|weeks?|hours?|hrs?\b)|[\s-]*qubit(?!s)|\s*(?:{UNIT_WORDS})(?![a-z]))"
                    rf"|\b({COUNT})\s+(?:most recent|latest|best|worst|lowest|highest|qubits|couplings|pairs)\b"
                    r"(?!\s+(?:days?|weeks?|months?|hours?)\b)", re.I),
    # a limit: "below 50 μs", "T1 > 40us", "at least .99", "doesn't reach 90%", "above the 40 μs mark" (the words:
    # language/comparisons.py)
    "threshold": re.compile(rf"(?:\b{COMPARISON_PATTERN}(?:\s+the(?=\s+[-−.\d]))?|(?<!-)([<>]=?|[≤≥]))\s*"
                            r"([-−]?(?:\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?|\.\d+)"  # "7,100 MHz" too
                            # an exponent: "3.5e-5", "3.5×10^-5", "3.5 x 10-5", "3.5·10⁻⁵" (read: numbers.signed_value)
                            r"(?:[eE][-+−]?\d+|\s*[×x*·]\s*10\s*(?:\^|\*\*)\s*[-+−]?\d+"
                            r"|\s*[×x*·]\s*10(?:[-−]\d+|[⁻⁺]?[⁰¹²³⁴⁵⁶⁷⁸⁹]+))?)"
                            rf"\s*(?:({UNIT_WORDS})(?![a-z]))?", re.I),
    "window": re.compile(rf"\b(?:last|past|previous|recent|{_ROLLING}|over the (?:last|past))\s+(?:({COUNT})\s*)?"
                         r"(days?|weeks?|months?|hours?|hrs?|h|d)\b|\b(today|yesterday)\b"  # "the eight previous days":
                         rf"|\b({COUNT})\s+(?:most\s+)?(?:recent|previous|past|last|latest|{_ROLLING})\s+(days?|weeks?|months?|hours?)\b",
                         re.I),
    "t2": words(r"t2(?![\s_-]*(\*|star|echo|e(?![a-z0-9])))"),
    "data": Phrases("qubit/qubits/qb/qbs|chip|heat map|heatmap|median|trend|worst|best"),  # or a qubit named
    "many chips": Phrases(f"{_CHIPS}|compare|comparison|every chip|all chips|which chip|each chip|per chip"),
    "each chip": Phrases("each chip|per chip|both chips|every chip|all chips|all the chips|either chip/device"
                         f"|each of the/our/both/two? {_CHIPS}|each/per/every installed? {_CHIP}|by {_CHIP}"
                         f"|both/all {_CHIPS}|the two {_CHIPS}|{_CHIP} by {_CHIP}|chip wise|chipwise"),
    "sized chip": Phrases("# qubit/qubits chip/chips/device/processor/one"),  # "the 64-qubit chip"
    "chart": Phrases("plot*|graph*|chart*|draw|visualize*|visualise*"),
    "show": Phrases("show"),  # with several qubits named, "show" their history is a chart too
    "chip id": re.compile(r"(?<![A-Za-z0-9_])\d{1,4}Q[A-Za-z0-9_]*", re.I),
    "execution id": re.compile(r"\b\d{8}-\d{3,6}\b"),
    "extreme n": re.compile(rf"\b(?:(?:{_RANKS}|top|bottom)\s+{_SMALL_COUNT}(?![\s-]*qubit(?!s))|"
                            rf"{_SMALL_COUNT}\s+(?:{_RANKS}|weakest|strongest)"
                            rf"|(?:which|the|list)\s+{_SMALL_COUNT}\s+(?:\w+\s+)?(?:qubits|couplings|pairs)"
                            rf"|which\s+{_SMALL_COUNT}\s+(?:tasks|runs|executions|sessions)"
                            # "the four tasks that fail most": only in a question about failing or succeeding
                            rf"|(?:the|list|rank)\s+{_SMALL_COUNT}\s+(?:\w+\s+)?(?:tasks|runs|executions|sessions)"
                            r"(?=.*\b(?:fail|success))"
                            r")\b", re.I),
    "recent n": re.compile(rf"\b(?:last|latest|most recent|{_SMALL_COUNT} most recent|{_SMALL_COUNT} latest)\s+"
                           rf"{_SMALL_COUNT}?\s*(?:[\w*]+\s+){{0,3}}(?:values|measurements|points|results|calibrations)\b",
                           re.I),
    "last n": re.compile(r"\blast (\d{1,3}) (?:measurements|points|values|results|calibrations|runs|executions)\b", re.I),
    "dash pair": re.compile(r"\b\d{1,3}-\d{1,3}\b"),  # "4-5": a coupling, or a range
    # a range written as its two ends ("between 60 and 80 μs", "outside 60-80 μs"): the words before the two numbers
    "inside range": Phrases("between|within|inside|from"),  # "from" only as limits.py allows it (a unit, a metric)
    "outside range": Phrases("outside|not between|not within|out of the range/band"),
    # the router's rows: a match offers the row's tools (copilot_core.routing.router.RULES)
    "chip stat": Phrases("median|mean|average|typical|worst|best|lowest|highest|top #|bottom #|how many|yield"
                         "|distribution|spread|across|all qubits|every qubit|which qubits/qbs|outlier/outliers|chip wide"
                         "|whole chip|overview|summary|status|health"),
    "map": Phrases("heat map|heatmap|map|layout"),
    "trend": Phrases("trend*|since|over time|drift*|history|evolution|time series|timeseries|last/past # days"
                     "|last week/month|stable|stability|recent|recently"
                     "|last # measurements/points/values/calibrations"),
    "why": Phrases("why|provenance|lineage|derived|came from|comes from|depends/depend on|origin"),
    "changed": Phrases(f"what changed|what has changed|changed|since yesterday|{_DIFF}|regress*"
                       "|compare/compared to/with the? previous/last/yesterday|vs the? previous/last"
                       "|last/latest two runs/executions/calibrations|most recent two runs/executions/calibrations"
                       "|two most recent runs/executions|two latest/last runs/executions"
                       "|since/from the previous/prior/preceding run/execution/calibration"),
    "analysis": Phrases("analys*|analyz*|correlat*|regression|fit*|comput*|calculat*|percentile|std"
                        "|standard deviation|statistic*|histogram|scatter|plot|python"),
    "compare": Phrases("compare|versus|vs"),
    "coupling words": Phrases("coupling|couplings|cz|zx90|two qubit|pair/pairs|bell"),
    "execution": Phrases("execution|executions|run|runs|when was|last calibrat*|calibration run/runs"),
    "search": Phrases("fail*|search|error/errors|which task/tasks"),
    "notes": Phrases("note/notes|comment/comments"),
    # a count broken down by calendar day (routing.counts: the window's count and each day's)
    "per day": Phrases("per/each/every/by/a day|day by day|daily count/counts/totals/breakdown/tally"
                       "|broken/split down? by/per day|for/on each day|day wise|daywise|each calendar day"),
    "topology": Phrases(f"topology|{_NEIGHBOURS}|connected|adjacent|connectivity"),
    "parameters": Phrases("parameters|metrics|what can i ask|which params"),
    "memory": Phrases("remember|last time|previously|earlier|you said|memory"),
    "tasks": Phrases("task/tasks|experiment/experiments|latest result|raw result|fit result|figure"),
    "figure": Phrases("figure/figures|fit/fits|decay curve/curves|fringes|rb curve/curves|spectr*"),
    "rank": Phrases("lowest|highest|worst|best|smallest|largest|minimum|maximum|top #|bottom #"),
    "missing": re.compile(rf"\b({MISSING_WORDS})\b", re.I),
    "fail": Phrases("fail*"),
    # the prefetch's rows: when the question alone fixes the call
    "history": Phrases("execution history|run history|executions|calibration runs|recent/latest/last #? runs/executions"),
    "history filter": Phrases("today|yesterday|week|month|day/days|hour/hours|ago|completed|running|scheduled"
                              "|status|tag/tags|daily|weekly|name/named|longest|slowest|took"),
    "year month": re.compile(r"\d{4}-\d{2}"),
    "this qubit": Phrases("this qubit"),
    "other tool": Phrases(
        f"task/tasks|check+|experiment/experiments|raw|fit/fits/fitted|figure/figures|result/results|{_NEIGHBOURS}"
        "|topology|connected|adjacent|connectivity|coupling/couplings|cz|zx90|bell|pair/pairs|why|provenance"
        "|lineage|derived|came from|comes from|depends/depend on|origin|note/notes|comment/comments"
        "|execution/executions|run/runs|when was|last calibrat*|python|code|correlat*|regression|histogram|scatter"
        "|plot|analys*|analyz*|percentile|std|standard deviation|which parameters|what parameters|parameters are"
        f"|remember|last time|previously|you said|memory|changed|{_DIFF}|regress*|failed|failure/failures"
        "|error/errors|search|within hours|since"),
    "summary": Phrases("health|summary|overview|status|flagged|flag/flags|bad qubit/qubits/qb/qbs"),
    # a terse list or count ("list failed tasks", "count failed tasks?"), and time words no window is read from
    "list or count": Phrases("list|count|number of|how many|which|show|what"),
    "loose time": Phrases("week/weeks/month/months/year/years/day/days/hour/hours/yesterday|since"),
    "statistic": Phrases("median|mean|average|typical"),
    "plural": Phrases("which/what/list *? qubits/qbs/couplings/pairs"),
    "run words": Phrases("run|execution|calibration|latest|last|recent|most recent|today"),
    "last calibrated": Phrases("when ... last? calibrat*/run/measured/executed/execution/start/started"
                               "|last calibrat*|status/outcome of the? latest/last/newest/most? recent run/execution"),
    "recent run": Phrases(f"most? recent {_R}"),  # which run, not a trend
    "since last run": Phrases(f"what changed/changes ... since/from the? last/latest/previous/prior {_R}"
                              f"|what has/have changed ... since/from the? last/latest/previous/prior {_R}"),
    "two runs": Phrases(f"last/latest two {_R}|two most recent two {_R}|most recent two {_R}|two most recent {_R}"
                        f"|two latest/last {_R}|previous/prior/preceding {_R}"),
    "change": Phrases("chang*|drop*|fell|fall*|rose|ris*|increas*|decreas*|improv*|worsen*|degrad*|went up/down"
                      "|move/moved|differ*|compare*"),
    "subject words": Phrases("coupling/couplings|pair/pairs"),  # what is ranked, not an (ambiguous) metric
    "provenance": Phrases("come from|comes from|came from|which task/execution/run produced/measured/set"
                          "|where did|where does"),
    "graph words": Phrases("why|trace|graph|lineage|provenance"),
    # the prompt's rows: which thresholds and values the prompt carries
    "quality": re.compile(r"(?<![a-z0-9])(good|bad|health|healthy|quality|thresholds?|excellent|fair|poor|ok|okay|fine|"
                          r"acceptable|problems?|issues?|wrong|worse|worst|best|better|outliers?|anomal\w*|suspicious|"
                          r"normal|expected|bands?|scores?|assess\w*|judge\w*|review\w*|degrad\w*|drift\w*)(?![a-z0-9])"
                          r"|良|悪|問題|健全|品質|閾値|しきい値|異常|評価", re.I),
    "chip wide": Phrases("chip|qubits|qbs|all|every|each|which|median|mean|average|distribution|heatmap|map"
                         "|outlier/outliers|across|overall|summary|compare|ranking|rank"),
    # the scope guard's rows: a request plainly not about the lab, and the signs of a lab question
    "off topic": Phrases(
        "recipe/recipes|bake/baking|cook/cooking|banana bread|cake/cakes|cookies|poem/poems|poetry|haiku/haikus"
        "|limerick/limericks|sonnet/sonnets|song/songs|lyrics|joke/jokes|riddle/riddles"
        "|bedtime/short/fairy story/stories/tale|horoscope/horoscopes|weather forecast|football|soccer"
        "|movie/movies|restaurant/restaurants|dating|love letter"),
    "lab": re.compile(
        r"\b(q\s?\d{1,3}|qubits?\s*#?\d{1,3}|\d{1,3}-\d{1,3}|\d{1,4}q\w*|calibrat\w*|heat ?map|median|chip[- ]wide"
        r"|tasks?|check[a-z0-9]+|executions?|provenance|lineage|thresholds?|couplings?|topology|readout|gates?)\b",
        re.I),
    # the lookups' rows: a data question is answered from a call
    "why failed": Phrases("why ... fail*/error/errors/broke/broken|what went wrong|what happened"),
    "about data": Phrases("qubit/qubits/qb/qbs|chip/chips|coupling/couplings|median|mean|average|latest|current*|now"
                          "|today|trend*|histor*|over time|chang*|fail*|worst|best|lowest|highest|how many"
                          "|value/values|measured|plot*|graph*|chart*|run/runs|execution/executions|calibrat*"),
    # (or a qubit, coupling or chip named: Question.names_lab_data)
    "definition": re.compile(r"^\s*(what (is|are|does)|define|explain|meaning of)\b(?!.*\b(q\s?\d|qubit \d|chip|our"
                             r"|my|the latest|current))", re.I),
}

# Question shapes, first match wins: (shape, words that make it).
SHAPES: tuple[tuple[str, Row], ...] = (
    ("plot", WORDS["chart"]),
    ("correlation", Phrases("correlat*|pearson|track*|move together")),
    ("percentage", Phrases("percent*|percentage|fraction|share|proportion|ratio|how many ... out of"
                           "|failure/fail/error/success rate/rates"
                           "|out of how many|out of all|what portion/part of")),
    ("compare runs", Phrases("last two runs|two most recent/latest runs/executions|previous run/execution"
                             "|last two executions|between the? runs")),
    ("when", Phrases("when|what date|what time")),
    ("failures", Phrases("fail*|error/errors")),
    ("missing", WORDS["missing"]),
    ("spread", Phrases(f"spread|standard deviation|std|sd|σ|sigma|vary|variation|variability|dispersion|{_RANGE}")),
    ("count", Phrases("how many|count|number of")),
    ("extreme", WORDS["extreme"]),
    ("statistic", WORDS["statistic"]),
    ("trend", WORDS["trend"]),
    ("provenance", Phrases("come from|provenance|lineage|where does")),
    ("health", Phrases("health*|shape|condition|wrong|look|doing|status|summary|overview")),
)

# Question shapes over a chip's values: several conditions at once, a share, a spread, a correlation.
_LIMIT = ("above/below/under/over/exceeding/exceeds/exceed/beyond/greater/more/less/lower/higher/better/worse/beats/beat"
          "/clears/clear/tops/reach/reaches/short/shy/least/most/surpasses than/of? #")
WORDS.update({
    # "T1 above 50 μs and T2 echo above 40 μs", "both T1 and T2 echo above 60 μs"
    "two limits": Phrases(f"{_LIMIT} ... {_LIMIT}|both ... and ... {_LIMIT}"),
    "or join": Phrases("or|either"),
    "spread words": Phrases("spread/spreads|standard deviation|std|stdev|sd|σ|sigma|variance|variation|vary|varies"
                            "|variability|median absolute deviation|mad"
                            f"|{_RANGE}|iqr|interquartile|quartile/quartiles|coefficient of variation|cv|uniform"
                            "|uniformity|consistent|homogeneous|dispersion|how tight/tightly"
                            "|how narrow|clustered|how widely|qubit to qubit|coupling to coupling|how much scatter"
                            "|scatter in/of/across|scattered|how variable|variable across/between/from|consistency"
                            "|spread out|dispersed|heterogeneous|inhomogeneous|non uniform|nonuniform|how even|how evenly"
                            "|more/less/most/least variable/dispersed/scattered|tighter|tightest|narrower|narrowest"
                            "|wider|widest|broader|broadest"),
    "iqr words": Phrases("iqr|interquartile|quartile/quartiles"),
    "cv words": Phrases("coefficient of variation|cv|relative spread|relative variation"),
    "std words": Phrases("standard deviation|std|stdev|sd|σ|sigma|variance"),
    # a standard deviation over every value (divided by n), not the sample's (n − 1): the spread tool's "pstd"
    "population words": Phrases("population|biased|uncorrected|ddof 0|divided/divide/dividing by n|over n"),
    "sample words": Phrases("sample|unbiased|bessel*|corrected|ddof 1|n 1"),
    "mad words": Phrases("median absolute deviation|median abs deviation|mad"),
    "range words": Phrases(_RANGE),
    "correlation words": Phrases("correlat*|pearson|spearman|relationship|relation|relate/related/relates|track/tracks"
                                 "|connected|connection between|tied to/with|anything to do"
                                 "|go/goes/move/moves/vary/varies/change/changes/scale/scales/rise/fall/shift/trend together"
                                 "|rise/rises/increase/increases/grow/grows with"
                                 "|move/go together|go hand in hand|hand in hand|linked|co vary|covary*|link/links"
                                 "|associated|association|also have/has/show/get higher/lower/longer/shorter/better/worse"
                                 "|rise/rises/fall/falls/drop/drops/grow/grows/move/moves/change/changes with it/them"
                                 "|go/goes with|go/goes along with|anticorrelat*|depend/depends/dependent on"
                                 "|dependence|predict/predicts|r between|rho|in step with|scale/scales with"
                                 "|closely ... follow/follows|follow/follows ... closely|how well ... follow/follows"
                                 "|does/do/did ... follow|what s/is the? r|r value|r coefficient|give/plus/with/and r"
                                 "|r squared|r2"
                                 "|vary/varies with|with higher/lower/longer/shorter/larger/better/worse ... have/has"
                                 " higher/lower/longer/shorter/larger/smaller/better/worse|up/down when/as/if"
                                 "|when/as/if ... get/gets/becomes shorter/longer/higher/lower/better/worse"),
    "spearman": Phrases("spearman|rank correlation|rank order|monotonic"),
    "pearson": Phrases("pearson|linear correlation"),
})

# The words of a window in a phrase table: its units, a count, a word that makes it a window ("trailing")
_UNIT = "day/days/hour/hours/h/hr/hrs/week/weeks/wk/wks/month/months/fortnight/fortnights"
_NUMS = "/".join([*NUMBER_WORDS, *TEENS, *TENS])  # "the trailing twelve hours"
_N = f"#/a/an/{_NUMS}"
_ROLL = "rolling/trailing/preceding/prior/moving/sliding/lookback"
_WHOLE = "calendar/whole/full/consecutive/complete"
_WEEKDAYS = "monday/tuesday/wednesday/thursday/friday/saturday/sunday"
# Shapes read before SHAPES (:func:`~copilot_core.language.question.compared_shape`): a metric across chips, the
# failures' top task or qubit, a count over a window of days, two qubits side by side.
WORDS.update({
    "which chip": Phrases(f"which chip/chips/device/devices/processor/processors|which of the/our/both/two? {_CHIPS}"
                          "|between the chips"
                          "|across the? chips|both chips"
                          "|each chip|every chip|all the? chips|the two chips|the chips|on each chip"
                          "|each/per/every device/processor|both/the two devices/processors|chip by chip"
                          "|device by device"),
    # one statistic over every qubit of the chips together ("the mean T1 across all chips", "fleet-wide"), unless
    # the question sets the chips against each other ("chip comparing")
    "pooled chips": Phrases(f"across/over all/both? the/our? {_CHIPS}|across/over every {_CHIP}|fleet*"
                            f"|{_CHIPS} combined/together/pooled|pooled|combined over/across"
                            f"|overall ... all/both/every the? {_CHIPS}"),
    "chip comparing": Phrases(f"which {_CHIP}/{_CHIPS}/one|which of|each/per {_CHIP}|chip by chip|compare*|comparison"
                              "|vs|versus|than|side by side|differ*|better|worse|higher|lower|larger|smaller"
                              "|more uniform|less uniform|stack up|against|between the"
                              "|which has/have/had/shows/show/sees/saw/gets/got"),
    "min max words": Phrases("minimum|maximum|min|max"),
    # an end of each chip's own values, said of its subjects ("whose best qubit", "the weakest coupler on each"):
    # each chip's maximum or minimum (by the metric's direction), never the chips ranked on a median
    "subject extreme": Phrases(f"{_ENDS} performing/single/individual? qubit/qubits/coupler/couplers/coupling"
                               f"/couplings/pair/pairs/edge/edges/gate/gates"
                               f"|qubit/coupler/coupling/pair with the? {_ENDS}"),
    "count words": Phrases("how many|how often|count|number of|total of|total number|tally"),
    "this week": Phrases("this week|so far this week|since the start of the week"),
    "fortnight": Phrases("fortnight"),
    # a window of N units in the forms the "window" pattern leaves: "a 10-day window", "the last 7 calendar days",
    # "the 5 preceding days", "a rolling window of 10 days", "within 2 days" (read by language/window_words.py)
    "window form": Phrases(f"{_ROLL}/last/past/previous/recent/latest/newest the? {_N}? {_WHOLE}? {_UNIT}"
                           f"|{_N} {_WHOLE}? {_UNIT} {_ROLL}? window/period/span/stretch/interval/lookback"
                           f"|{_N} {_ROLL}/last/past/previous/recent/latest/newest {_WHOLE}? {_UNIT}"
                           f"|{_ROLL}/last/past window/windows/period/span/lookback of the? {_N} {_WHOLE}? {_UNIT}"
                           f"|within/over/across/during/throughout/in the? #/{_NUMS} {_WHOLE}? {_UNIT}"
                           f"|{_N} {_WHOLE}? {_UNIT} just gone/past/passed/elapsed|{_N} {_WHOLE}? {_UNIT} gone by"),
    # a window written in some form (read or not): when none of the window readings takes it, the answer says so
    "window hint": Phrases("last/past/previous/recent/these/this/that/over/across/during/within/throughout/in/for/"
                           f"{_ROLL} the/a/an? *? *? *? {_UNIT}/weekend/weekends/morning/afternoon"
                           "/evening/night/quarter/quarters/year/years/shift/shifts/sprint/sprints/cycle/cycles|since|ago"
                           f"|{_ROLL} window/windows/period/basis/span|# {_UNIT}|{_UNIT} window/period/span/lookback"
                           f"|window/lookback of|{_WHOLE} {_UNIT}|between/from/until/till/through/before/after/by"
                           f" {_WEEKDAYS}|the? {_UNIT} before last/that"),
    "part of today": Phrases("this morning/afternoon/evening|tonight|earlier today|so far today|overnight"),
    "vague window": Phrases("last/past/previous/these a? few/several/couple of? day/days|a few/couple of? days|recently"
                            "|lately|of late"),
    "since weekday": Phrases("since/from last? monday/tuesday/wednesday/thursday/friday/saturday/sunday"),
    "task name": Phrases("check+|create+"),  # a QDash task's name: CheckT1, CreateZX90
    "this month": Phrases("this month|since the start/beginning of the month|month to date"),
    "excluded": Phrases("exclud*"),  # results the lab marked not to be used: "how many tasks were excluded"
    "pair words": Phrases("or|vs|versus|compare*|better|worse|than|between|higher|lower|stronger|weaker|beats"
                          "|differ*|similar|same|which of|both|side by side|healthier|each|apart|gap/gaps|ratio"
                          "|beat|margin|is how many times|how many times as/more/higher/longer/larger/greater/bigger"
                          "/shorter/lower"),
    # a figure derived from two subjects' values, not the values (routing.statistics.pair_statistic)
    "gap words": Phrases("apart|gap/gaps|difference|differ*|margin|by how much/many|how much/many more/less/higher"
                         "/lower/longer/shorter/better/worse"),
    "ratio words": Phrases("ratio|how many times|times as/more/higher/longer/larger|fold"),
    "vary words": Phrases("vary|varies|varied|varying|variation|variability|variable|fluctuat*|std|standard deviation"
                          "|unstable|stable|steadier|steady|noisier|jumpier|scatter*|spread"),
    "drift words": Phrases("drift*|mov*/chang*/shift*/wander* more/most|mov*/chang*/shift*/wander* the most"),
    "gain words": Phrases("improv*|gain/gains/gained|degrad*|worsen*|deteriorat*|got better/worse"
                          "|went up/down more"),
    "peak words": Phrases("peak*|max|maximum|highest ... single|best ... single|min|minimum|lowest ... single"
                          "|worst ... single"),
    "calibrated": Phrases("calibrat*|recalibrat*|measured|remeasured"),  # how often a qubit was calibrated
    "fewer": Phrases("fewer|less|least|fewest|lower number"),  # the low end of a count compared
    "mean words": Phrases("mean|average|averaged|averaging"),
    "average metric": Phrases("average readout/gate"),  # a metric's own name, not a mean
    # a condition in words, next to its metric: "short T1", "high-fidelity couplings", "T2 echo is poor"
    "low words": Phrases("low|short|small"), "high words": Phrases("high|long|large"),
    "worse words": Phrases("poor|bad|weak"), "better words": Phrases("good|strong|excellent"),
    # the kind of task result a count counts (QDash's ``excluded`` flag and ``status``): usable before excluded
    "usable words": Phrases("usable|not excluded|non excluded|unexcluded|kept|valid|good results"),
    "excluded words": Phrases("excluded|exclusion/exclusions|set aside|thrown out|discarded|rejected|skipped|skip"
                              "|left/kept/taken/filtered/flagged/ruled/marked/thrown out|omitted|ignored|disregarded"
                              "|dropped|unused|not used/counted/included|never used|removed from|masked"),
    "result words": Phrases("result/results|calibration/calibrations|fit/fits"),  # what a kind of result counts
    "completed words": Phrases("completed|complete|successful|successfully|succeeded|passed|went through"),
    # "the spread of the frequency in MHz", "in megahertz"
    "unit asked": Phrases("in/into/as hz/khz/mhz/ghz/ns/us/μs/µs/ms/hertz/kilohertz/megahertz/gigahertz/nanosecond/"
                          "nanoseconds/microsecond/microseconds/millisecond/milliseconds/second/seconds"),
})
WORDS.update(FAILURE_WORDS)  # which subject fails most, of which family, by count or rate
WORDS.update(COUNT_WORDS)  # what a count of failures counts: results, runs holding one, subjects; count or share
