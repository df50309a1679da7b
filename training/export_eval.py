#!/usr/bin/env python3
"""Exports a train_eval.py checkpoint (or, with --random SEED, untrained weights for tests) to
the ONNX layout the search reads (see evalnet.py), and checks ONNX Runtime against PyTorch.

    target/venv-train/bin/python training/export_eval.py target/train/russian-eval1.pt models/russian-eval1.onnx
"""

import argparse
import os

import numpy as np
import onnx
import torch

from evalnet import EvalNet, to_onnx


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("checkpoint", nargs="?", help="a train_eval.py checkpoint (omit with --random)")
    ap.add_argument("out")
    ap.add_argument("--variant", default="russian")
    ap.add_argument("--random", type=int, metavar="SEED", help="untrained weights from this seed")
    ap.add_argument("--side", type=int, default=8, help="board side for --random")
    ap.add_argument("--hidden", type=int, default=32, help="hidden width for --random")
    args = ap.parse_args()

    if args.random is not None:
        torch.manual_seed(args.random)
        net = EvalNet(side=args.side, hidden=args.hidden)
        # Untrained biases are small; push some units into each clip's edges so a test also
        # exercises the clipping.
        with torch.no_grad():
            net.ft.weight.mul_(4.0)
            net.l1.weight.mul_(4.0)
    else:
        saved = torch.load(args.checkpoint, map_location="cpu")
        config = saved["config"]
        net = EvalNet(side=config["side"], hidden=config["hidden"], inner=config["inner"])
        net.load_state_dict(saved["state"])
    net.eval()
    model = to_onnx(net, args.variant)
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    onnx.save(model, args.out)
    print(f"{args.out}: {os.path.getsize(args.out)} bytes")

    try:
        import onnxruntime as ort
    except ImportError:
        print("onnxruntime not installed: not checked")
        return
    side = net.config["side"]
    rng = np.random.default_rng(0)
    x = (rng.random((64, 2, 4 * side * side)) < 0.1).astype(np.float32)
    session = ort.InferenceSession(args.out, providers=["CPUExecutionProvider"])
    (score,) = session.run(["score"], {"features": x})
    with torch.no_grad():
        expected = net(torch.from_numpy(x)).numpy()
    worst = np.abs(score - expected).max()
    print(f"onnxruntime vs torch on 64 inputs: largest difference {worst:.2e}")
    if worst > 1e-4:
        raise SystemExit("the exported model differs from the network")


if __name__ == "__main__":
    main()
