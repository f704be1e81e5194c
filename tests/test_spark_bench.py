"""The Spark benchmark's verdict (spark_checks/bench.py): idleness comes from the CPU other
processes took during the Spark modes, and the scaling goal is only judged on an idle machine."""
from __future__ import annotations

import os

from spark_checks import bench


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
    assert "idle: yes (load 1.5 on 2 CPUs" in text
    assert "local[2] / local[1]: x1.889 by wall-clock, x0.988 per CPU second" in text
    assert "scaling goal (>= 1.8 on an idle machine): met" in text
    assert "per CPU second (goal >= 0.8: met)" in text


def test_a_busy_machine_is_named_and_its_scaling_not_judged():
    doc = _doc(others=0.9, two=1000)
    assert not doc["idle"] and doc["max_other_processes_cores"] == 0.9
    text = bench.render(doc)
    assert "idle: no (load 1.5 on 2 CPUs; other processes used up to 0.9 cores" in text
    assert "not measurable here, the machine is busy" in text and ": met" not in text.split("idle:")[1]


def test_machine_busy_time_grows_with_this_process_work():
    before = bench.machine_busy_seconds()
    cpu = os.times()
    spent = 0.0
    while spent < 0.3:
        sum(range(10000))
        now = os.times()
        spent = (now.user + now.system) - (cpu.user + cpu.system)
    # the whole machine was busy at least as long as this process (clock ticks: 10 ms)
    assert bench.machine_busy_seconds() - before >= spent - 0.05
