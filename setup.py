"""What pyproject.toml cannot say: the oracle's optional C accelerators, and the packages with
their data (the corpus ships as the package `binlog_conformance_corpus`).

Every `oracle/**/_*.c` is an accelerator: a compiled twin of one pure-Python hot path (row
images, JSONB text, -vvv row text), built as the module its path names. The Python code stays the
reference: oracle/speedups.py loads a twin only when it was built and BINLOG_ORACLE_PURE is not set,
every twin hands anything unusual (bad input, an error to report) back to the Python code, and
tests/test_speedups_identity.py checks that both give the same bytes on the whole corpus and the
external binlogs. A compiler failure is not fatal (optional=True): the install then runs pure
Python, which CI refuses (the same test).
"""
from pathlib import Path

from setuptools import Extension, find_packages, setup

HERE = Path(__file__).resolve().parent
CORPUS_PACKAGE = "binlog_conformance_corpus"  # corpus/ as installed package data (harness/packaged.py)
HAS_CORPUS = (HERE / "corpus").is_dir()


def accelerators() -> list[Extension]:
    sources = sorted(p.relative_to(HERE) for p in (HERE / "oracle").rglob("_*.c"))
    return [Extension(".".join(src.with_suffix("").parts), [str(src)], optional=True,
                      extra_compile_args=["-O2", "-std=c11", "-Wall"]) for src in sources]


def packages() -> list[str]:
    """The code, and the corpus where the source tree has it (spark_checks' environment archive
    installs the code alone, from a copy without corpus/)."""
    code = find_packages(include=["oracle*", "harness*", "generators*", "spark_checks*"])
    return code + [CORPUS_PACKAGE] if HAS_CORPUS else code


# Not Python, yet needed at run time: the canonical schema, the built-in parsers' manifests, locks
# and adapter sources, their expected failures, and the corpus (binlogs, expected decodes, cases,
# the findings' reproducers), so that an installed wheel gates a parser with no checkout.
PACKAGE_DATA = {
    "oracle": ["schema/*.json"],
    "harness": ["expected/*.txt", "parsers/**/*", "conformance-seconds.tsv"],
    "generators": ["scenarios/*"],
    CORPUS_PACKAGE: ["**/*"],
}

setup(ext_modules=accelerators(), packages=packages(),
      package_dir={CORPUS_PACKAGE: "corpus"} if HAS_CORPUS else {}, package_data=PACKAGE_DATA)
