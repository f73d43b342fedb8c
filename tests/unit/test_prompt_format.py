"""model.prompt_format (bot_repro.models.prompt_format): resolution, and the plain format's text."""

from __future__ import annotations

import pytest

from bot_repro.config import ModelCfg
from bot_repro.config_schema import ConfigError
from bot_repro.models import prompt_format
from bot_repro.models.tiny import CHAT_TEMPLATE, build_tokenizer

TWO_SHOT = [
    {"role": "system", "content": "Solve it."},
    {"role": "user", "content": "What is 1 + 2?"},
    {"role": "assistant", "content": "<step 1> 1 + 2 = 3 </step 1>\n<final> 3 </final>"},
    {"role": "user", "content": "What is 2 * 5?"},
    {"role": "assistant", "content": "<step 1> 2 * 5 = 10 </step 1>\n<final> 10 </final>"},
    {"role": "user", "content": "What is 4 - 1?"},
]
# written by hand from the format in the module docstring
TWO_SHOT_PLAIN = (
    "Solve it.\n\n"
    "Problem: What is 1 + 2?\n"
    "Solution:\n<step 1> 1 + 2 = 3 </step 1>\n<final> 3 </final>\n\n"
    "Problem: What is 2 * 5?\n"
    "Solution:\n<step 1> 2 * 5 = 10 </step 1>\n<final> 10 </final>\n\n"
    "Problem: What is 4 - 1?\n"
    "Solution:\n"
)


@pytest.mark.parametrize(("requested", "has_template", "chosen"), [
    ("auto", True, "chat"), ("auto", False, "plain"), ("chat", True, "chat"), ("plain", True, "plain"),
    ("plain", False, "plain"),
])
def test_resolution(requested, has_template, chosen):
    fmt, line = prompt_format.resolve(requested, has_template, "m1")
    assert fmt == chosen
    assert line.startswith(f"prompt format: {chosen} (") and f"model.prompt_format={requested}" in line


def test_auto_says_why():
    assert prompt_format.resolve("auto", False, "m1")[1].endswith("model m1 has no chat template")


def test_chat_without_a_template_is_refused_with_what_to_use():
    with pytest.raises(ConfigError, match=r"model m1 has no chat template.*model.prompt_format=plain"):
        prompt_format.resolve("chat", False, "m1")


def test_an_unknown_format_names_the_allowed_ones():
    with pytest.raises(ConfigError, match=r"'text'.*auto, chat, plain"):
        prompt_format.resolve("text", True, "m1")


def test_plain_text_of_a_two_shot_prompt():
    tok = build_tokenizer(None, 300)  # qwen2-like: no bos before plain text
    tok.chat_template = None
    assert prompt_format.apply(tok, "auto", "m1") == "plain"
    assert tok.apply_chat_template(TWO_SHOT, tokenize=False, add_generation_prompt=True) == TWO_SHOT_PLAIN


def test_plain_text_opens_with_bos_where_the_tokenizer_adds_one():
    tok = build_tokenizer(None, 300, family="gemma3")
    assert tok.chat_template is None and tok("a").input_ids[0] == tok.bos_token_id
    prompt_format.apply(tok, "auto", "m1")
    text = tok.apply_chat_template(TWO_SHOT, tokenize=False, add_generation_prompt=True)
    assert text == "<bos>" + TWO_SHOT_PLAIN
    ids = tok.apply_chat_template(TWO_SHOT, tokenize=True, add_generation_prompt=True, return_dict=True)["input_ids"]
    assert ids.count(tok.bos_token_id) == 1  # TRL's call: one <bos>, from the template


def test_auto_keeps_a_tokenizers_own_template():
    tok = build_tokenizer(None, 300)
    assert prompt_format.apply(tok, "auto", "m1") == "chat"
    assert tok.chat_template == CHAT_TEMPLATE
    text = tok.apply_chat_template(TWO_SHOT[:2], tokenize=False, add_generation_prompt=True)
    assert text == "<|im_start|>system\nSolve it.<|im_end|>\n<|im_start|>user\nWhat is 1 + 2?<|im_end|>\n" \
                   "<|im_start|>assistant\n"


def test_plain_refuses_a_role_it_has_no_place_for():
    tok = build_tokenizer(None, 300)
    prompt_format.apply(tok, "plain", "m1")
    with pytest.raises(Exception, match="no place for a tool message"):
        tok.apply_chat_template([{"role": "tool", "content": "x"}], tokenize=False)


def test_the_command_line_default_is_the_dataclass_default():
    from tests.conftest import compose

    default = ModelCfg.__dataclass_fields__["prompt_format"].default
    assert default == "auto"
    assert compose(["model=tiny_gemma3"]).model.prompt_format == default


def test_validate_refuses_an_unknown_format_from_the_command_line():
    from bot_repro.config import validate
    from tests.conftest import compose

    with pytest.raises(ConfigError, match=r"model.prompt_format.*'text'.*auto, chat, plain"):
        validate(compose(["model.prompt_format=text", "debug=smoke"]))
