# SPDX-License-Identifier: Apache-2.0
"""The package's face: its public names, the typed stub and py.typed shipped beside the
compiled module, the docstring's list of differences from json, and the GIL released."""
import ast
import json
import pathlib
import threading
import time

import pytest

import simdbridge
from simdbridge import _core
from conftest import data_dir, spec_vectors

PACKAGE = pathlib.Path(simdbridge.__file__).parent


def test_stub_and_marker_ship_with_the_package():
    assert (PACKAGE / "py.typed").exists()
    stub = ast.parse((PACKAGE / "_core.pyi").read_text())
    declared = {n.name for n in stub.body if isinstance(n, (ast.FunctionDef, ast.ClassDef))}
    declared |= {n.target.id for n in stub.body if isinstance(n, ast.AnnAssign)}  # constants
    public = {name for name in dir(_core) if not name.startswith("__")}
    assert public <= declared, f"not in _core.pyi: {sorted(public - declared)}"
    for cls in ("Object", "Array"):
        node = next(n for n in stub.body if isinstance(n, ast.ClassDef) and n.name == cls)
        methods = {n.name for n in node.body if isinstance(n, ast.FunctionDef)}
        runtime = {m for m in dir(getattr(_core, cls)) if not m.startswith("_")}
        assert runtime <= methods, f"{cls} methods not in the stub: {sorted(runtime - methods)}"


def test_public_names():
    for name in simdbridge.__all__:
        assert hasattr(simdbridge, name), name
    assert issubclass(simdbridge.JSONDecodeError, json.JSONDecodeError)
    assert issubclass(simdbridge.StreamError, simdbridge.JSONDecodeError)
    v = simdbridge.versions()
    assert v["simdbridge"] == simdbridge.__version__ and v["simdjson"].count(".") == 2


def test_docstring_lists_the_known_differences():
    doc = simdbridge.__doc__
    assert "Known differences from json" in doc
    for topic in ("memoryview", "1024 levels", "default", "parse()", "strict JSON", "GIL", "dump()"):
        assert topic in doc, topic


def test_the_gil_is_released_while_a_big_document_is_parsed():
    raw = (data_dir("jsonexamples") / "twitter.json").read_bytes() * 1
    text = b"[" + b",".join([raw] * 40) + b"]"  # about 25 MB: a parse of some milliseconds
    ticks = []
    stop = threading.Event()

    def ticker():
        while not stop.is_set():
            ticks.append(time.perf_counter())
            time.sleep(0.0005)

    t = threading.Thread(target=ticker)
    t.start()
    time.sleep(0.01)
    try:
        start = time.perf_counter()
        for _ in range(3):
            simdbridge.parse(text)  # a parse only: no Python object is built
        end = time.perf_counter()
    finally:
        stop.set()
        t.join()
    during = [x for x in ticks if start < x < end]
    # With the GIL held for the whole parse the ticker would stall for its full length (json.loads
    # lets it tick about 3% of the times it could); released, it ticks nearly every time.
    possible = (end - start) / 0.0005
    assert len(during) >= 0.25 * possible, (len(during), possible)


def test_checksum_gives_the_spec_s_vectors():
    rows, (stream_text, stream_want) = spec_vectors()
    for text, want in rows:
        assert "%016x" % simdbridge.checksum(text) == want, text
        assert "%016x" % simdbridge.checksum(text.encode()) == want, text
    assert "%016x" % simdbridge.checksum(stream_text, stream=True) == stream_want
    try:
        simdbridge.checksum(b'{"a": [1,]}')
    except simdbridge.StreamError as e:
        assert e.offset == 9
    else:
        raise AssertionError("no error")


def test_the_sanitized_run_tests_the_sanitized_build():
    # make test-python-sanitize: the instrumented extension, not the one installed in .venv.
    import os
    if not os.environ.get("SIMDBRIDGE_SANITIZED"):
        pytest.skip("not the sanitized run")
    assert "python-sanitize" in simdbridge._core.__file__
