"""harness/cpu_idle.py: the idle share of the CPUs over a window, read from /proc/stat's first
line (here a file written by the test, then the machine's own)."""
from __future__ import annotations

from pathlib import Path

from harness.cpu_idle import IdleMeter, cpu_times


def stat_line(path: Path, idle: int, busy: int) -> None:
    # user nice system idle iowait irq softirq steal
    path.write_text(f"cpu  {busy} 0 0 {idle} 0 0 0 0 0 0\ncpu0 1 2 3 4\n")


def test_the_fraction_is_over_the_last_window_only(tmp_path: Path) -> None:
    stat = tmp_path / "stat"
    meter = IdleMeter(window=20.0, stat=stat)
    stat_line(stat, idle=0, busy=0)
    meter.sample(now=0.0)
    stat_line(stat, idle=0, busy=1000)  # 20 s all busy
    meter.sample(now=20.0)
    assert meter.idle_fraction() == 0.0
    stat_line(stat, idle=750, busy=1250)  # the next 20 s 75 % idle
    meter.sample(now=40.0)
    assert meter.idle_fraction() == 0.75


def test_nothing_is_known_before_a_whole_window(tmp_path: Path) -> None:
    stat = tmp_path / "stat"
    meter = IdleMeter(window=20.0, stat=stat)
    stat_line(stat, idle=10, busy=10)
    meter.sample(now=0.0)
    stat_line(stat, idle=100, busy=10)
    meter.sample(now=5.0)
    assert meter.idle_fraction() is None


def test_an_unreadable_stat_knows_nothing(tmp_path: Path) -> None:
    meter = IdleMeter(stat=tmp_path / "missing")
    meter.sample(now=0.0)
    meter.sample(now=60.0)
    assert meter.idle_fraction() is None and cpu_times(tmp_path / "missing") is None


def test_this_machine_reports_idle_and_total() -> None:
    times = cpu_times()
    assert times is not None and 0 <= times[0] <= times[1] and times[1] > 0
