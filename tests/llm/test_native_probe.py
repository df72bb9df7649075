"""A native crash of llama.cpp is found in a child process and reported as one clear error.

The crash is simulated for real: the child kills itself with SIGSEGV / abort(), exactly what a
faulting kernel does, and the code path that spawned it must survive and say what happened.
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from kgrag.errors import LLMNativeCrash, LLMUnavailable
from kgrag.llm import bundled_model_path, native_probe

SEGV = "import os, signal; print('SYSTEM_INFO CPU : AVX2 = 1 | AMX_INT8 = 1 |', flush=True); " \
       "os.kill(os.getpid(), signal.SIGSEGV)"
ABORT = "import os; os.abort()"


@pytest.fixture(autouse=True)
def private_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.delenv("KGRAG_LLAMA_PROBE", raising=False)
    native_probe._checked.clear()  # noqa: SLF001 - per-process memo, reset between tests


def test_probe_reports_segfault_and_system_info():
    result = native_probe.probe(bundled_model_path(), code=SEGV)
    assert not result.ok
    assert result.detail.startswith("SIGSEGV")
    assert result.system_info == "CPU : AVX2 = 1 | AMX_INT8 = 1 |"


def test_probe_reports_abort_and_timeout():
    assert native_probe.probe(bundled_model_path(), code=ABORT).detail.startswith("SIGABRT")
    slow = native_probe.probe(bundled_model_path(), code="import time; time.sleep(30)", timeout=1)
    assert not slow.ok and "did not finish within 1 s" in slow.detail


def test_ensure_raises_one_line_error_with_the_fix():
    with pytest.raises(LLMNativeCrash) as err:
        native_probe.ensure_llama_runs(bundled_model_path(), code=SEGV)
    msg = str(err.value)
    assert "\n" not in msg
    assert "SIGSEGV" in msg and "make llama-rebuild" in msg and "GGML_NATIVE=OFF" in msg
    assert "AMX_INT8 = 1" in msg  # the build's features are named
    assert isinstance(err.value, LLMUnavailable)  # callers that handle an unavailable LLM handle this too


def test_local_llm_survives_a_crashing_native_library(monkeypatch):
    """The first use of the local model in a process goes through the probe."""
    from kgrag.llm import LLMConfig, LocalLLM

    monkeypatch.setattr(native_probe, "PROBE_CODE", SEGV)
    llm = LocalLLM(LLMConfig(max_retries=0))
    with pytest.raises(LLMNativeCrash, match="SIGSEGV"):
        llm.chat([{"role": "user", "content": "hi"}], max_tokens=2)
    assert llm._llama is None  # noqa: SLF001 - nothing half-loaded


def test_real_probe_passes_and_is_cached(monkeypatch):
    """The installed build runs on this CPU; the success is remembered, so the next process skips it."""
    model = bundled_model_path()
    result = native_probe.probe(model)
    assert result.ok, result.detail
    assert "AMX_INT8 = 1" not in result.system_info  # the portable build has no AMX kernels
    native_probe.ensure_llama_runs(model)
    native_probe._checked.clear()  # noqa: SLF001 - as if in a new process

    def must_not_run(*a, **k):  # noqa: ANN002, ANN003, ANN202
        raise AssertionError("probe ran again despite a cached success")

    monkeypatch.setattr(native_probe, "probe", must_not_run)
    native_probe.ensure_llama_runs(model)


def test_probe_can_be_switched_off(monkeypatch):
    monkeypatch.setenv("KGRAG_LLAMA_PROBE", "0")
    native_probe.ensure_llama_runs(bundled_model_path(), code=SEGV)  # no child, no error


FAKE_LLAMA = '''
"""Stands in for a llama.cpp build whose kernels segfault: importing works, running crashes."""
import os, signal
__version__ = "0.0-fake"
def llama_print_system_info():
    return b"CPU : AVX2 = 1 | AMX_INT8 = 1 |"
class Llama:
    def __init__(self, *a, **k):
        os.kill(os.getpid(), signal.SIGSEGV)
    def __call__(self, *a, **k):
        os.kill(os.getpid(), signal.SIGSEGV)
class LlamaGrammar:
    @classmethod
    def from_string(cls, *a, **k):
        return cls()
'''


def test_llm_check_cli_reports_the_crash_in_one_line(tmp_path):
    """`kgrag llm-check` with a llama.cpp that segfaults: one line with the fix, exit 1, no traceback."""
    fake = tmp_path / "fake" / "llama_cpp"
    (fake / "lib").mkdir(parents=True)
    (fake / "__init__.py").write_text(FAKE_LLAMA)
    (fake / "llama_chat_format.py").write_text("class Jinja2ChatFormatter:\n    pass\n")
    env = {**os.environ, "PYTHONPATH": str(fake.parent), "XDG_CACHE_HOME": str(tmp_path / "cache"),
           "COLUMNS": "400"}
    env.pop("KGRAG_LLAMA_PROBE", None)
    done = subprocess.run([sys.executable, "-m", "kgrag", "llm-check", "--llm", "local"], capture_output=True,
                          text=True, env=env, timeout=300, cwd=tmp_path)
    text = done.stdout + done.stderr
    assert done.returncode != 0 and done.returncode > 0, text  # the CLI itself did not die of a signal
    assert "Traceback" not in text
    assert "llama.cpp crashed in a probe child (SIGSEGV)" in text and "make llama-rebuild" in text


def test_crash_in_one_test_does_not_stop_the_suite(tmp_path):
    """The suite's runner (pytest-xdist workers) fails a natively crashing test and runs the rest."""
    (tmp_path / "pytest.ini").write_text("[pytest]\n")
    (tmp_path / "test_inner.py").write_text(
        "import os, signal\n"
        "def test_before():\n    assert True\n"
        "def test_native_crash():\n    os.kill(os.getpid(), signal.SIGSEGV)\n"
        "def test_after():\n    assert True\n")
    done = subprocess.run([sys.executable, "-m", "pytest", "-n", "1", "-p", "no:cacheprovider", "-q",
                           str(tmp_path / "test_inner.py")], capture_output=True, text=True, cwd=tmp_path,
                          timeout=300)
    text = done.stdout + done.stderr
    assert done.returncode == 1, text
    assert "2 passed" in text and "1 failed" in text, text
    assert "crashed while running" in text and "test_native_crash" in text, text
