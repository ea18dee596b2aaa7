# SPDX-License-Identifier: Apache-2.0
"""A pytest plugin: `import orjson` gives orjson with its dumps replaced by simdbridge.dumpb.

Loaded (-p orjson_is_simdbridge) before orjson's own test suite is collected, so that every
orjson.dumps of that suite runs dumpb; loads, the option flags, Fragment and the error classes
stay orjson's.
"""
import os
import sys
import types

import orjson

import simdbridge

if os.environ.get("SIMDBRIDGE_SANITIZED"):  # make test-python-sanitize: its instrumented build
    assert "python-sanitize" in simdbridge._core.__file__, simdbridge._core.__file__

shim = types.ModuleType("orjson", orjson.__doc__)
shim.__dict__.update({k: v for k, v in vars(orjson).items() if k not in ("__name__", "__doc__", "__spec__", "__loader__")})
shim.dumps = simdbridge.dumpb
sys.modules["orjson"] = shim
