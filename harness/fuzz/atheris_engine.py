"""The `atheris` engine: a coverage-guided libFuzzer session (PyPI atheris) against a parse callable.

The parent (`run_session`) writes the seed corpus and a dictionary, starts the fuzzer in a child
process under RLIMIT_AS (libFuzzer ends its process when the session is over), and turns the
child's files and libFuzzer's final stats into a summary.

The child instruments the packages named (the oracle by default) for coverage, and mutates with
the operator catalogue (structure-aware: events stay framed and CRCs stay valid unless the operator
means otherwise), plus libFuzzer's own byte mutations inside one event body with the lengths and
CRC repaired. Every input is parsed under a CPU-time limit; a non-BinlogError exception, a hang,
a MemoryError or a broken operator expectation is saved as a reproducer (.bin + .json note with
the mutation that made it) and the session goes on. An operator's expectation is judged against
the input it mutated, which earlier byte mutations may have made into something the operator's
promise is not about: it counts only while the operator's precondition holds on the bytes run
(harness/mutations/model.py), and not at all for an output libFuzzer's size cap cut short.
Native crashes and hangs that the Python timer cannot interrupt are left to libFuzzer, whose
artifacts land in artifacts/.
"""
from __future__ import annotations

import hashlib
import importlib
import json
import os
import pkgutil
import random
import re
import resource
import signal
import subprocess
import sys
import time
import traceback
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Sequence

if TYPE_CHECKING:  # importing seeds imports the oracle, which the child must import instrumented
    from .seeds import Seed

MAX_LEN = 1 << 16
MAX_BASES = 512  # outcomes of mutator inputs kept (the corpus units libFuzzer picks from)


@dataclass(frozen=True)
class AtherisSettings:
    target: str = "harness.fuzz.outcome:oracle_parse"  # module:function, a Parse callable
    parser: str | None = None  # or an in-process harness parser plugin (targets.plugin_parse)
    instrument: tuple[str, ...] = ("oracle",)
    runs: int = 0  # 0: until max_time
    max_time: int = 60
    timeout: float = 5.0
    memory_mb: int = 4096
    out_dir: Path = Path("/tmp/binlog-atheris")
    keep_per_signature: int = 3
    seed: int = 0  # libFuzzer -seed (0: libFuzzer picks one)
    differential: bool = False  # with parser: compare every input with the oracle
    operators: tuple[str, ...] = ()  # custom mutator's operators (empty: the whole catalogue)
    # The parser runs in a process of its own (jvm, go, rust, node), out of the instrumentation's
    # sight: the oracle also decodes each input, so that libFuzzer has coverage to keep units by
    # (without it the corpus collapsed to one empty unit and every mutant was random bytes).
    oracle_coverage: bool = False


# -- the parent ---------------------------------------------------------------------------------

def dictionary_entries() -> list[bytes]:
    """libFuzzer dictionary: the magic, every event type code, status-variable code, header flag
    and checksum algorithm byte."""
    from oracle.event_types import EventType, HeaderFlag

    from harness.mutations.query import VALUES
    entries = [b"\xfebin"]
    entries += [bytes([int(t)]) for t in EventType]
    entries += [bytes([code]) for code in sorted(set(VALUES["mysql"]) | set(VALUES["mariadb"]))]
    entries += [int(f).to_bytes(2, "little") for f in HeaderFlag]
    entries += [b"\x00", b"\x01", b"\xff"]  # checksum_alg OFF, CRC32, UNDEF
    return list(dict.fromkeys(entries))


def _dict_line(i: int, entry: bytes) -> str:
    return f'kw{i}="' + "".join(f"\\x{c:02x}" for c in entry) + '"'


def run_session(seeds: Sequence["Seed"], s: AtherisSettings) -> dict[str, Any]:
    out = s.out_dir
    for sub in ("corpus", "artifacts", "findings"):
        (out / sub).mkdir(parents=True, exist_ok=True)
    from .seeds import write_corpus  # the parent's import: the child imports the oracle instrumented
    write_corpus(out / "corpus", [seed.data for seed in seeds], MAX_LEN)
    (out / "binlog.dict").write_text("\n".join(_dict_line(i, e) for i, e in enumerate(dictionary_entries())) + "\n")
    config = {**asdict(s), "out_dir": str(out)}
    (out / "config.json").write_text(json.dumps(config, indent=2))
    log_path = out / "libfuzzer.log"
    limit = s.memory_mb * 2**20

    def limits() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))

    started = time.monotonic()
    with open(log_path, "wb") as log:
        proc = subprocess.Popen([sys.executable, "-m", "harness.fuzz.atheris_engine", str(out / "config.json")],
                                stdout=log, stderr=subprocess.STDOUT, preexec_fn=limits,
                                cwd=Path(__file__).resolve().parents[2], start_new_session=True)
        try:
            rc = proc.wait(timeout=s.max_time + 120 if s.max_time else None)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            rc = proc.wait()
    summary = summarize(out, rc, time.monotonic() - started)
    (out / "summary.json").write_text(json.dumps(summary, indent=2) + "\n")
    return summary


_STAT = re.compile(r"^stat::(\w+):\s*(\d+)", re.M)
_COV = re.compile(r"^#(\d+)\s+(INITED|NEW|REDUCE|pulse|DONE)\s+cov: (\d+) ft: (\d+)", re.M)


def summarize(out: Path, returncode: int, elapsed: float) -> dict[str, Any]:
    text = (out / "libfuzzer.log").read_text(errors="replace")
    stats = {k: int(v) for k, v in _STAT.findall(text)}
    cov = [(int(n), kind, int(c), int(f)) for n, kind, c, f in _COV.findall(text)]
    inited = next(((c, f) for _n, kind, c, f in cov if kind == "INITED"), None)
    final = (cov[-1][2], cov[-1][3]) if cov else None
    state_path = out / "state.json"
    state = json.loads(state_path.read_text()) if state_path.exists() else {}
    artifacts = sorted(p.name for p in (out / "artifacts").iterdir())
    from .findings import CRASH, KINDS
    findings = state.get("findings") or {"by_kind": {k: 0 for k in KINDS}, "signatures": [], "reproducers": []}
    if artifacts:  # libFuzzer's own: a native crash, leak or timeout the Python side could not catch
        findings["by_kind"][CRASH] = findings["by_kind"].get(CRASH, 0) + len(artifacts)
    return {
        "engine": "atheris", "returncode": returncode, "elapsed_s": round(elapsed, 1),
        "started": inited is not None,  # libFuzzer read its seeds (else the child died first)
        "executions": stats.get("number_of_executed_units", state.get("executions")),
        "executions_per_s": stats.get("average_exec_per_sec"),
        "new_units": stats.get("new_units_added"),
        "coverage_initial": {"cov": inited[0], "ft": inited[1]} if inited else None,
        "coverage_final": {"cov": final[0], "ft": final[1]} if final else None,
        "peak_rss_mb": stats.get("peak_rss_mb"),
        "mutations_by_operator": state.get("operators", {}),
        "findings": findings,
        "findings_total": sum(sig["count"] for sig in findings.get("signatures", [])) + len(artifacts),
        "libfuzzer_artifacts": artifacts,
        "log": str(out / "libfuzzer.log"),
    }


# -- the child ----------------------------------------------------------------------------------

class Hang(Exception):
    pass


def _on_timer(signum: int, frame: Any) -> None:
    raise Hang()


def _import_instrumented(packages: Sequence[str]) -> None:
    """Import every module of the packages under atheris' coverage instrumentation. Must run
    before anything else imports them, or they stay uninstrumented. A package's own test suite
    is not parser code (pymysqlreplication ships one that needs pytest) and is left out; a
    module that cannot be imported (an optional dependency) is said on stderr and skipped."""
    import atheris
    with atheris.instrument_imports(include=list(packages)):
        for name in packages:
            pkg = importlib.import_module(name)
            for info in pkgutil.walk_packages(getattr(pkg, "__path__", []), name + ".",
                                              onerror=lambda _name: None):
                parts = info.name.split(".")
                if parts[-1] == "__main__" or {"tests", "test"} & set(parts[1:]):
                    continue
                try:
                    importlib.import_module(info.name)
                except ImportError as e:
                    print(f"not instrumented: {info.name} ({e})", file=sys.stderr, flush=True)


class Session:
    """State of the child: the parse callable, the last mutation's note, findings, counters."""

    def __init__(self, config: dict[str, Any]) -> None:
        from harness.mutations import CATALOGUE

        from . import findings as F
        if config.get("parser"):
            from .targets import differential_parse, plugin_parse
            self.parse = (differential_parse if config.get("differential") else plugin_parse)(
                config["parser"], float(config["timeout"]))
        else:
            mod, fn = config["target"].split(":")
            self.parse = getattr(importlib.import_module(mod), fn)
        names = config.get("operators") or list(CATALOGUE)
        self.ops = [CATALOGUE[n] for n in names]
        self.timeout = float(config["timeout"])
        self.oracle_coverage = bool(config.get("oracle_coverage")) and not config.get("differential")
        self.out = Path(config["out_dir"])
        self.log = F.FindingLog(self.out / "findings", int(config["keep_per_signature"]))
        self.last: tuple[str, dict[str, Any], Any, bytes] | None = None  # (sha1, note, mutation, input)
        self.base: dict[bytes, Any] = {}  # a mutator input -> its outcome (decoded once, not per mutant)
        self.parsed: dict[bytes, Any] = {}  # a mutator input -> its Binlog (None: not one), parsed once
        self.executions = 0
        self.operators: dict[str, int] = {}
        self.saved_at = 0.0

    # libFuzzer custom mutator: (data, max_size, seed) -> bytes
    def mutate(self, data: bytes, max_size: int, seed: int) -> bytes:
        import atheris

        from harness.mutations import Expect, NotApplicable
        rng = random.Random(seed)
        b = self._parsed(data)
        result, note, mutation = None, None, None
        if b is not None and b.events:
            if rng.random() < 0.2:
                i = rng.randrange(len(b.events))
                edited = b.copy()  # b is kept for the next mutant of data
                ev = edited.events[i]
                ev.body = bytearray(atheris.Mutate(bytes(ev.body), max(2 * len(ev.body), 16)))
                result = edited.assemble()
                note = {"operator": "libfuzzer_body", "description": f"event {i}: libFuzzer byte "
                        "mutation of the body, lengths and CRC32 repaired", "expect": "ANY_CLEAN"}
            else:
                for _ in range(5):
                    op = rng.choice(self.ops)
                    try:
                        mutation = op.apply(b, rng)
                    except NotApplicable:
                        continue
                    result, note = mutation.data, mutation.note()
                    break
        if result is None:
            result = atheris.Mutate(data, max_size)
            note, mutation = {"operator": "libfuzzer", "description": "libFuzzer byte mutation",
                              "expect": "ANY_CLEAN"}, None
        if len(result) > max_size:
            result = result[:max_size]
            if mutation is not None:  # the cut output is not what the operator promised about
                note = {**note, "description": f"{note['description']}, cut to {max_size} bytes",
                        "expect": Expect.ANY_CLEAN.value}
                mutation = None
        self.operators[note["operator"]] = self.operators.get(note["operator"], 0) + 1
        self.last = (hashlib.sha1(result).hexdigest(), note, mutation, data)
        return result

    def test_one(self, data: bytes) -> None:
        from harness.mutations import Expect

        from . import findings as F
        from .outcome import violation
        self.executions += 1
        note: dict[str, Any] = {"operator": "seed-or-replay"}
        mutation, base_data = None, None
        if self.last is not None and self.last[0] == hashlib.sha1(data).hexdigest():
            _, note, mutation, base_data = self.last
        if self.oracle_coverage:
            from .outcome import oracle_parse
            oracle_parse(data)  # coverage only: the parser's outcome is judged below
        got = self._parse(data, note)
        if got is not None and got.disagreement is not None:
            self._found(F.Finding(F.DIFFERENTIAL, f"{F.DIFFERENTIAL}:{got.disagreement_key}", got.disagreement,
                                  data, {**note, "outcome": got.summary()}))
        if got is not None and mutation is not None and mutation.expect is not Expect.ANY_CLEAN:
            base = self._base_outcome(base_data, mutation.operator)
            why = violation(mutation, base, got, data) if base is not None else None
            if why is not None:
                kind = F.BAD_CRC if mutation.operator.startswith("crc_") and got.accepted else F.EXPECTATION
                self._found(F.Finding(kind, f"{kind}:{mutation.operator}", why, data,
                                      {**note, "outcome": got.summary(), "seed_outcome": base.summary()}))
        if self.executions % 100 == 0 or time.monotonic() - self.saved_at > 5:
            self.save_state()

    def _parsed(self, data: bytes):
        """data as a Binlog (None when it has no magic), parsed once per corpus unit: libFuzzer
        mutates the same units again and again, and the parse runs the instrumented oracle's
        framing walk. Operators edit copies (Binlog.copy), never the Binlog kept here."""
        from harness.mutations import Binlog
        if data in self.parsed:
            return self.parsed[data]
        try:
            b = Binlog.parse(data)
        except ValueError:
            b = None
        if len(self.parsed) >= MAX_BASES:
            self.parsed.clear()
        self.parsed[data] = b
        return b

    def _base_outcome(self, base_data: bytes, operator: str):
        """The outcome of the input a mutation was made from. libFuzzer mutates the same corpus
        units again and again: each is parsed once (issue 14), not once per mutant. A base that
        crashes or hangs is a finding each time, as before."""
        found = self.base.get(base_data)
        if found is None:
            found = self._parse(base_data, {"operator": "base-of-" + operator})
            if found is not None:
                if len(self.base) >= MAX_BASES:
                    self.base.clear()
                self.base[base_data] = found
        return found

    def _parse(self, data: bytes, note: dict[str, Any]):
        from oracle.errors import BinlogError

        from . import findings as F
        from .crash_site import crash_note, site_of
        from .outcome import Outcome
        from .testee_target import TesteeHang
        signal.setitimer(signal.ITIMER_PROF, self.timeout)
        try:
            return self.parse(data)
        except BinlogError as e:
            return Outcome(error_kind=e.kind, error_offset=e.offset)
        except (Hang, TesteeHang):
            self._found(F.Finding(F.HANG, f"hang:{note['operator']}", f"over {self.timeout}s CPU", data, note))
        except MemoryError:
            self._found(F.Finding(F.MEMORY, f"memory:{note['operator']}", "MemoryError", data, note))
        except Exception as e:  # noqa: BLE001 - any other exception is the finding
            site = site_of(e)
            self._found(F.Finding(F.CRASH, f"crash:{site}", f"{site}: {e}"[:500], data, {**note, **crash_note(e)}))
        finally:
            signal.setitimer(signal.ITIMER_PROF, 0)
        return None

    def _found(self, finding: Any) -> None:
        self.log.add(finding)
        self.save_state()

    def save_state(self) -> None:
        """libFuzzer ends the process without Python's atexit: keep the counters on disk."""
        self.saved_at = time.monotonic()
        state = {"executions": self.executions, "operators": self.operators, "findings": self.log.summary()}
        tmp = self.out / "state.json.tmp"
        tmp.write_text(json.dumps(state, indent=2))
        tmp.replace(self.out / "state.json")


def child_main(config_path: str) -> None:
    config = json.loads(Path(config_path).read_text())
    _import_instrumented(config["instrument"])
    import atheris
    session = Session(config)
    signal.signal(signal.SIGPROF, _on_timer)
    out = Path(config["out_dir"])
    argv = [sys.argv[0], str(out / "corpus"), f"-dict={out / 'binlog.dict'}", f"-max_len={MAX_LEN}",
            f"-timeout={int(config['timeout'] * 3 + 5)}", f"-artifact_prefix={out / 'artifacts'}/",
            "-print_final_stats=1", f"-rss_limit_mb={config['memory_mb']}",
            f"-max_total_time={config['max_time']}"]
    if config["runs"]:
        argv.append(f"-runs={config['runs']}")
    if config.get("seed"):
        argv.append(f"-seed={config['seed']}")
    atheris.Setup(argv, session.test_one, custom_mutator=session.mutate)
    try:
        atheris.Fuzz()
    finally:
        session.save_state()


if __name__ == "__main__":
    child_main(sys.argv[1])
