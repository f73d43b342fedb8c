"""bench.react's `loaded` rule: other work's load, not the bench's own (issue #25)."""

from bench.react import CLK, LOAD_AVG_LIMIT_PER_CORE, OTHER_CORES_LIMIT, Watch, loaded_verdict


def test_loaded_reads_the_start_load_and_other_processes_cpu():
    quiet = loaded_verdict(0.3, other_cpu_s=1.0, wall_s=300.0, cores=2)
    assert quiet["loaded"] is False and abs(quiet["other_cores"] - 1 / 300) < 1e-12
    assert f"> {LOAD_AVG_LIMIT_PER_CORE * 2:g} " in quiet["loaded_rule"]
    busy_before = loaded_verdict(LOAD_AVG_LIMIT_PER_CORE * 2 + 0.1, other_cpu_s=0.0, wall_s=300.0, cores=2)
    assert busy_before["loaded"] is True
    busy_during = loaded_verdict(0.0, other_cpu_s=(OTHER_CORES_LIMIT + 0.05) * 300, wall_s=300.0, cores=2)
    assert busy_during["loaded"] is True
    # A high load average at the end (the bench's own renders) is not an input at all.
    assert "at_end" not in quiet["loaded_rule"]


def test_watch_charges_other_processes_only():
    # pid -> (ppid, rss KiB, ticks); the bench is pid 100, its worker 101, the worker's server 102.
    watch = Watch(root=100)
    watch.update({1: (0, 10, 0), 100: (1, 1000, 50), 101: (100, 2000, 10), 102: (101, 500, 5), 200: (1, 99, 1000)})
    assert watch.other_ticks == 0  # what ran before the first sample is not the run's
    assert watch.peak_kib == 3500
    # The bench's tree works hard; the outside process 200 uses 30 ticks; 300 starts outside and uses 7;
    # the server 102 outlives the worker (re-parented to 1) and stays the bench's.
    watch.update({1: (0, 10, 0), 100: (1, 1000, 400), 102: (1, 800, 900), 200: (1, 99, 1030), 300: (1, 5, 7)})
    assert watch.other_ticks == 37
    assert watch.other_cpu_s == 37 / CLK
    assert watch.peak_kib == 3500  # the second sample's tree is smaller (1800 KiB)
    assert {100, 101, 102} <= watch.ours and not {1, 200, 300} & watch.ours
