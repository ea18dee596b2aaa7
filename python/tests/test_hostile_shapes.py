# SPDX-License-Identifier: Apache-2.0
"""Adversarial shapes (deep nesting, a million empty objects, a million one-character keys, long
runs of escapes, huge exponents, long numbers): the peak memory of each function stays within a
fixed factor of the input, and its time linear. Each measurement runs in a new process (the
peak resident size of a process only grows)."""
import os
import subprocess
import sys
import time

import pytest

import simdbridge

SHAPES = {
    "deep nesting": "'[' * (n // 2) + ']' * (n // 2)",
    "empty objects": "'[' + '{},' * (n // 3) + '{}]'",
    "one-character keys": "'{' + '\"a\":0,' * (n // 6) + '\"b\":1}'",
    "escapes": "'[\"' + '\\\\u00e9\\\\n\\\\\"' * (n // 10) + '\"]'",
    "huge exponents": "'[' + '1e999999999,' * (n // 12) + '0]'",
    "long numbers": "'[' + ('7' * 900 + ',') * (n // 901) + '0]'",
    "ordinary records": "'[' + '{\"id\":12345,\"name\":\"abcdefgh\",\"tags\":[\"x\",\"y\"]},' * (n // 48) + '{}]'",
}

PROBE = """
import resource, sys, simdbridge
simdbridge.set_limits(max_depth=2**32 - 1)
n = int(sys.argv[1])
data = ({shape}).encode()
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
{call}
after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(len(data), (after - before) * 1024)
"""


def peak(shape, call, n=8 << 20):
    """(input bytes, growth of the peak resident size) of one call in a new process."""
    code = PROBE.format(shape=SHAPES[shape], call=call)
    out = subprocess.run([sys.executable, "-c", code, str(n)], capture_output=True, text=True, timeout=300,
                         env=dict(os.environ))
    assert out.returncode == 0, out.stderr
    size, grown = map(int, out.stdout.split())
    return size, grown


@pytest.mark.skipif(os.environ.get("SIMDBRIDGE_SANITIZED") == "1", reason="the sanitizer's allocator keeps freed memory")
@pytest.mark.parametrize("shape", SHAPES)
def test_memory_within_a_fixed_factor_of_the_input(shape):
    # The core's buffers are sized by the input's length (see the core's hostile_shapes_test):
    # at most about 30 bytes a byte touched, for a structural at every byte.
    size, grown = peak(shape, "simdbridge.checksum(data)")
    assert grown <= 32 * size + (16 << 20), f"checksum: {grown / size:.1f} bytes a byte"
    # A view keeps its document: simdjson's tape and strings besides the parser's buffers.
    size, grown = peak(shape, "view = simdbridge.parse(data)")
    assert grown <= 40 * size + (16 << 20), f"parse: {grown / size:.1f} bytes a byte"


@pytest.mark.skipif(os.environ.get("SIMDBRIDGE_SANITIZED") == "1", reason="the sanitizer's allocator keeps freed memory")
@pytest.mark.parametrize("shape", [s for s in SHAPES if s != "deep nesting"])  # json: RecursionError
def test_loads_peaks_near_json(shape):
    # loads builds json's objects (a dict per empty object is json's cost too): its peak is
    # json.loads's, plus the parse's buffers.
    size, ours = peak(shape, "value = simdbridge.loads(data)")
    _, theirs = peak(shape, "import json; value = json.loads(data)")
    assert ours <= theirs + 32 * size + (16 << 20), f"loads {ours / size:.1f}, json {theirs / size:.1f} bytes a byte"


def time_of(f, data):
    start = time.perf_counter()
    f(data)
    return time.perf_counter() - start


@pytest.mark.skipif(os.environ.get("SIMDBRIDGE_SANITIZED") == "1", reason="measured without the sanitizers")
@pytest.mark.parametrize("shape", SHAPES)
def test_time_is_linear(shape):
    previous = simdbridge.set_limits(max_depth=2**32 - 1)
    try:
        make = eval("lambda n: (" + SHAPES[shape] + ").encode()")
        one, four = make(1 << 20), make(4 << 20)
        for name, f in (("checksum", simdbridge.checksum), ("parse", simdbridge.parse)):
            f(one)
            t1 = t4 = float("inf")
            for _ in range(11):  # taking turns: both see the machine alike (the least of each)
                t1, t4 = min(t1, time_of(f, one)), min(t4, time_of(f, four))
            # Linear is 4 times the time, quadratic 16; the bound between leaves room for caches.
            assert t4 / t1 < 8.0, f"{name}: {t1:.4f} s, then {t4:.4f} s for four times the input"
    finally:
        simdbridge.set_limits(**previous)
