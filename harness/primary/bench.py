"""Speed of `harness serve` beside a real MySQL 9.7 source, in one run (issue 12, item 6).

`python -m harness.primary.bench [--mb 100] [--repeat 3]`: a real MySQL 9.7 server writes a
>= `--mb` MiB ROW binlog (generators/bigbinlog.py's workload) and keeps running as the source;
`harness serve` serves a copy of that file. mysqlbinlog 9.7 `--read-from-remote-server --raw`
copies it from each, alternately, over TLS and over plain TCP (RSA key exchange), timed inside its
container (docker exec start-up not counted). Best of N per row; the ratio is harness serve's
throughput over the real source's (1.0 = as fast). A table on stdout and a JSON file.
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from dataclasses import asdict, dataclass
from pathlib import Path

from generators import docker_env, profiles
from generators.bigbinlog import _fill, fast_settings
from oracle.tool_image import MYSQL_IMAGE
from generators.server import running_server

USER, PASSWORD = "bench", "bench-pw"
MODES = {"TLS": "--ssl-mode=REQUIRED", "plain TCP": "--ssl-mode=DISABLED --get-server-public-key"}


@dataclass
class Row:
    mode: str
    source_s: float
    serve_s: float
    mb: float

    @property
    def ratio(self) -> float:
        return self.source_s / self.serve_s


class ClientBox:
    """A long-lived mysqlbinlog container on the host network, writing into out_dir."""

    def __init__(self, out_dir: Path) -> None:
        self.out_dir = out_dir
        self.id = docker_env.docker_cli("run", "-d", "--rm", "--network", "host", "-v", f"{out_dir}:/out", "-w",
                                        "/out", MYSQL_IMAGE, "sleep", "infinity").stdout.decode().strip()

    def copy(self, port: int, file: str, mode: str) -> float:
        script = (f"rm -f {file}; a=$(date +%s%N); mysqlbinlog --read-from-remote-server --raw -h127.0.0.1 "
                  f"-P{port} -u{USER} -p{PASSWORD} {mode} {file} 2>/dev/null || exit 3; b=$(date +%s%N); "
                  "echo $((b-a))")
        proc = subprocess.run([docker_env.docker_bin(), "exec", self.id, "sh", "-c", script],
                              capture_output=True, timeout=600)
        if proc.returncode != 0:
            raise RuntimeError(f"mysqlbinlog from port {port} failed: {proc.stderr.decode(errors='replace')}")
        return int(proc.stdout.split()[-1]) / 1e9

    def close(self) -> None:
        docker_env.docker_cli("rm", "-f", self.id, check=False)


def _serve(path: Path) -> tuple[subprocess.Popen[bytes], int]:
    proc = subprocess.Popen([sys.executable, "-m", "harness", "serve", str(path), "--port", "0", "--user", USER,
                             "--password", PASSWORD, "--quiet"], stdout=subprocess.PIPE)
    assert proc.stdout is not None
    line = proc.stdout.readline().decode()
    if not line.startswith("listening on "):
        proc.kill()
        raise RuntimeError(f"harness serve did not start: {line!r}")
    return proc, int(line.rsplit(":", 1)[1])


def run(mb: int, repeat: int, work: Path) -> tuple[list[Row], int]:
    profile = profiles.get("mysql-9.7")
    with running_server(profile, fast_settings(profile)) as server:
        server.flush_logs()
        name = server.binlog_files()[-1]
        _fill(server, mb * 2**20)
        server.flush_logs()
        server.execute(f"CREATE USER '{USER}'@'127.0.0.1' IDENTIFIED BY '{PASSWORD}';"
                       f"GRANT REPLICATION SLAVE, REPLICATION CLIENT ON *.* TO '{USER}'@'127.0.0.1';")
        (work / "served").mkdir()
        served = server.copy_file(f"{server.binlog_dir()}/{name}", work / "served" / name)
        out = work / "out"
        out.mkdir()
        proc, port = _serve(served.parent)
        box = ClientBox(out)
        rows = []
        try:
            for mode, args in MODES.items():
                times: dict[str, list[float]] = {"source": [], "serve": []}
                for i in range(repeat):
                    for target, p in (("source", server.port), ("serve", port)):
                        times[target].append(box.copy(p, name, args))
                        print(f"[bench-primary] {mode} run {i + 1}/{repeat}: {target} "
                              f"{times[target][-1]:.3f} s", flush=True)
                if (out / name).read_bytes() != served.read_bytes():
                    raise RuntimeError("the copy from harness serve differs from the served file")
                rows.append(Row(mode, min(times["source"]), min(times["serve"]), served.stat().st_size / 2**20))
        finally:
            box.close()
            proc.terminate()
            proc.wait(30)
    return rows, served.stat().st_size


def table(rows: list[Row], size: int) -> str:
    lines = [f"mysqlbinlog 9.7 --read-from-remote-server --raw of one {size / 2**20:.1f} MiB binlog "
             "(best of N each)",
             f"{'connection':12} {'real 9.7 source s':>18} {'harness serve s':>16} {'MB/s source':>12} "
             f"{'MB/s serve':>11} {'serve/source':>13}"]
    for r in rows:
        lines.append(f"{r.mode:12} {r.source_s:18.3f} {r.serve_s:16.3f} {r.mb / r.source_s:12.1f} "
                     f"{r.mb / r.serve_s:11.1f} {r.ratio:13.2f}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m harness.primary.bench", description=__doc__.splitlines()[0])
    p.add_argument("--mb", type=int, default=100, help="binlog size in MiB (default 100)")
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--json", type=Path, default=Path("out/bench-primary.json"))
    args = p.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="bench-primary-") as d:
        rows, size = run(args.mb, args.repeat, Path(d))
    print(table(rows, size))
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps({"bytes": size, "results": [{**asdict(r), "ratio": r.ratio} for r in rows]},
                                    indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
