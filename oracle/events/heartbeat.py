"""PLACEHOLDER until written: bodies decode as opaque bytes."""
from .opaque import decode_opaque
decode_v1 = decode_opaque
decode_v2 = decode_opaque
