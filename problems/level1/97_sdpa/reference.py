"""level1/97 (Scaled dot-product attention), as KernelBench structures a problem: softmax(Q K^T / sqrt(D)) V
over [B, H, S, D], no mask, no dropout (F.scaled_dot_product_attention)."""
import math
import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, Q, K, V):
        if hasattr(F, "scaled_dot_product_attention"):  # PyTorch 2
            return F.scaled_dot_product_attention(Q, K, V)
        scores = torch.matmul(Q, K.transpose(-2, -1)) * (1.0 / math.sqrt(Q.size(-1)))
        return torch.matmul(torch.softmax(scores, dim=-1), V)


WEIGHTS = {}

# The full size (spec.yaml's sizes.full).
B, H, S, D = 32, 32, 512, 1024


def get_inputs():
    return [torch.randn(B, H, S, D), torch.randn(B, H, S, D), torch.randn(B, H, S, D)]


def get_init_inputs():
    return []
