#!/usr/bin/env python3
"""Trains a policy/value network on `checkerbot-lab datagen` positions (CPU, a few threads).

    target/venv-train/bin/python training/train.py --data target/data/russian-*.bin \
        --blocks 6 --filters 48 --epochs 10 --out target/train/russian-gen2.pt

Policy loss: cross-entropy against the datagen's soft target (a softmax of alpha-beta's root
move scores). Value loss: binary cross-entropy against a blend of the search's win probability
and the game's result (`--value-blend` is the search's weight): the search is a less noisy label
position by position, the result keeps the value honest about what actually happens, which is
what the robot's emotions need. Deterministic for a seed (one thread per op order aside).
"""

import argparse
import json
import math
import time

import numpy as np
import torch
import torch.nn.functional as F

from data import load
from net import Mlp, Net, board_side, build, policy_size


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", nargs="+", required=True, help="datagen or selfplay files")
    ap.add_argument("--variant", default="russian", help="whose records these are (sets the board size)")
    ap.add_argument("--arch", choices=["resnet", "mlp"], default="resnet")
    ap.add_argument("--hidden", type=int, default=384, help="mlp: width of the hidden layers")
    ap.add_argument("--layers", type=int, default=3, help="mlp: hidden layers")
    ap.add_argument("--blocks", type=int, default=6)
    ap.add_argument("--filters", type=int, default=48)
    ap.add_argument("--epochs", type=float, default=10, help="passes over the data (fractions allowed)")
    ap.add_argument("--batch", type=int, default=256)
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--weight-decay", type=float, default=1e-4)
    ap.add_argument("--value-blend", type=float, default=0.5, help="weight of the search's v in the value target")
    ap.add_argument("--value-weight", type=float, default=1.0, help="weight of the value loss")
    ap.add_argument("--max-positions", type=int, default=0, help="use only the first N positions (0: all)")
    ap.add_argument("--validation", type=float, default=0.05, help="share held out")
    ap.add_argument("--threads", type=int, default=2, help="torch threads (the machines have 2 cores)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--init", help="start from this checkpoint's network (its architecture; --arch and sizes are ignored)")
    ap.add_argument("--out", required=True, help="checkpoint (.pt) to write")
    args = ap.parse_args()

    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    rng = np.random.default_rng(args.seed)
    started = time.time()

    side = board_side(args.variant)
    planes, policy, search, result = load(args.data, side, policy_size(side))
    if args.max_positions:
        planes, policy = planes[: args.max_positions], policy[: args.max_positions]
        search, result = search[: args.max_positions], result[: args.max_positions]
    n = len(planes)
    value = args.value_blend * search + (1 - args.value_blend) * result
    # Hold out whole blocks at the end rather than random positions: neighbouring positions of
    # one game are nearly the same, and a random split would flatter the validation figures.
    n_val = max(1, int(n * args.validation))
    n_train = n - n_val
    print(f"{n} positions ({n_train} train, {n_val} validation), loaded in {time.time() - started:.1f} s", flush=True)

    t = lambda a: torch.from_numpy(np.ascontiguousarray(a))
    x_train, p_train, v_train = t(planes[:n_train]), t(policy[:n_train]), t(value[:n_train])
    x_val, p_val, v_val = t(planes[n_train:]), t(policy[n_train:]), t(value[n_train:])
    r_val = t(result[n_train:])

    if args.init:
        # Refinement: the earlier network goes on learning (self-play after the alpha-beta bootstrap).
        saved = torch.load(args.init, map_location="cpu")
        net = build(saved["config"])
        net.load_state_dict(saved["state"])
        if saved["config"]["side"] != side:
            raise SystemExit(f"{args.init} is for a {saved['config']['side']}x{saved['config']['side']} board, not {args.variant}")
        print(f"starting from {args.init}", flush=True)
    elif args.arch == "resnet":
        net = Net(args.blocks, args.filters, side, policy_size(side))
    else:
        net = Mlp(args.hidden, args.layers, side, policy_size(side))
    params = sum(p.numel() for p in net.parameters())
    print(f"net: {net.config}, {params} parameters", flush=True)
    opt = torch.optim.AdamW(net.parameters(), lr=args.lr, weight_decay=args.weight_decay)
    steps_per_epoch = math.ceil(n_train / args.batch)
    total = max(1, int(steps_per_epoch * args.epochs))
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=args.lr, total_steps=total, pct_start=0.1)

    def losses(x, p, v):
        logits, value_logit = net(x)
        policy_loss = -(p * F.log_softmax(logits, dim=1)).sum(dim=1).mean()
        value_loss = F.binary_cross_entropy_with_logits(value_logit.squeeze(1), v)
        return policy_loss, value_loss, logits, value_logit

    def validate():
        net.eval()
        with torch.no_grad():
            pl, vl, correct, mse, mse_result = 0.0, 0.0, 0, 0.0, 0.0
            for i in range(0, n_val, 1024):
                x, p, v, r = x_val[i : i + 1024], p_val[i : i + 1024], v_val[i : i + 1024], r_val[i : i + 1024]
                a, b, logits, value_logit = losses(x, p, v)
                k = len(x)
                pl += a.item() * k
                vl += b.item() * k
                correct += (logits.argmax(1) == p.argmax(1)).sum().item()
                prob = torch.sigmoid(value_logit.squeeze(1))
                mse += ((prob - v) ** 2).sum().item()
                mse_result += ((prob - r) ** 2).sum().item()
        net.train()
        return {
            "policy_ce": pl / n_val,
            "value_bce": vl / n_val,
            "top1": correct / n_val,
            "value_mse": mse / n_val,
            "result_mse": mse_result / n_val,
        }

    step = 0
    epoch = 0
    history = []
    while step < total:
        order = torch.from_numpy(rng.permutation(n_train))
        run_p, run_v, run_n = 0.0, 0.0, 0
        for i in range(0, n_train, args.batch):
            if step >= total:
                break
            idx = order[i : i + args.batch]
            a, b, _, _ = losses(x_train[idx], p_train[idx], v_train[idx])
            loss = a + args.value_weight * b
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            step += 1
            run_p += a.item()
            run_v += b.item()
            run_n += 1
        epoch += 1
        stats = validate()
        stats.update(
            epoch=epoch,
            train_policy_ce=run_p / max(run_n, 1),
            train_value_bce=run_v / max(run_n, 1),
            seconds=round(time.time() - started, 1),
        )
        history.append(stats)
        print(json.dumps({k: round(v, 4) if isinstance(v, float) else v for k, v in stats.items()}), flush=True)
        torch.save({"config": net.config, "state": net.state_dict(), "history": history, "args": vars(args)}, args.out)
    print(f"done in {time.time() - started:.0f} s -> {args.out}", flush=True)


if __name__ == "__main__":
    main()
