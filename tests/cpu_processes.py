"""Processes for tests/test_spark_bench.py's CPU accounting checks, in a module that imports
nothing but the standard library (a measured mode imports it in a fresh process)."""
from __future__ import annotations

import os
import signal
import sys
import time

BURN_SECONDS = 1.0


def burn(seconds: float) -> None:
    started = time.process_time()
    while time.process_time() - started < seconds:
        sum(range(1000))


def busy_main() -> None:
    """`python -m tests.cpu_processes busy S`: a process that burns S CPU seconds and ends."""
    burn(float(sys.argv[2]))


def wait_until_ended(pid: int) -> None:
    """Until `pid` (not our child: someone else's, or a zombie) has ended."""
    while True:
        try:
            with open(f"/proc/{pid}/stat") as f:
                if f.read().rsplit(")", 1)[1].split()[0] == "Z":
                    return
        except FileNotFoundError:
            return
        time.sleep(0.05)


def orphan_and_auto_reaped() -> None:
    """What Spark's processes do, each burning BURN_SECONDS: an orphan (its parent exits first,
    as pyspark's daemon and workers when the JVM stops), and a worker whose parent ignores
    SIGCHLD (pyspark's daemon), so the kernel reaps it and adds its time to nobody's."""
    if os.fork() == 0:  # the orphan's parent
        if os.fork() == 0:
            burn(BURN_SECONDS)
            os._exit(0)
        os._exit(0)
    if os.fork() == 0:  # the daemon
        signal.signal(signal.SIGCHLD, signal.SIG_IGN)
        worker = os.fork()
        if worker == 0:
            burn(BURN_SECONDS)
            time.sleep(0.6)  # ends idle, as a pyspark worker does
            os._exit(0)
        wait_until_ended(worker)
        os._exit(0)
    os.wait()  # the orphan's parent or the daemon; the other is reaped by run_apart
    time.sleep(0.2)


if __name__ == "__main__" and sys.argv[1] == "busy":
    busy_main()


def _burn_partition(rows):
    burn(BURN_SECONDS)
    yield os.getpid()


def spark_workers_burn() -> tuple[int, float]:
    """A local[2] job whose two tasks each burn BURN_SECONDS in a pyspark worker: how many
    workers ran them, and the CPU of the live process tree (driver, JVM, daemon, workers) just
    before the session stops and the workers end."""
    from spark_checks import cpu, session
    spark = session.get("local[2]", quiet=True)
    try:
        pids = spark.sparkContext.parallelize(range(2), 2).mapPartitions(_burn_partition).collect()
        return len(set(pids)), cpu.tree_cpu_seconds()
    finally:
        spark.stop()
