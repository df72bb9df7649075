"""Running the service under uvicorn so that SIGTERM stops the work in flight: uvicorn's own
shutdown waits for the open requests to finish, and a question that runs for minutes would hold
the process that long. Here the signal first ends every request's deadline (its method stops at
its next check and the request answers 504), then uvicorn shuts down as usual, bounded by
`SHUTDOWN_S`."""

from __future__ import annotations

import signal
import threading
from collections.abc import Callable
from types import FrameType
from typing import Any

import uvicorn
from starlette.types import ASGIApp

from .state import ServiceState

__all__ = ["SHUTDOWN_S", "run_server", "stop_work_on_signals"]

SHUTDOWN_S = 3  # the most uvicorn waits for open connections after the work was stopped


class _StoppingServer(uvicorn.Server):
    def __init__(self, config: uvicorn.Config, state: ServiceState) -> None:
        super().__init__(config)
        self.state = state

    def handle_exit(self, sig: int, frame: FrameType | None) -> None:
        self.state.stop_all()
        super().handle_exit(sig, frame)


def run_server(app: ASGIApp, state: ServiceState, host: str, port: int) -> None:
    """Serve ``app`` until SIGINT/SIGTERM; the signal stops ``state``'s requests in flight first."""
    config = uvicorn.Config(app, host=host, port=port, log_level="warning", timeout_graceful_shutdown=SHUTDOWN_S)
    _StoppingServer(config, state).run()


def stop_work_on_signals(state: ServiceState) -> None:
    """In a process uvicorn runs itself (a ``--replicas`` worker, started from an import string):
    chain ``state.stop_all`` before the handlers uvicorn installed for SIGINT and SIGTERM. Called
    while uvicorn loads the app, on the main thread, after it captured the signals."""
    if threading.current_thread() is not threading.main_thread():
        return
    for sig in (signal.SIGINT, signal.SIGTERM):
        previous = signal.getsignal(sig)
        if callable(previous):
            def handler(signum: int, frame: FrameType | None, previous: Callable[..., Any] = previous) -> None:
                state.stop_all()
                previous(signum, frame)

            signal.signal(sig, handler)
