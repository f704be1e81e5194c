// Preloaded into Node (-r): right after the first message to a spawned child, the event loop is
// busy for 3 s, as a busy application or a loaded machine keeps it, so the Go side's connect_ok
// and its first rows reach Node in one read (go-mysql-js, @solashi/go-mysql-binlog-node).
"use strict";
const cp = require("child_process");
const spawn = cp.spawn;
cp.spawn = function (...args) {
  const child = spawn.apply(this, args);
  const write = child.stdin.write.bind(child.stdin);
  let first = true;
  child.stdin.write = (...w) => {
    const r = write(...w);
    if (first) {
      first = false;
      setImmediate(() => { const end = Date.now() + 3000; while (Date.now() < end); });
    }
    return r;
  };
  return child;
};
