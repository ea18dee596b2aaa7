# SPDX-License-Identifier: Apache-2.0
"""A differential fuzz test, bounded in time, with a fixed seed: random values and random
mutations of their text, read by loads (against json.loads), written by dumps with random keyword
arguments (against json.dumps) and by dumpb with random options (against orjson.dumps). The same
value or text, or the same exception with the same message, every time.

SIMDBRIDGE_FUZZ_SECONDS sets each part's time (default 6 s); the seed is fixed, so a run repeats
the cases of a shorter run and a failure names the case's number and seed to replay it.
"""
import json
import math
import os
import random
import time

import orjson

import simdbridge
from conftest import same

SEED = 20261202
SECONDS = float(os.environ.get("SIMDBRIDGE_FUZZ_SECONDS", "6"))

CHARS = ['a', 'Z', '0', ' ', '"', '\\', '/', '\b', '\f', '\n', '\r', '\t', '\x00', '\x1f', '\x7f', '\x80', '\xe9',
         '\u2028', '\u6f22', '\ufeff', '\U0001f600', '\ud800', '\udfff']


def random_str(rng):
    return "".join(rng.choice(CHARS) for _ in range(rng.choice((0, 1, 2, 5, 17, 40))))


def random_number(rng):
    kind = rng.randrange(9)
    if kind == 0:
        return rng.randint(-2**63, 2**64 - 1)
    if kind == 1:
        return rng.choice((0, -1, 2**63 - 1, -2**63, 2**63, 2**64 - 1, 2**64, -2**63 - 1, 10**40))
    if kind == 2:
        return rng.choice((0.0, -0.0, 5e-324, 1e308, 1.7976931348623157e308, 1e16, 1e-7, 0.1, math.inf, -math.inf, math.nan))
    if kind == 3:
        return rng.uniform(-1e6, 1e6)
    if kind == 4:
        return math.ldexp(rng.random(), rng.randint(-1074, 1023))
    return rng.randint(-1000, 1000)


def random_value(rng, depth=0, non_str_keys=False):
    kind = rng.randrange(10 if depth < 5 else 6)
    if kind == 0:
        return random_number(rng)
    if kind == 1:
        return random_str(rng)
    if kind == 2:
        return rng.choice((True, False, None))
    if kind in (3, 4, 5):
        return random_number(rng) if kind == 3 else random_str(rng) if kind == 4 else rng.randint(-5, 5)
    if kind in (6, 7):
        return [random_value(rng, depth + 1, non_str_keys) for _ in range(rng.randrange(6))]
    out = {}
    for _ in range(rng.randrange(6)):
        key = random_str(rng)
        if non_str_keys and rng.random() < 0.3:
            key = rng.choice((1, -2, 2**70, 1.5, math.nan, -0.0, True, False, None, (1, 2), b"b"))
        out[key] = random_value(rng, depth + 1, non_str_keys)
    return out


def mutate(rng, text):
    data = bytearray(text.encode("utf-8", "surrogatepass"))
    for _ in range(rng.randrange(1, 4)):
        op = rng.randrange(6)
        at = rng.randrange(len(data) + 1)
        if op == 0 and data:
            del data[min(at, len(data) - 1)]
        elif op == 1:
            data[at:at] = rng.choice([b"{", b"}", b"[", b"]", b",", b":", b'"', b"\\", b"-", b"0", b"1e", b".",
                                      b"\xff", b"\xc3", b"\xed\xa0\x80", b"\x00", b" ", b"\\u", b"NaN", b"true"])
        elif op == 2 and data:
            data[min(at, len(data) - 1)] = rng.randrange(256)
        elif op == 3:
            data = data[:at]
        elif op == 4:
            data = data + data[at:]
        else:
            data[at:at] = data[:rng.randrange(len(data) + 1)]
    return bytes(data)


def outcome(fn, *args, **kwargs):
    try:
        return ("ok", fn(*args, **kwargs))
    except RecursionError:
        return ("error", RecursionError, None, None)
    except Exception as e:  # noqa: BLE001 - every exception is compared
        return ("error", type(e).__name__, str(e), getattr(e, "pos", None))


def cases():
    """(number, random generator) for each case, until this part's time runs out."""
    deadline = time.monotonic() + SECONDS
    n = 0
    while time.monotonic() < deadline:
        yield n, random.Random(SEED * 1_000_003 + n)
        n += 1
    assert n > 100, "too few cases in the time given"


def test_loads_of_random_and_mutated_documents_as_json():
    for n, rng in cases():
        value = random_value(rng)
        text = json.dumps(value, ensure_ascii=rng.random() < 0.5, indent=rng.choice((None, 1)))
        for data in (text, text.encode("utf-8", "surrogatepass"), mutate(rng, text)):
            expected = outcome(json.loads, data)
            actual = outcome(simdbridge.loads, data)
            where = f"case {n} (seed {SEED}): {data[:200]!r}"
            assert actual[0] == expected[0], where
            if expected[0] == "ok":
                same(actual[1], expected[1])
            else:
                assert actual[1:] == expected[1:], where


def random_dumps_keywords(rng):
    kw = {}
    if rng.random() < 0.5:
        kw["indent"] = rng.choice((None, 0, 1, 2, 4, "\t", "", "--"))
    if rng.random() < 0.4:
        kw["separators"] = rng.choice(((",", ":"), (", ", ": "), (";", "="), (" , ", " : ")))
    for name in ("sort_keys", "ensure_ascii", "allow_nan", "skipkeys", "check_circular"):
        if rng.random() < 0.4:
            kw[name] = rng.random() < 0.5
    if rng.random() < 0.2:
        kw["default"] = repr
    return kw


def test_dumps_with_random_keywords_as_json():
    for n, rng in cases():
        value = random_value(rng, non_str_keys=rng.random() < 0.4)
        if rng.random() < 0.1:
            value = [value, {1, 2}, object] if rng.random() < 0.5 else {"k": value, "set": frozenset()}
        kw = random_dumps_keywords(rng)
        expected = outcome(json.dumps, value, **kw)
        actual = outcome(simdbridge.dumps, value, **kw)
        if kw.get("sort_keys") and expected[:2] == ("error", "TypeError") and "not supported between" in expected[2]:
            # Sorting keys of mixed types: both raise TypeError; its wording names the first pair
            # the sort compared, which depends on the sort's order of comparisons.
            assert actual[:2] == expected[:2] and "not supported between" in actual[2], f"case {n}"
            continue
        assert actual == expected, f"case {n} (seed {SEED}): {kw} {value!r:.300}"


OPTIONS = [orjson.OPT_INDENT_2, orjson.OPT_SORT_KEYS, orjson.OPT_NON_STR_KEYS, orjson.OPT_APPEND_NEWLINE,
           orjson.OPT_STRICT_INTEGER]


def test_dumpb_with_random_options_as_orjson():
    for n, rng in cases():
        value = random_value(rng, non_str_keys=rng.random() < 0.3)
        option = 0
        for flag in OPTIONS:
            if rng.random() < 0.3:
                option |= flag
        kw = {"option": option} if option or rng.random() < 0.5 else {}
        if rng.random() < 0.2:
            kw["default"] = str
        expected = outcome(orjson.dumps, value, **kw)
        actual = outcome(simdbridge.dumpb, value, **kw)
        assert actual == expected, f"case {n} (seed {SEED}): {kw} {value!r:.300}"
