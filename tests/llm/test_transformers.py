"""The optional transformers backend with the real bundled model: scoring agrees with llama.cpp
on order, choices by exact scoring, and a short LoRA run that lowers the loss and round-trips."""

from __future__ import annotations

import copy

import pytest

pytest.importorskip("peft")
pytest.importorskip("gguf")

from kgrag.llm.config import LLMConfig  # noqa: E402
from kgrag.llm.hf import TransformersLLM  # noqa: E402

Q = [{"role": "user", "content": "What is the capital of France?"}]


@pytest.fixture(scope="module")
def hf_llm() -> TransformersLLM:
    """Loaded once: de-quantising the GGUF costs more than everything these tests do with it."""
    llm = TransformersLLM(LLMConfig(backend="transformers", seed=0), device="cpu")
    llm.count_tokens("")  # loads it
    return llm


def base_copy(llm: TransformersLLM) -> TransformersLLM:
    """The same base weights as a freshly loaded model, in a copy a LoRA adapter may be attached to
    (peft changes the model it wraps) without the shared model changing."""
    fresh = TransformersLLM(llm.config, device="cpu")
    fresh.tokenizer, fresh.model = llm.tokenizer, copy.deepcopy(llm.model)
    return fresh


def test_score_matches_llama_cpp_ranking(hf_llm, local_llm):
    cands = ["The capital of France is Paris.", "Bananas are purple engines.", "Paris."]
    hf = hf_llm.score(Q, cands)
    lc = local_llm.score(Q, cands)
    assert sorted(range(3), key=lambda i: -hf[i]) == sorted(range(3), key=lambda i: -lc[i])
    # Q4_1 de-quantised in float32 vs llama.cpp's kernels: close, not identical
    assert all(abs(a - b) < 2.0 for a, b in zip(hf, lc))


def test_choices_and_generation(hf_llm):
    comp = hf_llm.chat(Q, max_tokens=12, choices=["Paris", "Berlin", "a purple engine"])
    assert comp.text in ("Paris", "Berlin", "a purple engine")
    assert hf_llm.chat(Q, max_tokens=8).text.strip()


def test_lora_lowers_loss_and_round_trips(hf_llm, tmp_path):
    """Two steps on the same batch of both targets: the second step's loss is below the first's
    (seeded: 7.19 then 4.50 when written), and the saved adapter on a fresh base scores the same."""
    llm = base_copy(hf_llm)
    examples = [([{"role": "user", "content": f"Code for item {i}?"}], f"ZQX-{i % 2}") for i in range(2)]
    before = llm.score(examples[0][0], ["ZQX-0"])[0]
    report = llm.finetune_lora(examples, tmp_path / "adapter", epochs=2, lr=2e-3, batch_size=2, progress=False)
    after = llm.score(examples[0][0], ["ZQX-0"])[0]
    assert report["steps"] == 2 and report["last_loss"] < report["first_loss"]
    assert after > before
    fresh = base_copy(hf_llm)
    fresh.load_adapter(tmp_path / "adapter")
    assert fresh.score(examples[0][0], ["ZQX-0"])[0] == pytest.approx(after, abs=1e-3)
