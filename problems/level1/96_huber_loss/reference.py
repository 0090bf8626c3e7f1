"""level1/96 (Huber loss (smooth L1)), as KernelBench structures a problem: smooth_l1_loss(predictions,
targets, beta=1.0), mean reduction, over [B, D]."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, predictions, targets):
        return F.smooth_l1_loss(predictions, targets, reduction="mean", beta=1.0)


WEIGHTS = {}

# The full size (spec.yaml's sizes.full).
B, D = 32768, 32768


def get_inputs():
    return [torch.rand(B, D) * 4 - 2, torch.rand(B, D)]


def get_init_inputs():
    return []
