# SPDX-License-Identifier: Apache-2.0
"""Shared helpers: where the corpus is, and a strict equality (same types, same key order, NaN
and -0.0 told apart) to compare simdbridge's values with json's."""
import math
import os
import pathlib

import pytest

DATA = pathlib.Path(os.environ.get("SIMDBRIDGE_DATA", pathlib.Path(__file__).resolve().parents[2] / ".." / "shared" / "data"))


def data_dir(*parts):
    path = DATA.joinpath(*parts)
    if not path.exists():
        pytest.fail(f"corpus missing: {path} (set SIMDBRIDGE_DATA or run `make data`)")
    return path


def corpus_files():
    return sorted(data_dir("jsonexamples").glob("*.json"))


def ndjson_files():
    return sorted(data_dir("ndjson").glob("*.ndjson")) + sorted(data_dir("ndjson").glob("*.json"))


def same(a, b, path="$"):
    """Asserts that a and b are the same JSON values: same types, same order, floats bit-equal."""
    assert type(a) is type(b), f"{path}: {type(a).__name__} != {type(b).__name__}"
    if isinstance(a, float):
        if math.isnan(a):
            assert math.isnan(b), f"{path}: {a!r} != {b!r}"
        else:
            assert a == b and math.copysign(1, a) == math.copysign(1, b), f"{path}: {a!r} != {b!r}"
    elif isinstance(a, dict):
        assert list(a) == list(b), f"{path}: keys {list(a)[:8]} != {list(b)[:8]}"
        for k in a:
            same(a[k], b[k], f"{path}.{k}")
    elif isinstance(a, list):
        assert len(a) == len(b), f"{path}: length {len(a)} != {len(b)}"
        for i, (x, y) in enumerate(zip(a, b)):
            same(x, y, f"{path}[{i}]")
    else:
        assert a == b, f"{path}: {a!r} != {b!r}"


def outcome(fn, arg):
    """('ok', value) or ('error', type, message, pos, lineno, colno)."""
    try:
        return ("ok", fn(arg))
    except Exception as e:  # noqa: BLE001 - every exception is compared
        return ("error", type(e), str(e), getattr(e, "pos", None), getattr(e, "lineno", None), getattr(e, "colno", None))
