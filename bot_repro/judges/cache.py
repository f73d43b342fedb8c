"""Persistent on-disk cache of judge replies (sqlite3, WAL mode), shared by runs and processes.

Key: sha256 over backend, model, the messages (images by content sha256) and the sampling
parameters (including the repeat index of calls that are meant to be independent samples,
e.g. the two A-B calls of an ABBA round). Base URL and credentials are not part of the key:
the same model behind another endpoint gives the same answers, and secrets must not be hashed
into files. Only complete replies are stored; transport failures are never cached.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any


@dataclass
class CachedReply:
    text: str
    tokens_in: int
    tokens_out: int


def _canonical(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    out = []
    for message in messages:
        parts = []
        for part in message["content"]:
            if part["type"] == "image":
                parts.append({"type": "image", "sha256": hashlib.sha256(part["png"]).hexdigest()})
            else:
                parts.append(part)
        out.append({"role": message["role"], "content": parts})
    return out


def cache_key(backend: str, model: str, messages: list[dict[str, Any]], params: dict[str, Any]) -> str:
    payload = {"backend": backend, "model": model, "messages": _canonical(messages), "params": params}
    blob = json.dumps(payload, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()


class JudgeCache:
    """Key -> reply store; safe to use from several threads and several processes."""

    def __init__(self, path: Path):
        path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        self._lock = threading.Lock()
        # several training processes of a sweep may share the file: wait for their writes
        self._db = sqlite3.connect(str(path), timeout=30.0, check_same_thread=False, isolation_level=None)
        self._set_wal()
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.execute(
            "CREATE TABLE IF NOT EXISTS replies (key TEXT PRIMARY KEY, reply TEXT NOT NULL, "
            "tokens_in INTEGER NOT NULL, tokens_out INTEGER NOT NULL, created REAL NOT NULL)"
        )

    def _set_wal(self, wait_s: float = 30.0) -> None:
        # switching to WAL takes an exclusive lock and sqlite may answer "database is locked" at once,
        # without its busy handler, while another process opens the same file: retry for a while
        deadline = time.monotonic() + wait_s
        while True:
            try:
                self._db.execute("PRAGMA journal_mode=WAL")
                return
            except sqlite3.OperationalError as exc:
                if "locked" not in str(exc) or time.monotonic() > deadline:
                    raise
                time.sleep(0.05)

    def get(self, key: str) -> CachedReply | None:
        with self._lock:
            row = self._db.execute("SELECT reply, tokens_in, tokens_out FROM replies WHERE key = ?", (key,)).fetchone()
        return None if row is None else CachedReply(*row)

    def put(self, key: str, reply: CachedReply) -> None:
        with self._lock:
            self._db.execute(
                "INSERT OR REPLACE INTO replies VALUES (?, ?, ?, ?, ?)",
                (key, reply.text, reply.tokens_in, reply.tokens_out, time.time()),
            )

    def keys(self) -> list[str]:
        with self._lock:
            return [row[0] for row in self._db.execute("SELECT key FROM replies")]

    def __len__(self) -> int:
        with self._lock:
            return self._db.execute("SELECT COUNT(*) FROM replies").fetchone()[0]

    def close(self) -> None:
        with self._lock:
            self._db.close()
