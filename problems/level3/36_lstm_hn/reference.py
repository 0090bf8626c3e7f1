"""level3/36 (LSTMHn), as KernelBench structures a problem: a 6-layer LSTM (batch_first, no
dropout) from the inputs h0 and c0, returning h_n [6, B, H] (fc is a weight of the net but its result is discarded, so it is not computed)."""
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, IN, H, OUT):
        super().__init__()
        self.lstm = nn.LSTM(IN, H, num_layers=6, batch_first=True, dropout=0.0, bidirectional=False)
        self.fc = nn.Linear(H, OUT)

    def forward(self, x, h0, c0):
        y, (h_n, c_n) = self.lstm(x, (h0, c0))
        return h_n


# The weight list `params` is named as this Model's state_dict names it: no entries needed.
WEIGHTS = {}

# The full size (spec.yaml's sizes.full).
B, T, IN, H, OUT = 10, 512, 128, 256, 10


def get_inputs():
    return [torch.rand(B, T, IN), torch.rand(6, B, H), torch.rand(6, B, H)]


def get_init_inputs():
    return [IN, H, OUT]
