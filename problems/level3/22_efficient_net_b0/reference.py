"""level3/22 (EfficientNetB0), as KernelBench structures a problem: 3x3 stride-2 conv (32) -> BN ->
ReLU, 13 MBConv blocks (optional 1x1 expand -> BN -> ReLU6, kxk depthwise -> BN -> ReLU6, 1x1
project -> BN, residual add where stride 1 and width kept), 1x1 conv to 1280 -> BN -> ReLU, global
average pooling, Linear(1280 -> NC); convs without bias, BatchNorm2d with batch statistics."""
import torch
import torch.nn as nn
import torch.nn.functional as F

# (in, out, kernel, stride, expansion) of the 13 blocks.
BLOCKS = [(32, 16, 3, 1, 1), (16, 24, 3, 2, 6), (24, 24, 3, 1, 6), (24, 40, 5, 2, 6), (40, 40, 5, 1, 6),
          (40, 80, 3, 2, 6), (80, 80, 3, 1, 6), (80, 112, 5, 1, 6), (112, 112, 5, 1, 6),
          (112, 192, 5, 2, 6), (192, 192, 5, 1, 6), (192, 192, 5, 1, 6), (192, 320, 3, 1, 6)]


class MBConv(nn.Module):
    def __init__(self, ci, co, kernel, stride, expand):
        super().__init__()
        self.use_residual = stride == 1 and ci == co
        hidden = ci * expand
        if expand != 1:
            self.expand_conv = nn.Sequential(
                nn.Conv2d(ci, hidden, 1, 1, 0, bias=False), nn.BatchNorm2d(hidden), nn.ReLU6(inplace=True))
        else:
            self.expand_conv = None
        self.depthwise_conv = nn.Sequential(
            nn.Conv2d(hidden, hidden, kernel, stride, (kernel - 1) // 2, groups=hidden, bias=False),
            nn.BatchNorm2d(hidden), nn.ReLU6(inplace=True))
        self.project_conv = nn.Sequential(nn.Conv2d(hidden, co, 1, 1, 0, bias=False), nn.BatchNorm2d(co))

    def forward(self, x):
        h = x if self.expand_conv is None else self.expand_conv(x)
        h = self.project_conv(self.depthwise_conv(h))
        return h + x if self.use_residual else h


class Model(nn.Module):
    def __init__(self, NC):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 32, kernel_size=3, stride=2, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(32)
        self.blocks = nn.Sequential(*[MBConv(*b) for b in BLOCKS])
        self.conv2 = nn.Conv2d(320, 1280, kernel_size=1, bias=False)
        self.bn2 = nn.BatchNorm2d(1280)
        self.fc = nn.Linear(1280, NC)

    def forward(self, x):
        x = F.relu(self.bn1(self.conv1(x)))
        x = self.blocks(x)
        x = F.relu(self.bn2(self.conv2(x)))
        x = F.adaptive_avg_pool2d(x, (1, 1)).flatten(1)
        return self.fc(x)


# The weight list `params` is named as this Model's state_dict names it: no entries needed.
WEIGHTS = {}

# The full size (spec.yaml's sizes.full).
B, H, W, NC = 10, 224, 224, 1000


def get_inputs():
    return [torch.rand(B, 3, H, W)]


def get_init_inputs():
    return [NC]
