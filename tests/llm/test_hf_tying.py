"""The transformers backend ties an output layer that loading left on the ``meta`` device."""

from __future__ import annotations

import pytest

torch = pytest.importorskip("torch")
transformers = pytest.importorskip("transformers")

from kgrag.llm.hf import _tie_unloaded_output


def _tiny() -> object:
    config = transformers.LlamaConfig(vocab_size=32, hidden_size=8, intermediate_size=16, num_hidden_layers=1,
                                      num_attention_heads=2, num_key_value_heads=2, tie_word_embeddings=True)
    return transformers.LlamaForCausalLM(config)


def test_an_unloaded_tied_output_layer_takes_the_input_embeddings() -> None:
    model = _tiny()
    model.lm_head.weight = torch.nn.Parameter(torch.empty(32, 8, device="meta"))
    _tie_unloaded_output(model)
    assert not model.lm_head.weight.is_meta
    assert model.lm_head.weight is model.get_input_embeddings().weight
    assert not any(p.is_meta for p in model.parameters())


def test_a_loaded_output_layer_is_left_as_it_is() -> None:
    model = _tiny()
    untied = torch.nn.Parameter(torch.ones(32, 8))
    model.lm_head.weight = untied
    _tie_unloaded_output(model)
    assert model.lm_head.weight is untied
