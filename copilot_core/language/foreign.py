"""Lab questions written in Japanese, Spanish, French or German, or with their words mixed into English
("64Qv3のT1の中央値は？", "porcentaje de qubits con T1 above 40 us", "welche Aufgabe ist am häufigsten
fehlgeschlagen"), read as the English words every other reader takes.

Japanese writes no spaces: a run of Japanese script is cut from the Latin letters and digits around it, full-width
forms are made plain (NFKC), and each word of :data:`JAPANESE` (longest first) becomes its English reading; a
particle left over is a space.  The European words are read only in a text with such a language in it (an accent,
"¿", "ß", or two of its small words), so "media" or "de" in an English question stay as written.
"""

from __future__ import annotations

import unicodedata

from copilot_core.language.phrases import tokens_of

# Japanese lab words -> English words the parse reads; a number's limit word follows it ("40us以上": "40us or more").
JAPANESE: dict[str, str] = {
    "標準偏差": "standard deviation", "中央値": "median", "平均値": "mean", "平均": "mean", "分散": "variance",
    "相関係数": "correlation coefficient", "相関": "correlation", "最大値": "maximum", "最小値": "minimum",
    "最も高い": "highest", "最も低い": "lowest", "一番高い": "highest", "一番低い": "lowest", "最高": "highest",
    "最低": "lowest", "最大": "highest", "最小": "lowest", "上位": "top", "下位": "bottom", "最も多く": "most",
    "一番多く": "most", "最も多い": "most", "一番多い": "most", "最も": "most", "一番": "most",
    "失敗した": "failed", "失敗": "failures", "エラー": "errors", "割合": "percentage", "比率": "percentage",
    "何パーセント": "what percent", "何%": "what percent", "パーセント": "percent", "以上": "or more",
    "以下": "or less", "未満": "or less", "超": "or more", "より高い": "higher than", "より低い": "lower than",
    "何個": "how many", "いくつ": "how many", "何件": "how many", "何回": "how many times", "何本": "how many",
    "どの": "which", "どれ": "which", "どちら": "which", "比較": "compare", "チップ": "chip",
    "量子ビット": "qubits", "キュービット": "qubits", "カップリング": "coupling", "結合": "coupling",
    "タスク": "task", "キャリブレーション": "calibration", "実行": "runs", "過去": "past", "直近": "last",
    "日間": "days", "日": "days", "回": "runs", "今週": "this week", "昨日": "yesterday", "今日": "today",
    "読み出し忠実度": "readout fidelity", "忠実度": "fidelity", "周波数": "frequency", "高い": "high",
    "低い": "low", "良い": "better", "悪い": "worse", "と": " and ", "または": " or ", "ない": "missing",
    "存在": "exists", "2量子ビット": "two qubit", "二量子ビット": "two qubit", "1量子ビット": "single qubit",
    "単一量子ビット": "single qubit", "回の実行": "runs", "回の実行で": "runs", "、": ",", "。": ".",
    "範囲": "range", "ばらつき": "spread", "回数": "how many times", "件数": "how many", "個数": "how many",
}
# A unit before "で" is the unit an answer is asked in ("MHz で": "in MHz").
_JA_UNITS = ("GHz", "MHz", "kHz", "Hz", "μs", "us", "ns", "ms", "%")
_PARTICLES = "のはがをでにへやもかね"  # left over after the words: room between words
_JA_LENGTHS = sorted({len(w) for w in JAPANESE}, reverse=True)
_SCRIPTS = ((0x3040, 0x30FF), (0x3400, 0x4DBF), (0x4E00, 0x9FFF), (0xFF01, 0xFF5E))  # kana, kanji, full width


def _japanese(c: str) -> bool:
    return any(low <= ord(c) <= high for low, high in _SCRIPTS)


# Spanish, French and German lab words -> English (phrases of several words first).
EUROPEAN: dict[str, str] = {
    "por encima de": "above", "por debajo de": "below", "más de": "more than", "menos de": "less than",
    "superior a": "above", "inferior a": "below", "desviación estándar": "standard deviation",
    "porcentaje": "percentage", "mediana": "median", "promedio": "average", "correlación": "correlation",
    "media": "mean", "medias": "means", "media mayor": "higher mean", "media menor": "lower mean",
    "mediana mayor": "higher median", "mediana menor": "lower median", "mayor que": "greater than", "menor que": "less than",
    "más alta": "highest", "más alto": "highest", "más baja": "lowest", "más bajo": "lowest",
    "más veces": "most often", "veces": "times", "tareas de acoplamiento": "coupling tasks",
    "tareas de coupling": "coupling tasks", "tarea de acoplamiento": "coupling task",
    "cuántos": "how many", "cuántas": "how many", "cuál": "which", "cuáles": "which", "qué": "what",
    "tarea": "task", "tareas": "tasks", "falló": "failed", "fallaron": "failed", "fallos": "failures",
    "fallas": "failures", "más": "most", "mayor": "highest", "menor": "lowest", "mejores": "best",
    "peores": "worst", "mejor": "best", "peor": "worst", "entre": "between", "últimos": "last", "últimas": "last",
    "días": "days", "semana": "week", "acoplamiento": "coupling", "acoplamientos": "couplings",
    "cúbits": "qubits", "cúbit": "qubit", "en": "on", "con": "with", "y": "and", "de": "of", "del": "of the",
    "los": "the", "las": "the", "el": "the", "la": "the", "tienen": "have", "tiene": "has", "chip": "chip",
    "uno": "one", "una": "one", "dos": "two", "tres": "three", "cuatro": "four", "cinco": "five", "diez": "ten",
    "tarea de dos cúbits": "two qubit task", "tareas de dos cúbits": "two qubit tasks",
    "tarea de dos qubits": "two qubit task", "tareas de dos qubits": "two qubit tasks",
    "tâche à deux qubits": "two qubit task", "tâches à deux qubits": "two qubit tasks",
    "dos cúbits": "two qubit", "dos qubits": "two qubit", "de dos cúbits": "two qubit", "de dos qubits": "two qubit",
    # French
    "tâche": "task", "tâches": "tasks", "échoué": "failed", "échouée": "failed", "échecs": "failures",
    "échec": "failure", "le plus souvent": "most often", "le plus": "most", "quelle": "which", "quel": "which",
    "combien de": "how many", "moyenne": "mean", "médiane": "median", "écart type": "standard deviation",
    "pourcentage": "percentage", "au dessus de": "above", "en dessous de": "below", "supérieur à": "above",
    "inférieur à": "below", "derniers": "last", "dernières": "last", "jours": "days", "deux qubits": "two qubit",
    "à deux qubits": "two qubit", "couplage": "coupling", "puce": "chip", "sur": "on", "et": "and",
    "plus grand que": "greater than", "plus petit que": "less than", "la plus élevée": "the highest",
    "le plus élevé": "the highest", "fois": "times", "tâches de couplage": "coupling tasks",
    "tâches de coupling": "coupling tasks",
    # German
    "welche": "which", "welcher": "which", "welches": "which", "aufgabe": "task", "aufgaben": "tasks",
    "fehlgeschlagen": "failed", "fehler": "failures", "am häufigsten": "most often", "am meisten": "most",
    "wie viele": "how many", "mittelwert": "mean", "durchschnitt": "average", "standardabweichung":
    "standard deviation", "anteil": "percentage", "prozent": "percent", "über": "above", "unter": "below",
    "letzten": "last", "tagen": "days", "tage": "days", "zwei qubit": "two qubit", "zwei qubits": "two qubit",
    "kopplung": "coupling", "größer als": "greater than", "kleiner als": "less than", "höchsten": "highest",
    "niedrigsten": "lowest", "kopplungsaufgaben": "coupling tasks",
    "und": "and", "auf": "on", "hat": "has", "haben": "have", "ist": "is",
}
_MARKS = frozenset("¿¡áéíóúñàâçèêëîïôûüäöß")
_SMALL = frozenset({"de", "la", "los", "las", "el", "en", "con", "qué", "cuál", "cuáles", "cuántos",
                            "cuántas", "entre", "por", "para", "del", "y", "es", "son", "le", "les", "des", "du",
                            "est", "et", "sur", "der", "die", "das", "und", "ist", "welche", "auf", "mit", "von"})
_LONGEST = max(len(p.split()) for p in EUROPEAN)


def _from_japanese(text: str) -> str:
    if not any(_japanese(c) for c in text):
        return text
    plain = unicodedata.normalize("NFKC", text)
    for unit in _JA_UNITS:
        plain = plain.replace(f"{unit} で", f" in {unit} ").replace(f"{unit}で", f" in {unit} ")
    out: list[str] = []
    i = 0
    while i < len(plain):
        word = next((plain[i:i + n] for n in _JA_LENGTHS if plain[i:i + n] in JAPANESE), None)
        if word is not None:
            out.append(f" {JAPANESE[word].strip()} ")
            i += len(word)
            continue
        c = plain[i]
        if out and out[-1] and (_japanese(c) != _japanese(out[-1][-1])) and (c.isalnum() or out[-1][-1].isalnum()):
            out.append(" ")  # Japanese script cut from the Latin letters and digits beside it
        out.append(" " if c in _PARTICLES else c)
        i += 1
    return " ".join("".join(out).split()).replace(" ?", "?").replace(" ,", ",")


def _european(text: str) -> bool:
    words = [w for _, _, w in tokens_of(text)]
    return bool(_MARKS & set(text.lower())) or sum(w in _SMALL for w in words) >= 2


def _from_european(text: str) -> str:
    if not _european(text):
        return text
    tokens = tokens_of(text)
    out: list[str] = []
    kept, i = 0, 0
    while i < len(tokens):
        for k in range(min(_LONGEST, len(tokens) - i), 0, -1):
            said = " ".join(t[2] for t in tokens[i:i + k])
            if said in EUROPEAN:
                out += [text[kept:tokens[i][0]], EUROPEAN[said]]
                kept, i = tokens[i + k - 1][1], i + k
                break
        else:
            i += 1
    return ("".join(out) + text[kept:]).replace("¿", "").replace("¡", "")


def in_english(text: str) -> str:
    """``text`` with its Japanese, Spanish, French and German lab words read as English (see the module's note)."""
    return _from_european(_from_japanese(text))
