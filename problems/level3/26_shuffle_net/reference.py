"""level3/26 (ShuffleNet), as KernelBench structures a problem: 3x3 stride-2 conv (3 -> C0) -> BN ->
ReLU -> 3x3 stride-2 max pool, stages of 3, 7 and 3 ShuffleNet units (widths C, 2C, 4C; all stride
1: grouped 1x1 conv (3 groups) -> BN -> ReLU, 3x3 depthwise -> BN, channel shuffle, grouped 1x1
conv -> BN -> ReLU, plus a 1x1 conv + BN shortcut in a stage's first unit and the identity
elsewhere), 1x1 conv to CF -> BN -> ReLU, global average pooling, Linear(CF -> NC); convs without
bias, BatchNorm2d with batch statistics."""
import torch
import torch.nn as nn
import torch.nn.functional as F

GROUPS = 3
STAGE_UNITS = (3, 7, 3)


class ChannelShuffle(nn.Module):
    def __init__(self, groups):
        super().__init__()
        self.groups = groups

    def forward(self, x):
        b, c, h, w = x.size()
        return x.view(b, self.groups, c // self.groups, h, w).transpose(1, 2).contiguous().view(b, c, h, w)


class ShuffleNetUnit(nn.Module):
    def __init__(self, ci, co, groups=GROUPS):
        super().__init__()
        mid = co // 4
        self.conv1 = nn.Conv2d(ci, mid, kernel_size=1, stride=1, padding=0, groups=groups, bias=False)
        self.bn1 = nn.BatchNorm2d(mid)
        self.conv2 = nn.Conv2d(mid, mid, kernel_size=3, stride=1, padding=1, groups=mid, bias=False)
        self.bn2 = nn.BatchNorm2d(mid)
        self.conv3 = nn.Conv2d(mid, co, kernel_size=1, stride=1, padding=0, groups=groups, bias=False)
        self.bn3 = nn.BatchNorm2d(co)
        self.shuffle = ChannelShuffle(groups)
        if ci == co:
            self.shortcut = nn.Sequential()
        else:
            self.shortcut = nn.Sequential(
                nn.Conv2d(ci, co, kernel_size=1, stride=1, padding=0, bias=False),
                nn.BatchNorm2d(co),
            )

    def forward(self, x):
        out = F.relu(self.bn1(self.conv1(x)))
        out = self.bn2(self.conv2(out))
        out = self.shuffle(out)
        out = F.relu(self.bn3(self.conv3(out)))
        return out + self.shortcut(x)


class Model(nn.Module):
    def __init__(self, C0, C, CF, NC):
        super().__init__()
        self.conv1 = nn.Conv2d(3, C0, kernel_size=3, stride=2, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(C0)
        self.maxpool = nn.MaxPool2d(kernel_size=3, stride=2, padding=1)
        self.stage2 = self._make_stage(C0, C, STAGE_UNITS[0])
        self.stage3 = self._make_stage(C, 2 * C, STAGE_UNITS[1])
        self.stage4 = self._make_stage(2 * C, 4 * C, STAGE_UNITS[2])
        self.conv5 = nn.Conv2d(4 * C, CF, kernel_size=1, stride=1, padding=0, bias=False)
        self.bn5 = nn.BatchNorm2d(CF)
        self.fc = nn.Linear(CF, NC)

    @staticmethod
    def _make_stage(ci, co, units):
        return nn.Sequential(ShuffleNetUnit(ci, co), *[ShuffleNetUnit(co, co) for _ in range(1, units)])

    def forward(self, x):
        x = self.maxpool(F.relu(self.bn1(self.conv1(x))))
        x = self.stage4(self.stage3(self.stage2(x)))
        x = F.relu(self.bn5(self.conv5(x)))
        x = F.adaptive_avg_pool2d(x, (1, 1)).view(x.size(0), -1)
        return self.fc(x)


# The weight list `params` is named as this Model's state_dict names it: no entries needed.
WEIGHTS = {}

# The full size (spec.yaml's sizes.full).
B, H, W, C0, C, CF, NC = 10, 224, 224, 24, 240, 1024, 1000


def get_inputs():
    return [torch.rand(B, 3, H, W)]


def get_init_inputs():
    return [C0, C, CF, NC]
