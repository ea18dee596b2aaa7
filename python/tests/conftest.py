# SPDX-License-Identifier: Apache-2.0
"""Shared helpers: where the corpus is, and a strict equality (same types, same key order, NaN
and -0.0 told apart) to compare simdbridge's values with json's."""
import math
import os
import pathlib
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "core" / "tests" / "reference"))
from checksum_reference import spec_vectors  # noqa: E402  (docs/checksum.md's vectors, read once for every suite)

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


def writer_edge_strings():
    """Strs of every length from 0 to 72, plain and with one character that needs work (an
    escape, DEL, a character past ASCII) at every position: the writers check a string below 16
    characters in one vector, up to 32 in two overlapping ones, a longer one in blocks of 16 and
    its last 16 again, and the core's escaping goes on from the first block that needs work."""
    out = []
    for n in range(73):
        plain = "".join(chr(ord("a") + i % 26) for i in range(n))
        out.append(plain)
        for special in ('"', "\\", "\x00", "\x1f", " ", "\x7f", "é", "\u2028", "\U0001f600"):
            for at in range(n):
                out.append(plain[:at] + special + plain[at + 1:])
        if n >= 2:
            out += [plain[:at] + '"' + plain[at + 1:n - 1] + "\n" for at in range(n - 1)]  # and a second one last
            out.append("\n" * n)
            out.append("\x01 " * (n // 2))  # a control, then a byte that a borrow may flag
    return out


def list_items(str_subclass):
    """Lists whose items the writers take inline (finite floats, ints of 64 bits, compact ASCII
    strs, some with escapes: text_output.h's cursor), in runs that grow the output several times,
    mixed with items that leave that path (strs past ASCII, a str subclass, ints past int64, NaN,
    None, nested lists) and back."""
    words = [("w%d" % i) * (i % 7) for i in range(3000)]
    mixed = []
    for i, w in enumerate(words):
        mixed.append(w)
        if i % 3 == 0:
            mixed.append(i * 7919 - 10 ** 6)
        if i % 5 == 0:
            mixed.append(i / 7)
        if i % 101 == 0:
            mixed += ["\u00e9" + w, 2 ** 63 + i, float("nan"), None]
        if i % 103 == 0:
            mixed.append('q"\\\x00\x7f' + w)
        if i % 107 == 0:
            mixed += [str_subclass(w), [w, i]]
    return [words, mixed, [1] + words, words + [None], [[w] for w in words[:50]], ("a", 1, 2.5), ["a"]]


def writer_edge_ints():
    """Ints at the edges of CPython's 30-bit digits, of the digit counts, and of 64 bits."""
    out = []
    for bits in (29, 30, 31, 59, 60, 61, 62, 63, 64):
        out += [2 ** bits - 1, 2 ** bits, 2 ** bits + 1]
    for k in range(21):
        out += [10 ** k - 1, 10 ** k, 10 ** k + 1]
    out = [v for v in out if v < 2 ** 64]
    return out + [-v for v in out]


def writer_edge_floats():
    """Doubles whose digits fall on every side of the decimal point and of the exponent form's
    bounds, with 1 to 17 digits."""
    out = [0.0, -0.0, 5e-324, 2.2250738585072014e-308, 1.7976931348623157e308]
    for digits in ("1", "9", "12", "98", "123456", "1234567", "9999999", "12345678", "99999999", "123456789",
                   "999999999", "1234567891234567", "9999999999999998", "12345678912345678", "98765432198765432"):
        for exponent in range(-25, 25):
            x = float(f"{digits}e{exponent}")
            out += [x, -x]
    return out
