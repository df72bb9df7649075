"""Retries with exponential backoff and full jitter; clock and randomness are injectable so tests
need no sleeping."""

from __future__ import annotations

import logging
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TypeVar

T = TypeVar("T")
log = logging.getLogger("kgrag.llm")


@dataclass
class RetryPolicy:
    max_retries: int = 4
    base_delay: float = 0.5
    max_delay: float = 20.0
    sleep: Callable[[float], None] = field(default=time.sleep, repr=False)
    rand: Callable[[], float] = field(default=random.random, repr=False)

    def delay(self, attempt: int, retry_after: float | None = None) -> float:
        """Full jitter: uniform in [0, min(max, base * 2^attempt)]; a server's Retry-After wins."""
        if retry_after is not None:
            return min(retry_after, self.max_delay)
        return self.rand() * min(self.max_delay, self.base_delay * 2.0 ** attempt)

    def run(self, fn: Callable[[], T], retryable: Callable[[Exception], bool],
            retry_after: Callable[[Exception], float | None] = lambda e: None) -> T:
        """Call ``fn``; on a retryable error wait and try again, at most ``max_retries`` times."""
        attempt = 0
        while True:
            try:
                return fn()
            except Exception as exc:
                if attempt >= self.max_retries or not retryable(exc):
                    raise
                wait = self.delay(attempt, retry_after(exc))
                log.debug("retrying after %s (attempt %d, waiting %.2fs)", type(exc).__name__, attempt + 1, wait)
                self.sleep(wait)
                attempt += 1
