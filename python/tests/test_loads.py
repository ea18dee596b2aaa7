# SPDX-License-Identifier: Apache-2.0
"""loads() against json.loads: the corpus, JSONTestSuite, JSON_checker, random documents and
random corruptions of them. The same value, or the same exception with the same message and
position."""
import decimal
import json
import math
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import simdbridge
from conftest import corpus_files, data_dir, outcome, same


def check_same_outcome(data):
    expected = outcome(json.loads, data)
    actual = outcome(simdbridge.loads, data)
    if expected[0] == "ok":
        assert actual[0] == "ok", f"json accepts, simdbridge raised {actual[1:]}"
        same(actual[1], expected[1])
    else:
        assert actual[0] == "error", f"json raised {expected[1:]}, simdbridge returned a value"
        if expected[1] is json.JSONDecodeError:
            assert actual[1] is simdbridge.JSONDecodeError
            assert issubclass(actual[1], json.JSONDecodeError)
        else:
            assert actual[1] is expected[1]
        assert actual[2:] == expected[2:]


@pytest.mark.parametrize("path", corpus_files(), ids=lambda p: p.name)
def test_corpus_file_every_input_type(path):
    raw = path.read_bytes()
    expected = json.loads(raw)
    same(simdbridge.loads(raw), expected)
    same(simdbridge.loads(raw.decode("utf-8")), expected)
    same(simdbridge.loads(bytearray(raw)), expected)
    same(simdbridge.loads(memoryview(raw)), expected)
    same(simdbridge.load_file(path), expected)
    with open(path, "rb") as f:
        same(simdbridge.load(f), expected)


def minefield():
    return sorted(data_dir("jsonchecker", "minefield").glob("*.json"))


@pytest.mark.parametrize("path", minefield(), ids=lambda p: p.name)
def test_json_test_suite_as_bytes_and_str(path):
    raw = path.read_bytes()
    check_same_outcome(raw)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        return
    check_same_outcome(text)


@pytest.mark.parametrize("path", sorted(data_dir("jsonchecker").glob("*.json")), ids=lambda p: p.name)
def test_json_checker(path):
    check_same_outcome(path.read_bytes())


@pytest.mark.parametrize("text", [
    "", " ", "1", "-0", "-0.0", "1e400", "-1e400", "1E-400", "123456789012345678901234567890",
    "-9223372036854775809", "18446744073709551616", "9223372036854775807", "0.1e1", "1.5e+300",
    "NaN", "Infinity", "-Infinity", "[NaN, Infinity, -Infinity]", "nan", "+1", "01", "1.", ".1",
    '"\\ud800"', '"\\udc00\\ud800"', '"\\ud83d\\ude00"', '{"a":1,"a":2}', '{"a":1,"b":2,"a":3}',
    '"\\u0000"', '"\x01"', '"\\x"', "[1,]", "[1 2]", '{"a" 1}', "{,}", "tru", "nul", "[" * 5, "]",
    '{"a":1}x', "[1]\n\n  2", "\ufeff[1]", "[1]\x00", '"abc', "[\"\\u12\"]", "1 2", "true false",
    "\u00e9", '"\u00e9\U0001f600"', '{"\u00e9": "\u4e2d"}'
])
def test_edge_cases(text):
    check_same_outcome(text)
    check_same_outcome(text.encode("utf-8", "surrogatepass"))


@pytest.mark.parametrize("data", [
    b"\xff", b'"\xff"', b'["\xc3"]', b'"\xed\xa0\x80"', b'"\xf4\x90\x80\x80"', b'"\xc0\xaf"',
    '[1, "é"]'.encode("utf-16"), '[1]'.encode("utf-16-le"), '[1]'.encode("utf-32"), b"\xef\xbb\xbf[1]",
    '{"a": "\u4e2d"}'.encode("utf-16-be"),
])
def test_wrong_encodings_are_what_json_makes_of_them(data):
    check_same_outcome(data)


def test_not_json_input_types():
    for bad in (123, None, 1.5, [b"[]"], object()):
        check_same_outcome(bad)


def test_subclasses_of_str_and_bytes():
    class S(str):
        pass

    class B(bytes):
        pass

    same(simdbridge.loads(S('{"a": [1]}')), {"a": [1]})
    same(simdbridge.loads(B(b'{"a": [1]}')), {"a": [1]})


def test_hooks_and_options_are_json_s():
    text = '{"a": 1.5, "b": [2, {"c": 3}], "d": 1e400, "e": NaN}'
    kw_sets = [
        dict(object_hook=lambda d: sorted(d.items())),
        dict(object_pairs_hook=lambda pairs: pairs),
        dict(parse_float=decimal.Decimal),
        dict(parse_int=str),
        dict(parse_constant=lambda c: c),
        dict(object_hook=None, parse_float=None),
        dict(strict=False),
    ]
    for kw in kw_sets:
        exp, got = json.loads(text, **kw), simdbridge.loads(text, **kw)
        assert repr(got) == repr(exp), kw
    assert simdbridge.loads('["a\tb"]', strict=False) == ["a\tb"]
    with pytest.raises(simdbridge.JSONDecodeError):
        simdbridge.loads('["a\tb"]', strict=True)

    class Enc(json.JSONDecoder):
        def decode(self, s, *a):
            return ("custom", super().decode(s))

    assert simdbridge.loads("[1]", cls=Enc) == ("custom", [1])


def test_error_is_catchable_as_json_and_value_error():
    for exc in (simdbridge.JSONDecodeError, json.JSONDecodeError, ValueError):
        with pytest.raises(exc):
            simdbridge.loads("[1,")


def test_errors_carry_json_s_fields():
    doc = '{\n  "a": [1,\n   2,, 3]\n}'
    with pytest.raises(json.JSONDecodeError) as want:
        json.loads(doc)
    with pytest.raises(simdbridge.JSONDecodeError) as got:
        simdbridge.loads(doc)
    for field in ("msg", "doc", "pos", "lineno", "colno"):
        assert getattr(got.value, field) == getattr(want.value, field)
    assert str(got.value) == str(want.value)


def test_big_and_extreme_numbers_are_exact():
    for text in ["[" + ",".join(str(10 ** k) for k in range(0, 80)) + "]",
                 "[" + ",".join(str(-(2 ** k) - 1) for k in range(60, 70)) + "]",
                 "[" + ",".join(repr(x) for x in (5e-324, 2.2250738585072014e-308, 1.7976931348623157e308, 0.1, 1 / 3)) + "]",
                 "[1.00000000000000000000000000000001, 123456789012345678901234567890.5, 0.000000000000000000000000000000000000000001]"]:
        check_same_outcome(text)


def test_strings_of_every_length_and_width():
    # The decoder counts and widens sixteen bytes at a time: every length around those blocks,
    # with one character of each UTF-8 length (and each str width) at every position, as a
    # value, as a key, and as a key that is too long for the key cache.
    wide = ["\u00e9", "\u00ff", "\u0100", "\u042f", "\u07ff", "\u0800", "\u4e2d", "\uffff",
            "\U00010000", "\U0001f600", "\U0010ffff"]
    for length in range(0, 50):
        for ch in wide:
            for at in sorted({0, length // 2, max(length - 1, 0)}):
                text = ("a" * length)[:at] + ch + ("a" * length)[at + 1:]
                doc = {text: [text, text * 3], "k" + text * 5: text}
                data = json.dumps(doc, ensure_ascii=False)
                assert simdbridge.loads(data) == doc
                assert simdbridge.loads(data.encode()) == doc
                assert simdbridge.loads(json.dumps(doc)) == doc  # escaped
    # The ASCII check reads overlapping blocks and words: a non-ASCII character at every position
    # of every length up to five blocks, after and before ASCII strings in the same document.
    for length in range(1, 81):
        for ch in ("\u00e9", "\U0001f600"):
            for at in range(length):
                text = "a" * at + ch + "a" * (length - at - 1)
                doc = ["b" * length, text, "c" * length]
                assert simdbridge.loads(json.dumps(doc, ensure_ascii=False).encode()) == doc


def test_mixed_width_strings_against_json():
    # Runs of characters of one, two and three UTF-8 bytes in any order, so that characters
    # cross the decoder's 32-byte blocks at every offset; in a str of each width.
    rng = random.Random(7)
    pools = [[chr(c) for c in range(0x20, 0x7f)], [chr(c) for c in range(0xa0, 0x100)],
             ["\u0100", "\u03b1", "\u07ff", "\u0800", "\u4e2d", "\u9fff", "\ue000", "\uffff"]]
    for _ in range(4000):
        width = rng.randrange(3)
        alphabet = [ch for pool in pools[:width + 1] for ch in pool]
        text = "".join(rng.choice(alphabet) for _ in range(rng.randrange(0, 120)))
        doc = [text, {text: text}]
        assert simdbridge.loads(json.dumps(doc, ensure_ascii=False).encode()) == doc


def test_portable_decoder_in_a_subprocess():
    # Where the CPU has AVX-512 the tests above ran the vector decoder; the portable one runs
    # here, with SIMDBRIDGE_NO_AVX512 set, over the same tests.
    import os
    import subprocess
    import sys
    env = dict(os.environ, SIMDBRIDGE_NO_AVX512="1")
    code = ("import test_loads as t; t.test_strings_of_every_length_and_width(); "
            "t.test_mixed_width_strings_against_json()")
    subprocess.run([sys.executable, "-c", code], check=True, env=env, cwd=os.path.dirname(__file__))


# --- random documents ---------------------------------------------------------------------

finite_or_not = st.floats(allow_nan=True, allow_infinity=True)
json_text = st.text(alphabet=st.characters(codec=None), max_size=40)
json_values = st.recursive(
    st.none() | st.booleans() | st.integers(min_value=-(2 ** 70), max_value=2 ** 70) | finite_or_not | json_text,
    lambda children: st.lists(children, max_size=6) | st.dictionaries(json_text, children, max_size=6),
    max_leaves=40,
)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(value=json_values, ensure_ascii=st.booleans(), indent=st.sampled_from([None, 0, 2, "\t"]))
def test_random_documents(value, ensure_ascii, indent):
    text = json.dumps(value, ensure_ascii=ensure_ascii, indent=indent)
    check_same_outcome(text)
    try:
        check_same_outcome(text.encode("utf-8"))
    except UnicodeEncodeError:  # lone surrogates in the str, with ensure_ascii=False
        pass


@settings(max_examples=400, deadline=None)
@given(value=json_values, seed=st.integers(0, 2 ** 32 - 1), edits=st.integers(1, 3))
def test_random_corruptions(value, seed, edits):
    data = bytearray(json.dumps(value, ensure_ascii=False).encode("utf-8", "surrogatepass"))
    rng = random.Random(seed)
    for _ in range(edits):
        op = rng.randrange(3)
        at = rng.randrange(len(data) + 1)
        if op == 0 and at < len(data):
            data[at] = rng.choice(b'{}[],:"\\ 0123456789.eE+-tfnaxu\x00\x1f\x80\xff')
        elif op == 1:
            del data[at:at + rng.randrange(1, 4)]
        else:
            data[at:at] = bytes([rng.randrange(256)])
    check_same_outcome(bytes(data))
    try:
        check_same_outcome(bytes(data).decode("utf-8"))
    except UnicodeDecodeError:
        pass


@settings(max_examples=300, deadline=None)
@given(data=st.binary(max_size=64))
def test_random_bytes(data):
    check_same_outcome(data)


def test_truncations_of_a_corpus_file():
    raw = (data_dir("jsonexamples") / "twitter.json").read_bytes()[:20000]
    for end in range(0, len(raw), 97):
        check_same_outcome(raw[:end])


def test_deep_nesting_up_to_1024_levels_whatever_the_recursion_limit():
    # A known difference: json raises RecursionError from about sys.getrecursionlimit() levels.
    value = simdbridge.loads("[" * 1024 + "]" * 1024)
    depth = 0
    while value:
        value = value[0]
        depth += 1
    assert depth == 1023 and value == []
    with pytest.raises(RecursionError):
        simdbridge.loads("[" * 100_000 + "]" * 100_000)
    nested = '{"a":' * 1024 + "1" + "}" * 1024
    assert simdbridge.loads(nested)["a"]["a"]["a"]["a"] is not None


@pytest.mark.parametrize("limit", [1200, 1500, 3001, 3000])
@pytest.mark.parametrize("opener", ["[", '{"":', '[{"":', '{"":['])
def test_recursion_error_at_json_depth_naming_json_container(limit, opener):
    # Past the parser's depth, json decides: its RecursionError comes at the same depth, naming
    # the same container, as json.loads called from the same place.
    import sys

    def first_failing(fn):
        for n in range(limit - 40, limit + 5):
            got = outcome(fn, opener * n)
            if got[1] is RecursionError:
                return n, got[2]
        return None

    old = sys.getrecursionlimit()
    sys.setrecursionlimit(limit)
    try:
        expected = first_failing(json.loads)
        assert expected is not None
        assert first_failing(simdbridge.loads) == expected
        assert first_failing(simdbridge.parse) == expected
        assert first_failing(lambda s: simdbridge.loads(s.encode())) == first_failing(lambda s: json.loads(s.encode()))

        # A call site's first calls and its later, specialized ones raise alike.
        def direct(loads, doc):
            try:
                loads(doc)
            except RecursionError as e:
                return str(e)
            return None

        doc = opener * expected[0]
        assert [direct(simdbridge.loads, doc) for _ in range(60)] == [direct(json.loads, doc) for _ in range(60)]
    finally:
        sys.setrecursionlimit(old)


def test_nan_payloads_and_signs():
    got = simdbridge.loads("[NaN, -Infinity, -0.0, 0.0, -0]")
    assert math.isnan(got[0]) and got[1] == -math.inf
    assert math.copysign(1, got[2]) == -1 and math.copysign(1, got[3]) == 1 and got[4] == 0


# --- repeated shapes -------------------------------------------------------------------------
# A dict whose key sequence was seen before is copied from a template of that sequence and its
# values written in place (CPython 3.11). These check that such a dict is json's in every way
# that shows, and that nothing leaks from one dict into another or into later loads.

def test_objects_of_one_shape_are_independent_dicts():
    text = json.dumps([{"id": k, "name": f"n{k}", "tags": [k], "more": {"x": k}} for k in range(50)])
    first = simdbridge.loads(text)
    same(first, json.loads(text))
    first[0]["id"] = "changed"
    first[1]["added"] = 1
    del first[2]["name"]
    first[3].clear()
    again = simdbridge.loads(text)
    same(again, json.loads(text))
    assert all(again[k] is not again[k + 1] for k in range(49))
    assert first[4] == again[4] and first[4] is not again[4]


def test_shapes_that_share_a_first_key_and_a_size():
    # The same first key and member count (one template slot), different keys after it; keys
    # longer than 16 bytes that differ only past their 16th byte; duplicate keys.
    docs = []
    for k in range(40):
        docs.append({"id": k, "a": 1, "b": 2})
        docs.append({"id": k, "a": 1, "c": 2})
        docs.append({"id": k, "b": 1, "a": 2})
        docs.append({"profile_background_color": k, "profile_background_image": 0})
        docs.append({"profile_background_color": k, "profile_background_imagf": 0})
        docs.append({"profile_background_color": k, "profile_background_imag": 0})
    for rounds in range(3):
        text = json.dumps(docs)
        same(simdbridge.loads(text), json.loads(text))
        for doc in ['{"id": 1, "a": 1, "a": 2}', '{"id": 1, "id": 2, "b": 3}', '{"id": 9, "a": 1, "b": 2}',
                    '{"id": 1, "a": 1, "b": 2, "b": 5}', '{"a": {"a": {"a": {"a": 1}}}}',
                    '[{"é": 1, "a": 2}, {"é": 1, "a": 2}, {"e\\u0301": 1, "a": 2}]']:
            check_same_outcome(doc)
        docs.reverse()


def test_objects_of_one_shape_at_any_size_and_depth():
    for n in (1, 2, 5, 6, 8, 21, 63, 64, 65, 200):
        keys = [f"key_{i}_{'x' * (i % 30)}" for i in range(n)]
        doc = [{key: [i, {key: i}] if i % 3 == 0 else i for i, key in enumerate(keys)} for _ in range(5)]
        text = json.dumps(doc)
        for _ in range(3):
            same(simdbridge.loads(text), json.loads(text))


def test_gc_tracking_of_repeated_shapes_is_json_s():
    import gc
    for text in ['{"a": 1, "b": "x"}', '{"a": 1, "b": []}', '{"a": {}, "b": null}', '{"a": [{"c": 1}], "b": 2.5}']:
        for _ in range(3):  # the first from insertion, the others from the template
            ours, theirs = simdbridge.loads(text), json.loads(text)
            assert gc.is_tracked(ours) == gc.is_tracked(theirs), text


def test_repeated_shapes_keep_reference_counts():
    import sys
    text = json.dumps([{"id": k, "ok": None, "t": True, "s": "v", "inner": {"n": None}} for k in range(100)])
    simdbridge.loads(text)
    simdbridge.loads(text)
    before = sys.getrefcount(None), sys.getrefcount(True)
    for _ in range(200):
        simdbridge.loads(text)
    assert (sys.getrefcount(None), sys.getrefcount(True)) == before
