"""level3/28 (VisionTransformer), as KernelBench structures a problem: 16x16 "patches" (KernelBench's
unfold + reshape, so each 768-wide row is three single-channel patches) -> Linear(768 -> 512), cls
token and position embedding, 6 post-norm nn.TransformerEncoderLayers (8 heads, ReLU, feed-forward
M, no dropout) fed the [B, T, 512] tensor sequence-first (as KernelBench does: attention mixes the
images), then the head Linear(512 -> M) -> GELU -> Linear(M -> NC) on token 0."""
import torch
import torch.nn as nn

PATCH, DIM, DEPTH, HEADS, CHANNELS = 16, 512, 6, 8, 3


class Model(nn.Module):
    def __init__(self, S, M, NC):
        super().__init__()
        num_patches = (S // PATCH) ** 2
        self.pos_embedding = nn.Parameter(torch.randn(1, num_patches + 1, DIM))
        self.patch_to_embedding = nn.Linear(CHANNELS * PATCH * PATCH, DIM)
        self.cls_token = nn.Parameter(torch.randn(1, 1, DIM))
        self.transformer = nn.TransformerEncoder(
            nn.TransformerEncoderLayer(d_model=DIM, nhead=HEADS, dim_feedforward=M, dropout=0.0),
            num_layers=DEPTH,
        )
        self.mlp_head = nn.Sequential(
            nn.Linear(DIM, M),
            nn.GELU(),
            nn.Dropout(0.0),
            nn.Linear(M, NC),
        )

    def forward(self, img):
        p = PATCH
        x = img.unfold(2, p, p).unfold(3, p, p).reshape(img.shape[0], -1, p * p * img.shape[1])
        x = self.patch_to_embedding(x)
        cls_tokens = self.cls_token.expand(img.shape[0], -1, -1)
        x = torch.cat((cls_tokens, x), dim=1) + self.pos_embedding
        x = self.transformer(x)  # sequence-first: dim 0 (the images) is read as the sequence
        return self.mlp_head(x[:, 0])


# The weight list `params` is named as this Model's state_dict names it: no entries needed.
WEIGHTS = {}

# The full size (spec.yaml's sizes.full).
B, S, M, NC = 2, 224, 2048, 10


def get_inputs():
    return [torch.rand(B, 3, S, S)]


def get_init_inputs():
    return [S, M, NC]
