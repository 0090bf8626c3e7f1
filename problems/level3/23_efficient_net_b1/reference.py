"""level3/23 (EfficientNetB1), as KernelBench structures a problem: 3x3 stride-2 conv (32) -> BN ->
ReLU, 7 MBConv blocks (1x1 expand -> BN -> ReLU6, even at expansion 1; 3x3 depthwise -> BN ->
ReLU6; 1x1 project -> BN; no residual), 1x1 conv to 1280 -> BN -> ReLU, global average pooling,
Linear(1280 -> NC); convs without bias, BatchNorm2d with batch statistics."""
import torch
import torch.nn as nn
import torch.nn.functional as F

# (in, out, stride, expansion) of the 7 blocks.
BLOCKS = [(32, 16, 1, 1), (16, 24, 2, 6), (24, 40, 2, 6), (40, 80, 2, 6), (80, 112, 1, 6),
          (112, 192, 2, 6), (192, 320, 1, 6)]


def mbconv(ci, co, stride, expand):
    hidden = ci * expand
    return nn.Sequential(
        nn.Conv2d(ci, hidden, kernel_size=1, stride=1, padding=0, bias=False),
        nn.BatchNorm2d(hidden),
        nn.ReLU6(inplace=True),
        nn.Conv2d(hidden, hidden, kernel_size=3, stride=stride, padding=1, groups=hidden, bias=False),
        nn.BatchNorm2d(hidden),
        nn.ReLU6(inplace=True),
        nn.Conv2d(hidden, co, kernel_size=1, stride=1, padding=0, bias=False),
        nn.BatchNorm2d(co),
    )


class Model(nn.Module):
    def __init__(self, NC):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 32, kernel_size=3, stride=2, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(32)
        for m, block in enumerate(BLOCKS, start=1):
            setattr(self, f"mbconv{m}", mbconv(*block))
        self.conv2 = nn.Conv2d(320, 1280, kernel_size=1, stride=1, padding=0, bias=False)
        self.bn2 = nn.BatchNorm2d(1280)
        self.fc = nn.Linear(1280, NC)

    def forward(self, x):
        x = F.relu(self.bn1(self.conv1(x)))
        for m in range(1, len(BLOCKS) + 1):
            x = getattr(self, f"mbconv{m}")(x)
        x = F.relu(self.bn2(self.conv2(x)))
        x = F.adaptive_avg_pool2d(x, (1, 1))
        return self.fc(torch.flatten(x, 1))


# The weight list `params` is named as this Model's state_dict names it: no entries needed.
WEIGHTS = {}

# The full size (spec.yaml's sizes.full).
B, H, W, NC = 10, 240, 240, 1000


def get_inputs():
    return [torch.rand(B, 3, H, W)]


def get_init_inputs():
    return [NC]
