"""PLACEHOLDER until written: bodies decode as opaque bytes."""
from .opaque import decode_opaque
decode_intvar = decode_opaque
decode_rand = decode_opaque
decode_user_var = decode_opaque
