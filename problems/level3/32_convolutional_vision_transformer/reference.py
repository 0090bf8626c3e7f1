"""level3/32 (ConvolutionalVisionTransformer), as KernelBench structures a problem: a 4x4 stride-4
conv (3 -> 128), the whole map flattened and projected to one 128-wide token, the sequence
[cls_token, token] through 6 post-norm nn.TransformerEncoderLayers (4 heads, ReLU, feed-forward
512, no dropout, batch_first), then Linear(128 -> NC) on the cls position."""
import torch
import torch.nn as nn

PATCH, DIM, HEADS, LAYERS, MLP = 4, 128, 4, 6, 512


class Model(nn.Module):
    def __init__(self, S, NC):
        super().__init__()
        self.conv1 = nn.Conv2d(3, DIM, kernel_size=PATCH, stride=PATCH)
        self.linear_proj = nn.Linear(DIM * (S // PATCH) * (S // PATCH), DIM)
        self.transformer_layers = nn.ModuleList([
            nn.TransformerEncoderLayer(d_model=DIM, nhead=HEADS, dim_feedforward=MLP, dropout=0.0,
                                       batch_first=True)
            for _ in range(LAYERS)
        ])
        self.cls_token = nn.Parameter(torch.zeros(1, 1, DIM))
        self.fc_out = nn.Linear(DIM, NC)

    def forward(self, x):
        B = x.size(0)
        x = self.linear_proj(self.conv1(x).flatten(1))  # [B, DIM]
        x = torch.cat((self.cls_token.expand(B, -1, -1), x.unsqueeze(1)), dim=1)  # [B, 2, DIM]
        for layer in self.transformer_layers:
            x = layer(x)
        return self.fc_out(x[:, 0])


# The weight list `params` is named as this Model's state_dict names it: no entries needed.
WEIGHTS = {}

# The full size (spec.yaml's sizes.full).
B, S, NC = 10, 32, 1000


def get_inputs():
    return [torch.rand(B, 3, S, S)]


def get_init_inputs():
    return [S, NC]
