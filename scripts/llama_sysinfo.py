"""Print the CPU model and the features the installed llama.cpp build uses (for CI logs).

Exits 1 if the build turned on AMX kernels: they segfault on some CPUs (see README, install notes).
Only loads the library; runs no kernel, so it cannot crash.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path


def main() -> int:
    try:
        text = Path("/proc/cpuinfo").read_text(encoding="utf-8", errors="replace")
    except OSError:
        text = ""
    model = next((ln.split(":", 1)[1].strip() for ln in text.splitlines() if ln.startswith("model name")), "unknown")
    flags = next((ln.split(":", 1)[1].split() for ln in text.splitlines() if ln.startswith("flags")), [])
    amx = [f for f in flags if f.startswith("amx")]
    print(f"CPU: {model} (AMX on the CPU: {' '.join(amx) or 'no'})")
    import llama_cpp

    info = llama_cpp.llama_print_system_info().decode(errors="replace").strip()
    print(f"llama.cpp {llama_cpp.__version__} system info: {info}")
    if re.search(r"AMX\w* = 1", info):
        print("llama.cpp was built with AMX kernels, which crash on some CPUs: run `make llama-rebuild`",
              file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
