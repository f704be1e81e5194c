"""The oracle's optional C accelerators, built by `pip install` (pyproject.toml holds the rest).

Each accelerator is a compiled twin of one pure-Python hot path (row images, JSONB text, -vvv row
text). The Python code stays the reference: oracle/speedups.py loads a twin only when it was
built and BINLOG_ORACLE_PURE is not set, every twin hands anything unusual (bad input, an error to
report) back to the Python code, and tests/test_speedups_identity.py checks that both give the
same bytes on the whole corpus and the external binlogs. A compiler failure is not fatal
(optional=True): the install then runs pure Python, which CI refuses (the identity test).
"""
from pathlib import Path

from setuptools import Extension, setup

HERE = Path(__file__).resolve().parent

ACCELERATORS = {  # module -> its C source; a source not yet in the tree is skipped
    "oracle.codecs._rowimage": "oracle/codecs/_rowimage.c",
    "oracle.codecs._jsonb": "oracle/codecs/_jsonb.c",
    "oracle._render": "oracle/_render.c",
}

setup(ext_modules=[
    Extension(name, [source], optional=True, extra_compile_args=["-O2", "-std=c11", "-Wall"])
    for name, source in ACCELERATORS.items() if (HERE / source).exists()
])
