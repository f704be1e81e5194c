"""The stream half of the plugin contract (issue 13): the fields a stream testee gets, the hello
that declares the transport, and the worker routing a request to parse_stream. The primary that
serves the binlog (`harness serve`) is tested with it; these check the messages alone."""
from __future__ import annotations

import json

import pytest

from harness.plugins.base import FULL, BaseParser
from harness.plugins.protocol import STREAM, Hello, StreamSource, parse_request
from harness.worker import _reply

SOURCE = StreamSource("127.0.0.1", 3307, "harness", "pw", "binlog.000001", 4, "binlog.000002", 1234)


def test_stream_source_round_trips_and_becomes_flags():
    assert StreamSource.from_json(SOURCE.to_json()) == SOURCE
    assert SOURCE.flags() == ["--host", "127.0.0.1", "--port", "3307", "--user", "harness", "--password", "pw",
                              "--file", "binlog.000001", "--start-position", "4",
                              "--end-file", "binlog.000002", "--end-position", "1234"]
    request = json.loads(parse_request(3, "/cases/x/binlog.000001", SOURCE))
    assert request["stream"]["end_position"] == 1234 and request["path"].endswith("binlog.000001")
    assert "stream" not in json.loads(parse_request(3, "/f"))


def test_hello_declares_the_transport():
    hello = Hello("p", "1", FULL, None, STREAM)
    assert Hello.from_json(json.loads(json.dumps(hello.to_json()))).transport == STREAM
    assert Hello.from_json({"type": "hello"}).transport == "file"
    with pytest.raises(ValueError):
        Hello.from_json({"type": "hello", "transport": "carrier-pigeon"})


class EchoStream(BaseParser):
    name, transport = "echo-stream", STREAM

    def parse(self, path):  # pragma: no cover - a stream plugin is never asked for a path
        raise AssertionError("a stream request must go to parse_stream")

    def parse_stream(self, source):
        return [{"position": source.start_position, "next_position": source.end_position}]


def test_worker_routes_a_stream_request_to_parse_stream():
    reply = _reply(1, EchoStream(), "/cases/x/binlog.000001", SOURCE.to_json())
    assert reply == {"type": "events", "id": 1, "events": [{"position": 4, "next_position": 1234}]}
