"""Which text encoder a database uses: chosen at ingest, stored with the version, read by every reader.

Why per database: the entity and relation matrices, the path vectors and every trained model live
in one encoder's vector space, so a question must be encoded by that same encoder. A version
written before the choice existed has no ``encoder.json`` and was built with MiniLM.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import Literal, get_args

from ..errors import KgragError
from ..store.layout import VersionLayout, link_or_copy, save_directory_atomically
from ..store.versions import current_version
from .embedder import Embedder, MiniLMEmbedder
from .static_embedder import STATIC_NAME, StaticEmbedder, distill_static

EncoderName = Literal["static", "minilm"]
ENCODERS: tuple[str, ...] = get_args(EncoderName)
DEFAULT_ENCODER: EncoderName = "minilm"
"""MiniLM stays the default: with trained path models the static encoder keeps Hits@1 within 0.004
of it (p50 1.7–2.3 ms instead of 15.6–16.4 ms), but the zero-shot scorer (no QA pairs, what a new database gets)
loses 0.17 / 0.23 on MetaQA 1 / 2-hop with static word vectors (README, *Text encoder*)."""


def check_encoder(name: str) -> EncoderName:
    if name not in ENCODERS:
        raise KgragError(f"--encoder must be one of {', '.join(ENCODERS)}, not '{name}'")
    return name  # type: ignore[return-value]


def encoder_name(version: Path) -> EncoderName:
    """The encoder ``version`` was built with (MiniLM for versions older than the choice)."""
    path = VersionLayout(version).encoder_choice
    if not path.exists():
        return "minilm"
    return check_encoder(json.loads(path.read_text(encoding="utf-8"))["encoder"])


def choose_encoder(version: Path, name: str) -> None:
    """Record the encoder of a version being built (before it is published)."""
    files = VersionLayout(version)
    files.cache.mkdir(exist_ok=True)
    files.encoder_choice.write_text(json.dumps({"encoder": check_encoder(name)}), encoding="utf-8")


def encoder_of(version: Path) -> Embedder:
    """The embedder of ``version``; a static encoder missing from it is installed first (a copy of
    the database from another machine, or one written with ``--no-embed``)."""
    if encoder_name(version) == "minilm":
        return MiniLMEmbedder()
    return StaticEmbedder(install_static(VersionLayout(version).encoder_dir(STATIC_NAME)))


def machine_cache() -> Path:
    """Where this machine keeps the distilled encoder, so each new database links it instead of
    distilling again: ``KGRAG_CACHE_DIR``, else ``$XDG_CACHE_HOME/kgrag``, else ``~/.cache/kgrag``."""
    env = os.environ.get("KGRAG_CACHE_DIR")
    if env:
        return Path(env)
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "kgrag"


def install_static(target: Path) -> Path:
    """The static encoder's files at ``target`` (inside a version, so the database stays
    self-contained): hard links to the machine's distilled copy, distilled there on first use."""
    if (target / "config.json").exists():
        return target
    try:
        source = distill_static(machine_cache() / f"encoders/{STATIC_NAME}")
    except OSError:  # no writable machine cache: distil straight into the version
        return distill_static(target)
    return save_directory_atomically(target, lambda tmp: _copy_tree(source, tmp))


def _copy_tree(source: Path, target: Path) -> None:
    shutil.copytree(source, target, copy_function=link_or_copy)


def encoder_for_ingest(db_dir: Path, requested: str | None, append: bool) -> EncoderName:
    """``--encoder`` as given; without it an append keeps the database's encoder (what is cached
    and trained there lives in its space) and a new database gets the default."""
    if requested is not None:
        return check_encoder(requested)
    if append:
        try:
            return encoder_name(current_version(db_dir))
        except KgragError:
            pass  # no readable database yet: a new one
    return DEFAULT_ENCODER
