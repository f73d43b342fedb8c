"""AWS Bedrock judge backend (the paper's platform) through the Converse API of boto3/botocore.

botocore (which boto3 installs) is imported lazily: nothing else needs it. Its calls block, so they
run in a thread pool sized to ``max_concurrency``; botocore's own retries are switched off
because ``bot_repro.judges.calls`` retries every backend the same way. Credentials come from the
standard AWS chain (environment, profile, instance role); ``base_url`` overrides the endpoint
(VPC endpoints, tests against the loopback server).
"""

from __future__ import annotations

import asyncio
import os
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from bot_repro.config_schema import ConfigError
from bot_repro.judges.backends.base import JUDGE_BACKENDS, PermanentError, Reply, TransientError, require_env
from bot_repro.judges.options import JudgeOptions

_TRANSIENT_CODES = {
    "ThrottlingException",
    "TooManyRequestsException",
    "ServiceUnavailableException",
    "InternalServerException",
    "ModelNotReadyException",
    "ModelTimeoutException",
}


def _botocore():
    try:
        import botocore.config
        import botocore.exceptions
        import botocore.session
    except ImportError as exc:
        raise ConfigError("judge backend 'bedrock' needs boto3: pip install boto3") from exc
    return botocore


@JUDGE_BACKENDS.register("bedrock")
class BedrockBackend:
    name = "bedrock"

    def __init__(self, opts: JudgeOptions):
        self.opts = opts
        self._client: Any = None
        self._pool: ThreadPoolExecutor | None = None

    def _session(self):
        return _botocore().session.Session()

    def check_credentials(self) -> None:
        if self.opts.api_key_env:  # e.g. AWS_BEARER_TOKEN_BEDROCK (Bedrock API keys)
            require_env(self.opts.api_key_env, "bedrock")
            return
        if self._session().get_credentials() is None:
            raise ConfigError(
                "judge backend 'bedrock' found no AWS credentials: set AWS_ACCESS_KEY_ID and "
                "AWS_SECRET_ACCESS_KEY (or AWS_PROFILE) in the environment"
            )
        if not (self.opts.region or os.environ.get("AWS_REGION") or os.environ.get("AWS_DEFAULT_REGION")
                or self._session().get_config_variable("region")):
            raise ConfigError("judge backend 'bedrock' needs a region: set judge.region or AWS_REGION")

    async def start(self) -> None:
        botocore = _botocore()
        config = botocore.config.Config(
            retries={"total_max_attempts": 1},
            read_timeout=self.opts.timeout_s,
            connect_timeout=min(self.opts.timeout_s, 10.0),
            max_pool_connections=self.opts.max_concurrency,
        )
        self._client = self._session().create_client(
            "bedrock-runtime", region_name=self.opts.region, endpoint_url=self.opts.base_url, config=config
        )
        self._pool = ThreadPoolExecutor(max_workers=self.opts.max_concurrency, thread_name_prefix="bedrock")

    async def aclose(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None

    async def complete(self, messages: list[dict[str, Any]], params: dict[str, Any]) -> Reply:
        request = {
            "modelId": self.opts.model,
            "messages": [converse_message(m) for m in messages],
            "inferenceConfig": {"maxTokens": params["max_tokens"], "temperature": params["temperature"]},
        }
        loop = asyncio.get_running_loop()
        data = await loop.run_in_executor(self._pool, self._call, request)
        try:
            blocks = data["output"]["message"]["content"]
        except (KeyError, TypeError) as exc:
            raise TransientError("Converse reply without output.message.content") from exc
        text = "".join(str(b.get("text", "")) for b in blocks if isinstance(b, dict))
        usage = data.get("usage") or {}
        return Reply(text, int(usage.get("inputTokens") or 0), int(usage.get("outputTokens") or 0))

    def _call(self, request: dict[str, Any]) -> dict[str, Any]:
        exc_mod = _botocore().exceptions
        try:
            return self._client.converse(**request)
        except exc_mod.ClientError as exc:
            err = exc.response.get("Error", {})
            status = exc.response.get("ResponseMetadata", {}).get("HTTPStatusCode", 0)
            message = f"Bedrock {err.get('Code', '?')} (HTTP {status}): {str(err.get('Message', ''))[:200]}"
            if err.get("Code") in _TRANSIENT_CODES or status == 429 or status >= 500:
                retry_after = exc.response.get("ResponseMetadata", {}).get("HTTPHeaders", {}).get("retry-after")
                raise TransientError(message, retry_after=_seconds(retry_after), status=status) from exc
            raise PermanentError(message) from exc
        except (exc_mod.ConnectionError, exc_mod.HTTPClientError, exc_mod.ResponseStreamingError) as exc:
            raise TransientError(f"Bedrock connection failure: {type(exc).__name__}") from exc
        except exc_mod.NoCredentialsError as exc:
            raise PermanentError("Bedrock: no AWS credentials") from exc


def _seconds(value: str | None) -> float | None:
    try:
        return float(value) if value is not None else None
    except ValueError:
        return None


def converse_message(message: dict[str, Any]) -> dict[str, Any]:
    content = []
    for p in message["content"]:
        if p["type"] == "text":
            content.append({"text": p["text"]})
        else:
            content.append({"image": {"format": "png", "source": {"bytes": p["png"]}}})
    return {"role": message["role"], "content": content}
