"""level3/43 (MinGPTCausalAttention), as KernelBench structures a problem: minGPT's causal
self-attention with 8 heads (c_attn -> q, k, v; masked softmax(q k^T / sqrt(d)) v; c_proj), no dropout."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

N_HEAD = 8


class Model(nn.Module):
    def __init__(self, C):
        super().__init__()
        self.c_attn = nn.Linear(C, 3 * C)
        self.c_proj = nn.Linear(C, C)
        self.n_head = N_HEAD

    def forward(self, x):
        B, T, C = x.size()
        q, k, v = self.c_attn(x).split(C, dim=2)
        hs = C // self.n_head
        q = q.view(B, T, self.n_head, hs).transpose(1, 2)
        k = k.view(B, T, self.n_head, hs).transpose(1, 2)
        v = v.view(B, T, self.n_head, hs).transpose(1, 2)
        att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(hs))
        causal = torch.ones(T, T, dtype=torch.bool, device=x.device).tril()
        att = att.masked_fill(~causal, float("-inf"))
        att = F.softmax(att, dim=-1)
        y = (att @ v).transpose(1, 2).contiguous().view(B, T, C)
        return self.c_proj(y)


# The weight list `params` is named as this Model's state_dict names it: no entries needed.
WEIGHTS = {}

# The full size (spec.yaml's sizes.full).
B, T, C = 128, 512, 768


def get_inputs():
    return [torch.rand(B, T, C)]


def get_init_inputs():
    return [C]
