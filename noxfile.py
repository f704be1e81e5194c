"""Sessions: tests (the CI gate), conformance (the main job), bench, generate, fuzz, spark."""
from __future__ import annotations

import nox

nox.options.sessions = ["tests"]
nox.options.reuse_existing_virtualenvs = True

EXTERNAL = "../shared/external-binlogs"


@nox.session
def tests(session: nox.Session) -> None:
    """The whole test suite. With CI=true, tests that need a server fail instead of skipping."""
    session.install("-e", ".[test,servers]")
    session.run("pytest", "-ra", *session.posargs)


@nox.session
def conformance(session: nox.Session) -> None:
    """Until the harness lands: the oracle over corpus/ and the external binlogs."""
    session.install("-e", ".")
    session.run("python", "-m", "oracle", "survey", "corpus", EXTERNAL, *session.posargs)
