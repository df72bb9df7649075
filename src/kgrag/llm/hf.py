"""Optional ``transformers`` backend: the same GGUF de-quantised into PyTorch, for exact
log-probability scoring in batches and for LoRA fine-tuning (peft). Runs on the GPU when one is
present. Install with ``pip install 'kgrag[transformers]'``.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..errors import LLMError
from .base import LLM
from .config import LLMConfig
from .local import bundled_model_path
from .types import Completion, Message, Usage


class TransformersLLM(LLM):
    backend = "transformers"
    choices_by_scoring = True  # choose-one-of-N = argmax of exact candidate log-probabilities

    def __init__(self, config: LLMConfig | None = None, device: str | None = None) -> None:
        super().__init__(config or LLMConfig(backend="transformers"))
        self._device = device
        self.model: Any = None
        self.tokenizer: Any = None

    @property
    def model_path(self) -> Path:
        return Path(self.config.model) if self.config.model else bundled_model_path()

    @property
    def model_name(self) -> str:
        return self.model_path.name

    @property
    def device(self) -> str:
        if self._device is None:
            import torch

            self._device = "cuda" if torch.cuda.is_available() else "cpu"
        return self._device

    def _load(self) -> None:
        if self.model is not None:
            return
        try:
            import torch  # noqa: F401 - checks the extra is installed
            from transformers import AutoModelForCausalLM, AutoTokenizer
        except ImportError as exc:
            raise LLMError(f"the transformers backend needs: pip install 'kgrag[transformers]' ({exc})") from None
        path = self.model_path
        kwargs = {"gguf_file": path.name} if path.suffix == ".gguf" else {}
        root = str(path.parent) if path.suffix == ".gguf" else str(path)
        self.tokenizer = AutoTokenizer.from_pretrained(root, **kwargs)
        model: Any = AutoModelForCausalLM.from_pretrained(root, **kwargs)  # its `.to` is typed for the class
        _tie_unloaded_output(model)
        missing = [name for name, p in model.named_parameters() if p.is_meta]
        if missing:
            raise LLMError(f"the transformers backend loaded no weights for {', '.join(missing[:3])} from {path}")
        self.model = model.to(self.device).eval()

    def render(self, messages: list[Message]) -> str:
        self._load()
        return self.tokenizer.apply_chat_template([{"role": m["role"], "content": m["content"]} for m in messages],
                                                  tokenize=False, add_generation_prompt=True)

    def count_tokens(self, text: str) -> int:
        self._load()
        return len(self.tokenizer(text, add_special_tokens=False)["input_ids"])

    def cut_tokens(self, text: str, n: int) -> str:
        self._load()
        return self.tokenizer.decode(self.tokenizer(text, add_special_tokens=False)["input_ids"][:n])

    def _complete(self, messages: list[Message], *, max_tokens: int, temperature: float, stop: list[str] | None,
                  json_schema: dict | None, grammar: str | None, choices: Sequence[str] | None) -> Completion:
        import torch

        t0 = time.perf_counter()
        prompt = self.render(messages)
        if choices:
            best = max(zip(self.score(prompt, choices), choices))[1]
            return Completion(best, self.model_name, Usage(self.count_tokens(prompt), self.count_tokens(best)),
                              time.perf_counter() - t0, finish_reason="stop")
        ids = self.tokenizer(prompt, return_tensors="pt", add_special_tokens=False).to(self.device)
        with torch.no_grad():
            out = self.model.generate(**ids, max_new_tokens=max_tokens, do_sample=temperature > 0,
                                      temperature=temperature if temperature > 0 else None, top_p=None, top_k=None,
                                      pad_token_id=self.tokenizer.eos_token_id)
        new = out[0, ids["input_ids"].shape[1]:]
        text = self.tokenizer.decode(new, skip_special_tokens=True)
        for s in stop or []:
            text = text.split(s)[0]
        return Completion(text, self.model_name, Usage(ids["input_ids"].shape[1], len(new)), time.perf_counter() - t0,
                          finish_reason="stop" if len(new) < max_tokens else "length")

    def _candidate_batch(self, prompt: str, candidates: Sequence[str]) -> tuple[Any, Any]:
        """Token ids of prompt+candidate (right-padded) and a mask of the candidate positions."""
        import torch

        p_ids = self.tokenizer(prompt, add_special_tokens=False)["input_ids"]
        rows, masks = [], []
        for cand in candidates:
            full = self.tokenizer(prompt + cand, add_special_tokens=False)["input_ids"]
            if full[:len(p_ids)] != p_ids:  # tokenisation boundary moved: tokenise separately
                full = p_ids + self.tokenizer(cand, add_special_tokens=False)["input_ids"]
            rows.append(full)
            masks.append([0] * len(p_ids) + [1] * (len(full) - len(p_ids)))
        width = max(len(r) for r in rows)
        pad = self.tokenizer.pad_token_id if self.tokenizer.pad_token_id is not None else 0
        ids = torch.tensor([r + [pad] * (width - len(r)) for r in rows], device=self.device)
        mask = torch.tensor([m + [0] * (width - len(m)) for m in masks], device=self.device)
        return ids, mask

    def _score(self, prompt: str | list[Message], candidates: Sequence[str]) -> list[float]:
        import torch

        self._load()
        text = prompt if isinstance(prompt, str) else self.render(prompt)
        ids, mask = self._candidate_batch(text, candidates)
        attention = (mask.cumsum(1) == 0) | (mask == 1)  # prompt and candidate tokens, not padding
        with torch.no_grad():
            logits = self.model(input_ids=ids, attention_mask=attention.long()).logits.float()
        logp = torch.log_softmax(logits[:, :-1], dim=-1).gather(2, ids[:, 1:, None])[..., 0]
        return (logp * mask[:, 1:]).sum(1).tolist()

    # ---- LoRA ------------------------------------------------------------------------------------
    def finetune_lora(self, examples: Sequence[tuple[list[Message], str]], out_dir: Path, *, epochs: int = 1,
                      lr: float = 2e-4, rank: int = 16, alpha: int = 32, batch_size: int = 8,
                      progress: bool = True) -> dict[str, Any]:
        """Supervised LoRA on (prompt messages -> target text); loss on the target tokens only.
        The adapter is saved to ``out_dir`` and stays attached to this model. Seeded from the
        config inside a forked RNG, so the caller's global torch random state is left as it was."""
        import torch

        with torch.random.fork_rng(devices=[]):
            torch.manual_seed(self.config.seed)
            return self._finetune_lora(examples, out_dir, epochs=epochs, lr=lr, rank=rank, alpha=alpha,
                                       batch_size=batch_size, progress=progress)

    def _finetune_lora(self, examples: Sequence[tuple[list[Message], str]], out_dir: Path, *, epochs: int,
                       lr: float, rank: int, alpha: int, batch_size: int, progress: bool) -> dict[str, Any]:
        import torch
        from peft import LoraConfig, get_peft_model
        from tqdm import tqdm

        self._load()
        eos = self.tokenizer.eos_token or ""
        model = get_peft_model(self.model, LoraConfig(r=rank, lora_alpha=alpha, lora_dropout=0.05,
                                                      target_modules=["q_proj", "k_proj", "v_proj", "o_proj"],
                                                      task_type="CAUSAL_LM"))
        opt = torch.optim.AdamW([p for p in model.parameters() if p.requires_grad], lr=lr)
        gen = torch.Generator().manual_seed(self.config.seed)
        losses: list[float] = []
        model.train()
        t0 = time.perf_counter()
        for _ in range(epochs):
            order = torch.randperm(len(examples), generator=gen).tolist()
            batches = [order[i:i + batch_size] for i in range(0, len(order), batch_size)]
            for batch in tqdm(batches, desc="LoRA", disable=not progress):
                loss_sum = torch.zeros((), device=self.device)
                for i in batch:
                    msgs, target = examples[i]
                    ids, mask = self._candidate_batch(self.render(msgs), [target + eos])
                    logits = model(input_ids=ids).logits.float()
                    logp = torch.log_softmax(logits[:, :-1], -1).gather(2, ids[:, 1:, None])[..., 0]
                    loss_sum = loss_sum - (logp * mask[:, 1:]).sum() / mask[:, 1:].sum()
                loss = loss_sum / len(batch)
                opt.zero_grad()
                loss.backward()
                opt.step()
                losses.append(float(loss.detach()))
        model.eval()
        out_dir.mkdir(parents=True, exist_ok=True)
        model.save_pretrained(str(out_dir))
        self.model = model
        return {"examples": len(examples), "steps": len(losses), "first_loss": losses[0] if losses else None,
                "last_loss": losses[-1] if losses else None, "seconds": time.perf_counter() - t0, "device": self.device}

    def load_adapter(self, adapter_dir: Path) -> None:
        from peft import PeftModel

        self._load()
        self.model = PeftModel.from_pretrained(self.model, str(adapter_dir)).to(self.device).eval()


def _tie_unloaded_output(model: Any) -> None:
    """A GGUF of a model with tied embeddings stores one matrix for the input embeddings and the
    output layer. transformers 5.3 sometimes leaves the output layer unloaded (on the ``meta``
    device: in full suite runs, in some processes, never alone), so it is tied here by hand when
    it is unloaded and the shapes agree."""
    out, inp = model.get_output_embeddings(), model.get_input_embeddings()
    if out is None or inp is None or not out.weight.is_meta or inp.weight.is_meta:
        return
    if tuple(out.weight.shape) == tuple(inp.weight.shape):
        out.weight = inp.weight

