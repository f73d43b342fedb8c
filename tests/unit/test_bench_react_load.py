"""bench.react's load keys (issue #25) are copies of the one bench header's, under its one loaded rule (#33)."""

import bench.react as react
from bench.header import FIELDS, LOADED_RULE


def test_react_copies_the_header_and_has_no_rule_of_its_own():
    header = {name: None for name in FIELDS} | {"load_avg_before": [1.5, 1.0, 0.5], "loaded": True,
                                                 "loaded_rule": LOADED_RULE, "other_cpu_s": 30.0,
                                                 "other_cores": 0.2, "peak_rss_mib": 4096.0}
    copies = react.header_copies(header)
    assert copies == {"load_avg_1m_at_start": 1.5, "loaded": True, "loaded_rule": LOADED_RULE, "other_cpu_s": 30.0,
                      "other_cores": 0.2, "peak_rss_mib": 4096.0}
    assert set(react.FROM_HEADER.values()) <= set(FIELDS)
    assert not hasattr(react, "loaded_verdict") and not hasattr(react, "Watch")
