"""The arith task: easy one- or two-step arithmetic word problems in AIME's tagged step format.

Sized for a small real model on CPU (``experiment=real_small``): problems are generated
in-process (``data``), prompts and answer checking are AIME's (the task subclasses ``AimeTask``),
and the reward ``arith`` is AIME's Eq. 8 with the offline (grounded) arithmetic rule as step scorer,
so each step's "a op b = c" claim, checked, is the located signal. Importing this package registers the
``arith`` task and reward source.
"""

from bot_repro.tasks.arith.data import make_problems
from bot_repro.tasks.arith.task import ArithReward, ArithTask, make_arith_task

__all__ = ["ArithReward", "ArithTask", "make_arith_task", "make_problems"]
