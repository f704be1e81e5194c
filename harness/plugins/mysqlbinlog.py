"""Oracle MySQL 9.7's real `mysqlbinlog -vvv`, run from the local docker image
(generators/tools.py), its text read into the canonical model."""
from __future__ import annotations

from .text_tool import TextToolParser

TIMEOUT = 300


class MysqlbinlogParser(TextToolParser):
    name = "mysqlbinlog"

    def __init__(self) -> None:
        try:
            from generators import tools
            self.version = f"9.7 ({tools.MYSQL_IMAGE})"
        except Exception:
            self.version = "unknown"

    def unavailable_reason(self) -> str | None:
        try:
            import oracle.mysqlbinlog_text  # noqa: F401
            from generators import docker_env, tools
        except Exception as e:
            return f"cannot import the mysqlbinlog runner or text parser: {type(e).__name__}: {e}"
        from ..setup import COMMAND
        reason = docker_env.unavailable_reason()
        if reason:
            return f"{reason}; provide it with: {COMMAND}"
        if not docker_env.image_exists(tools.MYSQL_IMAGE):
            return f"docker image {tools.MYSQL_IMAGE} is not built; provide it with: {COMMAND}"
        return None

    def run_tool(self, path: str) -> tuple[bytes, bytes, int]:
        from generators import tools
        proc = tools.run_mysqlbinlog(path, ("-vvv",), timeout=TIMEOUT)
        return proc.stdout, proc.stderr, proc.returncode
