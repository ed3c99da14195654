"""How many values a chart's data array holds and the range they span, read off lists and typed arrays
(``{dtype, bdata, shape}``) without decoding more than a range needs."""

from __future__ import annotations

import base64
import binascii
import math

import numpy as np

_DTYPES = {"i1": "i1", "u1": "u1", "u1c": "u1", "i2": "<i2", "u2": "<u2", "i4": "<i4", "u4": "<u4", "f4": "<f4",
           "f8": "<f8"}
_ITEMSIZES = {name: np.dtype(code).itemsize for name, code in _DTYPES.items()}


class ChartTooCostly(ValueError):
    """The chart would take a browser too long to draw; the message says what to reduce."""


def typed_count(value: dict) -> int:
    """How many numbers a typed array (``{dtype, bdata, shape}``) holds; ChartTooCostly when its shape disagrees."""
    text = value["bdata"]
    if len(text) % 4:
        raise ChartTooCostly("typed-array data is not whole base64 (its length is not a multiple of 4)")
    size = len(text) // 4 * 3 - len(text[-2:]) + len(text[-2:].rstrip("="))
    itemsize = _ITEMSIZES[value["dtype"]]
    if size % itemsize:
        raise ChartTooCostly(f"typed-array data of {size} bytes is not a whole number of {value['dtype']} values")
    count = size // itemsize
    if "shape" in value:
        dims = [int(d) for d in str(value["shape"]).split(",")]
        if math.prod(dims) != count:
            raise ChartTooCostly(f"typed-array shape {value['shape']} declares {math.prod(dims):,} values but its "
                                 f"data holds {count:,}")
    return count


def typed_dims(value: dict) -> int:
    return len(str(value["shape"]).split(",")) if "shape" in value else 1


def _decoded(value: dict) -> np.ndarray:
    try:
        raw = base64.b64decode(value["bdata"], validate=True)
    except binascii.Error:
        raise ChartTooCostly("typed-array data is not valid base64") from None
    return np.frombuffer(raw, dtype=_DTYPES[value["dtype"]])


def length(value: object) -> int:
    """Values in a data array: list items (rows of a 2-D list summed), typed-array numbers, else 0."""
    if isinstance(value, dict) and "bdata" in value:
        return typed_count(value)
    if not isinstance(value, list):
        return 0
    rows = [item for item in value if type(item) is list]
    return len(value) - len(rows) + sum(map(len, rows))


def numeric_range(value: object) -> float | None:
    """max - min of a numeric data array (None when it is not numbers, or empty)."""
    if isinstance(value, dict) and "bdata" in value:
        numbers = _decoded(value).astype(float)
    elif isinstance(value, list):
        flat = [v for row in value for v in (row if isinstance(row, list) else [row])]
        if not flat or not all(type(v) in (int, float) for v in flat):
            return None
        numbers = np.asarray(flat, dtype=float)
    else:
        return None
    numbers = numbers[np.isfinite(numbers)]
    return float(numbers.max() - numbers.min()) if numbers.size else None
