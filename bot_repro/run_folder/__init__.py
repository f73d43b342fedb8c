"""The run folder: its format (``schema``), its writers (``write``), its readers (``read``) and its lock (``lock``).

One module owns what a run folder holds, so that the trainer (which writes it), the synthetic runs
of tests and dry runs, the wandb export and the analysis (which reads it) cannot drift apart:

  <run_dir>/.hydra/config.yaml   the composed Hydra config (written by Hydra for a training run)
  <run_dir>/metrics.jsonl        one JSON object per optimizer step (``read.read_metrics`` states the rules)
  <run_dir>/run.json             provenance and status, with ``format_version``
  <run_dir>/checkpoints/, rollouts/step_NNNNNN.jsonl, eval/step_NNNNNN/
  <run_dir>/.hydra/overrides.yaml, hydra.yaml   Hydra's job overrides and group choices (``records``)
  <run_dir>/run.lock             locked while a run writes the folder: its one owner (``lock``)

It sits at layer 0 (stdlib, yaml and omegaconf only), below both the trainer and the analysis.
"""

from bot_repro.run_folder.lock import RunFolderBusy, RunLock, check_free, process_alive
from bot_repro.run_folder.read import (
    MetricsFormatError,
    RunFormatError,
    counter_total,
    find_run_dirs,
    read_config,
    read_metrics,
    read_run_info,
    read_run_json,
)
from bot_repro.run_folder.records import (
    OVERRIDES,
    config_path,
    copy_record,
    has_metrics,
    last_checkpoint,
    last_step,
    metrics_path,
    read_choices,
    read_overrides,
    run_json_path,
    status,
)
from bot_repro.run_folder.schema import FORMAT_VERSION, X_COLUMNS
from bot_repro.run_folder.write import (
    append_metrics,
    portable_command,
    truncate_metrics,
    write_config,
    write_rollouts,
    write_run_dir,
    write_run_json,
)

__all__ = [
    "OVERRIDES",
    "FORMAT_VERSION",
    "MetricsFormatError",
    "RunFolderBusy",
    "RunFormatError",
    "RunLock",
    "X_COLUMNS",
    "append_metrics",
    "check_free",
    "config_path",
    "copy_record",
    "has_metrics",
    "last_checkpoint",
    "last_step",
    "metrics_path",
    "read_choices",
    "read_overrides",
    "run_json_path",
    "status",
    "find_run_dirs",
    "portable_command",
    "process_alive",
    "read_config",
    "counter_total",
    "read_metrics",
    "read_run_info",
    "read_run_json",
    "truncate_metrics",
    "write_config",
    "write_rollouts",
    "write_run_dir",
    "write_run_json",
]
