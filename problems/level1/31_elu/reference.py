"""level1/31 (ELU), as KernelBench structures a problem: y = elu(x, alpha=1.0) over [B, D]."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return F.elu(x, alpha=1.0)


WEIGHTS = {}

# The full size (spec.yaml's sizes.full).
B, D = 4096, 393216


def get_inputs():
    return [torch.randn(B, D) * 4]


def get_init_inputs():
    return []
