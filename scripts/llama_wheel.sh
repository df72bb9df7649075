#!/usr/bin/env bash
# Build llama-cpp-python once per (version, build flags, compiler, Python) and print the wheel's path.
#
# Why: llama.cpp's default build is native (-march=native), which on CPUs with AMX turns on an AMX
# matrix-multiply kernel that segfaults (upstream, machine-dependent). We build a portable x86-64
# wheel (AVX2/FMA/F16C/BMI2, no AVX-512, no AMX) that runs on every CPU since Haswell/Zen 1.
# pip's own wheel cache is keyed by the sdist alone, not by CMAKE_ARGS, so it could hand back a
# wheel built earlier with other flags: we never use it (--no-cache-dir) and keep our own cache
# keyed by everything that changes the binary.
#
# Usage: scripts/llama_wheel.sh PYTHON          (prints the wheel path on stdout; progress on stderr)
# Env:   KGRAG_LLAMA_CMAKE_ARGS  override the flags (e.g. "-DGGML_NATIVE=ON" for a native build)
#        KGRAG_WHEEL_CACHE       cache folder (default ~/.cache/kgrag/wheels)
set -euo pipefail
PY=${1:?usage: llama_wheel.sh PYTHON}
here="$(cd "$(dirname "$0")/.." && pwd)"
version=$(sed -n 's/^llama-cpp-python==\([0-9.]*\).*/\1/p' "$here/constraints.txt")
[ -n "$version" ] || { echo "llama_wheel.sh: no llama-cpp-python pin in constraints.txt" >&2; exit 2; }
portable="-DGGML_NATIVE=OFF -DGGML_SSE42=ON -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON -DGGML_BMI2=ON -DGGML_AVX512=OFF -DGGML_AMX_TILE=OFF -DGGML_AMX_INT8=OFF -DGGML_AMX_BF16=OFF"
flags=${KGRAG_LLAMA_CMAKE_ARGS:-$portable}
key=$(printf '%s\n' "$version" "$flags" "$(uname -m)" "$("$PY" -c 'import sys; print(sys.implementation.cache_tag)')" \
      "$(${CC:-cc} --version 2>/dev/null | head -1)" | sha256sum | cut -c1-16)
cache=${KGRAG_WHEEL_CACHE:-$HOME/.cache/kgrag/wheels}
dir="$cache/llama_cpp_python-$version-$key"
if ! ls "$dir"/*.whl >/dev/null 2>&1; then
  echo "building llama-cpp-python $version with CMAKE_ARGS=\"$flags\" (about 5 min on 2 cores) -> $dir" >&2
  tmp="$dir.tmp.$$"
  rm -rf "$tmp"; mkdir -p "$tmp"
  CMAKE_ARGS="$flags" CMAKE_BUILD_PARALLEL_LEVEL="${CMAKE_BUILD_PARALLEL_LEVEL:-$(nproc)}" \
    "$PY" -m pip wheel -q --no-cache-dir --no-deps --no-binary llama-cpp-python \
    "llama-cpp-python==$version" -w "$tmp" >&2
  printf '%s\n' "$flags" > "$tmp/CMAKE_ARGS"
  rm -rf "$dir"; mv "$tmp" "$dir"          # atomic publish: a killed build leaves only *.tmp.*
fi
ls "$dir"/*.whl | head -1
