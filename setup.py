"""The oracle's optional C accelerators, built by `pip install` (pyproject.toml holds the rest).

Every `oracle/**/_*.c` is an accelerator: a compiled twin of one pure-Python hot path (row
images, JSONB text, -vvv row text), built as the module its path names. The Python code stays the
reference: oracle/speedups.py loads a twin only when it was built and BINLOG_ORACLE_PURE is not set,
every twin hands anything unusual (bad input, an error to report) back to the Python code, and
tests/test_speedups_identity.py checks that both give the same bytes on the whole corpus and the
external binlogs. A compiler failure is not fatal (optional=True): the install then runs pure
Python, which CI refuses (the same test).
"""
from pathlib import Path

from setuptools import Extension, setup

HERE = Path(__file__).resolve().parent


def accelerators() -> list[Extension]:
    sources = sorted(p.relative_to(HERE) for p in (HERE / "oracle").rglob("_*.c"))
    return [Extension(".".join(src.with_suffix("").parts), [str(src)], optional=True,
                      extra_compile_args=["-O2", "-std=c11", "-Wall"]) for src in sources]


setup(ext_modules=accelerators())
