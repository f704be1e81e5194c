#!/usr/bin/env node
// A tiny binlog parser in another language, plugged into the conformance harness through the
// subprocess contract (docs/plugin-contract.md). It frames v4 events and reports their common
// headers only, and says so in its capabilities, so the harness compares nothing else.
//
//   node parse.js FILE     one-shot: canonical JSON lines; exit 1 = clean rejection
//   node parse.js --hello  the hello message (name, version, capabilities)
//   node parse.js --serve  persistent: JSON lines on stdin/stdout
//
// For the harness's own tests: NODE_PARSER_ALTER=<header field> adds 1 to that field of the
// second event (a deliberately wrong parser); NODE_PARSER_DELAY_MS sleeps before answering.
"use strict";
const fs = require("fs");
const readline = require("readline");

const HEADER_LEN = 19;
const MAGIC = Buffer.from([0xfe, 0x62, 0x69, 0x6e]);

const HELLO = {
  type: "hello", protocol: 1, name: "node-header-parser", version: "0.1.0",
  capabilities: {
    header: ["position", "event_size", "next_position", "type_code", "server_id", "timestamp", "flags.value"],
    bodies: {}, every_event: true, partial_events: true,
  },
};

class Rejection extends Error {
  constructor(kind, offset, message, events) {
    super(message);
    this.kind = kind; this.offset = offset; this.events = events;
  }
}

function parse(path) {
  const buf = fs.readFileSync(path);
  const events = [];
  if (buf.length < 4) throw new Rejection("TruncatedEvent", 0, `file is ${buf.length} bytes`, events);
  if (!buf.subarray(0, 4).equals(MAGIC)) throw new Rejection("BadMagic", 0, "not a binlog", events);
  let pos = 4;
  while (pos < buf.length) {
    const left = buf.length - pos;
    if (left < HEADER_LEN) throw new Rejection("TruncatedEvent", pos, `header needs 19 bytes, ${left} left`, events);
    const size = buf.readUInt32LE(pos + 9);
    if (size < HEADER_LEN) throw new Rejection("BadHeader", pos, `event_size ${size} below the header`, events);
    if (size > left) throw new Rejection("TruncatedEvent", pos, `event_size ${size} past the end`, events);
    events.push({
      position: pos, event_size: size, next_position: buf.readUInt32LE(pos + 13),
      type_code: buf[pos + 4], server_id: buf.readUInt32LE(pos + 5),
      timestamp: buf.readUInt32LE(pos), flags: { value: buf.readUInt16LE(pos + 17) },
    });
    pos += size;
  }
  return alter(events);
}

function alter(events) {
  const field = process.env.NODE_PARSER_ALTER;
  if (field && events.length > 1) events[1][field] += 1;
  const delay = Number(process.env.NODE_PARSER_DELAY_MS || 0);
  if (delay > 0) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, delay);
  return events;
}

function oneShot(path) {
  let events, rejection = null;
  try { events = parse(path); } catch (e) {
    if (!(e instanceof Rejection)) throw e;  // a bug: node exits non-zero, the harness sees a crash
    rejection = e; events = e.events;
  }
  process.stdout.write(events.map((e) => JSON.stringify(e) + "\n").join(""));
  if (rejection) {
    process.stderr.write(`error: ${rejection.kind} at offset ${rejection.offset}: ${rejection.message}\n`);
    process.exitCode = 1;
  }
}

function serve() {
  process.stdout.write(JSON.stringify(HELLO) + "\n");
  const rl = readline.createInterface({ input: process.stdin });
  rl.on("line", (line) => {
    if (!line.trim()) return;
    const req = JSON.parse(line);
    let reply;
    try {
      reply = { type: "events", id: req.id, events: parse(req.path) };
    } catch (e) {
      if (!(e instanceof Rejection)) throw e;
      reply = { type: "error", id: req.id, kind: e.kind, offset: e.offset, message: e.message, events: e.events };
    }
    process.stdout.write(JSON.stringify(reply) + "\n");
  });
}

const arg = process.argv[2];
if (arg === "--hello") process.stdout.write(JSON.stringify(HELLO) + "\n");
else if (arg === "--serve") serve();
else if (arg) oneShot(arg);
else { process.stderr.write("usage: parse.js FILE | --hello | --serve\n"); process.exitCode = 2; }
