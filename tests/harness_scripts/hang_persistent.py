"""A persistent testee that says hello, then never answers a parse request."""
import json
import sys
import time

print(json.dumps({"type": "hello", "protocol": 1, "name": "hang-persistent", "version": "0",
                  "capabilities": {}}), flush=True)
for line in sys.stdin:
    time.sleep(3600)
