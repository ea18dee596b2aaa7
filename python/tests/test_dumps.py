# SPDX-License-Identifier: Apache-2.0
"""dumps() against json.dumps: every combination of its arguments over many objects, random
objects, subclasses and enums, and the same exceptions with the same messages."""
import collections
import decimal
import enum
import io
import itertools
import json
import math
import random
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import simdbridge
from conftest import corpus_files


def outcome(fn, obj, kw):
    try:
        return ("ok", fn(obj, **kw))
    except Exception as e:  # noqa: BLE001 - every exception is compared
        return ("error", type(e), str(e))


def check(obj, **kw):
    expected = outcome(json.dumps, obj, kw)
    actual = outcome(simdbridge.dumps, obj, kw)
    assert actual == expected, f"kw={kw}"
    return expected


class MyInt(int):
    pass


class MyFloat(float):
    pass


class MyStr(str):
    pass


class MyDict(dict):
    pass


class MyList(list):
    pass


class MyTuple(tuple):
    pass


class IntReprFloat(float):
    def __repr__(self):
        return "overridden"


class Color(enum.Enum):
    RED = 1


class Level(enum.IntEnum):
    LOW = 1
    HIGH = 2


class Ratio(float, enum.Enum):
    HALF = 0.5


class Name(str, enum.Enum):
    ALICE = "alice"


class Flag(enum.IntFlag):
    A = 1
    B = 2


OBJECTS = [
    None, True, False, 0, -1, 1 << 64, -(1 << 100), 0.0, -0.0, 1.5, 1e16, 1e-7, 123456789.125, 5e-324,
    1.7976931348623157e308, 0.1, 1 / 3, math.nan, math.inf, -math.inf, "", "a", "é", "\u4e2d\U0001f600",
    "\ud800", "\x00\x1f\x7f\"\\/\b\f\n\r\t", "a" * 1000, "é" * 300 + "\U0001f600" * 40,
    [], {}, [[]], [{}], {"a": []}, [1, [2, [3, [4]]]], {"b": 1, "a": 2, "c": {"z": 0, "y": [1, 2]}},
    (1, 2), ((),), {"k": (1, [2, (3,)])},
    {1: "int", 2.5: "float", True: "bool", None: "none", "s": "str"},
    {-0.0: 1, math.inf: 2, -math.inf: 3, 1e300: 4}, {math.nan: 1},
    MyInt(5), MyFloat(2.5), MyStr("sub"), MyDict(a=1), MyList([1, 2]), MyTuple((1, 2)), IntReprFloat(1.25),
    {MyStr("k"): MyInt(1), MyInt(2): MyFloat(3.5)},
    Level.HIGH, Ratio.HALF, Name.ALICE, Flag.A | Flag.B, {Level.LOW: Name.ALICE, Ratio.HALF: [Level.HIGH]},
    collections.OrderedDict([("z", 1), ("a", 2)]),
    [1.0, 2.0e22, 1e21, 1e-5, 0.0001, 12345678901234567890.0, 2 ** 53 + 1.0],
    {"nested": [{"a": [{"b": [{"c": None}]}]}] * 3},
]

KWARGS = [dict(kw) for kw in itertools.product(
    [("ensure_ascii", True), ("ensure_ascii", False)],
    [("indent", None), ("indent", 0), ("indent", 2), ("indent", "\t"), ("indent", "--")],
    [("separators", None), ("separators", (",", ":")), ("separators", (" , ", " : "))],
    [("sort_keys", False), ("sort_keys", True)],
    [("allow_nan", True), ("allow_nan", False)],
    [("skipkeys", False), ("skipkeys", True)],
)]


@pytest.mark.parametrize("kw", KWARGS, ids=lambda kw: ",".join(f"{k}={v!r}" for k, v in kw.items()))
def test_argument_combinations(kw):
    for obj in OBJECTS:
        check(obj, **kw)


@pytest.mark.parametrize("indent", [None, 0, 2, "\t"])
def test_dicts_whose_keys_are_all_skipped(indent):
    # json writes the first member's newline before skipping: {"\n  \n"} where nothing is left.
    for obj in ({(1, 2): 1}, {"a": {(1,): 2, None: 3}}, [{(1, 2): 3}, {}], {(1,): 1, "b": {(2,): 2}}):
        check(obj, skipkeys=True, indent=indent)
        check(obj, skipkeys=True, indent=indent, sort_keys=False, separators=(",", ": "))


def test_check_circular_and_default_combinations():
    for kw in itertools.product([True, False], [None, str, repr, lambda o: [o.__class__.__name__]]):
        for obj in OBJECTS + [{"set": {1}}, [object], {"c": complex(1, 2)}, decimal.Decimal("1.5"), Color.RED]:
            check(obj, check_circular=kw[0], default=kw[1])


@pytest.mark.parametrize("path", corpus_files(), ids=lambda p: p.name)
def test_corpus_round_trips(path):
    value = json.loads(path.read_bytes())
    for kw in ({}, {"ensure_ascii": False}, {"indent": 2, "sort_keys": True}, {"separators": (",", ":")}):
        check(value, **kw)


def test_errors_match():
    circular = []
    circular.append(circular)
    circular_dict = {}
    circular_dict["self"] = circular_dict
    for obj, kw in [
        (object(), {}), ({"a": {1, 2}}, {}), ([1, b"bytes"], {}), (math.nan, {"allow_nan": False}),
        ([1, -math.inf], {"allow_nan": False}), ({(1, 2): 3}, {}), ({(1, 2): 3, "a": 1}, {"skipkeys": True}),
        ({1: 1, "a": 2}, {"sort_keys": True}), (circular, {}), (circular_dict, {}),
        (Color.RED, {}), ({"a": 1}, {"indent": 1.5}), ({"a": 1}, {"separators": ("a",)}),
        ({"a": 1}, {"unknown_kw": 1}), ([1], {"default": 5}),
        ([decimal.Decimal(1)], {"default": lambda o: o}),  # default returns itself: a cycle
    ]:
        check(obj, **kw)


def test_nesting_counts_against_the_recursion_limit_and_gives_it_back():
    # Each container takes one level of the interpreter's recursion counter, as json's encoder
    # takes it: a raised limit lets deeper documents through, a lowered one stops them, and
    # neither an error nor a success leaves the counter moved.
    def reachable():
        def down(n):
            try:
                return down(n + 1)
            except RecursionError:
                return n

        return down(0)

    before = reachable()
    limit = sys.getrecursionlimit()
    deep = []
    for _ in range(3000):
        deep = [deep, 1.5]
    try:
        sys.setrecursionlimit(limit + 4000)
        assert simdbridge.dumps(deep) == json.dumps(deep)
        sys.setrecursionlimit(limit)
        for _ in range(50):
            with pytest.raises(RecursionError):
                simdbridge.dumps(deep)
    finally:
        sys.setrecursionlimit(limit)
    assert reachable() == before


def test_deep_nesting_raises_what_json_raises():
    deep = []
    for _ in range(100_000):
        deep = [deep]
    with pytest.raises(RecursionError):
        json.dumps(deep)
    with pytest.raises(RecursionError):
        simdbridge.dumps(deep)
    shallow = []
    for _ in range(500):
        shallow = [shallow]
    check(shallow)


def test_default_is_called_like_json():
    calls_json, calls_ours = [], []

    def make(calls):
        def default(o):
            calls.append(type(o).__name__)
            return sorted(o) if isinstance(o, set) else str(o)
        return default

    obj = {"s": {3, 1, 2}, "c": complex(1, 1), "l": [frozenset({1})]}
    assert simdbridge.dumps(obj, default=make(calls_ours)) == json.dumps(obj, default=make(calls_json))
    assert calls_ours == calls_json


def test_cls_delegates_to_json():
    class Enc(json.JSONEncoder):
        def default(self, o):
            return {"complex": [o.real, o.imag]}

    assert simdbridge.dumps([1j], cls=Enc) == json.dumps([1j], cls=Enc)
    assert simdbridge.dumps([1j], cls=Enc, indent=1) == json.dumps([1j], cls=Enc, indent=1)


def test_dump_writes_to_a_file():
    obj = {"a": [1, 2.5, "x"], "b": None}
    ours, theirs = io.StringIO(), io.StringIO()
    simdbridge.dump(obj, ours, indent=2)
    json.dump(obj, theirs, indent=2)
    assert ours.getvalue() == theirs.getvalue()


def test_random_doubles_format_like_repr():
    rng = random.Random(20261129)
    values = []
    while len(values) < 20_000:
        x = struct_double(rng.getrandbits(64))
        if math.isfinite(x):
            values.append(x)
    assert simdbridge.dumps(values) == json.dumps(values)


def struct_double(bits):
    import struct
    return struct.unpack("<d", struct.pack("<Q", bits))[0]


json_text = st.text(alphabet=st.characters(codec=None), max_size=30)
keys = json_text | st.integers(-10, 10) | st.floats(allow_nan=False) | st.booleans() | st.none()
values = st.recursive(
    st.none() | st.booleans() | st.integers(min_value=-(2 ** 80), max_value=2 ** 80) | st.floats() | json_text,
    lambda children: st.lists(children, max_size=5) | st.tuples(children, children)
    | st.dictionaries(keys, children, max_size=5),
    max_leaves=30,
)


@settings(max_examples=500, deadline=None)
@given(obj=values, ensure_ascii=st.booleans(), indent=st.sampled_from([None, 0, 3, " \t"]),
       sort_keys=st.booleans(), allow_nan=st.booleans(),
       separators=st.sampled_from([None, (",", ":"), (";", "=")]))
def test_random_objects(obj, ensure_ascii, indent, sort_keys, allow_nan, separators):
    check(obj, ensure_ascii=ensure_ascii, indent=indent, sort_keys=sort_keys, allow_nan=allow_nan,
          separators=separators)


class _Int(int):
    pass


class _Str(str):
    pass


@pytest.mark.parametrize("ensure_ascii", [True, False])
def test_writer_edges(ensure_ascii):
    from conftest import writer_edge_floats, writer_edge_ints, writer_edge_strings
    strings = writer_edge_strings()
    ints = writer_edge_ints()
    for obj in (strings, {s: len(s) for s in strings}, ints, [_Int(v) for v in ints], {v: v for v in ints},
                writer_edge_floats(), {x: x for x in writer_edge_floats()}):
        assert simdbridge.dumps(obj, ensure_ascii=ensure_ascii) == json.dumps(obj, ensure_ascii=ensure_ascii)


def test_dicts_with_a_table_for_any_keys():
    # orjson.loads makes objects of more than eight keys with CPython's table for keys of any
    # type (sized before the keys are known): written from their entries while the keys are strs.
    import orjson
    value = {"k%d" % i: [i, "v" * i, {"n": i, "f": i / 3}] for i in range(40)}
    presized = orjson.loads(orjson.dumps(value))
    mixed_keys = {"k%d" % i: i for i in range(12)} | {2: 3}
    for obj in (presized, [presized, value], {"a": 1, 2: 3, "b": 4.5, None: 5}, mixed_keys):
        check(obj)
        check(obj, separators=(",", ":"))

    # A default that changes the dict while it is written: what follows is the dict as it is then.
    def written(change):
        d = orjson.loads(orjson.dumps({"k%d" % i: i for i in range(12)}))
        d["k3"] = 1j
        return simdbridge.dumps(d, default=lambda o: change(d), separators=(",", ":"))

    first = '{"k0":0,"k1":1,"k2":2,'
    assert written(lambda d: (d.clear(), "cleared")[1]) == first + '"k3":"cleared"}'
    assert written(lambda d: (d.pop("k0"), d.pop("k11"), "deleted")[2]) == (
        first + '"k3":"deleted",' + ",".join('"k%d":%d' % (i, i) for i in range(4, 11)) + "}")
    assert written(lambda d: (d.update({7: 7}), "int key")[1]) == (
        first + '"k3":"int key",' + ",".join('"k%d":%d' % (i, i) for i in range(4, 12)) + ',"7":7}')


@pytest.mark.parametrize("ensure_ascii", [True, False])
def test_list_items(ensure_ascii):
    from conftest import list_items
    for value in list_items(_Str):
        for separators in (None, (",", ":"), (" ,  ,  , ", ":")):  # the last longer than a word
            check(value, ensure_ascii=ensure_ascii, separators=separators)


@pytest.mark.parametrize("ensure_ascii", [True, False])
def test_every_code_point_as_json_writes_it(ensure_ascii):
    # Every BMP code point (lone surrogates included) and astral ones of every plane, in strs of
    # all three kinds (Latin-1, UCS-2, UCS-4: an ASCII or Latin-1 neighbour, an astral one),
    # alone, in runs and between ASCII characters that need escaping and that do not.
    points = [chr(c) for c in range(0x10000)] + [chr(c) for c in range(0x10000, 0x110000, 0x1011)] + ["\U0010ffff"]
    strings = points + ["".join(points[i:i + 37]) for i in range(0, len(points), 37)]
    strings += ['a"%s\\\n%sz\x7f' % (p, p) for p in points[::97]] + [p + "\U0001f600" for p in points[::251]]
    assert simdbridge.dumps(strings, ensure_ascii=ensure_ascii) == json.dumps(strings, ensure_ascii=ensure_ascii)
    assert simdbridge.dumps({s: 1 for s in strings[::5]}, ensure_ascii=ensure_ascii) == json.dumps(
        {s: 1 for s in strings[::5]}, ensure_ascii=ensure_ascii)


def test_a_default_that_changes_what_is_being_written():
    # Each once with json and once with simdbridge, on fresh objects: no crash, json's text.
    def shrink_list():
        items = [1, object(), 2, 3]
        return items, lambda o: (items.clear(), "gone")[1]

    def drop_the_list_holding_a_list():
        items = [[1, object(), 2], 3]
        return items, lambda o: (items.clear(), "gone")[1]

    def drop_the_list_holding_a_dict():
        items = [{"a": 1, "b": object(), "c": [2, object()]}, 3]
        return items, lambda o: (items.clear(), "gone")[1]

    for make in (shrink_list, drop_the_list_holding_a_list, drop_the_list_holding_a_dict):
        for indent in (None, 2):
            obj, default = make()
            expected = json.dumps(obj, default=default, indent=indent)
            obj, default = make()
            assert simdbridge.dumps(obj, default=default, indent=indent) == expected

    # The dict itself changed: json 3.11 and 3.12 write its old items (or raise, with an indent);
    # dumps() goes on with the dict as it is, as json 3.13 does (a known difference).
    d = {"a": 1, "b": object(), "c": 2, "d": 3}
    assert simdbridge.dumps(d, default=lambda o: (d.clear(), "gone")[1]) == '{"a": 1, "b": "gone"}'
