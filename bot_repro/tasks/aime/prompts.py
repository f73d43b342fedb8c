"""System prompts of the AIME task, one per model family (docs/method.md §7).

All families are asked for the same tagged format (see ``tags.py``). SmolLM3 runs with thinking
off, which its chat template reads from a ``/no_think`` flag in the system prompt;
Phi-4-mini-reasoning always thinks, so its prompt allows a ``<think>`` block before the tags (the
parser skips it). Tiny test models ("tiny-qwen2", "qwen2_tiny", ...) use their family's prompt.
"""

from __future__ import annotations

import re

from bot_repro.config_schema import ConfigError

FORMAT_INSTRUCTIONS = (
    "Solve the math problem step by step. Write each step inside numbered tags, starting at 1: "
    "<step 1> ... </step 1>, <step 2> ... </step 2>, and so on, one short piece of reasoning per step. "
    "After the last step, write only the final answer, an integer from 0 to 999, inside <final> ... </final>. "
    "Write nothing outside these tags.\n"
    "Example:\n"
    "<step 1> The two numbers sum to 3 + 4 = 7. </step 1>\n"
    "<step 2> Doubling gives 2 * 7 = 14. </step 2>\n"
    "<final> 14 </final>"
)

SYSTEM_PROMPTS = {
    "qwen2": FORMAT_INSTRUCTIONS,
    "smollm3": FORMAT_INSTRUCTIONS + "\n/no_think",
    "gemma3": FORMAT_INSTRUCTIONS,  # Gemma 3 270M is a base model: the plain prompt format carries it
    "phi3": (
        "You may first think inside <think> ... </think>. After thinking, give the clean solution.\n"
        + FORMAT_INSTRUCTIONS
    ),
}


def family_of(name: str) -> str:
    """The prompt family of a model family name, ignoring a "tiny" marker in it."""
    base = re.sub(r"(^tiny[-_]?)|([-_]?tiny$)", "", str(name).strip().lower())
    if base not in SYSTEM_PROMPTS:
        raise ConfigError(
            f"model family {name!r} has no AIME system prompt; allowed: {', '.join(SYSTEM_PROMPTS)} "
            "(optionally with a tiny- prefix or -tiny suffix)"
        )
    return base


def system_prompt(family: str, override: str | None = None) -> str:
    """``override`` (a task param) wins; otherwise the family's template."""
    if override:
        return override
    return SYSTEM_PROMPTS[family_of(family)]
