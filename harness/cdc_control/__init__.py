"""The control experiment of issue 22: a CDC testee run against a real server that replays a
corpus case's SQL, and against `harness serve` serving the binlogs that server wrote, must give
the same change events apart from fields that name the moment or the server (compare.py).

sample.py chooses the cases (every scenario and every local server version, one server per
version), live.py replays one case on a running server and writes what `harness serve` is then
given, run.py runs a testee against both sides. docs/cdc.md describes it."""
