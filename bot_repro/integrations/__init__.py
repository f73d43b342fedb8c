"""Adapters that serve bot_repro's estimators and reward sources to other RL engines (``verl``)."""
