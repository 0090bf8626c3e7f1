"""level3/41 (GRUBidirectional), as KernelBench structures a problem: a 6-layer bidirectional GRU (time-major, no
dropout) from the input h0, returning the output y [T, B, 2*H]."""
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, IN, H):
        super().__init__()
        self.gru = nn.GRU(IN, H, num_layers=6, bias=True, batch_first=False, dropout=0.0, bidirectional=True)

    def forward(self, x, h0):
        y, h_n = self.gru(x, h0)
        return y


# The weight list `params` is named as this Model's state_dict names it: no entries needed.
WEIGHTS = {}

# The full size (spec.yaml's sizes.full).
T, B, IN, H = 512, 10, 128, 256


def get_inputs():
    return [torch.rand(T, B, IN), torch.rand(12, B, H)]


def get_init_inputs():
    return [IN, H]
