"""Value codecs: column values, binary JSON, decimals, temporals."""
