"""bot_repro: a research harness reproducing BoT-GRPO (arXiv 2610.09804) on TRL + Hydra.

Layers (lowest first; a module imports only from its own layer or below, and never in a circle;
tests/unit/test_import_layers.py checks it):
  0. registry, config_schema, ranks, cache, paths, run_folder, report_folder
  1. algorithms, judges, rewards, models
  2. tasks
  3. plugins, config, sizes
  4. trainer
  5. train, analysis, plots, integrations
  6. experiment
"""

__version__ = "0.1.0"
