"""level3/29 (SwinMLP, Swin-MLP-T), as KernelBench structures a problem: patch embedding (4x4
stride-4 conv -> LayerNorm), four stages (depths 2, 2, 6, 2; heads 3, 6, 12, 24) of Swin-MLP
blocks (pre-norm per-head spatial MLP over 7x7 windows, on a zero-padded grid in odd blocks, then a
pre-norm GELU MLP, both residual) with PatchMerging between stages, then LayerNorm, the mean over
tokens and a Linear head. Dropouts (p = 0) and drop_path (identity) are omitted."""
import torch
import torch.nn as nn
import torch.nn.functional as F

PATCH, WINDOW, IMG = 4, 7, 224
DEPTHS = (2, 2, 6, 2)
HEADS = (3, 6, 12, 24)


def window_partition(x, w):
    B, H, W, C = x.shape
    return x.view(B, H // w, w, W // w, w, C).permute(0, 1, 3, 2, 4, 5).reshape(-1, w * w, C)


def window_reverse(windows, w, B, H, W):
    C = windows.shape[-1]
    return windows.view(B, H // w, W // w, w, w, C).permute(0, 1, 3, 2, 4, 5).reshape(B, H, W, C)


class Mlp(nn.Module):
    def __init__(self, dim, hidden):
        super().__init__()
        self.fc1 = nn.Linear(dim, hidden)
        self.act = nn.GELU()
        self.fc2 = nn.Linear(hidden, dim)

    def forward(self, x):
        return self.fc2(self.act(self.fc1(x)))


class SwinMLPBlock(nn.Module):
    def __init__(self, dim, resolution, heads, shift):
        super().__init__()
        self.resolution = resolution
        self.heads = heads
        self.window = min(resolution, WINDOW)
        self.shift = 0 if resolution <= WINDOW else shift  # one window: never shifted
        n = self.window * self.window
        self.norm1 = nn.LayerNorm(dim)
        self.spatial_mlp = nn.Conv1d(heads * n, heads * n, kernel_size=1, groups=heads)
        self.norm2 = nn.LayerNorm(dim)
        self.mlp = Mlp(dim, 4 * dim)

    def forward(self, x):
        B, L, D = x.shape
        H = W = self.resolution
        w, heads = self.window, self.heads
        n, head_dim = w * w, D // heads
        h = self.norm1(x).view(B, H, W, D)
        before, after = w - self.shift, self.shift
        if self.shift > 0:
            h = F.pad(h, [0, 0, before, after, before, after])
        Hp, Wp = h.shape[1], h.shape[2]
        t = window_partition(h, w).view(-1, n, heads, head_dim).transpose(1, 2).reshape(-1, heads * n, head_dim)
        t = self.spatial_mlp(t)
        t = t.view(-1, heads, n, head_dim).transpose(1, 2).reshape(-1, n, D)
        h = window_reverse(t, w, B, Hp, Wp)
        if self.shift > 0:
            h = h[:, before:Hp - after, before:Wp - after, :]
        y = x + h.reshape(B, H * W, D)
        return y + self.mlp(self.norm2(y))


class PatchMerging(nn.Module):
    def __init__(self, resolution, dim):
        super().__init__()
        self.resolution = resolution
        self.norm = nn.LayerNorm(4 * dim)
        self.reduction = nn.Linear(4 * dim, 2 * dim, bias=False)

    def forward(self, x):
        B, L, D = x.shape
        h = x.view(B, self.resolution, self.resolution, D)
        merged = torch.cat([h[:, 0::2, 0::2], h[:, 1::2, 0::2], h[:, 0::2, 1::2], h[:, 1::2, 1::2]], -1)
        return self.reduction(self.norm(merged.view(B, -1, 4 * D)))


class BasicLayer(nn.Module):
    def __init__(self, dim, resolution, depth, heads, downsample):
        super().__init__()
        self.blocks = nn.ModuleList([
            SwinMLPBlock(dim, resolution, heads, 0 if b % 2 == 0 else WINDOW // 2) for b in range(depth)
        ])
        self.downsample = PatchMerging(resolution, dim) if downsample else None

    def forward(self, x):
        for block in self.blocks:
            x = block(x)
        return x if self.downsample is None else self.downsample(x)


class PatchEmbed(nn.Module):
    def __init__(self, C):
        super().__init__()
        self.proj = nn.Conv2d(3, C, kernel_size=PATCH, stride=PATCH)
        self.norm = nn.LayerNorm(C)

    def forward(self, x):
        return self.norm(self.proj(x).flatten(2).transpose(1, 2))


class Model(nn.Module):
    def __init__(self, C, NC):
        super().__init__()
        self.patch_embed = PatchEmbed(C)
        res = IMG // PATCH
        self.layers = nn.ModuleList()
        for s in range(len(DEPTHS)):
            self.layers.append(BasicLayer(C * 2 ** s, res >> s, DEPTHS[s], HEADS[s], s + 1 < len(DEPTHS)))
        self.norm = nn.LayerNorm(8 * C)
        self.head = nn.Linear(8 * C, NC)

    def forward(self, x):
        x = self.patch_embed(x)
        for layer in self.layers:
            x = layer(x)
        x = self.norm(x).mean(dim=1)
        return self.head(x)


# The weight list `params` is named as this Model's state_dict names it: no entries needed.
WEIGHTS = {}

# The full size (spec.yaml's sizes.full).
B, C, NC = 10, 96, 1000


def get_inputs():
    return [torch.rand(B, 3, IMG, IMG)]


def get_init_inputs():
    return [C, NC]
