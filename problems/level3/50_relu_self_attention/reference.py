"""level3/50 (ReLUSelfAttention), as KernelBench structures a problem: causal self-attention with
12 heads where ReLU replaces softmax (masked scores are -inf, so ReLU makes them 0); c_proj is a
weight of the net but is never applied, so the output is the heads' merged [B, T, C]."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

N_HEAD = 12


class Model(nn.Module):
    def __init__(self, C):
        super().__init__()
        self.c_attn = nn.Linear(C, 3 * C)
        self.c_proj = nn.Linear(C, C)  # built but unused, as in KernelBench
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
        att = F.relu(att.masked_fill(~causal, float("-inf")))
        return (att @ v).transpose(1, 2).contiguous().view(B, T, C)


# The weight list `params` is named as this Model's state_dict names it: no entries needed.
WEIGHTS = {}

# The full size (spec.yaml's sizes.full).
B, T, C = 16, 1024, 768


def get_inputs():
    return [torch.rand(B, T, C)]


def get_init_inputs():
    return [C]
