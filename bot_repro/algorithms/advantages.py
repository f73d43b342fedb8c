"""The ``ADVANTAGES`` registry, option validation, and ``compute_advantages``.

Kept apart from the estimators so their modules can import it without cycles. An estimator is
written as ``body(batch: RewardBatch, *, <options>) -> Tensor[B, T]``; registering it gives the
public function ``fn(global_rewards, local_rewards, mask, group_size, **options)``, which checks
the options first (unknown name, bad value: the same ``ConfigError`` the trainer gets from
``validate_options`` at start-up), checks the tensors (``RewardBatch.from_inputs``) and returns
zeros for a batch without a valid token, so no estimator repeats those steps.

The registration also holds every other fact about an algorithm (``AlgorithmInfo``): its display
name, colour, marker and line style in figures, whether it is drawn highlighted, whether verl gets
it as a plug-in estimator, and which options make the trainer drop groups. Plots, the trainer and
the verl integration read them from here. An option only this estimator has is declared here too
(``options={"my_opt": choice("a", "b")}``, checkers from ``options.py``); the shared ones (``std``,
``eps``, ...) come from ``options.OPTION_CHECKS``. Adding an algorithm: README.md, "Add an algorithm".
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from torch import Tensor

from bot_repro.algorithms.batch import RewardBatch
from bot_repro.algorithms.options import (
    CHOICE_LABELS,
    CHOICE_STYLES,
    HEX_COLOR,
    OPTION_CHECKS,
    Checker,
    Choice,
    LineStyle,
    Style,
    ValueStyle,
)
from bot_repro.config_schema import ConfigError
from bot_repro.registry import Registry, UnknownNameError

ADVANTAGES: Registry = Registry("algorithm")

CrossCheck = Callable[[dict[str, Any], str], None]
DropsGroups = Callable[[dict[str, Any]], bool]


@dataclass(frozen=True)
class AlgorithmInfo:
    """What figures, the trainer and verl need to know about a registered estimator.

    ``label``: the paper's spelling (legends, tables); ``color`` ("#rrggbb"), ``marker`` (a
    matplotlib marker) and ``linestyle`` (a matplotlib line style) tell its curves apart, also in
    greyscale; ``highlight``: drawn a little thicker and on top (the paper's method); ``verl``: handed
    to verl as a plug-in estimator (verl's built-ins cover the sequence-level ones);
    ``drops_groups(options_with_defaults)``: whether these options make the trainer remove groups
    whose advantages are all 0 (None: never).
    """

    name: str
    label: str
    color: str
    marker: str
    linestyle: LineStyle = "-"
    highlight: bool = False
    verl: bool = False
    drops_groups: DropsGroups | None = None

    def __post_init__(self) -> None:
        if not self.label:
            raise TypeError(f"advantage estimator {self.name!r} needs a display label")
        if not HEX_COLOR.fullmatch(self.color):
            raise TypeError(f"advantage estimator {self.name!r}: color {self.color!r} is not '#rrggbb'")

    @property
    def style(self) -> Style:
        """Its colour, marker and line style: how its arm is drawn in every figure."""
        return Style(self.color, self.marker, self.linestyle)


def _option_defaults(fn: Callable[..., Any]) -> dict[str, Any]:
    params = inspect.signature(fn).parameters.values()
    return {p.name: p.default for p in params if p.kind is inspect.Parameter.KEYWORD_ONLY}


def register_advantage(
    name: str,
    *,
    label: str,
    color: str,
    marker: str,
    linestyle: LineStyle = "-",
    highlight: bool = False,
    verl: bool = False,
    drops_groups: DropsGroups | None = None,
    cross_check: CrossCheck | None = None,
    options: Mapping[str, Checker] | None = None,
):
    """Decorator: ``@register_advantage("grpo", label="GRPO", color="#0072B2", marker="s")`` adds a
    validating wrapper of the function to ``ADVANTAGES``, with its ``AlgorithmInfo`` as ``.info``.

    ``options``: the checkers of the keyword-only options no other estimator has (``option ->
    checker(option, value, where)``, e.g. ``options.choice("a", "b", labels=...)``); every other
    option takes its shared checker from ``options.OPTION_CHECKS``. ``cross_check(options_with_defaults,
    where)`` may raise ``ConfigError`` for combinations of options that are each valid alone.
    """
    info = AlgorithmInfo(name, label, color, marker, linestyle, highlight, verl, drops_groups)

    def wrap(body: Callable[..., Tensor]) -> Callable[..., Tensor]:
        defaults = _option_defaults(body)
        checks = _option_checks(name, defaults, dict(options or {}))

        def unvalidated(global_rewards, local_rewards, mask, group_size, **options):
            batch = RewardBatch.from_inputs(global_rewards, local_rewards, mask, group_size)
            return batch.zeros() if batch.empty else body(batch, **options)

        @functools.wraps(body)
        def validated(global_rewards, local_rewards, mask, group_size, **options):
            validate_options(name, options)
            return unvalidated(global_rewards, local_rewards, mask, group_size, **options)

        validated.__signature__ = _public_signature(body)
        validated.body = body  # for variants: another default, same body (``core_algos.gspo``)
        validated.unvalidated = unvalidated
        validated.option_defaults = defaults
        validated.option_checks = checks
        validated.cross_check = cross_check
        validated.info = info
        ADVANTAGES.register(name)(validated)
        return validated

    return wrap


def _option_checks(name: str, defaults: dict[str, Any], own: dict[str, Checker]) -> dict[str, Checker]:
    """Each option's checker: the estimator's own (``own``) or the shared one of its name. The
    errors are programming errors in an estimator module, caught when it is imported."""
    where = f"advantage estimator {name!r}"
    if shared := sorted(set(own) & set(OPTION_CHECKS)):
        raise TypeError(f"{where} declares options with a shared checker in options.OPTION_CHECKS: {shared}; "
                        "leave them out of options=")
    if stray := sorted(set(own) - set(defaults)):
        raise TypeError(f"{where} declares checkers for options its keyword-only parameters lack: {stray}")
    for option, check in own.items():
        other = next((n for n, fn in ADVANTAGES.items() if fn.option_checks.get(option, check) is not check), None)
        if other is not None:  # one option name means one thing: its values and their display names
            raise TypeError(f"{where} declares option {option!r}, which {other!r} declares with another "
                            f"checker; reuse ADVANTAGES[{other!r}].option_checks[{option!r}] or rename it")
    if unchecked := sorted(set(defaults) - set(own) - set(OPTION_CHECKS)):
        raise TypeError(f"{where} has options without a checker: {unchecked}; declare them with "
                        "register_advantage(..., options={name: checker}) (checkers in options.py)")
    return {option: own[option] if option in own else OPTION_CHECKS[option] for option in defaults}


def _public_signature(body: Callable[..., Any]) -> inspect.Signature:
    """``(global_rewards, local_rewards, mask, group_size, *, <the body's options>) -> Tensor``."""
    positional = [inspect.Parameter(n, inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=a) for n, a in
                  (("global_rewards", Tensor), ("local_rewards", Tensor), ("mask", Tensor), ("group_size", int))]
    options = [p for p in inspect.signature(body).parameters.values() if p.kind is inspect.Parameter.KEYWORD_ONLY]
    return inspect.Signature(positional + options, return_annotation=Tensor)


def validate_options(name: str, options: dict[str, Any]) -> None:
    """Raise ``ConfigError`` for an unknown estimator, an unknown option, a missing one without a default
    (w_g, w_s), or an invalid option value."""
    try:
        fn = ADVANTAGES[name]
    except UnknownNameError as exc:
        raise ConfigError(str(exc)) from exc
    where = f"advantage estimator {name!r}"
    defaults: dict[str, Any] = fn.option_defaults
    unknown = sorted(set(options) - set(defaults))
    if unknown:
        raise ConfigError(f"unknown option(s) {unknown} for {where}; allowed options: {', '.join(defaults)}")
    # w_g and w_s have no estimator default: their one home is the reward section (RewardCfg)
    missing = [key for key, value in defaults.items() if value is inspect.Parameter.empty and key not in options]
    if missing:
        raise ConfigError(f"{where} needs option(s) {missing}, which have no default: pass the reward "
                          "section's values (reward.w_g, reward.w_s; RunConfig.advantage_options does)")
    merged = {**defaults, **options}
    for key, value in merged.items():
        fn.option_checks[key](key, value, where)
    if fn.cross_check is not None:
        fn.cross_check(merged, where)


def algorithm_info(name: str) -> AlgorithmInfo:
    """The registered facts of estimator ``name`` (``UnknownNameError`` listing the names otherwise)."""
    return ADVANTAGES[name].info


def _declared(option: str, value: Any, shared: dict[str, dict], field: str) -> Any:
    """``value``'s entry in the choice option's ``field`` (labels or styles): the shared checkers'
    table first, else the checker a registered estimator declared; None when it has none."""
    if not isinstance(value, str):
        return None
    if option in shared:
        return shared[option].get(value)
    checks = (fn.option_checks.get(option) for fn in ADVANTAGES.values())
    return next((getattr(c, field).get(value) for c in checks if isinstance(c, Choice)), None)


def option_label(option: str, value: Any) -> str | None:
    """The display name of ``value`` of choice option ``option`` (None when it has none)."""
    return _declared(option, value, CHOICE_LABELS, "labels")


def option_style(option: str, value: Any) -> ValueStyle | None:
    """How ``value`` of choice option ``option`` is drawn (a ``Style``, or the algorithm it draws as;
    None when it has none), from the same homes as ``option_label``."""
    return _declared(option, value, CHOICE_STYLES, "styles")


def drops_groups(name: str, options: dict[str, Any]) -> bool:
    """Whether estimator ``name`` with ``options`` (defaults filled in) asks the trainer to remove the
    groups whose advantages are all 0 (bot_grpo's ``zero_std: drop``)."""
    fn = ADVANTAGES[name]
    rule = fn.info.drops_groups
    return bool(rule({**fn.option_defaults, **options})) if rule is not None else False


def compute_advantages(
    name: str, global_rewards: Tensor, local_rewards: Tensor, mask: Tensor, group_size: int, **options: Any
) -> Tensor:
    """Validate ``options`` for estimator ``name`` and return its advantages ``[B, T]`` (float32)."""
    validate_options(name, options)
    # the registered function would validate again
    return ADVANTAGES[name].unvalidated(global_rewards, local_rewards, mask, group_size, **options)
