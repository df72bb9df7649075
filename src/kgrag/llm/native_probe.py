"""Find out in a child process whether llama.cpp's native library runs on this CPU.

Why a child: a native crash (llama.cpp's AMX kernel segfaults on some CPUs when the library was
built with ``-march=native``) kills the whole process, with no Python exception to catch. Loading
the model and decoding a few tokens in a throw-away child first turns that into a one-line error
with the fix, raised in the caller. A success is remembered on disk, keyed by the native library
file, the model file and the CPU, so the probe costs about a second once per machine and build.
"""

from __future__ import annotations

import hashlib
import json
import os
import signal
import subprocess
import sys
import threading
from dataclasses import dataclass
from pathlib import Path

from ..errors import LLMNativeCrash

REBUILD_HINT = ("rebuild llama-cpp-python portably: `make llama-rebuild` in a kgrag checkout, or "
                "CMAKE_ARGS=\"-DGGML_NATIVE=OFF\" pip install --force-reinstall --no-cache-dir --no-deps "
                "llama-cpp-python")

# Loads the model and evaluates a short prompt with logits for every position (what kgrag's
# scoring does) and a few generated tokens (what chat does): the kernels that crash run here.
PROBE_CODE = """
import sys
import llama_cpp
print("SYSTEM_INFO", llama_cpp.llama_print_system_info().decode(errors="replace").strip(), flush=True)
llm = llama_cpp.Llama(model_path=sys.argv[1], n_ctx=256, n_threads=int(sys.argv[2]), logits_all=True,
                      verbose=False)
out = llm("The capital of France is", max_tokens=4, temperature=0.0)
print("PROBE_OK", repr(out["choices"][0]["text"]), flush=True)
"""


@dataclass(frozen=True)
class ProbeResult:
    """Outcome of one probe: ``ok``, and what the child said (its system-info line, the crash)."""

    ok: bool
    system_info: str
    detail: str


def cpu_description() -> str:
    """CPU model name and whether it has AMX, from /proc/cpuinfo (empty where that is absent)."""
    try:
        text = Path("/proc/cpuinfo").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return ""
    model = next((line.split(":", 1)[1].strip() for line in text.splitlines() if line.startswith("model name")), "")
    flags = next((line.split(":", 1)[1].split() for line in text.splitlines() if line.startswith("flags")), [])
    amx = sorted(f for f in flags if f.startswith("amx"))
    return f"{model}; AMX: {' '.join(amx) if amx else 'no'}"


def _signal_name(returncode: int) -> str:
    if returncode < 0:
        try:
            return signal.Signals(-returncode).name
        except ValueError:
            return f"signal {-returncode}"
    return f"exit code {returncode}"


def probe(model_path: Path, *, threads: int = 1, timeout: float = 300.0, code: str = PROBE_CODE,
          python: str = sys.executable) -> ProbeResult:
    """Run ``code`` (``python -c code MODEL THREADS``) in a child and report how it ended."""
    try:
        # -P: the child must import the same llama_cpp as this process, never one in the cwd
        done = subprocess.run([python, "-P", "-c", code, str(model_path), str(threads)], capture_output=True, text=True,
                              timeout=timeout, stdin=subprocess.DEVNULL, errors="replace")
    except subprocess.TimeoutExpired:
        return ProbeResult(False, "", f"the probe did not finish within {timeout:.0f} s")
    info = next((line.removeprefix("SYSTEM_INFO ").strip() for line in done.stdout.splitlines()
                 if line.startswith("SYSTEM_INFO ")), "")
    if done.returncode == 0 and "PROBE_OK" in done.stdout:
        return ProbeResult(True, info, "")
    tail = [line for line in done.stderr.strip().splitlines() if line.strip()][-1:]
    return ProbeResult(False, info, _signal_name(done.returncode) + (f" ({tail[0].strip()[:200]})" if tail else ""))


def _cache_file() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "kgrag" / "llama_probe.json"


def _probe_key(model_path: Path) -> str:
    """Changes whenever the native library, the model file or the CPU changes."""
    import llama_cpp

    parts = [cpu_description(), sys.executable]
    lib_dir = Path(llama_cpp.__file__).parent / "lib"
    for path in sorted(lib_dir.glob("*")) + [model_path]:
        try:
            st = path.stat()
            parts.append(f"{path}:{st.st_size}:{st.st_mtime_ns}")
        except OSError:
            parts.append(f"{path}:missing")
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()


def _read_cache() -> dict:
    try:
        return json.loads(_cache_file().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}


def _remember_ok(key: str) -> None:
    """Best effort (a read-only home only costs a probe per process): temp file, then rename."""
    path = _cache_file()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        data = _read_cache()
        data[key] = True
        tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
        tmp.write_text(json.dumps(data), encoding="utf-8")
        os.replace(tmp, path)
    except OSError:
        pass


_checked: set[str] = set()
_lock = threading.Lock()


def ensure_llama_runs(model_path: Path, *, code: str | None = None) -> None:
    """Raise ``LLMNativeCrash`` (one line, with the fix) if llama.cpp crashes on this CPU.

    Once per process and model; a success is also cached on disk. ``KGRAG_LLAMA_PROBE=0`` skips
    the check (for a build you know works).
    """
    if os.environ.get("KGRAG_LLAMA_PROBE", "1") == "0":
        return
    code = code if code is not None else PROBE_CODE
    key = _probe_key(model_path) + hashlib.sha256(code.encode()).hexdigest()[:8]
    with _lock:
        if key in _checked or _read_cache().get(key):
            _checked.add(key)
            return
        result = probe(model_path, code=code)
        if not result.ok:
            cpu = cpu_description() or "unknown CPU"
            raise LLMNativeCrash(
                f"llama.cpp crashed in a probe child ({result.detail}) running {model_path.name} on this CPU "
                f"({cpu}); build: {result.system_info or 'unknown'}. Fix: {REBUILD_HINT}")
        _checked.add(key)
        _remember_ok(key)
