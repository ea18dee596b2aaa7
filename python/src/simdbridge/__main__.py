# SPDX-License-Identifier: Apache-2.0
"""python -m simdbridge: python -m json.tool's command, faster (see simdbridge.tool)."""
from .tool import run

run("python -m simdbridge")
