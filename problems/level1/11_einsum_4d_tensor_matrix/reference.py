"""level1/11 (4-D tensor times matrix (einsum)), as KernelBench structures a problem: C =
einsum('bijl,lk->bijk', A, B)."""
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A, B):
        return torch.einsum("bijl,lk->bijk", A, B)


WEIGHTS = {}

# The full size (spec.yaml's sizes.full).
BATCH, I, J, L, K = 8, 256, 512, 256, 768


def get_inputs():
    return [torch.randn(BATCH, I, J, L) * 0.25, torch.randn(L, K) * 0.25]


def get_init_inputs():
    return []
