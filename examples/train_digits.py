"""Train an MLP and a small CNN on scikit-learn's bundled 8x8 digits with gtensor.

The data ships with scikit-learn (no download). Both models train with Adam
and a one-cycle learning-rate schedule, show a tqdm progress bar, and print
one test-accuracy line each. With ``--amp`` the forward pass runs under
``gt.autocast`` (the device's default low dtype: bfloat16 on the cpu, float16
on cuda), with a ``gt.amp.GradScaler`` when that dtype is float16.

Usage:
    python examples/train_digits.py                  # both models on the cpu
    python examples/train_digits.py --device cuda    # the same on a GPU
    python examples/train_digits.py --model mlp --epochs 5
    python examples/train_digits.py --amp            # mixed precision
    python -m gtensor.distributed.run -n 2 examples/train_digits.py --distributed

Example:
    $ python examples/train_digits.py --model mlp
    mlp: test accuracy 0.9800 (441/450) in 4.1 s
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from sklearn.datasets import load_digits
from sklearn.model_selection import train_test_split
from tqdm import tqdm

import gtensor as gt
import gtensor.distributed as dist
import gtensor.nn.functional as F
from gtensor import nn
from gtensor.nn.parallel import DistributedDataParallel
from gtensor.utils.data import DataLoader, DistributedSampler, TensorDataset

DEFAULT_EPOCHS = {"mlp": 20, "cnn": 15}


def mlp() -> nn.Module:
    """A 64-256-128-10 perceptron with ReLU and dropout."""
    return nn.Sequential(
        nn.Flatten(),
        nn.Linear(64, 256), nn.ReLU(), nn.Dropout(0.1),
        nn.Linear(256, 128), nn.ReLU(),
        nn.Linear(128, 10),
    )


def cnn() -> nn.Module:
    """Two 3x3 convolutions with batch norm and one 2x2 max pool, then a linear head."""
    return nn.Sequential(
        nn.Conv2d(1, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU(),
        nn.Conv2d(16, 32, 3, padding=1), nn.BatchNorm2d(32), nn.ReLU(),
        nn.MaxPool2d(2),
        nn.Flatten(),
        nn.Linear(32 * 4 * 4, 10),
    )


def load_data(device: str, seed: int) -> tuple[TensorDataset, TensorDataset]:
    """The digits as float32 images ``(N, 1, 8, 8)`` in [0, 1], split 75/25 by class."""
    digits = load_digits()
    x = (digits.images / 16.0).astype(np.float32)[:, None]
    y = digits.target.astype(np.int64)
    x_tr, x_te, y_tr, y_te = train_test_split(x, y, test_size=0.25, random_state=seed,
                                              stratify=y)
    return (TensorDataset(gt.tensor(x_tr, device=device), gt.tensor(y_tr, device=device)),
            TensorDataset(gt.tensor(x_te, device=device), gt.tensor(y_te, device=device)))


def accuracy(model: nn.Module, data: TensorDataset) -> tuple[int, int]:
    """Count correct predictions of ``model`` (in eval mode) over ``data``."""
    model.eval()
    correct = 0
    with gt.no_grad():
        for x, y in DataLoader(data, batch_size=512):
            correct += int((model(x).argmax(1) == y).sum().item())
    return correct, len(data)


def train(name: str, model: nn.Module, train_set: TensorDataset, epochs: int,
          batch_size: int, distributed: bool = False, amp: bool = False) -> None:
    """Fit ``model`` with Adam + OneCycleLR and label-smoothed cross entropy.

    With ``distributed``, each rank reads its share of every epoch (``model`` is wrapped in
    DistributedDataParallel). With ``amp``, the forward pass and the loss run under
    autocast, and the loss is scaled when the low dtype is float16.
    """
    device_type = train_set.tensors[0].device.type
    scaler = gt.amp.GradScaler(device_type, enabled=amp and
                               gt.get_autocast_dtype(device_type) is gt.float16)
    sampler = DistributedSampler(train_set) if distributed else None
    loader = DataLoader(train_set, batch_size=batch_size, shuffle=sampler is None,
                        sampler=sampler)
    opt = gt.optim.Adam(model.parameters(), lr=3e-3, weight_decay=1e-4)
    sched = gt.optim.lr_scheduler.OneCycleLR(opt, max_lr=1e-2, epochs=epochs,
                                             steps_per_epoch=len(loader))
    bar = tqdm(range(epochs), desc=name, unit="epoch", leave=False,
               disable=distributed and dist.get_rank() != 0)
    for epoch in bar:
        if sampler is not None:
            sampler.set_epoch(epoch)
        model.train()
        total = gt.zeros((), device=train_set.tensors[0].device)
        for x, y in loader:
            with gt.autocast(device_type, enabled=amp):
                loss = F.cross_entropy(model(x), y, label_smoothing=0.05)
            opt.zero_grad()
            scaler.scale(loss).backward()
            scaler.step(opt)
            scaler.update()
            sched.step()
            total = total + loss.detach()
        bar.set_postfix(loss=f"{total.item() / len(loader):.4f}")


def main(argv: list[str] | None = None) -> dict[str, float]:
    """Parse the arguments, train the chosen models, print and return their test accuracies."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--device", default="cpu", help="cpu or cuda[:N]")
    parser.add_argument("--model", choices=("mlp", "cnn", "both"), default="both")
    parser.add_argument("--epochs", type=int, default=None,
                        help="epochs per model (default: 20 for the MLP, 15 for the CNN)")
    parser.add_argument("--batch-size", type=int, default=64)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--amp", action="store_true",
                        help="mixed precision: autocast, and loss scaling for float16")
    parser.add_argument("--distributed", action="store_true",
                        help="data-parallel over the ranks of gtensor.distributed.run (the batch "
                        "size is the global one)")
    args = parser.parse_args(argv)

    batch_size, main_rank = args.batch_size, True
    if args.distributed:
        on_gpu = args.device.startswith("cuda")
        dist.init_process_group("nccl" if on_gpu else "mpi")
        if on_gpu:  # one GPU per rank
            args.device = f"cuda:{dist.get_rank() % gt.cuda.device_count()}"
            gt.cuda.set_device(args.device)
        batch_size = max(1, args.batch_size // dist.get_world_size())
        main_rank = dist.get_rank() == 0
    gt.manual_seed(args.seed)
    train_set, test_set = load_data(args.device, args.seed)
    names = ("mlp", "cnn") if args.model == "both" else (args.model,)
    results = {}
    for name in names:
        start = time.perf_counter()
        model = (mlp if name == "mlp" else cnn)().to(args.device)
        if args.distributed:
            model = DistributedDataParallel(model)
        train(name, model, train_set, args.epochs or DEFAULT_EPOCHS[name], batch_size,
              args.distributed, args.amp)
        correct, n = accuracy(model, test_set)
        seconds = time.perf_counter() - start
        results[name] = correct / n
        if main_rank:
            print(f"{name}: test accuracy {correct / n:.4f} ({correct}/{n}) in {seconds:.1f} s")
    if args.distributed:
        dist.destroy_process_group()
    return results


if __name__ == "__main__":
    main()
