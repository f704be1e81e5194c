"""The reference binlog decoder (the oracle). See docs/canonical-model.md."""
from .decoder import decode_bytes, decode_file
from .errors import BinlogError
from .model import Event

__all__ = ["BinlogError", "Event", "decode_bytes", "decode_file"]
