# SPDX-License-Identifier: Apache-2.0
"""parse(): lazy read-only views (Object, a Mapping; Array, a Sequence) with at_pointer,
as_dict and as_list; views stay valid while other documents are parsed."""
import collections.abc
import gc
import inspect
import json
import random
import sys
import threading
import types
import weakref
from collections.abc import Mapping, Sequence

import pytest

import simdbridge
from conftest import corpus_files, data_dir, same


def materialize(v):
    if isinstance(v, simdbridge.Object):
        return {k: materialize(x) for k, x in v.items()}
    if isinstance(v, simdbridge.Array):
        return [materialize(x) for x in v]
    return v


@pytest.mark.parametrize("path", corpus_files(), ids=lambda p: p.name)
def test_views_read_the_corpus_like_json(path):
    raw = path.read_bytes()
    expected = json.loads(raw)
    view = simdbridge.parse(raw)
    same(materialize(view), expected)
    same(view.as_dict() if isinstance(view, simdbridge.Object) else view.as_list(), expected)
    assert view == expected
    same(materialize(simdbridge.parse_file(path)), expected)


def test_mapping_protocol():
    doc = simdbridge.parse(b'{"a": 1, "b": [1, 2, {"c": null}], "a": 3, "d": "\\u00e9", "e": {}}')
    assert isinstance(doc, Mapping) and isinstance(doc, simdbridge.Object)
    assert len(doc) == 4
    assert list(doc) == ["a", "b", "d", "e"]  # as json: the last duplicate wins, first position kept
    assert doc["a"] == 3 and doc["d"] == "é"
    assert "a" in doc and "z" not in doc and 1 not in doc
    assert doc.get("z") is None and doc.get("z", 5) == 5 and doc.get("a", 5) == 3
    with pytest.raises(KeyError):
        doc["z"]
    with pytest.raises(KeyError):
        doc[1]
    with pytest.raises(KeyError):
        doc["\ud800"]
    assert list(doc.keys()) == ["a", "b", "d", "e"]
    assert [k for k, _ in doc.items()] == ["a", "b", "d", "e"]
    assert doc.items() >= {("a", 3)}
    assert list(doc.values())[0] == 3
    assert doc == {"a": 3, "b": [1, 2, {"c": None}], "d": "é", "e": {}}
    assert doc != {"a": 3}
    assert dict(doc)["b"] == [1, 2, {"c": None}]
    with pytest.raises(TypeError):
        doc["a"] = 1  # read-only
    with pytest.raises(TypeError):
        hash(doc)
    assert "Object" in repr(doc)


@pytest.mark.parametrize(
    "raw, cls, abc, present, absent",
    [(b'{"a": 1}', simdbridge.Object, Mapping, "items", "a"), (b"[1, [2]]", simdbridge.Array, Sequence, "index", "items")],
)
def test_view_attributes_as_objects_have_them(raw, cls, abc, present, absent):
    # The views answer __class__ themselves (isinstance asks it on every class it misses), and an
    # Array keeps the message of a missing attribute per name (a hasattr miss then formats
    # nothing); what a program sees is object's lookup.
    view = simdbridge.parse(raw)
    assert view.__class__ is cls and type(view) is cls
    assert object.__getattribute__(view, "__class__") is cls
    assert not isinstance(view, (str, int, float, bool, type(None), dict, list))
    assert isinstance(view, (str, abc)) and isinstance(view, (int, cls))
    assert hasattr(view, present) and callable(getattr(view, present))
    for _ in range(3):
        assert not hasattr(view, absent) and getattr(view, absent, 5) == 5
    for name in [absent, "append"] + [f"missing_{i}" for i in range(200)] + [absent]:
        with pytest.raises(AttributeError) as error:
            getattr(view, name)
        assert str(error.value) == f"'{cls.__module__}.{cls.__name__}' object has no attribute '{name}'"
        assert error.value.name == name and error.value.obj is view
    with pytest.raises(TypeError):
        view.__class__ = dict
    with pytest.raises(AttributeError):
        view.x = 1


@pytest.mark.parametrize(
    "raw, names",
    [
        (b'{"a": 1, "b": [2]}', ["items", "keys", "values", "get", "as_dict", "at_pointer"]),
        (b"[1, [2], 1]", ["index", "count", "as_list"]),
    ],
)
def test_view_methods_bind_as_objects_lookup_binds_them(raw, names):
    # A view's methods are bound from a free list of its own builtin_function_or_method subtype:
    # each lookup gives a method equal to the one object's lookup binds, held ones stay intact
    # while others are made and dropped, and none keeps its view once dropped.
    view = simdbridge.parse(raw)
    references = sys.getrefcount(view)
    for name in names:
        method = getattr(view, name)
        bound = type(view).__dict__[name].__get__(view)
        assert isinstance(method, types.BuiltinMethodType) and inspect.isbuiltin(method)
        assert method == bound and hash(method) == hash(bound) and repr(method) == repr(bound)
        assert method.__self__ is view and method.__name__ == name and method.__qualname__ == bound.__qualname__
        assert method.__doc__ == bound.__doc__ and not gc.is_tracked(method)
        reference = weakref.ref(method)
        del method, bound
        assert reference() is None
    other = simdbridge.parse(raw)
    held = [getattr(v, n) for _ in range(20) for v in (view, other) for n in names[:2]]
    for _ in range(100):  # made and dropped while the others are held
        assert hasattr(view, names[0])
    for i, method in enumerate(held):
        assert method.__name__ == names[:2][i % 2] and (method.__self__ is view) == (i % 4 < 2)
    del held, method
    assert sys.getrefcount(view) == references
    # Methods object gives every type bind the same way.
    assert view.__sizeof__() == object.__sizeof__(view) and view.__format__("") == str(view)
    assert view.__reduce_ex__ == object.__reduce_ex__.__get__(view) and view.__dir__() == object.__dir__(view)
    if isinstance(view, simdbridge.Object):
        assert view.get("a") == 1 and view.get("z", 5) == 5 and list(view.keys()) == ["a", "b"]
    else:
        assert view.index(1, 1) == 2 and view.count(1) == 2
    call = view.get if isinstance(view, simdbridge.Object) else view.index
    view.release()
    with pytest.raises(ValueError):
        call(1)


def test_iterators_and_items_views_held_together_read_their_own_containers():
    # Iterators and keys/items/values views are kept on free lists when dropped: many held at
    # once, of both kinds, each reads its own container, also after others were dropped.
    doc = simdbridge.parse(json.dumps([{"k%d" % i: i, "l": [i, i + 1]} for i in range(30)]))
    for _ in range(2):
        items = [o.items() for o in doc]
        iterators = [(iter(o.items()), iter(o["l"]), iter(o.keys()), iter(o.values())) for o in doc]
        for i, (pairs, elements, keys, values) in enumerate(iterators):
            assert materialize(list(pairs)) == [("k%d" % i, i), ("l", [i, i + 1])]
            assert list(elements) == [i, i + 1] and list(keys) == ["k%d" % i, "l"]
            assert materialize(list(values)) == [i, [i, i + 1]]
        assert [materialize(list(v)) for v in items] == [[("k%d" % i, i), ("l", [i, i + 1])] for i in range(30)]
        del items, iterators


@pytest.mark.parametrize("repeat", [False, True])
def test_large_objects_of_ids_differing_in_their_last_character(repeat):
    # Keys that share all but their last character (ids) are told apart by the index of a large
    # object and by its repeated-key check.
    keys = ["1385863%02d" % i for i in range(200)]
    members = [(k, i) for i, k in enumerate(keys)] + ([(keys[57], "again")] if repeat else [])
    text = "{" + ", ".join(f'"{k}": {json.dumps(v)}' for k, v in members) + "}"
    doc, expected = simdbridge.parse(text), json.loads(text)
    assert len(doc) == len(expected) and list(doc.items()) == list(expected.items())
    assert all(doc[k] == expected[k] for k in reversed(keys)) and "138586300x" not in doc


def test_sequence_protocol():
    arr = simdbridge.parse(b'[1, "two", 3.5, [4], {"five": 5}, null, true, 2, 2]')
    assert isinstance(arr, Sequence) and isinstance(arr, simdbridge.Array)
    assert len(arr) == 9
    assert arr[0] == 1 and arr[-1] == 2 and arr[1] == "two" and arr[5] is None and arr[6] is True
    assert arr[3] == [4] and isinstance(arr[3], simdbridge.Array)
    assert arr[1:3] == ["two", 3.5] and arr[::-4] == [2, {"five": 5}, 1]
    with pytest.raises(IndexError):
        arr[9]
    with pytest.raises(IndexError):
        arr[-10]
    with pytest.raises(TypeError):
        arr["x"]
    assert 3.5 in arr and 99 not in arr
    assert arr.index(2) == 7 and arr.index(2, 8) == 8 and arr.count(2) == 2
    with pytest.raises(ValueError):
        arr.index(99)
    assert list(reversed(arr))[0] == 2
    assert arr == [1, "two", 3.5, [4], {"five": 5}, None, True, 2, 2]
    with pytest.raises(TypeError):
        arr[0] = 1


def test_at_pointer():
    doc = simdbridge.parse(b'{"a": {"b": [10, {"c/d": 1, "e~f": 2, "": 3}]}, "0": "zero", "x": [[5]]}')
    assert doc.at_pointer("") == doc
    assert doc.at_pointer("/a/b/0") == 10
    assert doc.at_pointer("/a/b/1/c~1d") == 1
    assert doc.at_pointer("/a/b/1/e~0f") == 2
    assert doc.at_pointer("/a/b/1/") == 3
    assert doc.at_pointer("/0") == "zero"
    assert doc.at_pointer("/x/0/0") == 5
    assert doc["a"].at_pointer("/b/0") == 10
    assert doc["x"].at_pointer("/0") == [5]
    for missing in ("/nope", "/a/b/2", "/a/b/01", "/a/b/-", "/x/0/0/0", "/a/b/x"):
        with pytest.raises(KeyError):
            doc.at_pointer(missing)
    for bad in ("a", "/a~2", "/~"):
        with pytest.raises(ValueError):
            doc.at_pointer(bad)
    with pytest.raises(TypeError):
        doc.at_pointer(5)


def test_twitter_pointer_extraction_matches_json():
    raw = (data_dir("jsonexamples") / "twitter.json").read_bytes()
    doc, plain = simdbridge.parse(raw), json.loads(raw)
    statuses = doc["statuses"]
    got = [(s["id"], s["user"]["screen_name"]) for s in statuses]
    assert got == [(s["id"], s["user"]["screen_name"]) for s in plain["statuses"]]
    assert [doc.at_pointer(f"/statuses/{i}/user/screen_name") for i in range(len(statuses))] == [g[1] for g in got]


def test_views_stay_valid_while_other_documents_are_parsed():
    first = simdbridge.parse(b'{"name": "first", "list": [1, 2, 3], "deep": {"x": "kept"}}')
    inner = first["deep"]
    items = first["list"]
    iterator = iter(items)
    assert next(iterator) == 1
    for i in range(2000):  # the same thread's parser reused, loads and parse alike
        simdbridge.parse(b'{"name": "other %d", "list": [9, 9, 9, 9, 9, 9], "deep": {"x": "gone"}}' % i)
        simdbridge.loads(b'["clobber", "the", "buffers"]')
    assert first["name"] == "first" and inner["x"] == "kept" and items == [1, 2, 3]
    assert next(iterator) == 2


def test_a_view_keeps_its_document_alive():
    def make():
        return simdbridge.parse(b'{"a": {"b": [1, {"c": "still here"}]}}')["a"]["b"][1]

    views = [make() for _ in range(100)]
    gc.collect()
    for _ in range(100):
        simdbridge.parse(b'{"z": "' + b"x" * 1000 + b'"}')
    assert all(v["c"] == "still here" for v in views)


def test_views_of_a_changed_bytearray_keep_the_old_values():
    data = bytearray(b'{"k": "before", "n": [1, 2]}')
    view = simdbridge.parse(data)
    data[:] = b'{"k": "AFTER!", "n": [3, 4]}'
    assert view["k"] == "before" and view["n"] == [1, 2]


def test_scalars_and_unsupported_values_are_plain():
    assert simdbridge.parse(b"1") == 1 and simdbridge.parse(b'"s"') == "s" and simdbridge.parse(b"null") is None
    big = simdbridge.parse(b'{"big": 123456789012345678901234567890}')
    assert big == {"big": 123456789012345678901234567890}  # json's plain dict (see the docstring)
    with pytest.raises(simdbridge.JSONDecodeError) as e:
        simdbridge.parse(b'{"a": [1, 2,]}')
    with pytest.raises(json.JSONDecodeError) as expected:  # 12 up to Python 3.12, the comma's 11 from 3.13
        json.loads(b'{"a": [1, 2,]}')
    assert (e.value.pos, e.value.msg) == (expected.value.pos, expected.value.msg)


def test_views_across_threads():
    raw = (data_dir("jsonexamples") / "citm_catalog.json").read_bytes()
    expected = json.loads(raw)
    shared = simdbridge.parse(raw)
    errors = []

    def work():
        try:
            for _ in range(5):
                own = simdbridge.parse(raw)
                assert own == expected and shared == expected
        except Exception as e:  # noqa: BLE001
            errors.append(e)

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors


def test_release_frees_the_document_for_every_view_of_it():
    doc = simdbridge.parse(b'{"a": {"b": [1, 2, {"c": "x"}]}, "d": [3]}')
    inner = doc["a"]["b"]
    other = simdbridge.parse(b"[1, 2]")
    it = iter(inner)
    assert next(it) == 1
    assert inner.release() is None
    for call in (lambda: doc["a"], lambda: len(doc), lambda: "a" in doc, lambda: doc.get("a"), lambda: list(doc),
                 lambda: doc.as_dict(), lambda: doc.at_pointer("/a"), lambda: doc == {}, lambda: inner[0],
                 lambda: len(inner), lambda: inner[0:1], lambda: list(inner), lambda: next(it),
                 lambda: 1 in inner, lambda: inner.count(1), lambda: list(reversed(inner)),
                 lambda: doc.keys() == {"a"}, lambda: inner.as_list()):
        with pytest.raises(ValueError, match="released"):
            call()
    assert "released" in repr(doc) and "released" in repr(inner)
    doc.release()  # twice: nothing more
    assert other.as_list() == [1, 2]  # another document is untouched


def test_a_view_is_a_context_manager_that_releases():
    with simdbridge.parse(b'{"a": [1, 2]}') as doc:
        assert doc["a"].as_list() == [1, 2]
        kept = doc["a"]
    with pytest.raises(ValueError):
        kept[0]
    for view in simdbridge.parse_many(b'{"i": 1}\n{"i": 2}\n'):
        with view:
            assert view["i"] in (1, 2)
        with pytest.raises(ValueError):
            view["i"]


@pytest.mark.parametrize("members", [0, 1, 2, 15, 16, 17, 40, 300])
def test_keys_values_items_of_objects_small_and_indexed_as_json(members):
    # Up to 16 members an object is walked on its tape; past that, through its index: both give
    # json's dict, each key once at its first position with its last value.
    rng = random.Random(members)
    pairs = [(rng.choice("abcdefghijklmnopqrstuvwxyz\u00e9\u6f22") * rng.randint(1, 20), i) for i in range(members)]
    text = "{" + ",".join('"%s":%d' % kv for kv in pairs) + "}"
    expected = json.loads(text)
    for touch_first in (False, True):
        doc = simdbridge.parse(text)
        if touch_first:  # lookups first: a large object then has its index before it is iterated
            for k in list(expected)[:6]:
                assert doc[k] == expected[k]
        assert list(doc.items()) == list(expected.items())
        assert list(doc.keys()) == list(expected.keys())
        assert list(doc.values()) == list(expected.values())
        assert list(doc) == list(expected) and len(doc) == len(expected)
        assert doc.items() == expected.items() and doc.keys() == expected.keys()
        assert isinstance(doc.items(), collections.abc.ItemsView) and doc.items()._mapping is doc
        # The views iterate with the Object's own iterator, from their type's slot; a view holds
        # nothing that could make a cycle, so the collector does not track it.
        for view in (doc.items(), doc.keys(), doc.values()):
            assert type(iter(view)).__name__ == "ObjectIterator" and not gc.is_tracked(view)
        it = iter(doc.items())
        del doc
        assert list(it) == list(expected.items())  # an iterator keeps its object's document alive


@pytest.mark.parametrize("members", [2, 3, 8, 16, 17, 40, 512, 513, 700])
@pytest.mark.parametrize("repeat", [None, "first", "middle", "last"])
def test_objects_with_and_without_a_repeated_key_read_as_json(members, repeat):
    # An object whose keys are all distinct is read straight off its tape; one with a repeated
    # key (or past 512 members) through its index. Half the keys share their length and their
    # first and last eight bytes, so that the check for repeats sees its hashes collide.
    keys = ["prefix__%04d__suffix" % i if i % 2 else "k%d" % i for i in range(members)]
    pairs = [(k, i) for i, k in enumerate(keys)]
    if repeat is not None:
        at = {"first": 0, "middle": members // 2, "last": members - 1}[repeat]
        pairs.insert(min(at + 1, len(pairs)), (keys[at], -1))  # after its first appearance
        pairs.append((keys[members // 3], -2))
    text = "{" + ",".join('"%s":%d' % kv for kv in pairs) + "}"
    expected = json.loads(text)
    for order in ("iterate", "length", "lookup"):
        doc = simdbridge.parse(text)
        if order == "length":
            assert len(doc) == len(expected)
        if order == "lookup":
            for k in keys[:8]:
                assert doc[k] == expected[k] and k in doc
        assert list(doc.items()) == list(expected.items())
        assert list(doc) == list(expected) and len(doc) == len(expected)
        assert [doc[k] for k in keys] == [expected[k] for k in keys]
        assert "prefix__9999__suffix" not in doc


@pytest.mark.parametrize("members", [3, 16, 17, 40])
def test_items_pairs_kept_are_whole_when_the_iterator_refills_dropped_ones(members):
    # The iterator fills its last pair again where nothing else holds it (as dict's does): a
    # pair the caller keeps is never changed or handed out again, whether iteration keeps every
    # pair, holds one, or unpacks and drops each.
    expected = {"k%d" % i: [i] if i % 3 == 0 else {"v": i} if i % 3 == 1 else "s%d" % i for i in range(members)}
    doc = simdbridge.parse(json.dumps(expected))
    kept = list(doc.items())  # list() holds every pair: none may be refilled
    assert len({id(p) for p in kept}) == members
    assert [(k, materialize(v)) for k, v in kept] == list(expected.items())
    it = iter(doc.items())
    first = next(it)
    assert first[0] == "k0"
    del first  # dropped: the iterator may fill it again
    held = next(it)
    third = next(it)
    assert id(third) != id(held) and held == ("k1", doc["k1"]) and third[0] == "k2"  # held: a new pair
    seen = [(k, materialize(v)) for k, v in doc.items()]  # unpacked and dropped: refilled
    assert seen == list(expected.items())


def test_view_classes_made_and_subclassed_in_python():
    # The views' classes are made and freed natively; made from Python, or subclassed, they
    # behave as collections.abc's, and the reference each view holds to its class is released.
    doc = simdbridge.parse('{"a": 1, "b": [1, 2], "c": {"d": null}}')
    expected = json.loads('{"a": 1, "b": [1, 2], "c": {"d": null}}')
    for view, of_dict in ((doc.items(), expected.items()), (doc.keys(), expected.keys()), (doc.values(), None)):
        cls = type(view)
        made = cls(doc)
        assert gc.is_tracked(made) and made._mapping is doc

        class Sub(cls):
            pass

        sub = Sub(doc)
        sub.extra = 1 if hasattr(sub, "__dict__") else None
        for v in (made, sub):
            assert materialize(list(v)) == materialize(list(view)) and len(v) == 3
            if of_dict is not None:
                assert v == of_dict
        references = sys.getrefcount(cls)
        for _ in range(1000):
            view = doc.items() if cls is type(doc.items()) else doc.keys() if cls is type(doc.keys()) else doc.values()
            del view
        assert sys.getrefcount(cls) == references
        del made, sub


def test_repeated_keys_are_one_str_as_json_whatever_their_characters():
    text = '[{"a_key": 1, "b_\u00e9": 2, "%s": 3}, {"a_key": 3, "b_\u00e9": 4, "%s": 5}]' % ("\u6f22" * 30, "\u6f22" * 30)
    for loads in (json.loads, simdbridge.loads, lambda s: simdbridge.parse(s).as_list()):
        first, second = loads(text)
        assert [a is b for a, b in zip(first, second)] == [True, True, True]
    doc = simdbridge.parse(text)
    assert [a is b for a, b in zip(doc[0], doc[1])] == [True, True, True]
