"""The ``ADVANTAGES`` registry (kept apart so estimator modules can import it without cycles)."""

from bot_repro.registry import Registry

ADVANTAGES: Registry = Registry("algorithm")


def register_advantage(name: str):
    """Decorator: ``@register_advantage("grpo")`` adds a function to ``ADVANTAGES``."""
    return ADVANTAGES.register(name)
