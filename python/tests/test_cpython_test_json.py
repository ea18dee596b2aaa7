# SPDX-License-Identifier: Apache-2.0
"""CPython's own test_json, with simdbridge in place of json.

test.test_json runs each test twice, against json's pure-Python code (PyTest) and against its C
accelerations (CTest). Here CTest's json, loads, dumps and JSONDecodeError are simdbridge's, and
the CTest half runs; test_tool's commands run `python -m simdbridge` for `python -m json.tool`.
The tests left out read json's private internals, which simdbridge does not replace (it leaves
them json's own); each is listed with its reason, and the list must name tests that exist.
"""
import importlib
import subprocess
import sys
import unittest

import pytest

import simdbridge

test_json = pytest.importorskip("test.test_json", reason="this Python ships no test package")

# Whole classes of test_json that test json's private C functions (scanstring,
# encode_basestring_ascii, c_make_encoder, c_make_scanner), not the functions of json's API.
INTERNALS = {
    "TestCScanstring": "json.decoder.scanstring, a private function simdbridge leaves as json's",
    "TestCEncodeBasestringAscii": "json.encoder.encode_basestring_ascii, private, left as json's",
    "TestSpeedups": "asserts that json's private functions come from _json",
    "TestDecode": "test_speedups.TestDecode: json.scanner.c_make_scanner and JSONDecoder internals",
    "TestEncode": "test_speedups.TestEncode: json.encoder.c_make_encoder, private",
    "TestCTest": "asserts that json's private functions come from _json",
}

MODULES = ["test_decode", "test_default", "test_dump", "test_encode_basestring_ascii", "test_enum",
           "test_fail", "test_float", "test_indent", "test_pass1", "test_pass2", "test_pass3",
           "test_recursion", "test_scanstring", "test_separators", "test_speedups", "test_unicode"]


def ctest_cases():
    """Every test of a CTest class of test_json, as (class name, test)."""
    loader = unittest.TestLoader()
    out = []
    classes = [test_json.TestCTest]
    for name in MODULES:
        module = importlib.import_module("test.test_json." + name)
        classes += [c for c in vars(module).values()
                    if isinstance(c, type) and issubclass(c, test_json.CTest) and c is not test_json.CTest]
    for cls in classes:
        for test in loader.loadTestsFromTestCase(cls):
            out.append((cls.__name__, test))
    return out


@pytest.fixture
def json_is_simdbridge(monkeypatch):
    monkeypatch.setattr(test_json.CTest, "json", simdbridge)
    monkeypatch.setattr(test_json.CTest, "loads", staticmethod(simdbridge.loads))
    monkeypatch.setattr(test_json.CTest, "dumps", staticmethod(simdbridge.dumps))
    monkeypatch.setattr(test_json.CTest, "JSONDecodeError", simdbridge.JSONDecodeError)


def run(tests):
    suite = unittest.TestSuite(tests)
    result = unittest.TestResult()
    suite.run(result)
    problems = ["%s\n%s" % (t.id(), tb) for t, tb in result.failures + result.errors]
    return result.testsRun, problems


def test_the_internals_left_out_exist():
    names = {cls for cls, _ in ctest_cases()}
    assert set(INTERNALS) <= names, set(INTERNALS) - names


def test_cpython_test_json_ctest_half(json_is_simdbridge):
    tests = [t for cls, t in ctest_cases() if cls not in INTERNALS]
    ran, problems = run(tests)
    assert ran >= 60
    assert not problems, "\n".join(problems)


def test_cpython_test_json_tool(monkeypatch):
    # test_tool runs `python -m json.tool` in subprocesses: the same commands run simdbridge's.
    tool = importlib.import_module("test.test_json.test_tool")
    script_helper = importlib.import_module("test.support.script_helper")

    def ours(args):
        return [("simdbridge" if a == "json.tool" else a) for a in args]

    real_ok, real_popen, real_run = script_helper.assert_python_ok, subprocess.Popen, subprocess.run
    monkeypatch.setattr(tool, "assert_python_ok", lambda *a, **k: real_ok(*ours(a), **k))

    class Popen(real_popen):
        def __init__(self, args, *a, **k):
            super().__init__(ours(args), *a, **k)

    monkeypatch.setattr(tool.subprocess, "Popen", Popen)
    monkeypatch.setattr(tool.subprocess, "run", lambda args, *a, **k: real_run(ours(args), *a, **k))
    tests = list(unittest.TestLoader().loadTestsFromTestCase(tool.TestTool))
    # json.tool's help names the program and describes json; the rest must match word for word.
    tests = [t for t in tests if t._testMethodName != "test_help_flag"]
    ran, problems = run(tests)
    assert ran >= 14
    assert not problems, "\n".join(problems)
