"""MariaDB ANNOTATE_ROWS_EVENT (160): the SQL statement behind the row events that follow
(Annotate_rows_log_event): everything after the common header (MariaDB reads it from there,
whatever post-header length the FDE gives)."""
from __future__ import annotations

from typing import Any

from ..context import DecodeContext
from ..header import Header
from ..reader import Reader
from ..values import text


def decode(r: Reader, ctx: DecodeContext, header: Header) -> dict[str, Any]:
    return {"query": text(r.rest())}
