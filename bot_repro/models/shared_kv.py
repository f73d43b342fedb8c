"""A decode cache that holds each distinct prompt's keys and values once, and the attention that reads it (#51).

In ``sampling.sample`` the K rows of a group share their prompt. A plain cache holds a copy of the prompt's
keys and values per row, and every decoded token reads every copy (SDPA with a padding mask also repeats each
key head per query head). Here a full-attention layer keeps the prefill's keys and values per prompt
([G, kv heads, P, d]) and each row's own tokens apart ([R, kv heads, S, d]). A row's query is scored
against its prompt's keys (a group's rows and query heads batched into one matmul per key head) and against
its own keys, and one softmax is taken over both: SDPA over the concatenated cache, up to rounding.

Sliding-window layers (Gemma 3) keep their own cache, copied per row, and SDPA.
"""

from __future__ import annotations

from contextlib import contextmanager

import torch
from transformers import AttentionInterface, DynamicCache
from transformers.cache_utils import DynamicLayer
from transformers.integrations.sdpa_attention import sdpa_attention_forward
from transformers.masking_utils import AttentionMaskInterface, sdpa_mask

NAME = "bot_repro_shared_kv"  # the attention implementation a model decodes with inside ``decoding``


class Groups:
    """Which prompt each row decodes, as slots of a [G, width] grid: G prompts still decoding, each with at most
    ``width`` rows. Rows are prompt-major and stay so when rows leave (``keep`` preserves order)."""

    def set(self, prompt: torch.Tensor) -> None:
        """``prompt`` [R]: the prompt (index into the prefill's batch) of each row, non-decreasing."""
        self.prompt = prompt
        self.prompts, counts = prompt.unique_consecutive(return_counts=True)  # [G], [G]
        self.width = int(counts.max())
        first = torch.cumsum(counts, 0) - counts  # [G]: each group's first row
        group = torch.arange(len(counts)).repeat_interleave(counts)  # [R]: each row's group
        self.slot = group * self.width + torch.arange(len(prompt)) - first[group]  # [R]
        self.full = len(prompt) == len(counts) * self.width  # every slot a row: the grid is a reshape

    def keep(self, rows: torch.Tensor) -> torch.Tensor:
        """Keep ``rows`` (indices, increasing); returns the groups still decoding, as indices into the old ones."""
        before = self.prompts
        self.set(self.prompt[rows])
        return torch.searchsorted(before, self.prompts)


class _Shared(DynamicLayer):
    """A full-attention layer's cache: the updates while ``prefilling`` (the prompts, in one or more parts)
    are held per prompt; later ones are each row's decoded tokens, written in place into buffers of ``capacity``,
    the keys transposed ([R, kv heads, d, S], as ``attention`` multiplies by them)."""

    def __init__(self, groups: Groups, capacity: int):
        super().__init__()
        self.groups, self.capacity, self.prefix_len, self.length = groups, capacity, 0, 0
        self.prefilling, self.decoding = True, False

    def update(self, key_states, value_states, *args, **kwargs):
        if self.prefilling:  # the prompts: [G, kv heads, P, d], appended to what an earlier part held
            if not self.is_initialized:
                self.dtype, self.device, self.is_initialized = key_states.dtype, key_states.device, True
                self.pk, self.pv = key_states.contiguous(), value_states.contiguous()
            else:
                self.pk, self.pv = torch.cat([self.pk, key_states], -2), torch.cat([self.pv, value_states], -2)
            self.prefix_len = self.pk.shape[-2]
            self.keys, self.values = self.pk, self.pv
            return self.pk, self.pv
        if not self.decoding:  # the first decoded token: one buffer row per sampled row
            rows, heads = key_states.shape[:2]
            self.k_buf = key_states.new_empty(rows, heads, key_states.shape[-1], self.capacity)
            self.v_buf = value_states.new_empty(rows, heads, self.capacity, value_states.shape[-1])
            self.pk_t = self.pk.transpose(-1, -2).contiguous()  # [G, kv heads, d, P]
            self.decoding = True
        end = self.length + key_states.shape[-2]
        self.k_buf[..., self.length : end] = key_states.transpose(-1, -2)
        self.v_buf[:, :, self.length : end] = value_states
        self.length = end
        self.keys, self.values = self.k_buf[..., :end], self.v_buf[:, :, :end]
        return self.keys, self.values

    def get_seq_length(self) -> int:
        return self.prefix_len + self.length

    def keep(self, rows: torch.Tensor, prompts: torch.Tensor) -> None:
        self.pk, self.pv = self.pk[prompts], self.pv[prompts]
        if self.decoding:
            self.pk_t = self.pk_t[prompts]
            self.k_buf, self.v_buf = self.k_buf[rows], self.v_buf[rows]
            self.keys, self.values = self.k_buf[..., : self.length], self.v_buf[:, :, : self.length]


class SharedPrefixCache(DynamicCache):
    """The model's cache for ``sample``: full-attention layers ``_Shared``, sliding-window ones as they are."""

    def __init__(self, model, capacity: int):
        super().__init__(config=model.config)
        self.groups = Groups()
        self.layers = [_Shared(self.groups, capacity) if type(layer) is DynamicLayer else layer for layer in self.layers]

    def shareable(self) -> bool:
        """Whether every layer holds its prompts once (no sliding-window layer): ``select_prompts`` applies."""
        return all(isinstance(layer, _Shared) for layer in self.layers)

    def select_prompts(self, index: torch.Tensor) -> None:
        """Between parts of the prefill: prompt i goes on from what prompt ``index[i]`` holds [G]."""
        for layer in self.layers:
            layer.pk, layer.pv = layer.pk[index], layer.pv[index]

    def to_rows(self, prompt: torch.Tensor, padding: torch.Tensor) -> None:
        """After the prefill: row r samples prompt ``prompt[r]`` [R]; ``padding`` [G, P] is True at the
        prompts' pads."""
        self.groups.set(prompt)
        for layer in self.layers:
            if isinstance(layer, _Shared):
                layer.prefilling = False
        dtype = next((layer.dtype for layer in self.layers if isinstance(layer, _Shared)), torch.float32)
        self.pad_bias = torch.zeros(padding.shape, dtype=dtype).masked_fill_(padding, float("-inf"))
        for layer in self.layers:
            if not isinstance(layer, _Shared):
                layer.batch_select_indices(prompt)

    def keep(self, rows: torch.Tensor) -> None:
        """Rows ``rows`` (indices, increasing) go on decoding; the others leave the cache."""
        prompts = self.groups.keep(rows)
        self.pad_bias = self.pad_bias[prompts]
        for layer in self.layers:
            if isinstance(layer, _Shared):
                layer.keep(rows, prompts)
            else:
                layer.batch_select_indices(rows)


def _grid(x: torch.Tensor, groups: Groups) -> torch.Tensor:
    """[R, h, n, e] per row -> [G, h, width * n, e] per group (empty slots 0)."""
    rows, h, n, e = x.shape
    if groups.full:
        return x.view(-1, groups.width, h, n, e).transpose(1, 2).reshape(-1, h, groups.width * n, e)
    grid = x.new_zeros(len(groups.prompts) * groups.width, h, n, e)
    grid[groups.slot] = x
    return grid.view(-1, groups.width, h, n, e).transpose(1, 2).reshape(-1, h, groups.width * n, e)


def _rows(x: torch.Tensor, groups: Groups, n: int) -> torch.Tensor:
    """[G, h, width * n, e] per group -> [R, h, n, e] per row."""
    g, h, _, e = x.shape
    rows = x.view(g, h, groups.width, n, e).transpose(1, 2).reshape(g * groups.width, h, n, e)
    return rows if groups.full else rows[groups.slot]


def attention(module, query, key, value, attention_mask, dropout: float = 0.0, scaling: float | None = None,
              shared_kv: SharedPrefixCache | None = None, **kwargs):
    """SDPA, except for a decoded token of a ``_Shared`` layer: query [R, H, 1, d], key and value the rows'
    own tokens ([R, kv heads, d, S] transposed, [R, kv heads, S, d]); the prompt's come from the layer. One
    softmax over both parts, by their common max. Returns [R, 1, H, d], as SDPA's."""
    layer = shared_kv.layers[module.layer_idx] if shared_kv is not None else None
    if not isinstance(layer, _Shared) or not layer.decoding:
        return sdpa_attention_forward(module, query, key, value, attention_mask, dropout=dropout, scaling=scaling,
                                      **kwargs)
    if kwargs.get("softcap") is not None or kwargs.get("s_aux") is not None:
        raise NotImplementedError(f"{type(module).__name__}: attention with a softcap or sinks is not shared-prefix")
    groups, rows, heads, d = shared_kv.groups, query.shape[0], query.shape[1], query.shape[-1]
    kv_heads = key.shape[1]
    rep, own_len = heads // kv_heads, key.shape[-1]
    q = query.reshape(rows, kv_heads, rep, d) * (d**-0.5 if scaling is None else scaling)  # query head = kv head x rep
    prefix = torch.matmul(_grid(q, groups), layer.pk_t)  # [G, kv heads, width * rep, P]
    prefix += shared_kv.pad_bias[:, None, None, :]
    own = torch.matmul(q, key)  # [R, kv heads, rep, S]
    top = torch.maximum(_rows(prefix.amax(-1, keepdim=True), groups, rep), own.amax(-1, keepdim=True))
    prefix = prefix.sub_(_grid(top, groups)).exp_()
    own = own.sub_(top).exp_()
    total = _rows(prefix.sum(-1, keepdim=True), groups, rep) + own.sum(-1, keepdim=True)  # [R, kv heads, rep, 1]
    out = _rows(torch.matmul(prefix, layer.pv), groups, rep)  # [R, kv heads, rep, d]
    out = torch.baddbmm(out.reshape(-1, rep, d), own.view(-1, rep, own_len), value.reshape(-1, own_len, d))
    return out.view(rows, kv_heads, rep, d).div_(total).reshape(rows, 1, heads, d), None


AttentionInterface.register(NAME, attention)
AttentionMaskInterface.register(NAME, sdpa_mask)


@contextmanager
def decoding(model):
    """``model`` attends with ``attention`` inside (pass ``shared_kv=<its SharedPrefixCache>`` to each call),
    with its own implementation again after."""
    before = model.config._attn_implementation
    model.set_attn_implementation(NAME)
    try:
        yield
    finally:
        model.set_attn_implementation(before)
