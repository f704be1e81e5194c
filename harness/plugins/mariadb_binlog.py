"""MariaDB's real `mariadb-binlog -vvv` (Debian's mariadb-client on the host), its text read
into the canonical model."""
from __future__ import annotations

import os
import shutil
import subprocess
import tempfile

from .text_tool import TextToolParser

EXE = os.environ.get("MARIADB_BINLOG", "/usr/bin/mariadb-binlog")
TIMEOUT = 300


class MariadbBinlogParser(TextToolParser):
    name = "mariadb-binlog"

    def __init__(self) -> None:
        self.version = "unknown"
        if shutil.which(EXE):
            try:
                out = subprocess.run([EXE, "--version"], capture_output=True, timeout=30, check=False)
                self.version = out.stdout.decode("utf-8", "replace").strip() or "unknown"
            except (OSError, subprocess.TimeoutExpired):
                pass

    def unavailable_reason(self) -> str | None:
        if not shutil.which(EXE):
            from ..setup import COMMAND
            return f"{EXE} is not installed (Debian package mariadb-client); provide it with: {COMMAND}"
        try:
            import oracle.mysqlbinlog_text  # noqa: F401
        except Exception as e:
            return f"cannot import the text parser: {type(e).__name__}: {e}"
        return None

    def run_tool(self, path: str) -> tuple[bytes, bytes, int]:
        # --local-load: the tool writes each LOAD DATA's file (SQL_LOAD_MB-<id>-<n>, taking the
        # next free <n>) to /tmp by default, where they piled up and made the text depend on
        # what earlier runs left; a fresh directory per run makes every output the same.
        with tempfile.TemporaryDirectory(prefix="mariadb-binlog-load-") as load_dir:
            proc = subprocess.run([EXE, "-vvv", f"--local-load={load_dir}", path], capture_output=True,
                                  timeout=TIMEOUT, check=False, env={**os.environ, "TZ": "UTC"})
        return proc.stdout, proc.stderr, proc.returncode
