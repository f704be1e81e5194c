"""The Spark benchmark's verdict (spark_checks/bench.py): idleness comes from the CPU other
processes took during the Spark modes, and the scaling goal is only judged on an idle machine."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from spark_checks import bench, cpu

from . import cpu_processes
from .test_spark import _spark_or_skip


def _run(mode: str, per_second: float, per_cpu: float, others: float, load: float) -> dict:
    return {"mode": mode, "cases": 3, "mutants": 600, "seconds_cases_only": 1.0, "seconds_with_mutants": 2.0,
            "cases_per_second": 3.0, "mutants_per_second": per_second, "mutants_per_cpu_second": per_cpu,
            "cores_used": 1.0, "other_processes_cores": others, "load_average_before": [load, 0, 0],
            "load_average_after": [load + 0.5, 0, 0]}


def _doc(others: float, two: float) -> dict:
    runs = [_run("single-process loop", 1000, 1000, 0.0, 0.1), _run("spark local[1]", 900, 850, others, 0.2),
            _run("spark local[2]", two, 840, 0.05, 1.0)]
    return {"parsers": ["oracle"], "mutants_per_case": 200, "cpus": 2, "load_average_at_end": [1.0, 0, 0],
            "runs": runs, **bench.idleness(runs), "spark_per_core_vs_loop": 0.9,
            "spark_per_core_vs_loop_per_cpu": 0.85, "mutants_scaling_1_to_2": round(two / 900, 3),
            "mutants_scaling_1_to_2_per_cpu": 0.988, "mutants_scaling_1_to_2_two_free_cores": 1.976}


def test_an_idle_run_is_judged_on_wall_clock_scaling():
    text = bench.render(_doc(others=0.1, two=1700))
    assert "idle: yes (other processes used 0.1 cores during local[1], 0.05 cores during local[2]" in text
    assert ("local[2] / local[1]: x1.889 by wall-clock (idle: yes; other processes used 0.1 cores "
            "during local[1], 0.05 cores during local[2]), x0.988 per CPU second") in text
    assert "scaling goal (>= 1.8 on an idle machine): met" in text
    assert "per CPU second (goal >= 0.8: met)" in text


def test_a_busy_machine_is_named_and_its_scaling_not_judged():
    doc = _doc(others=0.9, two=1000)
    assert not doc["idle"] and doc["max_other_processes_cores"] == 0.9
    text = bench.render(doc)
    assert "idle: no (other processes used 0.9 cores during local[1], 0.05 cores during local[2]" in text
    assert "x1.111 by wall-clock (idle: no;" in text
    assert "not measurable here, the machine is busy" in text and ": met" not in text.split("idle:")[1]


def test_machine_busy_time_grows_with_this_process_work():
    before = cpu.machine_busy_seconds()
    start = os.times()
    spent = 0.0
    while spent < 0.3:
        sum(range(10000))
        now = os.times()
        spent = (now.user + now.system) - (start.user + start.system)
    # the whole machine was busy at least as long as this process (clock ticks: 10 ms)
    assert cpu.machine_busy_seconds() - before >= spent - 0.05


def _stat_cpu(pid: int) -> float:
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def test_a_busy_process_outside_the_run_is_counted_as_others():
    busy = subprocess.Popen([sys.executable, "-m", "tests.cpu_processes", "busy", "2.0"],
                            cwd=Path(__file__).resolve().parents[1])
    try:
        before = _stat_cpu(busy.pid)
        _, usage = cpu.run_apart(cpu_processes.wait_until_ended, busy.pid)
        spent = _stat_cpu(busy.pid) - before  # a zombie until reaped: its time is still readable
    finally:
        busy.wait()
    assert spent > 1.0
    assert usage.ours < spent / 2  # the mode only waited: the busy process's CPU is not ours
    assert usage.others >= spent - 0.05  # it is the others' (with whatever else ran meanwhile)


def test_a_runs_orphans_and_auto_reaped_workers_are_ours():
    _, usage = cpu.run_apart(cpu_processes.orphan_and_auto_reaped)
    # both burns; the sampling may miss the worker's last 0.25 s, but it ended idle
    assert usage.ours >= 2 * cpu_processes.BURN_SECONDS - 0.05


def test_spark_workers_are_ours_after_the_session_stops():
    _spark_or_skip()
    (workers, live_tree), usage = cpu.run_apart(cpu_processes.spark_workers_burn)
    assert workers >= 1
    # the workers' burns and the JVM's work are still ours once the JVM and its Python daemon
    # have ended (the daemon's workers are reaped by the kernel: SIGCHLD ignored)
    assert usage.ours >= live_tree >= 2 * cpu_processes.BURN_SECONDS
