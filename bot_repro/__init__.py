"""bot_repro: a research harness reproducing BoT-GRPO (arXiv 2610.09804) on TRL + Hydra."""

__version__ = "0.1.0"
