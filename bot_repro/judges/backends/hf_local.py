"""Local judge: a Hugging Face text or vision-language model run with transformers on this machine.

The model loads once (in ``start``) and generates in one worker thread, one request at a time, so
the event loop stays free and GPU memory stays bounded. A model whose config has a
``vision_config`` is loaded as image-text-to-text with its processor (images decoded with Pillow);
a text-only model refuses requests that carry images (a permanent failure, not a crash).
Output that is garbage is returned as is: the role parsers turn it into the failure values.
"""

from __future__ import annotations

import asyncio
import io
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from bot_repro.judges.backends.base import JUDGE_BACKENDS, PermanentError, Reply
from bot_repro.judges.options import JudgeOptions


@JUDGE_BACKENDS.register("hf_local")
class HFLocalBackend:
    name = "hf_local"

    def __init__(self, opts: JudgeOptions):
        self.opts = opts
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="hf-judge")
        self._model: Any = None
        self._processor: Any = None  # tokenizer (text models) or processor (vision-language models)
        self._vision = False

    def check_credentials(self) -> None:
        """Local weights need no key (a gated hub model uses the usual HF_TOKEN login)."""

    async def start(self) -> None:
        await asyncio.get_running_loop().run_in_executor(self._pool, self._load)

    def _load(self) -> None:
        import torch
        from transformers import AutoConfig, AutoModelForCausalLM, AutoTokenizer

        device = self.opts.device
        if device == "auto":
            device = "cuda" if torch.cuda.is_available() else "cpu"
        config = AutoConfig.from_pretrained(self.opts.model)
        self._vision = getattr(config, "vision_config", None) is not None
        if self._vision:
            from transformers import AutoModelForImageTextToText, AutoProcessor

            self._processor = AutoProcessor.from_pretrained(self.opts.model)
            model = AutoModelForImageTextToText.from_pretrained(self.opts.model, dtype="auto")
        else:
            self._processor = AutoTokenizer.from_pretrained(self.opts.model)
            model = AutoModelForCausalLM.from_pretrained(self.opts.model, dtype="auto")
        self._model = model.to(device).eval()

    async def aclose(self) -> None:
        self._pool.shutdown(wait=True)
        self._model = None

    async def complete(self, messages: list[dict[str, Any]], params: dict[str, Any]) -> Reply:
        has_image = any(p["type"] == "image" for m in messages for p in m["content"])
        if has_image and not self._vision:
            raise PermanentError(f"hf_local model {self.opts.model!r} is text-only but the judge request has images")
        return await asyncio.get_running_loop().run_in_executor(self._pool, self._generate, messages, params)

    def _generate(self, messages: list[dict[str, Any]], params: dict[str, Any]) -> Reply:
        import torch

        if self._vision:
            inputs = self._processor.apply_chat_template(
                [_vision_message(m) for m in messages],
                add_generation_prompt=True, tokenize=True, return_dict=True, return_tensors="pt",
            )
            tokenizer = self._processor.tokenizer
        else:
            chat = [{"role": m["role"], "content": "\n\n".join(p["text"] for p in m["content"])} for m in messages]
            inputs = self._processor.apply_chat_template(
                chat, add_generation_prompt=True, tokenize=True, return_dict=True, return_tensors="pt"
            )
            tokenizer = self._processor
        inputs = {k: v.to(self._model.device) for k, v in inputs.items()}
        sample = params["temperature"] > 0
        gen_kwargs: dict[str, Any] = {"max_new_tokens": params["max_tokens"], "do_sample": sample}
        if sample:
            gen_kwargs["temperature"] = params["temperature"]
        if tokenizer.pad_token_id is not None:
            gen_kwargs["pad_token_id"] = tokenizer.pad_token_id
        with torch.no_grad():
            out = self._model.generate(**inputs, **gen_kwargs)
        n_in = inputs["input_ids"].shape[1]
        new = out[0, n_in:]
        return Reply(tokenizer.decode(new, skip_special_tokens=True), int(n_in), int(new.shape[0]))


def _vision_message(message: dict[str, Any]) -> dict[str, Any]:
    try:
        from PIL import Image
    except ImportError as exc:
        raise PermanentError("hf_local vision-language judging needs Pillow: pip install pillow") from exc
    content = []
    for p in message["content"]:
        if p["type"] == "text":
            content.append({"type": "text", "text": p["text"]})
        else:
            content.append({"type": "image", "image": Image.open(io.BytesIO(p["png"])).convert("RGB")})
    return {"role": message["role"], "content": content}
