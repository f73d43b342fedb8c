"""The AIME task: problem sets, the tagged step format, answer checking and Pass@k evaluation.

Importing this package registers the ``aime`` task in ``TASKS`` and the ``aime`` reward source in
``REWARD_SOURCES``. Modules: ``data`` (loading, validation, split), ``tags`` (format parser and
bonus), ``answer`` (normalisation and the math-verify process pool), ``prompts`` (system prompts
per model family), ``steps`` (step scorers), ``reward`` (Eq. 8) (Pass@k: ``bot_repro.tasks.passk``),
``task`` (the task).
"""

from bot_repro.tasks.aime.answer import AnswerChecker, CheckResult, normalise_integer, shared_checker
from bot_repro.tasks.aime.reward import AimeReward
from bot_repro.tasks.aime.tags import ParsedSolution, Step, extract_answer, parse_solution
from bot_repro.tasks.aime.task import AimeTask, AimeTaskParams, make_aime_task

__all__ = [
    "AimeReward",
    "AimeTask",
    "AimeTaskParams",
    "AnswerChecker",
    "CheckResult",
    "ParsedSolution",
    "Step",
    "extract_answer",
    "make_aime_task",
    "normalise_integer",
    "parse_solution",
    "shared_checker",
]
