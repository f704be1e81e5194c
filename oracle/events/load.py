"""PLACEHOLDER until written: bodies decode as opaque bytes."""
from .opaque import decode_opaque
decode_load = decode_opaque
decode_new_load = decode_opaque
decode_create_file = decode_opaque
decode_append_block = decode_opaque
decode_exec_load = decode_opaque
decode_delete_file = decode_opaque
decode_begin_load_query = decode_opaque
decode_execute_load_query = decode_opaque
