"""The judge config schema (Hydra group ``judge``): validation and the role -> prompt template map.

Secrets never live here: ``api_key_env`` holds the *name* of an environment variable, and the
value is read only when a request is sent. Everything in this object may be logged or hashed.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot_repro.cache import cache_root
from bot_repro.config_schema import ConfigError, build_options

BACKENDS = ("openai", "anthropic", "bedrock", "hf_local", "loopback")
PROBES = ("auto", "always", "never")
OUTAGE_POLICIES = ("wait", "stop", "skip")  # judge.on_outage: what a step does while the breaker is open
DISABLED = "none"  # conf/judge/none.yaml: no judge client is built

# The checkout's conf/ directory; relative template paths resolve against the repository root.
REPO_ROOT = Path(__file__).resolve().parents[2]
PROMPT_DIR = REPO_ROOT / "conf" / "judge_prompts"

# role -> default template file. Each role's placeholders are fixed by the code that fills it.
DEFAULT_PROMPTS = {
    "code_score": "code_score.txt",
    "code_lines": "code_lines.txt",
    "screenshot_global": "screenshot_global.txt",
    "screenshot_one_turn": "screenshot_one_turn.txt",
    "screenshot_two_turn_score": "screenshot_two_turn_score.txt",
    "screenshot_two_turn_lines": "screenshot_two_turn_lines.txt",
    "pairwise": "pairwise.txt",
    "step_independent": "step_independent.txt",
    "step_context_aware": "step_context_aware.txt",
}

_ENV_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
# Prefixes of real keys (OpenAI, Anthropic, AWS, Hugging Face): a config holding one is refused.
_KEY_LIKE = re.compile(r"^(sk-|sk_|AKIA|ASIA|hf_)")


@dataclass
class JudgeOptions:
    backend: str
    model: str = ""
    base_url: str | None = None
    api_key_env: str | None = None
    max_concurrency: int = 32
    timeout_s: float = 120.0
    max_retries: int = 5
    backoff_base_s: float = 1.0
    backoff_max_s: float = 30.0
    # a server's Retry-After is honoured up to this many seconds, times a random factor in [1, 1.5] (jitter:
    # calls told the same Retry-After do not come back together)
    retry_after_max_s: float = 120.0
    temperature: float = 0.0
    max_tokens: int = 1024
    cache: bool = True
    cache_dir: str | None = None  # None -> $BOT_REPRO_CACHE/judges (bot_repro.cache.cache_root)
    prompts: dict[str, str] = field(default_factory=dict)  # role -> template path (overrides defaults)
    region: str | None = None  # bedrock only; None -> the AWS default chain (AWS_REGION, profile)
    device: str = "auto"  # hf_local only: "auto" (cuda when available), "cpu", "cuda:0", ...
    step_lookahead: int = 1  # error propagation: steps of one solution judged at once
    loopback_latency_s: float = 0.0  # loopback only: delay of the harness-started fake server
    # openai backend on vLLM (>= 0.10) only: each request carries vLLM's ``structured_outputs``
    # field with its role's reply format as a regex (bot_repro.judges.parsers.REPLY_PATTERNS), so
    # that a small model gives parseable verdicts. OpenAI's own API refuses the field.
    structured_outputs: bool = False
    # the reachability probe at preflight (GET {base_url}/models, openai backend): "auto" probes
    # only self-hosted URLs (a loopback or private address), "always" any, "never" none
    preflight_probe: str = "auto"
    # A judge outage (bot_repro.judges.breaker; docs/method.md §5 "Judge outages"). The breaker opens
    # after this many attempts in a row got no answer (timeout, connection error, 5xx, cut by the deadline) ...
    breaker_failures: int = 8
    breaker_probe_s: float = 30.0  # ... and then lets one probe out every this many seconds
    # a rate-limit storm: when every answer for this many seconds was HTTP 429 (no other reply between), the
    # breaker opens as for a server that does not answer (a 429 is no verdict; Retry-After can ask for hours)
    rate_limit_max_s: float = 120.0
    # the bound on one training step's judge work: the wall time of its batch calls, summed (generation and
    # checking between them do not count, so the budget starts with the step's first judge call). Ten minutes
    # is several times a healthy server's step at the paper's batch sizes, and it bounds a hung server's cost
    # per step in minutes where timeout x attempts x calls in sequence is hours. It must exceed timeout_s, so
    # that a hung server's attempts time out and open the breaker first; attempts it cuts count as failures.
    step_deadline_s: float = 600.0
    # what an outage step does (its judge work ended with the breaker open, or no group kept a scored
    # rollout): wait (no update; probe until the judge answers, up to outage_max_wait_s, and judge the
    # same rollouts again; else stop), stop (checkpoint and stop at once) or skip (no update; the run goes on)
    on_outage: str = "wait"
    outage_max_wait_s: float = 1800.0  # a server restart or model reload fits; longer stops the run
    # a step in which more than this share of the judge's replies could not be parsed logs one WARNING
    # naming the judge, the share and an example reply (each such reply is a failed verdict: excluded)
    unparseable_warn_share: float = 0.1

    def __post_init__(self) -> None:
        if self.backend not in BACKENDS:
            raise ConfigError(f"judge.backend={self.backend!r} is not supported; allowed: {', '.join(BACKENDS)}")
        if self.backend != "loopback" and not self.model:
            raise ConfigError(
                f"judge.model is required for backend {self.backend!r} (hf_local: a local directory or hub id)"
            )
        if self.backend == "openai" and not self.base_url:
            raise ConfigError("judge.base_url is required for backend 'openai' (e.g. https://api.openai.com/v1)")
        if self.api_key_env is not None:
            if _KEY_LIKE.match(self.api_key_env):
                raise ConfigError(
                    "judge.api_key_env must be the NAME of an environment variable (e.g. OPENAI_API_KEY), "
                    "not the key itself; remove the key from the config"
                )
            if not _ENV_NAME.match(self.api_key_env):
                raise ConfigError(
                    f"judge.api_key_env={self.api_key_env!r} is not a valid environment variable name"
                )
        positive = {
            "max_concurrency": self.max_concurrency,
            "timeout_s": self.timeout_s,
            "max_tokens": self.max_tokens,
            "step_lookahead": self.step_lookahead,
            "breaker_failures": self.breaker_failures,
            "breaker_probe_s": self.breaker_probe_s,
            "step_deadline_s": self.step_deadline_s,
            "rate_limit_max_s": self.rate_limit_max_s,
        }
        for name, value in positive.items():
            if not isinstance(value, int | float) or value <= 0:
                raise ConfigError(f"judge.{name}={value!r} must be a positive number")
        for name in ("max_retries", "backoff_base_s", "backoff_max_s", "retry_after_max_s", "loopback_latency_s",
                     "outage_max_wait_s"):
            value = getattr(self, name)
            if not isinstance(value, int | float) or value < 0:
                raise ConfigError(f"judge.{name}={value!r} must be >= 0")
        if self.step_deadline_s <= self.timeout_s:
            raise ConfigError(
                f"judge.step_deadline_s={self.step_deadline_s!r} must exceed judge.timeout_s={self.timeout_s!r}: "
                "a hung server's attempts must time out (and open the circuit breaker) within a step"
            )
        share = self.unparseable_warn_share
        if not isinstance(share, int | float) or not 0 <= share <= 1:
            raise ConfigError(f"judge.unparseable_warn_share={share!r} must be a share in [0, 1]")
        check_policy(self.on_outage)
        if not isinstance(self.structured_outputs, bool):
            raise ConfigError(f"judge.structured_outputs={self.structured_outputs!r} must be true or false")
        if self.structured_outputs and self.backend not in ("openai", "loopback"):
            raise ConfigError(
                f"judge.structured_outputs=true needs an OpenAI-compatible vLLM server (backend openai), "
                f"not backend {self.backend!r}"
            )
        if self.preflight_probe not in PROBES:
            raise ConfigError(f"judge.preflight_probe={self.preflight_probe!r} is not supported; allowed: {', '.join(PROBES)}")
        if not 0.0 <= float(self.temperature) <= 2.0:
            raise ConfigError(f"judge.temperature={self.temperature!r} must be in [0, 2]")
        unknown = sorted(set(self.prompts) - set(DEFAULT_PROMPTS))
        if unknown:
            raise ConfigError(
                f"unknown judge prompt role(s) {unknown} in judge.prompts; allowed roles: {', '.join(DEFAULT_PROMPTS)}"
            )

    def prompt_path(self, role: str) -> Path:
        """The template file for ``role``: the override if given, else the shipped default."""
        given = self.prompts.get(role)
        if given is None:
            return PROMPT_DIR / DEFAULT_PROMPTS[role]
        path = Path(os.path.expanduser(given))
        return path if path.is_absolute() else REPO_ROOT / path

    def cache_path(self) -> Path:
        base = Path(os.path.expanduser(self.cache_dir)) if self.cache_dir else cache_root() / "judges"
        return base / "judge_cache.sqlite"


def check_policy(value: Any) -> None:
    if value not in OUTAGE_POLICIES:
        raise ConfigError(f"judge.on_outage={value!r} is not supported; allowed: {', '.join(OUTAGE_POLICIES)}")


def parse_options(judge_cfg: dict[str, Any] | None) -> JudgeOptions | None:
    """Validate a ``judge`` config section; ``None``, ``{}`` or ``backend: none`` mean disabled."""
    if not judge_cfg:
        return None
    values = dict(judge_cfg)
    if values.get("backend") == DISABLED:
        extra = sorted(set(values) - {"backend"})
        if extra:
            raise ConfigError(f"judge.backend=none takes no other keys, got {extra}")
        return None
    if "backend" not in values:
        raise ConfigError(f"judge.backend is required; allowed: {', '.join((*BACKENDS, DISABLED))}")
    if values.get("prompts") is None:
        values.pop("prompts", None)
    else:
        values["prompts"] = dict(values["prompts"])
    return build_options(JudgeOptions, values, "judge")
