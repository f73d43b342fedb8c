"""Judge backends, registered by name in ``JUDGE_BACKENDS`` (the ``judge.backend`` config key)."""

from bot_repro.judges.backends import bedrock, hf_local, http  # noqa: F401  (import registers them)
from bot_repro.judges.backends.base import JUDGE_BACKENDS, Backend, PermanentError, Reply, TransientError

__all__ = ["JUDGE_BACKENDS", "Backend", "PermanentError", "Reply", "TransientError"]
