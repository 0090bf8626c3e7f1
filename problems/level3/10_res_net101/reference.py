"""level3/10 (ResNet101), as KernelBench structures a problem: 7x7 stride-2 conv (3 -> C0) -> BN ->
ReLU -> 3x3 stride-2 max pool, four stages of 3, 4, 23, 3 Bottleneck blocks (inner widths C0, 2C0,
4C0, 8C0, output 4x; stride 2 on the 3x3 conv of the first block of stages 2-4; a 1x1 conv + BN
downsample on every stage's first block), global average pooling, Linear(32*C0 -> NC); convs
without bias, BatchNorm2d with batch statistics."""
import torch
import torch.nn as nn

EXPANSION = 4
BLOCKS_PER_STAGE = (3, 4, 23, 3)


class Bottleneck(nn.Module):
    def __init__(self, ci, width, stride, downsample):
        super().__init__()
        self.conv1 = nn.Conv2d(ci, width, kernel_size=1, bias=False)
        self.bn1 = nn.BatchNorm2d(width)
        self.conv2 = nn.Conv2d(width, width, kernel_size=3, stride=stride, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(width)
        self.conv3 = nn.Conv2d(width, width * EXPANSION, kernel_size=1, bias=False)
        self.bn3 = nn.BatchNorm2d(width * EXPANSION)
        self.relu = nn.ReLU(inplace=True)
        self.downsample = downsample

    def forward(self, x):
        out = self.relu(self.bn1(self.conv1(x)))
        out = self.relu(self.bn2(self.conv2(out)))
        out = self.bn3(self.conv3(out))
        identity = x if self.downsample is None else self.downsample(x)
        return self.relu(out + identity)


class Model(nn.Module):
    def __init__(self, C0, NC):
        super().__init__()
        self.in_channels = C0
        self.conv1 = nn.Conv2d(3, C0, kernel_size=7, stride=2, padding=3, bias=False)
        self.bn1 = nn.BatchNorm2d(C0)
        self.relu = nn.ReLU(inplace=True)
        self.maxpool = nn.MaxPool2d(kernel_size=3, stride=2, padding=1)
        self.layer1 = self._make_layer(C0, BLOCKS_PER_STAGE[0], 1)
        self.layer2 = self._make_layer(2 * C0, BLOCKS_PER_STAGE[1], 2)
        self.layer3 = self._make_layer(4 * C0, BLOCKS_PER_STAGE[2], 2)
        self.layer4 = self._make_layer(8 * C0, BLOCKS_PER_STAGE[3], 2)
        self.avgpool = nn.AdaptiveAvgPool2d((1, 1))
        self.fc = nn.Linear(8 * C0 * EXPANSION, NC)

    def _make_layer(self, width, blocks, stride):
        downsample = None
        if stride != 1 or self.in_channels != width * EXPANSION:
            downsample = nn.Sequential(
                nn.Conv2d(self.in_channels, width * EXPANSION, kernel_size=1, stride=stride, bias=False),
                nn.BatchNorm2d(width * EXPANSION),
            )
        layers = [Bottleneck(self.in_channels, width, stride, downsample)]
        self.in_channels = width * EXPANSION
        layers += [Bottleneck(self.in_channels, width, 1, None) for _ in range(1, blocks)]
        return nn.Sequential(*layers)

    def forward(self, x):
        x = self.maxpool(self.relu(self.bn1(self.conv1(x))))
        x = self.layer4(self.layer3(self.layer2(self.layer1(x))))
        x = torch.flatten(self.avgpool(x), 1)
        return self.fc(x)


# The weight list `params` is named as this Model's state_dict names it: no entries needed.
WEIGHTS = {}

# The full size (spec.yaml's sizes.full).
B, H, W, C0, NC = 10, 224, 224, 64, 1000


def get_inputs():
    return [torch.rand(B, 3, H, W)]


def get_init_inputs():
    return [C0, NC]
