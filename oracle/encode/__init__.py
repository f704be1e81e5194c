"""The oracle's encoder: canonical events back to bytes, the inverse of oracle.decoder.

decode then encode is byte-identical on real binlogs (tests/test_roundtrip.py). Mutation
operators and hypothesis strategies edit the canonical JSON form and write it through here:
lengths and event sizes are recomputed from the data; next positions and CRCs follow Options.
"""
from .framing import Options
from .stream import StreamEncoder, encode_binlog, encode_event, iter_encoded
from .writer import EncodeError

__all__ = ["EncodeError", "Options", "StreamEncoder", "encode_binlog", "encode_event", "iter_encoded"]
