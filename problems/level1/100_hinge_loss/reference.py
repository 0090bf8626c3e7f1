"""level1/100 (Hinge loss), as KernelBench structures a problem: mean(clamp_min(1 - predictions * targets,
0)) with predictions [B, D], targets [D]."""
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, predictions, targets):
        return torch.clamp(1 - predictions * targets, min=0).mean()


WEIGHTS = {}

# The full size (spec.yaml's sizes.full).
B, D = 32768, 32768


def get_inputs():
    return [torch.rand(B, D) * 4 - 2, torch.randn(D)]


def get_init_inputs():
    return []
