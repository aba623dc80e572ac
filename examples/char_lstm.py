"""Train a character-level LSTM language model with gtensor, then generate text with it.

The corpus is gtensor's own documentation: the docstrings of its modules and
layers, read at run time (no download). The model is an embedding, a
two-layer ``nn.LSTM`` and a linear head predicting the next character. It
trains with Adam on random windows of the text (truncated backpropagation
through time) in well under a minute on a CPU, printing the loss as it falls,
then generates text one character at a time, carrying the LSTM's state.

Usage:
    python examples/char_lstm.py                  # on the cpu
    python examples/char_lstm.py --device cuda    # on a GPU
    python examples/char_lstm.py --steps 100 --hidden 64

Example:
    $ python examples/char_lstm.py
    step    1  loss 4.2...
    ...
    sample: the tensor ...
"""

from __future__ import annotations

import argparse
import inspect
import time

import numpy as np

import gtensor as gt
import gtensor.nn.functional as F
from gtensor import nn

SOURCES = (gt, gt.nn, gt.nn.LSTM, gt.nn.Linear, gt.nn.Conv2d, gt.nn.Transformer, gt.optim.Adam,
           gt.compile, gt.Tensor, gt.nn.Module, gt.autograd, gt.memory)


def documentation() -> str:
    """The docstrings of ``SOURCES``, lower-cased, whitespace folded to single spaces."""
    text = " ".join(inspect.getdoc(obj) or "" for obj in SOURCES)
    return " ".join(text.lower().split())


class CharLSTM(nn.Module):
    """Embedding, a stacked LSTM (batch first) and a next-character head."""

    def __init__(self, vocab: int, embed: int, hidden: int, layers: int) -> None:
        super().__init__()
        self.embed = nn.Embedding(vocab, embed)
        self.lstm = nn.LSTM(embed, hidden, num_layers=layers, batch_first=True)
        self.head = nn.Linear(hidden, vocab)

    def forward(self, idx: gt.Tensor, state: tuple[gt.Tensor, gt.Tensor] | None = None
                ) -> tuple[gt.Tensor, tuple[gt.Tensor, gt.Tensor]]:
        """Logits ``(N, T, vocab)`` after each character of ``idx`` ``(N, T)``, and the state."""
        out, state = self.lstm(self.embed(idx), state)
        return self.head(out), state


def windows(data: np.ndarray, length: int, batch: int, rng: np.random.Generator,
            device: str) -> tuple[gt.Tensor, gt.Tensor]:
    """``batch`` random windows of ``length + 1`` characters: inputs and next-character targets."""
    starts = rng.integers(0, len(data) - length - 1, batch)
    rows = data[starts[:, None] + np.arange(length + 1)]
    return gt.tensor(rows[:, :-1], device=device), gt.tensor(rows[:, 1:], device=device)


def generate(model: CharLSTM, prompt: np.ndarray, n_chars: int, temperature: float,
             rng: np.random.Generator, device: str) -> list[int]:
    """Feed ``prompt``, then draw ``n_chars`` characters one at a time, carrying the state."""
    model.eval()
    out = [int(c) for c in prompt]
    with gt.no_grad():
        logits, state = model(gt.tensor(prompt[None], device=device))
        for _ in range(n_chars):
            probs = (logits[0, -1] / temperature).softmax(-1).cpu().numpy().astype(np.float64)
            out.append(int(rng.choice(len(probs), p=probs / probs.sum())))
            logits, state = model(gt.tensor([[out[-1]]], device=device), state)
    return out


def main(argv: list[str] | None = None) -> list[float]:
    """Parse the arguments, train, print the losses and a sample; return the printed losses."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--device", default="cpu", help="cpu or cuda[:N]")
    parser.add_argument("--steps", type=int, default=300)
    parser.add_argument("--batch-size", type=int, default=32)
    parser.add_argument("--length", type=int, default=48, help="characters per window")
    parser.add_argument("--embed", type=int, default=32)
    parser.add_argument("--hidden", type=int, default=128)
    parser.add_argument("--layers", type=int, default=2)
    parser.add_argument("--sample-chars", type=int, default=160)
    parser.add_argument("--temperature", type=float, default=0.6)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)

    gt.manual_seed(args.seed)
    rng = np.random.default_rng(args.seed)
    text = documentation()
    chars = sorted(set(text))
    data = np.array([chars.index(c) for c in text], dtype=np.int64)
    model = CharLSTM(len(chars), args.embed, args.hidden, args.layers).to(args.device)
    opt = gt.optim.Adam(model.parameters(), lr=5e-3)
    print(f"{len(text)} characters of documentation, {len(chars)} distinct")
    start = time.perf_counter()
    losses = []
    report_every = max(1, args.steps // 10)
    for step in range(1, args.steps + 1):
        model.train()
        x, y = windows(data, args.length, args.batch_size, rng, args.device)
        logits, _ = model(x)
        loss = F.cross_entropy(logits.reshape(-1, len(chars)), y.reshape(-1))
        opt.zero_grad()
        loss.backward()
        nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        if step == 1 or step % report_every == 0 or step == args.steps:
            losses.append(loss.item())
            print(f"step {step:4d}  loss {losses[-1]:.4f}", flush=True)
    print(f"trained {args.steps} steps in {time.perf_counter() - start:.1f} s")
    out = generate(model, data[:args.length // 2], args.sample_chars, args.temperature, rng,
                   args.device)
    print("sample: " + "".join(chars[i] for i in out))
    return losses


if __name__ == "__main__":
    main()
