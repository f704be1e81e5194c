"""A one-shot stream testee (`--parser-stream`): the StreamSource as flags, canonical events as
JSON lines; reads with python-mysql-replication's BinLogStreamReader."""
import argparse
import json
import sys

from harness.plugins.protocol import STREAM, Hello, StreamSource
from harness.plugins.pymysqlreplication_stream import PyMysqlReplicationStreamParser

plugin = PyMysqlReplicationStreamParser()
if sys.argv[1:] == ["--hello"]:
    print(json.dumps(Hello("stream-oneshot", plugin.version, plugin.capabilities, None, STREAM).to_json()))
    sys.exit(0)
p = argparse.ArgumentParser()
for name in ("host", "port", "user", "password", "file", "start-position", "end-file", "end-position"):
    p.add_argument(f"--{name}", required=True)
args = vars(p.parse_args())
source = StreamSource.from_json({k: v for k, v in args.items()})
for event in plugin.parse_stream(source):
    print(json.dumps(event))
