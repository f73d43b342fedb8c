"""BoT-GRPO on verl (README, "BoT-GRPO on verl"): a plugin for an unmodified verl 0.9.1.

Installed into its own venv by ``make install-verl`` (verl pins transformers <5.11; our TRL
trainer needs 5.23). Loaded by verl through the ``verl.plugins`` entry point (``plugin``), it adds:

- ``estimators``: verl advantage estimators ``bot_grpo``, ``ps_grpo``, ``pure`` that call the
  registry ``bot_repro.algorithms.ADVANTAGES`` on verl's rows grouped by uid;
- ``reward_manager``: reward manager ``bot_token``, our reward sources with the TRL path's
  span/line -> token mapping (``bot_repro.trainer.token_reward.score_completions``);
- ``agent_loop``: agent loop ``bot_single_turn``, which carries the per-token rewards into
  verl's ``rm_scores`` in the split layout (``layout``);
- ``stack``: the reward stack composed from bot_repro's conf/ (same overrides as a TRL run);
- ``data``: task rows -> verl parquet files.

Importing this package imports neither verl nor anything heavy; the submodules that need verl
import it themselves.
"""
