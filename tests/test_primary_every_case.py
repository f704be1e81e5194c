"""Every corpus binlog, copied byte for byte from `harness serve` by the real clients (issue 12):
mysqlbinlog 9.7 `--read-from-remote-server --raw` for the MySQL cases (5.6, 5.7, 8.0 and 9.7), the matching MariaDB image's
mariadb-binlog for the MariaDB ones.

One in-process primary per case (BackgroundPrimary, each on its own loopback port) and one
container per server line running the client once per case: 200-odd copies in seconds, not one
`docker run` each."""
from __future__ import annotations

import shlex
from pathlib import Path

import pytest

from generators.profiles import get as get_profile
from generators.tools import run_against_server
from harness.primary.server import BackgroundPrimary
from harness.primary.state import ServeOptions
from tests.primary_fixtures import CORPUS, PASSWORD, case_files
from tests.server_fixtures import require_image

pytestmark = [pytest.mark.server, pytest.mark.mysqlbinlog]

# The MySQL packages of 5.6, 5.7 and 8.0 ship no mysqlbinlog: 9.7's copies their cases too.
CLIENT = {"mysql-9.7": ("mysqlbinlog", "--get-server-public-key"),
          "mysql-5.6": ("mysqlbinlog",), "mysql-5.7": ("mysqlbinlog",),
          "mysql-8.0": ("mysqlbinlog", "--get-server-public-key"),
          "mariadb-10.5": ("mariadb-binlog",), "mariadb-10.11": ("mariadb-binlog",),
          "mariadb-11.8": ("mariadb-binlog",)}


def _cases(line: str) -> list[Path]:
    return sorted(c for c in (CORPUS / line).iterdir() if c.is_dir() and case_files(c))


@pytest.mark.parametrize("line", sorted(CLIENT))
def test_every_corpus_binlog_is_copied_byte_for_byte(line: str, tmp_path: Path) -> None:
    profile = get_profile(line)
    require_image(profile)
    tool, *options = CLIENT[line]
    cases = _cases(line)
    primaries = [BackgroundPrimary(ServeOptions([str(c)], port=0, password=PASSWORD, quiet=True))
                 for c in cases]
    try:
        script = []
        for i, (case, primary) in enumerate(zip(cases, primaries)):
            (tmp_path / str(i)).mkdir()
            first = case_files(case)[0].name
            argv = [tool, "--read-from-remote-server", "--raw", "--to-last-log", "-h127.0.0.1",
                    f"-P{primary.port}", "-uroot", f"-p{PASSWORD}", *options, first]
            script.append(f"cd /out/{i} && {shlex.join(argv)} 2>err || echo \"exit $? in {i}\"")
        proc = run_against_server(profile.decoder_image, ["sh", "-c", "\n".join(script)], tmp_path, 900)
    finally:
        for primary in primaries:
            primary.close()
    assert proc.returncode == 0 and not proc.stdout.strip(), proc.stdout.decode() + proc.stderr.decode()
    copied = 0
    for i, case in enumerate(cases):
        for f in case_files(case):
            got = tmp_path / str(i) / f.name
            err = (tmp_path / str(i) / "err").read_text(errors="replace")
            assert got.is_file(), f"{case.name}/{f.name} not written: {err}"
            assert got.read_bytes() == f.read_bytes(), f"{case.name}/{f.name} differs"
            copied += 1
    assert copied >= len(cases)
