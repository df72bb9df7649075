"""The confidence `auto` uses before its own exists: fitted on synthetic questions over the
bundled sample KG (`scripts/generic_calibration.py` writes it), shipped with the package.

Auto's own confidence comes from synthetic questions over *this* KG, which takes seconds on a
small KG and minutes on one with hundreds of relations (`kgrag.api.self_training` runs it in the
background). Until it is done, auto still has to pick between its members: the features it reads
(scores, margins, agreement: `features.py`) mean the same on any KG, so a model fitted on another
KG picks sensibly, if less sharply; the answer says which confidence it used.
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import NamedTuple

from ...learn.calibration import LogisticCalibrator

__all__ = ["GENERIC_CALIBRATION", "GENERIC_SOURCE", "GenericModels", "generic_models"]

GENERIC_CALIBRATION = Path(__file__).with_name("generic_calibration.json")
GENERIC_SOURCE = "generic (the bundled sample's synthetic questions), until this KG's self-training is done"


class GenericModels(NamedTuple):
    calibrators: dict[str, LogisticCalibrator]
    choosers: dict[str, LogisticCalibrator]


@lru_cache(maxsize=1)
def _saved() -> dict:
    return json.loads(GENERIC_CALIBRATION.read_text(encoding="utf-8"))


def generic_models(members: tuple[str, ...]) -> GenericModels:
    """The shipped models of the members it has them for (another member: none, so its answers
    get confidence 0.5 and lose ties to a fitted member's)."""
    saved = _saved()
    calibrators = {n: LogisticCalibrator.from_json(c) for n, c in saved["members"].items() if n in members}
    choice = saved.get("choice", {})
    choosers = {n: LogisticCalibrator.from_json(c) for n, c in choice.items() if n in members} \
        if set(choice) >= set(members) else {}
    return GenericModels(calibrators, choosers)
