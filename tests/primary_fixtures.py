"""Helpers for tests of `python -m harness serve`: run the real command in a subprocess on a free
port, and run the real clients against it (mysqlbinlog from the binlog-mysql:9.7 image with host
networking, the host's or an image's mariadb-binlog)."""
from __future__ import annotations

import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from generators import docker_env
from generators.profiles import get as get_profile
from generators.tools import run_against_server
from harness.wire_faults.binlogs import with_big_query  # noqa: F401  (tests build big binlogs with it)
from tests.server_fixtures import require_image

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "corpus"
PASSWORD = "s3cret-pw"


@dataclass
class Served:
    host: str
    port: int
    proc: subprocess.Popen[bytes]
    stderr_path: Path

    def stderr(self) -> str:
        return self.stderr_path.read_text(errors="replace")

    def connect(self, timeout: float = 10) -> socket.socket:
        return socket.create_connection((self.host, self.port), timeout=timeout)


@contextmanager
def serving(paths: Sequence[Path | str], tmp_path: Path, *extra: str, password: str = PASSWORD) -> Iterator[Served]:
    """`python -m harness serve PATHS --port 0`; on exit SIGTERM, which must end it with 0 and
    without a traceback."""
    err = tmp_path / f"serve-{time.monotonic_ns()}.stderr"
    args = [sys.executable, "-m", "harness", "serve", *map(str, paths), "--port", "0", *extra]
    if password:
        args += ["--password", password]
    with open(err, "wb") as ef:
        proc = subprocess.Popen(args, cwd=ROOT, stdout=subprocess.PIPE, stderr=ef)
    assert proc.stdout is not None
    line = proc.stdout.readline().decode()
    if not line.startswith("listening on "):
        proc.kill()
        raise AssertionError(f"serve did not start: {line!r} {err.read_text()}")
    host, port = line.split()[-1].rsplit(":", 1)
    served = Served(host, int(port), proc, err)
    try:
        yield served
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            code = proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
            raise AssertionError(f"serve did not stop on SIGTERM:\n{served.stderr()[-2000:]}") from None
        text = served.stderr()
        assert code == 0, f"serve exited {code}:\n{text[-2000:]}"
        assert "Traceback" not in text and "internal error" not in text, text[-3000:]


def mysqlbinlog_remote(served: Served, out_dir: Path, files: Sequence[str], *args: str,
                       password: str = PASSWORD, timeout: float = 120) -> subprocess.CompletedProcess[bytes]:
    """Oracle's mysqlbinlog 9.7 --read-from-remote-server --raw, writing into out_dir."""
    require_image(get_profile("mysql-9.7"))
    return run_against_server("binlog-mysql:9.7", [
        "mysqlbinlog", "--read-from-remote-server", "--raw", f"-h{served.host}", f"-P{served.port}", "-uroot",
        f"-p{password}", *args, *files], out_dir, timeout)


def mariadb_binlog_remote(served: Served, out_dir: Path, files: Sequence[str], *args: str,
                          image: str | None = None, password: str = PASSWORD,
                          timeout: float = 120) -> subprocess.CompletedProcess[bytes]:
    """mariadb-binlog --read-from-remote-server --raw: the host's, or the one in `image` (a client
    refuses server versions newer than itself, so 11.8 binlogs need the 11.8 client)."""
    tool = ["mariadb-binlog", "--read-from-remote-server", "--raw", f"-h{served.host}", f"-P{served.port}",
            "-uroot", f"-p{password}", *args, *files]
    from tests.server_fixtures import missing, require_docker
    if image is None:
        if shutil.which("mariadb-binlog") is None:
            missing("mariadb-binlog not installed (apt-get install mariadb-client)")
    else:
        require_docker()
        if not docker_env.image_exists(image):
            missing(f"image {image} not present (python -m generators images build {image})")
    return run_against_server(image, tool, out_dir, timeout)


def case_files(case: Path) -> list[Path]:
    """The binlog files of a corpus case, in order."""
    return sorted(p for p in case.iterdir() if p.is_file() and p.read_bytes()[:4] == b"\xfebin")
