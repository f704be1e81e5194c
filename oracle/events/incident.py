"""PLACEHOLDER until written: bodies decode as opaque bytes."""
from .opaque import decode_opaque
decode = decode_opaque
