#!/usr/bin/env python3
"""Trains the search's learned evaluation (evalnet.py) on `checkerbot-lab datagen` records.

    target/venv-train/bin/python training/train_eval.py --data target/data/russian-v8-s101.bin \
        target/data/russian-v8-s102.bin --out target/train/russian-eval1.pt

The target is `blend * search + (1 - blend) * result` (the search's win probability for the side
to move and the game's result), learnt with a binary cross-entropy on the output logit. The last
`--holdout` share of the records is held out; each epoch prints its figures as one JSON line.
The data is best made with `datagen --value-only --quiet-only` (training/README.md): the
search evaluates only positions without a capture to make.
"""

import argparse
import json
import math
import os
import time

import numpy as np
import torch

from data import read_records
from evalnet import EvalNet, features_from_planes
from net import board_side, policy_size


def load_planes(paths, side):
    """Planes 0-3 as 0/1 bytes [n, 4, side, side], and the search's and the game's values."""
    records = read_records(paths, side, policy_size(side))
    bits = np.unpackbits(records["planes"], axis=1, bitorder="little")
    return bits.reshape(len(records), 4, side, side), records["search"].copy(), records["result"].copy()


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", nargs="+", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--variant", default="russian")
    ap.add_argument("--hidden", type=int, default=32)
    ap.add_argument("--inner", type=int, default=16)
    ap.add_argument("--epochs", type=int, default=8)
    ap.add_argument("--batch", type=int, default=2048)
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--blend", type=float, default=0.7, help="weight of the search's value in the target")
    ap.add_argument("--holdout", type=float, default=0.05)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--threads", type=int, default=2)
    args = ap.parse_args()

    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    side = board_side(args.variant)
    start = time.time()
    planes, search, result = load_planes(args.data, side)
    n = len(planes)
    target = (args.blend * search + (1 - args.blend) * result).astype(np.float32)
    rng = np.random.default_rng(args.seed)
    order = rng.permutation(n)
    held = int(n * args.holdout)
    train_idx, val_idx = order[held:], order[:held]
    print(f"{n} positions ({len(train_idx)} training, {held} held out), loaded in {time.time() - start:.1f} s")

    net = EvalNet(side=side, hidden=args.hidden, inner=args.inner)
    opt = torch.optim.AdamW(net.parameters(), lr=args.lr, weight_decay=1e-5)
    steps = args.epochs * math.ceil(len(train_idx) / args.batch)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=args.lr, total_steps=steps)
    loss_fn = torch.nn.BCEWithLogitsLoss()

    def batch(idx):
        x = torch.from_numpy(features_from_planes(planes[idx]).astype(np.float32))
        return x, torch.from_numpy(target[idx]).unsqueeze(1)

    for epoch in range(args.epochs):
        net.train()
        perm = rng.permutation(train_idx)
        total = 0.0
        for i in range(0, len(perm), args.batch):
            x, y = batch(perm[i : i + args.batch])
            loss = loss_fn(net(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            total += loss.item() * len(y)
        net.eval()
        with torch.no_grad():
            mse_target = mse_result = bce = 0.0
            for i in range(0, held, 8192):
                idx = val_idx[i : i + 8192]
                x, y = batch(idx)
                logit = net(x)
                p = torch.sigmoid(logit)
                bce += loss_fn(logit, y).item() * len(idx)
                mse_target += ((p - y) ** 2).sum().item()
                mse_result += ((p.squeeze(1) - torch.from_numpy(result[idx])) ** 2).sum().item()
        print(json.dumps({
            "epoch": epoch + 1,
            "train_bce": round(total / len(train_idx), 5),
            "val_bce": round(bce / held, 5),
            "val_mse_target": round(mse_target / held, 5),
            "val_mse_result": round(mse_result / held, 5),
            "seconds": round(time.time() - start, 1),
        }), flush=True)
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    torch.save({"config": net.config, "state": net.state_dict(), "args": vars(args)}, args.out)
    print(f"saved {args.out}")


if __name__ == "__main__":
    main()
