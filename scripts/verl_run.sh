#!/usr/bin/env bash
# One node: a BoT arm on verl (README "BoT-GRPO on verl").
#   bash scripts/verl_run.sh bot_grpo_react [verl overrides ...]
#   bash scripts/verl_run.sh bot_grpo_aime trainer.n_gpus_per_node=8 algorithm.adv_estimator=pure \
#       algorithm.bot_options='{temperature: 0.1, whiten: false}'
# Writes the task's parquet files first (data/verl/<task>/, from bot_repro's conf/, as a TRL run reads
# them) unless they exist. VERL_PYTHON: the interpreter of a venv with verl + bot_repro[verl]
# (default .venv-verl/bin/python; on GPU nodes see the README for the vLLM install).
set -euo pipefail
cd "$(dirname "$0")/.."
config=${1:?usage: verl_run.sh <bot_grpo_react|bot_grpo_aime> [verl overrides...]}
shift
py=${VERL_PYTHON:-.venv-verl/bin/python}
case "$config" in
  bot_grpo_react) task=react ;;
  bot_grpo_aime) task=aime ;;
  *) task=${VERL_TASK:?unknown config $config: set VERL_TASK=<task> for the data step} ;;
esac
data=data/verl/$task
if [ ! -f "$data/train.parquet" ]; then
  "$py" -m bot_repro.integrations.verl.data --out "$data" "task=$task" model=qwen2_5_3b
fi
export BOT_REPRO_CONF=${BOT_REPRO_CONF:-$PWD/conf}   # the reward workers compose the stack from it
export PYTHONUNBUFFERED=1
exec "$py" -m verl.trainer.main_ppo --config-path="$PWD/conf/verl" --config-name="$config" "$@"
