# SPDX-License-Identifier: Apache-2.0
"""dumpb() against orjson.dumps: the same bytes, or the same exception (TypeError) with the same
message, over the corpus, every option flag, the types orjson serializes and random values."""
import collections
import ctypes
import dataclasses
import datetime
import enum
import json
import math
import sys
import typing
import uuid
import zoneinfo

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import simdbridge
from conftest import corpus_files

FLAGS = [name for name in dir(orjson) if name.startswith("OPT_")]


def outcome(fn, *args, **kwargs):
    try:
        return ("ok", fn(*args, **kwargs))
    except TypeError as e:
        cause = e.__cause__
        return ("error", str(e), type(cause).__name__ if cause is not None else None)


def check(obj, **kwargs):
    expected = outcome(orjson.dumps, obj, **kwargs)
    actual = outcome(simdbridge.dumpb, obj, **kwargs)
    assert actual == expected, f"{obj!r:.200} {kwargs}"
    return actual


def test_flags_are_orjson_s():
    for name in FLAGS:
        assert getattr(simdbridge, name) == getattr(orjson, name), name
    assert simdbridge.JSONEncodeError is orjson.JSONEncodeError


@pytest.mark.parametrize("path", corpus_files(), ids=lambda p: p.name)
def test_corpus_file_under_every_layout_option(path):
    value = json.loads(path.read_bytes())
    for option in (None, 0, orjson.OPT_INDENT_2, orjson.OPT_SORT_KEYS, orjson.OPT_APPEND_NEWLINE,
                   orjson.OPT_INDENT_2 | orjson.OPT_SORT_KEYS | orjson.OPT_APPEND_NEWLINE,
                   orjson.OPT_NON_STR_KEYS | orjson.OPT_SORT_KEYS):
        assert check(value, option=option)[0] == "ok"


def test_floats():
    values = [0.0, -0.0, 1.0, 0.1, 1e16, 1e15, 9999999999999998.0, 1e-5, 1.5e-5, 9.99e-6, 1e-6, 1e-7,
              5e-324, -5e-324, 2.2250738585072014e-308, 1.7976931348623157e308, 1e22, 1e100, 123.456,
              math.nan, math.inf, -math.inf, 2.0 ** 53, 2.0 ** 63, 2.0 ** 64, 1 / 3]
    for x in values:
        check(x)
        check([x, {"k": x}], option=orjson.OPT_INDENT_2)
        check({x: 1}, option=orjson.OPT_NON_STR_KEYS)


def test_large_results_are_whole_bytes_objects():
    # From 128 KB a result keeps its buffer's block (text_output.h): it must still be a bytes
    # object like any other, of its own length, ending in its own last byte.
    for size in (2 ** 17 - 40, 2 ** 17 - 3, 2 ** 17 + 1, 3 * 2 ** 20 + 7):
        value = ["x" * 1000] * (size // 1006) + ["y" * (size % 1006)]
        first = check(value)[1]
        second = simdbridge.dumpb(value)
        assert first == second and first is not second
        assert len(first) == len(orjson.dumps(value)) and first[-3:] == orjson.dumps(value)[-3:]
        assert hash(first) == hash(bytes(first)) and first + b"!" == orjson.dumps(value) + b"!"
        assert json.loads(first) == value and first.endswith(b'"]') and first[len(first):] == b""
        assert sys.getsizeof(first) - len(first) == sys.getsizeof(b"")


@settings(max_examples=2000, deadline=None)
@given(st.floats(allow_nan=True, allow_infinity=True))
def test_random_floats(x):
    check(x)


def test_integers():
    for v in [0, 1, -1, 2 ** 53 - 1, 2 ** 53, -(2 ** 53 - 1), -(2 ** 53), 2 ** 63 - 1, 2 ** 63, 2 ** 64 - 1, 2 ** 64,
              -(2 ** 63), -(2 ** 63) - 1, 10 ** 30, -(10 ** 30)]:
        check(v)
        check([v], option=orjson.OPT_STRICT_INTEGER)
        check({v: 1}, option=orjson.OPT_NON_STR_KEYS)
    # Every digit count and the edges of the writer's ranges (a pair table below 10^10, eight at
    # a time past it), in a list (its own loop), a dict and a tuple, with and without a sign.
    edges = []
    for k in range(20):
        p = 10 ** k
        edges += [p - 1, p, p + 1, 2 * p - 1, 5 * p + 3, 10 * p - 1]
    edges = [v for v in edges if v < 2 ** 64]
    signed = edges + [-v for v in edges if v <= 2 ** 63]
    check(signed)
    check({"v%d" % i: v for i, v in enumerate(signed)})
    check(tuple(signed))
    check([v for v in signed if abs(v) <= 2 ** 53], option=orjson.OPT_STRICT_INTEGER)
    assert simdbridge.dumps(signed) == json.dumps(signed)


def test_strings():
    for s in ["", "a", "\x00\x01\x1f\x7f\"\\/", "é", "\u2028\u2029", "\uffff", "\U0001f600", "x" * 1000 + "\n",
              "\ud800", "a\udfffb", "é\ud83d", "\U0001f600\udc00"]:
        check(s)
        check({s: s})
        check({s: 1}, option=orjson.OPT_SORT_KEYS)


class Str(str):
    pass


class Int(int):
    pass


class Dict(dict):
    def items(self):  # not used: the storage is read, as orjson
        return [("z", 1)]


class List(list):
    def __iter__(self):  # not used: the storage is read, as orjson
        return iter([9])


class Tuple(tuple):
    pass


class Float(float):
    pass


Pair = collections.namedtuple("Pair", "a b")


class Color(enum.Enum):
    RED = 1
    GREEN = "g"
    BLUE = [1, {"x": None}]
    DAY = datetime.date(2020, 1, 2)


class Level(enum.IntEnum):
    LOW = 5


class Perm(enum.Flag):
    R = 1
    W = 2


class Name(str, enum.Enum):
    A = "a"


@dataclasses.dataclass
class Point:
    x: int
    y: float = 0.5
    _hidden: int = 3
    tag: typing.ClassVar[str] = "t"
    init_only: dataclasses.InitVar[int] = None

    def __post_init__(self, init_only):
        self.extra = [1, 2]


@dataclasses.dataclass(slots=True)
class Slotted:
    b: int
    a: typing.Any
    _c: int = 0
    tag: typing.ClassVar[str] = "t"


@dataclasses.dataclass
class Empty:
    pass


class NotADataclass(Point):
    pass


def test_types_and_subclasses():
    values = [Str("s"), Int(7), Dict(a=1), List([1, 2]), Tuple((1,)), (1, "a", None), (), Float(1.5), Pair(1, 2),
              True, False, None, Color.RED, Color.GREEN, Color.BLUE, Color.DAY, Level.LOW, Perm.R | Perm.W, Name.A,
              Point(1), Slotted(2, Point(3)), Empty(), NotADataclass(1), b"bytes", bytearray(b"x"), {1, 2},
              frozenset(), 1j, object(), uuid.UUID(int=12345678901234567890), uuid.UUID(int=0),
              [Point(1), {"p": Slotted(1, [Empty()])}]]
    for v in values:
        for option in (None, orjson.OPT_PASSTHROUGH_SUBCLASS, orjson.OPT_PASSTHROUGH_DATACLASS,
                       orjson.OPT_INDENT_2, orjson.OPT_SORT_KEYS):
            check(v, option=option)
            check([v, {"k": v}], option=option)


def test_dataclass_with_a_slot_never_set_is_not_a_crash():
    # orjson 3.13 crashes here; dumpb leaves the member out, as it does for a deleted attribute
    # of a dataclass with a __dict__.
    s = Slotted(1, 2)
    del s.a
    assert simdbridge.dumpb(s) == b'{"b":1}'
    p = Point(1)
    del p.y
    check(p)


def test_a_dataclass_that_changes_its_fields_while_written_is_not_a_crash():
    @dataclasses.dataclass(slots=True)
    class Mutating:
        a: int
        b: int

        def __getattribute__(self, name):
            if name == "a":  # the fields being iterated go, and their dict with them
                fields = type(self).__dataclass_fields__
                type(self).__dataclass_fields__ = {}
                fields.clear()
                import gc
                gc.collect()
            return object.__getattribute__(self, name)

    assert simdbridge.dumpb(Mutating(1, 2)) == b'{"a":1}'
    assert simdbridge.dumpb(Mutating(1, 2)) == b"{}"


def test_datetimes():
    utc = datetime.timezone.utc
    zones = [None, utc, datetime.timezone(datetime.timedelta(hours=5, minutes=30)),
             datetime.timezone(datetime.timedelta(hours=-5, minutes=-30, seconds=-7)),
             datetime.timezone(datetime.timedelta(hours=23, minutes=59)), zoneinfo.ZoneInfo("America/New_York"),
             zoneinfo.ZoneInfo("Asia/Kolkata")]
    moments = [datetime.datetime(2020, 1, 2, 3, 4, 5, 678901), datetime.datetime(1, 1, 1),
               datetime.datetime(9999, 12, 31, 23, 59, 59, 999999), datetime.datetime(2021, 7, 1, 12, 0, 0, 10)]
    options = [None, orjson.OPT_NAIVE_UTC, orjson.OPT_UTC_Z, orjson.OPT_NAIVE_UTC | orjson.OPT_UTC_Z,
               orjson.OPT_OMIT_MICROSECONDS, orjson.OPT_PASSTHROUGH_DATETIME, orjson.OPT_NON_STR_KEYS]
    for m in moments:
        for tz in zones:
            d = m.replace(tzinfo=tz)
            for option in options:
                check(d, option=option)
                check({"at": d, "day": d.date(), "time": d.time()}, option=option)
                check({d: 1, d.date(): 2, d.time(): 3}, option=(option or 0) | orjson.OPT_NON_STR_KEYS)
    check(datetime.time(1, 2, tzinfo=utc))
    check(datetime.time(1, 2, 3, 4), option=orjson.OPT_OMIT_MICROSECONDS)

    class NoOffset(datetime.tzinfo):
        def utcoffset(self, dt):
            return None

    check(datetime.datetime(2020, 1, 1, tzinfo=NoOffset()))


def test_dict_keys():
    keys = [1, -1, 2 ** 64 - 1, 2 ** 64, -(2 ** 63) - 1, 1.5, 1e20, math.nan, True, False, None, Str("s"), Int(4),
            Color.RED, Color.DAY, uuid.UUID(int=1), datetime.date(2020, 1, 1), (1, 2), frozenset()]
    for k in keys:
        for option in (None, orjson.OPT_NON_STR_KEYS, orjson.OPT_NON_STR_KEYS | orjson.OPT_SORT_KEYS):
            check({k: 1}, option=option)
            check({"b": 0, k: 1, "a": 2}, option=option)
    check({1: "a", "1": "b"}, option=orjson.OPT_NON_STR_KEYS)
    check({2: 1, 1: 2, "a": 3, 10: 4}, option=orjson.OPT_NON_STR_KEYS | orjson.OPT_SORT_KEYS)
    check({"b": 1, "a": 2, "é": 3, "\U0001f600": 4, "\uffff": 5, "": 6}, option=orjson.OPT_SORT_KEYS)


def test_repeated_keys_are_written_as_they_are_each_time():
    # Keys written before are copied from a cache (by hash and length, then address or
    # characters): keys that need an escape, keys too long to keep, and the same keys in every
    # record and call.
    keys = ["a", "Make_ID", 'q"uote', "back\\slash", "tab\t", "\x7f", "x" * 29, "y" * 30, "z" * 200, "é", "", "\u2028"]
    records = [{k: i for k in keys} for i in range(50)]
    for option in (None, orjson.OPT_INDENT_2, orjson.OPT_SORT_KEYS):
        for _ in range(2):
            check(records, option=option)
    # Strs made and freed one after the other often take the same address: a key must never be
    # taken for the one that was there before it (same length, other characters).
    for i in range(20000):
        k = "k%05d" % i
        assert simdbridge.dumpb({k: i}) == orjson.dumps({k: i})


def test_a_cached_key_is_taken_only_for_the_same_characters():
    # json.loads makes a str per key per call: equal keys of other objects share the cache's
    # entry by their characters. A key of the same hash and length with one character changed
    # (the hash forced equal, as no test could find a SipHash collision) is written as it is.
    # Only a str of this test's own has its hash changed: from two characters (a str of one is
    # the interpreter's shared singleton, whose hash every dict holding it relies on).
    hash_at = ctypes.c_ssize_t.from_address
    probe = "".join(["pr", "obe"])
    offset = next((at for at in range(0, 64, 8) if hash_at(id(probe) + at).value == hash(probe)), None)
    if offset is None:
        pytest.skip("no str's hash found in its first words")
    for n in range(2, 30):
        for at in range(n):
            first = "".join(chr(97 + (i * 7 + n) % 26) for i in range(n))
            again = "".join(list(first))  # the same characters, another object
            assert simdbridge.dumpb({first: 1}) == b'{"' + first.encode() + b'":1}'
            assert simdbridge.dumpb({again: 2}) == b'{"' + first.encode() + b'":2}'
            other = first[:at] + ("A" if first[at] != "A" else "B") + first[at + 1:]
            assert sys.getrefcount(other) == 2  # this name's and the call's: no one else holds it
            hash_at(id(other) + offset).value = hash(first)
            assert hash(other) == hash(first)
            assert simdbridge.dumpb({other: 3}) == b'{"' + other.encode() + b'":3}'


def test_default():
    check(1j, default=str)
    check({"a": {1, 2}}, default=sorted)
    check(1j, default=lambda o: 1 / 0)
    check(1j, default=lambda o: o)  # handed back again and again: the recursion limit
    check(1j, default=5)
    check(1j, default=None)

    class Chain:
        def __init__(self, n):
            self.n = n

    for n in (0, 1, 100, 253, 254, 255, 256, 400):
        check(Chain(n), default=lambda o: Chain(o.n - 1) if o.n > 0 else [o.n])
    check([Chain(3)] * 300, default=lambda o: Chain(o.n - 1) if o.n > 0 else "end")
    check(Point(1), default=str, option=orjson.OPT_PASSTHROUGH_DATACLASS)
    check(datetime.date(2020, 1, 1), default=lambda d: d.year, option=orjson.OPT_PASSTHROUGH_DATETIME)
    check(Str("x"), default=lambda s: "sub:" + str.__str__(s), option=orjson.OPT_PASSTHROUGH_SUBCLASS)


def nest(make, depth):
    value = 1
    for _ in range(depth):
        value = make(value)
    return value


def test_nesting_limits():
    for depth in (1, 253, 254, 255, 256, 1000):
        for make in (lambda v: [v], lambda v: {"k": v}, lambda v: Slotted(1, v), lambda v: Point(v),
                     lambda v: [{"k": v}]):
            check(nest(make, depth))
            check(nest(make, depth), option=orjson.OPT_INDENT_2)
    # A known difference: every container counts toward the limit here, tuples too; orjson
    # counts some tuples and not others (it writes 5000 nested tuples, and crashes past that).
    for depth in (254, 255):
        value = nest(lambda v: (v,), depth)
        if depth < 255:
            assert simdbridge.dumpb(value) == orjson.dumps(value)
        else:
            with pytest.raises(TypeError, match="Recursion limit reached"):
                simdbridge.dumpb(value)
    with pytest.raises(TypeError, match="Recursion limit reached"):
        simdbridge.dumpb(nest(lambda v: (v,), 100_000))
    cycle = []
    cycle.append(cycle)
    check(cycle)
    d = {}
    d["self"] = d
    check(d)


def test_bad_options_and_calls():
    for option in ("x", 1 << 20, -1, True, 1.0, 4096, 4095):
        check(1, option=option)
    with pytest.raises(TypeError):
        simdbridge.dumpb()
    with pytest.raises(TypeError):
        simdbridge.dumpb(1, nope=2)
    assert simdbridge.dumpb(1, None, orjson.OPT_APPEND_NEWLINE) == orjson.dumps(1, None, orjson.OPT_APPEND_NEWLINE)


def test_a_default_that_changes_the_list_being_written():
    items = [1, 1j, 2, 3]

    def shrink(o):
        items.clear()
        return "gone"

    assert simdbridge.dumpb(items, default=shrink) == b'[1,"gone"]'


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(min_value=-(2 ** 64), max_value=2 ** 64)
    | st.floats(allow_nan=True, allow_infinity=True) | st.text(max_size=30),
    lambda children: st.lists(children, max_size=5) | st.tuples(children, children)
    | st.dictionaries(st.text(max_size=10), children, max_size=5)
    | st.dictionaries(st.integers(min_value=-(2 ** 64), max_value=2 ** 64) | st.floats() | st.booleans()
                      | st.none(), children, max_size=4),
    max_leaves=30,
)
options = st.lists(st.sampled_from([orjson.OPT_INDENT_2, orjson.OPT_SORT_KEYS, orjson.OPT_NON_STR_KEYS,
                                    orjson.OPT_STRICT_INTEGER, orjson.OPT_APPEND_NEWLINE,
                                    orjson.OPT_PASSTHROUGH_SUBCLASS]), max_size=4)


@settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(value=json_values, flags=options)
def test_random_values(value, flags):
    option = 0
    for f in flags:
        option |= f
    check(value, option=option)


def test_reference_counts_and_memory():
    import gc
    import tracemalloc
    value = {"a": [1, 2.5, "é", None, True, Point(1), uuid.UUID(int=5), datetime.datetime(2020, 1, 1)],
             "b": {"c": Color.GREEN}}
    fails = [1j, {"k": {1, 2}}, "\ud800", 2 ** 70]
    for _ in range(1000):
        simdbridge.dumpb(value, option=orjson.OPT_SORT_KEYS | orjson.OPT_INDENT_2)
    gc.collect()  # what earlier tests left: its references to None must not move the count below
    before = sys.getrefcount(None), sys.getrefcount(value["a"][5]), sys.getrefcount(Color.GREEN)
    tracemalloc.start()
    try:
        start = tracemalloc.get_traced_memory()[0]
        for _ in range(20000):
            simdbridge.dumpb(value, option=orjson.OPT_SORT_KEYS | orjson.OPT_INDENT_2)
            simdbridge.dumpb(value, default=str, option=orjson.OPT_NON_STR_KEYS)
            for f in fails:
                try:
                    simdbridge.dumpb(f, default=lambda o: 1 / 0)
                except TypeError:
                    pass
        gc.collect()
        grown = tracemalloc.get_traced_memory()[0] - start
    finally:
        tracemalloc.stop()
    assert grown < 64 * 1024
    # Exceptions and their tracebacks pass through free lists, so None's count moves a little;
    # a reference lost or kept per call would move it by tens of thousands.
    assert abs(sys.getrefcount(None) - before[0]) < 100
    assert (sys.getrefcount(value["a"][5]), sys.getrefcount(Color.GREEN)) == before[1:]


def test_writer_edges():
    from conftest import writer_edge_floats, writer_edge_ints, writer_edge_strings
    strings = writer_edge_strings()
    check(strings)
    check({s: len(s) for s in strings})
    for v in writer_edge_ints():
        check(v)
        check([v, Int(v)], option=orjson.OPT_STRICT_INTEGER)
        check({v: v}, option=orjson.OPT_NON_STR_KEYS)
    floats = writer_edge_floats()
    check(floats)
    check({x: x for x in floats}, option=orjson.OPT_NON_STR_KEYS)


def test_list_items():
    from conftest import list_items
    for value in list_items(Str):
        check(value)
        check(value, option=orjson.OPT_PASSTHROUGH_SUBCLASS, default=str)


def test_dicts_with_a_table_for_any_keys():
    # orjson.loads makes objects of more than eight keys with CPython's table for keys of any
    # type (sized before the keys are known): written from their entries as str-keyed tables are.
    value = {"k%d" % i: [i, "v" * i, {"n": i, "f": i / 3}] for i in range(40)}
    presized = orjson.loads(orjson.dumps(value))
    check(presized)
    check([presized, value, {"a": 1, 2: 3}])
    check({"k%d" % i: i for i in range(12)} | {2: 3}, option=orjson.OPT_NON_STR_KEYS)

    # A default that changes the dict while it is written: what follows is the dict as it is then.
    def written(change):
        d = orjson.loads(orjson.dumps({"k%d" % i: i for i in range(12)}))
        d["k3"] = 1j
        try:
            return simdbridge.dumpb(d, default=lambda o: change(d))
        except TypeError as e:
            return str(e)

    first = b'{"k0":0,"k1":1,"k2":2,'
    assert written(lambda d: (d.clear(), "cleared")[1]) == first + b'"k3":"cleared"}'
    assert written(lambda d: (d.update({"x%d" % j: j for j in range(100)}), "grown")[1]) == (
        first + b'"k3":"grown",' + b",".join(b'"k%d":%d' % (i, i) for i in range(4, 12)) + b","
        + b",".join(b'"x%d":%d' % (j, j) for j in range(100)) + b"}")
    assert written(lambda d: (d.pop("k0"), d.pop("k11"), "deleted")[2]) == (
        first + b'"k3":"deleted",' + b",".join(b'"k%d":%d' % (i, i) for i in range(4, 11)) + b"}")
    assert written(lambda d: (d.update({7: 7}), "int key")[1]) == "Dict key must be str"


def test_sorted_and_non_str_keys_report_the_first_bad_key_as_orjson():
    # With OPT_SORT_KEYS or OPT_NON_STR_KEYS, keys are read (type, then UTF-8) one after the
    # other before any value: the first bad key is the error, whatever comes after it.
    for option in (orjson.OPT_SORT_KEYS, orjson.OPT_NON_STR_KEYS, orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS):
        assert check({"a": 1, "\ud800": 2, b"b": 3}, option=option)[0] == "error"
        assert check({"a": 1, b"b": 3, "\ud800": 2}, option=option)[0] == "error"
        assert check({"a": float("nan"), "\ud800": object()}, option=option)[0] == "error"
        assert check({"a": object(), "\ud800": 1}, option=option)[0] == "error"


def test_time_zone_libraries_and_sub_minute_offsets_as_orjson():
    import pytz
    from dateutil import tz as dateutil_tz

    moments = [datetime.datetime(2018, 1, 1, 2, 3, 4, tzinfo=pytz.timezone("Asia/Shanghai")),  # pytz's LMT, normalized
               datetime.datetime(1937, 1, 1, 12, 0, 27, 87, tzinfo=zoneinfo.ZoneInfo("Europe/Amsterdam")),  # +00:19:32
               datetime.datetime(1937, 1, 1, 12, 0, 27, 87, tzinfo=dateutil_tz.gettz("Europe/Amsterdam")),
               pytz.timezone("America/New_York").localize(datetime.datetime(2018, 6, 1, 2, 3, 4))]
    for offset in (19 * 60 + 29, 19 * 60 + 30, -(19 * 60 + 30), 59 * 60 + 30, -1, 1, 29, 30, 86399, -86399):
        moments.append(datetime.datetime(2000, 1, 1, tzinfo=datetime.timezone(datetime.timedelta(seconds=offset))))
    for option in (None, orjson.OPT_UTC_Z, orjson.OPT_OMIT_MICROSECONDS):
        for moment in moments:
            assert check([moment], option=option)[0] == "ok", moment

    class Failing(datetime.tzinfo):  # orjson 3.13 crashes on it; dumpb raises what utcoffset raised
        def utcoffset(self, dt):
            raise ValueError("no offset")

    with pytest.raises(ValueError, match="no offset"):
        simdbridge.dumpb(datetime.datetime(2000, 1, 1, tzinfo=Failing()))


def test_dataclass_with_slots_under_a_class_with_a_dict_as_orjson():
    class Base:
        pass

    @dataclasses.dataclass(frozen=True)
    class Slotted(Base):
        __slots__ = ("attr",)
        attr: float

    assert check(Slotted(1.0)) == ("ok", b'{"attr":1.0}')


def test_arguments_read_and_refused_as_orjson():
    for args, kwargs in [((), {}), ((1, 2, 3, 4), {}), ((1, None, None, None, None, None), {}), ((1,), {"x": 1}),
                         ((1, None), {"default": None}), ((1, None, None), {"option": 1}), ((), {"obj": 1}),
                         ((1,), {"option": "x"}), ((1,), {"default": None, "option": None}),
                         ((1, None, 2**21), {}), ((1, None, -1), {})]:
        assert outcome(simdbridge.dumpb, *args, **kwargs) == outcome(orjson.dumps, *args, **kwargs), (args, kwargs)


def test_non_str_keys_of_subclasses_as_orjson():
    class Float(float):
        pass

    class Int(int):
        pass

    class Str(str):
        pass

    for key in (Float(1.5), Int(3), Str("x"), 1.5, 3, True, None):
        check({key: 1}, option=orjson.OPT_NON_STR_KEYS)
        check({key: 1}, option=orjson.OPT_NON_STR_KEYS | orjson.OPT_SORT_KEYS)
