"""Check functions the answer-checker pool tests inject into its worker processes.

A fresh worker imports the module of the function it is sent, inside that call's deadline: this one
imports only the standard library, where a test module pulls in the rewards and tasks (about 1 s more
on a loaded machine, enough to run a 2 s deadline out and score a plain check as a timeout).
"""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path


def hanging_check(gold: int, pred: str, timeout_s: int) -> tuple[bool, str | None]:
    """"hang" never returns, "crash" kills its worker, "v<N>" means N, "slow-v<N>" too."""
    if pred == "hang":
        while True:
            time.sleep(1)
    if pred == "crash":
        os._exit(3)
    if pred.startswith("slow-"):  # still running when a neighbour crashes the pool
        time.sleep(0.5)
        pred = pred[len("slow-"):]
    return pred == f"v{gold}", None if pred == f"v{gold}" else "no"


def stopping_check(gold: int, pred: str, timeout_s: int) -> tuple[bool, str | None]:
    """"stop" stops its own worker (as SIGSTOP from outside would), "slow-v<N>" takes 0.5 s (first
    leaving a file named after its worker's pid in $STALL_TEST_MARKS), "v<N>" means N."""
    if pred == "stop":
        os.kill(os.getpid(), signal.SIGSTOP)
    if pred.startswith("slow-"):
        if os.environ.get("STALL_TEST_MARKS"):
            Path(os.environ["STALL_TEST_MARKS"], str(os.getpid())).touch()
        time.sleep(0.5)
        pred = pred[len("slow-"):]
    return pred == f"v{gold}", None if pred == f"v{gold}" else "no"
