"""Column value codecs for row images, one module per family, driven by Table_map metadata.

`plan.RowPlan` builds one reader per column once per table (`plan.FACTORIES`, keyed by the
column's real type code) and reuses it for every row. Each reader carries a spec (base.Native)
that the compiled loop `_rowimage.c` uses to decode the common layouts without calling it;
`plan.read_image_pure` stays the reference and runs whenever the C loop declines an image
(tests/test_rowimage_accelerator.py). Canonical value forms (values.py rules):

| column type (code)                         | canonical value                                             |
|--------------------------------------------|-------------------------------------------------------------|
| any column, NULL                           | null                                                        |
| TINY 1, SHORT 2, INT24 9, LONG 3           | integer, signed unless SIGNEDNESS marks the column unsigned |
| LONGLONG 8                                 | the same; beyond +-2**53 {"type":"int","value":"18446744073709551615"} |
| FLOAT 4, DOUBLE 5                          | JSON number (exact binary value); NaN/inf {"type":"float"/"double","value":"nan"} |
| NEWDECIMAL 246                             | {"type":"decimal","value":"-1.50"} (exactly `scale` fraction digits) |
| BIT 16                                     | integer of the bits (big-endian), tagged beyond 2**53       |
| YEAR 13                                    | integer: 1901..2155, 0 for the zero year                    |
| DATE 10 / NEWDATE 14                       | {"type":"date","value":"2024-01-02"} (zero parts kept: "0000-00-00") |
| TIME 11, TIME2 19                          | {"type":"time","value":"-838:59:59.000000"} (fsp digits)    |
| DATETIME 12, DATETIME2 18                  | {"type":"datetime","value":"2024-01-02 03:04:05.123456"} (fsp digits) |
| TIMESTAMP 7, TIMESTAMP2 17                 | {"type":"timestamp","value":"1700000000.123"} (epoch seconds, fsp digits) |
| STRING 254 (CHAR), VARCHAR 15, VAR_STRING 253, BLOB 249-252 | JSON string when the bytes are UTF-8, else {"type":"bytes","value":hex}; bytes never transcoded |
| STRING with real type ENUM 247             | integer member index (1-based; 0 = the empty error value)  |
| STRING with real type SET 248              | integer bitmask of members (up to 64), tagged beyond 2**53  |
| GEOMETRY 255, VECTOR 242                   | {"type":"bytes","value":hex} (SRID+WKB; float32 array)      |
| JSON 245                                   | {"type":"json","value":"{\\"a\\": 1}"} (MySQL's JSON text); with opaque values also "opaque":[{"path":[...],"field_type":10,"data":hex}] |
| JSON 245 in a partial after-image          | {"type":"json_diff","value":[{"operation":"REPLACE","path":"$.a","value":{...}}]} |
| VARCHAR_COMPRESSED 140, BLOB_COMPRESSED 141 (MariaDB) | {"type":"bytes","value":hex} as stored (compressed) |

Types no row image can hold (DECIMAL 0, TYPED_ARRAY, ...) decode only as NULL; a value for them
is a BadEventBody error, as mysqlbinlog refuses them too.
"""
