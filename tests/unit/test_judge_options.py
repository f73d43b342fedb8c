"""Judge config validation, shipped configs and templates, credential checks."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from bot_repro.config_schema import ConfigError
from bot_repro.judges import build_judge_client, parse_options
from bot_repro.judges.backends import JUDGE_BACKENDS
from bot_repro.judges.options import BACKENDS, DEFAULT_PROMPTS, REPO_ROOT
from bot_repro.judges.prompts import PromptBook

CONF = REPO_ROOT / "conf" / "judge"
EXPECTED_CONFIGS = {"none", "openai", "vllm_local_server", "anthropic", "bedrock", "hf_local", "loopback"}


def _load(name: str) -> dict:
    return yaml.safe_load((CONF / f"{name}.yaml").read_text())


def test_shipped_configs_exist_and_validate():
    assert {p.stem for p in CONF.glob("*.yaml")} >= EXPECTED_CONFIGS
    assert parse_options(_load("none")) is None
    for name in sorted(EXPECTED_CONFIGS - {"none"}):
        opts = parse_options(_load(name))
        assert opts.backend in BACKENDS
        PromptBook(opts)  # every default template loads and has its placeholders


def test_every_backend_is_registered():
    assert set(JUDGE_BACKENDS) == set(BACKENDS)


def test_disabled_forms_build_no_client():
    assert build_judge_client(None) is None
    assert build_judge_client({}) is None
    assert build_judge_client({"backend": "none"}) is None
    with pytest.raises(ConfigError, match="takes no other keys"):
        parse_options({"backend": "none", "model": "x"})


def test_unknown_key_lists_allowed_keys():
    with pytest.raises(ConfigError, match=r"unknown key\(s\) \['max_conc'\].*allowed keys:.*max_concurrency"):
        parse_options({"backend": "loopback", "max_conc": 4})


@pytest.mark.parametrize(
    "cfg,message",
    [
        ({"backend": "gemini", "model": "m"}, "allowed: openai, anthropic, bedrock, hf_local, loopback"),
        ({"model": "m"}, "judge.backend is required"),
        ({"backend": "openai", "model": "m"}, "base_url is required"),
        ({"backend": "anthropic"}, "judge.model is required"),
        ({"backend": "loopback", "max_concurrency": 0}, "max_concurrency=0 must be a positive number"),
        ({"backend": "loopback", "max_retries": -1}, "max_retries=-1 must be >= 0"),
        ({"backend": "loopback", "temperature": 3}, r"temperature=3 must be in \[0, 2\]"),
        ({"backend": "loopback", "api_key_env": "MY KEY"}, "not a valid environment variable name"),
        ({"backend": "loopback", "prompts": {"vibes": "x.txt"}}, r"unknown judge prompt role\(s\) \['vibes'\]"),
    ],
)
def test_bad_values_fail_early(cfg, message):
    with pytest.raises(ConfigError, match=message):
        parse_options(cfg)


def test_a_key_in_the_config_is_refused_without_echoing_it():
    secret = "sk-proj-abcdefghijklmnop1234"
    with pytest.raises(ConfigError) as info:
        parse_options({"backend": "openai", "model": "m", "base_url": "http://x", "api_key_env": secret})
    assert "NAME of an environment variable" in str(info.value)
    assert secret not in str(info.value)


def test_missing_key_names_the_variable(monkeypatch, tmp_path):
    monkeypatch.delenv("BOT_REPRO_TEST_JUDGE_KEY", raising=False)
    cfg = {"backend": "anthropic", "model": "m", "api_key_env": "BOT_REPRO_TEST_JUDGE_KEY",
           "cache_dir": str(tmp_path)}
    with build_judge_client(cfg) as client:
        with pytest.raises(ConfigError, match="environment variable BOT_REPRO_TEST_JUDGE_KEY"):
            client.check_credentials()
        monkeypatch.setenv("BOT_REPRO_TEST_JUDGE_KEY", "secret-value")
        client.check_credentials()


def test_bedrock_credentials_come_from_the_aws_chain(monkeypatch, tmp_path):
    pytest.importorskip("botocore")
    # isolate from the machine's AWS setup; never let botocore ask an instance-metadata endpoint
    for var in ("AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "AWS_PROFILE",
                "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI", "AWS_CONTAINER_CREDENTIALS_FULL_URI",
                "AWS_WEB_IDENTITY_TOKEN_FILE"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("AWS_EC2_METADATA_DISABLED", "true")
    monkeypatch.setenv("AWS_CONFIG_FILE", str(tmp_path / "none"))
    monkeypatch.setenv("AWS_SHARED_CREDENTIALS_FILE", str(tmp_path / "none"))
    cfg = {"backend": "bedrock", "model": "m", "region": "us-east-1", "cache": False}
    with build_judge_client(cfg) as client:
        with pytest.raises(ConfigError, match="AWS_ACCESS_KEY_ID"):
            client.check_credentials()
        monkeypatch.setenv("AWS_ACCESS_KEY_ID", "AKIDEXAMPLE")
        monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "example-secret")
        client.check_credentials()


def _prompt_file(tmp_path: Path, body: str) -> str:
    path = tmp_path / "custom.txt"
    path.write_text(body)
    return str(path)


def test_custom_template_is_used(tmp_path):
    path = _prompt_file(tmp_path, "Rate this: ${code}\nSCORE: n")
    opts = parse_options({"backend": "loopback", "prompts": {"code_score": path}})
    book = PromptBook(opts)
    assert book.render("code_score", code="0: x", prompt="ignored", n_lines=1) == "Rate this: 0: x\nSCORE: n"
    assert opts.prompt_path("code_lines").name == DEFAULT_PROMPTS["code_lines"]


@pytest.mark.parametrize(
    "body,message",
    [
        ("Rate ${code} for ${user}", r"unknown placeholder\(s\) \['user'\]"),
        ("Rate the request ${prompt}", r"must contain placeholder\(s\) \['code'\]"),
        ("Costs $5 for ${code}", "malformed placeholder"),
    ],
)
def test_bad_templates_fail_when_the_client_is_built(tmp_path, body, message):
    opts = parse_options({"backend": "loopback", "prompts": {"code_score": _prompt_file(tmp_path, body)}})
    with pytest.raises(ConfigError, match=message):
        PromptBook(opts)


def test_missing_template_names_the_path(tmp_path):
    opts = parse_options({"backend": "loopback", "prompts": {"pairwise": str(tmp_path / "nope.txt")}})
    with pytest.raises(ConfigError, match="nope.txt"):
        PromptBook(opts)


def test_templates_ask_for_the_exact_reply_fields():
    texts = {role: (REPO_ROOT / "conf/judge_prompts" / name).read_text() for role, name in DEFAULT_PROMPTS.items()}
    for role in ("code_score", "code_lines", "screenshot_global", "screenshot_one_turn", "screenshot_two_turn_score"):
        assert "SCORE: <integer from 0 to 10>" in texts[role] and "JUSTIFICATION:" in texts[role]
    for role in ("code_lines", "screenshot_one_turn", "screenshot_two_turn_lines"):
        assert "| DESC: " in texts[role] and "| IMPACT: " in texts[role] and "NONE" in texts[role]
    assert "NON_REACT_CODE" in texts["code_score"] and "NON_REACT_CODE" in texts["code_lines"]
    assert "SCORE:" not in texts["screenshot_two_turn_lines"]
    assert "WINNER: <A or B>" in texts["pairwise"]
    assert "VERDICT: <+1, 0 or -1>" in texts["step_independent"]
