"""A real server over a KG nothing was trained on: auto answers the first request at once, learns
its confidence in the background (progress in ``GET /info``), saves it, and answers with it."""

from __future__ import annotations

import time
from pathlib import Path

import httpx
import pytest

from kgrag.service import ServiceSettings
from tests.conftest import copy_shared

from .conftest import running

pytestmark = pytest.mark.integration
# auto's self-training on few synthetic questions (fast, same path), named by its options in /info
ASK = {"question": "who directed 21 Grams", "options": {"synthetic_per_hop": 10}}
TRAINING = 'auto {"synthetic_per_hop": 10}'


def test_untrained_auto_answers_at_once_and_self_trains_in_the_background(tmp_path: Path, sample_db: Path) -> None:
    db = copy_shared(sample_db, tmp_path / "db")
    with running(ServiceSettings(db=db, method="auto")) as url:
        r = httpx.post(f"{url}/ask", json=ASK, timeout=60)
        assert r.status_code == 200, r.text  # not refused: the self-training is not on this request's path
        body = r.json()
        assert body["entities"][0]["name"] == "Alejandro González Iñárritu"
        assert any("until this KG's self-training is done" in w for w in body["warnings"])
        end, state = time.monotonic() + 180, None
        while time.monotonic() < end:
            progress = httpx.get(f"{url}/info", timeout=60).json()["database"]["self_training"][TRAINING]
            assert progress["state"] in ("waiting", "running", "saved"), progress
            if (state := progress["state"]) == "saved":
                break
            time.sleep(0.5)
        assert state == "saved" and progress["done"] == progress["total"] > 0
        r = httpx.post(f"{url}/ask", json=ASK, timeout=60)
        assert r.status_code == 200 and not r.json()["warnings"]
        assert r.json()["evidence"][0]["data"]["calibration"] == "synthetic"
