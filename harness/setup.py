"""`python -m harness setup`: make the built-in reference parsers runnable on a fresh Debian
machine, with the steps .ci/run takes (one script, so the two cannot drift):

1. `.ci/install-docker.sh`: Debian's docker.io (started with --bridge=none --iptables=false),
   debootstrap, mariadb-client (the host's mariadb-binlog), npm and maven (they fetch the pinned
   MySQL 5.6/5.7/8.0 packages);
2. `python -m generators images build`: the local server images (generators/server_registry.py),
   MySQL 9.7's among them (its mysqlbinlog is the mysqlbinlog parser). Cached: a no-op when the
   images are current;
3. the toolchains of the registry's runtime parsers (each runtime module's `tools`: node and
   npm, java and mvn, go, cargo), from Debian where one is not on PATH. `python -m harness peers
   install` then builds the parsers with them. And Debian's chromium, that renders the HTML
   report in its browser test (tests/test_report_browser.py).

Both print their progress as they go. Set-up needs root (or sudo) and apt; where either is
missing it says so and returns 2, and the parsers that need it stay unavailable, each naming
this command.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
INSTALL_SCRIPT = REPO / ".ci" / "install-docker.sh"
COMMAND = "python -m harness setup"
# The Debian package that provides each toolchain command a runtime needs (Runtime.tools).
APT_PACKAGE = {"node": "nodejs", "npm": "npm", "java": "default-jdk-headless", "javac": "default-jdk-headless",
               "mvn": "maven", "go": "golang-go", "cargo": "cargo", "chromium": "chromium"}


def impossible_reason() -> str | None:
    """Why set-up cannot run on this machine, or None."""
    if not INSTALL_SCRIPT.is_file():
        return f"{INSTALL_SCRIPT} is missing (run from a clone of the repository)"
    if not shutil.which("apt-get"):
        return "no apt-get (not a Debian machine): install Docker and mariadb-client by hand"
    if os.geteuid() != 0 and not shutil.which("sudo"):
        return "not root and no sudo: apt-get and dockerd need root"
    return None


def _step(title: str, argv: list[str]) -> int:
    print(f"== setup: {title}", file=sys.stderr, flush=True)
    return subprocess.run(argv, cwd=REPO, check=False).returncode


def setup() -> int:
    reason = impossible_reason()
    if reason:
        print(f"setup impossible here: {reason}", file=sys.stderr)
        return 2
    if _step("Docker engine, mariadb-client, npm, maven (.ci/install-docker.sh)",
             ["bash", str(INSTALL_SCRIPT)]) != 0:
        print("setup: the Docker engine did not come up (see above)", file=sys.stderr)
        return 1
    if _step("local server images (python -m generators images build)",
             [sys.executable, "-m", "generators", "images", "build"]) != 0:
        print("setup: the image build failed (see above)", file=sys.stderr)
        return 1
    packages = toolchain_packages()
    if packages and _apt_install(packages) != 0:
        print(f"setup: apt-get could not install {' '.join(packages)} (see above)", file=sys.stderr)
        return 1
    print("== setup: done", file=sys.stderr)
    return 0


def missing_tools() -> list[str]:
    """The toolchain commands of the registry's runtimes that are not on PATH, and chromium (the
    report's browser test). A runtime whose module is not importable here is left out (its
    parsers say so themselves)."""
    from .parsers.builds import runtime_entries
    from .runtimes import runtime_of
    tools: list[str] = []
    for entry in runtime_entries():
        try:
            runtime = runtime_of(entry)
        except ImportError:
            continue
        tools += [t for t in runtime.tools if t not in tools and shutil.which(t) is None]
    from .reports import browser
    return tools + (["chromium"] if browser.find() is None else [])


def toolchain_packages() -> list[str]:
    return sorted({APT_PACKAGE.get(t, t) for t in missing_tools()})


def _apt_install(packages: list[str]) -> int:
    sudo = [] if os.geteuid() == 0 else ["sudo"]
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    install = [*sudo, "apt-get", "install", "-y", "--no-install-recommends", *packages]
    print(f"== setup: runtime toolchains ({' '.join(packages)})", file=sys.stderr, flush=True)
    if subprocess.run(install, cwd=REPO, env=env, check=False).returncode == 0:
        return 0
    subprocess.run([*sudo, "apt-get", "update"], cwd=REPO, env=env, check=False)
    return subprocess.run(install, cwd=REPO, env=env, check=False).returncode


def check() -> int:
    """Say what set-up would do; 0 when nothing is missing."""
    from generators import docker_env, tools
    missing = []
    if docker_env.unavailable_reason():
        missing.append("Docker engine")
    elif not docker_env.image_exists(tools.MYSQL_IMAGE):
        missing.append(f"image {tools.MYSQL_IMAGE}")
    if not shutil.which("mariadb-binlog"):
        missing.append("mariadb-binlog (mariadb-client)")
    missing += [f"{t} ({APT_PACKAGE.get(t, t)})" for t in missing_tools()]
    print("nothing missing" if not missing else f"missing: {', '.join(missing)} ({COMMAND})")
    return 0 if not missing else 1
