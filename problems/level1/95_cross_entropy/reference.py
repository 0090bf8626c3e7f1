"""level1/95 (Cross-entropy loss), as KernelBench structures a problem: cross_entropy(predictions [B, C],
targets [B]) with mean reduction."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, predictions, targets):
        return F.cross_entropy(predictions, targets)


WEIGHTS = {}

# The full size (spec.yaml's sizes.full).
B, C = 32768, 4096


def get_inputs():
    return [torch.randn(B, C) * 3 + 80, torch.randint(0, C, (B,))]


def get_init_inputs():
    return []
