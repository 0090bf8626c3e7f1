"""level3/24 (EfficientNetB2), as KernelBench structures a problem: 3x3 stride-2 conv (32) -> BN ->
ReLU, 5 blocks (1x1 expand -> BN -> ReLU; 3x3 depthwise -> BN -> ReLU; then, as KernelBench
sequences it, global average pool -> 1x1 squeeze -> ReLU -> 1x1 excite -> Sigmoid, whose gate
becomes the feature map; 1x1 project -> BN), 1x1 conv to 1408 -> BN -> ReLU, global average
pooling, Linear(1408 -> NC); convs without bias, BatchNorm2d with batch statistics."""
import torch
import torch.nn as nn

# (in, out, stride, expansion) of the 5 blocks.
BLOCKS = [(32, 96, 1, 3), (96, 144, 2, 6), (144, 192, 2, 6), (192, 288, 2, 6), (288, 384, 1, 6)]


def mbconv(ci, co, stride, expand):
    hidden = ci * expand
    return nn.Sequential(
        nn.Conv2d(ci, hidden, kernel_size=1, stride=1, padding=0, bias=False),
        nn.BatchNorm2d(hidden),
        nn.ReLU(inplace=True),
        nn.Conv2d(hidden, hidden, kernel_size=3, stride=stride, padding=1, groups=hidden, bias=False),
        nn.BatchNorm2d(hidden),
        nn.ReLU(inplace=True),
        nn.AdaptiveAvgPool2d((1, 1)),
        nn.Conv2d(hidden, hidden // 4, kernel_size=1, stride=1, padding=0, bias=False),
        nn.ReLU(inplace=True),
        nn.Conv2d(hidden // 4, hidden, kernel_size=1, stride=1, padding=0, bias=False),
        nn.Sigmoid(),
        nn.Conv2d(hidden, co, kernel_size=1, stride=1, padding=0, bias=False),
        nn.BatchNorm2d(co),
    )


class Model(nn.Module):
    def __init__(self, NC):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 32, kernel_size=3, stride=2, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(32)
        self.relu = nn.ReLU(inplace=True)
        for m, block in enumerate(BLOCKS, start=1):
            setattr(self, f"mbconv{m}", mbconv(*block))
        self.conv_final = nn.Conv2d(384, 1408, kernel_size=1, stride=1, padding=0, bias=False)
        self.bn_final = nn.BatchNorm2d(1408)
        self.avgpool = nn.AdaptiveAvgPool2d((1, 1))
        self.fc = nn.Linear(1408, NC)

    def forward(self, x):
        x = self.relu(self.bn1(self.conv1(x)))
        for m in range(1, len(BLOCKS) + 1):
            x = getattr(self, f"mbconv{m}")(x)
        x = self.relu(self.bn_final(self.conv_final(x)))
        x = torch.flatten(self.avgpool(x), 1)
        return self.fc(x)


# The weight list `params` is named as this Model's state_dict names it: no entries needed.
WEIGHTS = {}

# The full size (spec.yaml's sizes.full).
B, H, W, NC = 2, 224, 224, 1000


def get_inputs():
    return [torch.rand(B, 3, H, W)]


def get_init_inputs():
    return [NC]
