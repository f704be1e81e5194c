"""The Python environment the executors run in, shipped with the job as PySpark's "Python
Package Management" guide documents: a virtual environment packed by venv-pack into a tar.gz,
sent with `spark.archives` / `--archives ARCHIVE#environment` and used through
`PYSPARK_PYTHON=./environment/bin/python`, so a worker needs nothing but Python and Java.

It holds this project (installed, with its C accelerators when a compiler is there) and its
dependencies, and the PyPI libraries of the named built-in parsers (mysql-replication for
python-mysql-replication[-file]), each at the version the driver has (pip constraints from the
driver's environment), so executors decode with what a local run uses. venv-pack keeps
bin/python a link to the base interpreter: the workers need the same Python at the same path
(PySpark's guide says the same of venv-pack). The archive is rebuilt only when its inputs (the
sources, the requirements, the interpreter) change."""
from __future__ import annotations

import hashlib
import importlib.metadata
import json
import os
import shutil
import subprocess
import sys
import tempfile
import venv
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Iterable

from harness.parsers.registry import BY_NAME, PARSERS

PROJECT_ROOT = Path(__file__).resolve().parents[1]
PROJECT_NAME = "binlog-conformance"
DEFAULT_ARCHIVE = PROJECT_ROOT / "build" / "spark_env.tar.gz"
ALIAS = "environment"  # the directory Spark unpacks the archive into, in each executor's cwd
EXECUTOR_PYTHON = f"./{ALIAS}/bin/python"
_SOURCES = ("oracle", "harness", "generators", "spark_checks")
_SOURCE_FILES = ("pyproject.toml", "setup.py", "README.md")
_SKIP = shutil.ignore_patterns("__pycache__", "*.pyc", "*.so", ".pytest_cache")


class PackingFailed(Exception):
    """The archive could not be built (venv-pack missing, pip failed); the message says why."""


@dataclass(frozen=True)
class Contents:
    """What an archive holds, written beside it as ARCHIVE.json."""

    key: str  # digest of the inputs: sources, requirements, interpreter
    python: str  # the base interpreter bin/python links to (the workers need it at that path)
    requirements: list[str]  # beyond the project itself
    installed: dict[str, str]  # every distribution in the environment: name -> version
    bytes: int


def parser_libraries(names: Iterable[str] | None = None) -> list[str]:
    """The PyPI libraries of the named built-in Python parsers (all of them when None); names
    that are not built-in, or not Python (command, Node peers), add nothing."""
    chosen = PARSERS if names is None else [BY_NAME[n] for n in names if n in BY_NAME]
    return sorted({p.library for p in chosen
                   if p.language == "Python" and p.runtime == "python" and PROJECT_NAME not in p.library})


def _driver_constraints() -> str:
    """name==version of every distribution the driver has (pip applies those it needs)."""
    pins = {}
    for dist in importlib.metadata.distributions():
        name = dist.metadata["Name"]
        if name and dist.version and name.lower() != PROJECT_NAME:
            pins[name.lower()] = f"{name}=={dist.version}"
    return "".join(pins[k] + "\n" for k in sorted(pins))


def _base_python() -> str:
    return str(Path(getattr(sys, "_base_executable", sys.executable)).resolve())


def _key(requirements: list[str], constraints: str) -> str:
    digest = hashlib.sha256()
    for part in (_base_python(), sys.version, *requirements, constraints):
        digest.update(part.encode() + b"\0")
    for package in _SOURCES:
        for path in sorted((PROJECT_ROOT / package).rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts and path.suffix not in (".pyc", ".so"):
                digest.update(str(path.relative_to(PROJECT_ROOT)).encode() + b"\0" + path.read_bytes())
    for name in _SOURCE_FILES:
        digest.update(name.encode() + b"\0" + (PROJECT_ROOT / name).read_bytes())
    return digest.hexdigest()


def contents_of(archive: Path) -> Contents | None:
    try:
        return Contents(**json.loads(archive.with_name(archive.name + ".json").read_text()))
    except (OSError, ValueError, TypeError):
        return None


def _copy_sources(to: Path) -> None:
    """The project as pip builds it, copied out so the build leaves nothing in the work tree."""
    for package in _SOURCES:
        shutil.copytree(PROJECT_ROOT / package, to / package, ignore=_SKIP)
    for name in _SOURCE_FILES:
        shutil.copy2(PROJECT_ROOT / name, to / name)


def _installed(python: Path) -> dict[str, str]:
    listed = subprocess.run([str(python), "-c", "import importlib.metadata as m, json; print(json.dumps("
                             "{d.metadata['Name']: d.version for d in m.distributions()}))"],
                            capture_output=True, text=True, check=True)
    return dict(sorted(json.loads(listed.stdout).items()))


def _say(message: str) -> None:
    print(f"spark environment: {message}", file=sys.stderr, flush=True)


def build(parsers: Iterable[str] | None = None, out: Path = DEFAULT_ARCHIVE, force: bool = False) -> Path:
    """The archive for `parsers` (their libraries, see parser_libraries), built unless the one at
    `out` was built from the same inputs."""
    try:
        import venv_pack  # the spark extra pins it
    except ImportError:
        raise PackingFailed("venv-pack is not installed (pip install -e '.[spark]')") from None
    requirements = parser_libraries(parsers)
    constraints = _driver_constraints()
    key = _key(requirements, constraints)
    current = contents_of(out)
    if not force and out.exists() and current is not None and current.key == key:
        _say(f"{out} is current ({current.bytes / 2**20:.1f} MiB)")
        return out
    out.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="spark-env-", dir=out.parent) as tmp:
        work = Path(tmp)
        env, source = work / "venv", work / "source"
        _say(f"creating a virtual environment for {', '.join([PROJECT_NAME, *requirements])}")
        venv.EnvBuilder(with_pip=False, symlinks=True).create(env)
        _copy_sources(source)
        (work / "constraints.txt").write_text(constraints)
        python = env / "bin" / "python"
        _say("pip install (the driver's versions as constraints)")
        pip = subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "--quiet",
                              "--disable-pip-version-check", "--no-warn-script-location",
                              "-c", str(work / "constraints.txt"), str(source), *requirements])
        if pip.returncode:
            raise PackingFailed(f"pip install into the environment failed (exit {pip.returncode}; "
                                    "its output is above)")
        installed, base = _installed(python), os.readlink(python)
        _say(f"packing {len(installed)} distributions with venv-pack")
        packed = work / "env.tar.gz"
        venv_pack.pack(prefix=str(env), output=str(packed), format="tar.gz")
        packed.chmod(0o644)
        packed.replace(out)
    contents = Contents(key, base, requirements, installed, out.stat().st_size)
    out.with_name(out.name + ".json").write_text(json.dumps(asdict(contents), indent=1) + "\n")
    _say(f"{out} ({contents.bytes / 2**20:.1f} MiB)")
    return out


def spark_conf(archive: Path) -> dict[str, str]:
    """What ships the archive with a job: Spark unpacks it as ./environment in each executor's
    directory (PYSPARK_PYTHON, read when the SparkContext starts, points into it)."""
    return {"spark.archives": f"{archive}#{ALIAS}"}
