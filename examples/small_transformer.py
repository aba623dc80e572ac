"""Train a small character-level Transformer language model with gtensor, then sample from it.

The corpus is built in (short sentences drawn from a tiny grammar, no
download). The model is token and position embeddings, a causally masked
``nn.TransformerEncoder`` and a linear head predicting the next character;
it trains with AdamW in well under a minute on a CPU, printing the loss as it
falls, and ends with a sample of generated text.

Usage:
    python examples/small_transformer.py                  # on the cpu
    python examples/small_transformer.py --device cuda    # on a GPU
    python examples/small_transformer.py --steps 50 --sample-chars 80

Example:
    $ python examples/small_transformer.py
    step    1  loss 3.2110
    ...
    step  200  loss 0.3652
    sample: the small cat sees a red ball. a big dog ...
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import gtensor as gt
import gtensor.nn.functional as F
from gtensor import nn

SUBJECTS = ("the cat", "a dog", "the small bird", "my friend", "the old man", "a child")
VERBS = ("sees", "likes", "finds", "eats", "draws", "wants")
OBJECTS = ("a red ball", "the green tree", "some bread", "a blue kite", "the big house")


def corpus(n_sentences: int, seed: int) -> str:
    """``n_sentences`` sentences "subject verb object." drawn at random, joined by spaces."""
    rng = np.random.default_rng(seed)
    return " ".join(f"{rng.choice(SUBJECTS)} {rng.choice(VERBS)} {rng.choice(OBJECTS)}."
                    for _ in range(n_sentences))


class CharTransformer(nn.Module):
    """Embeddings, a causal Transformer encoder (pre-LN) and a next-character head."""

    def __init__(self, vocab: int, context: int, d_model: int, nhead: int, layers: int) -> None:
        super().__init__()
        self.tokens = nn.Embedding(vocab, d_model)
        self.positions = nn.Embedding(context, d_model)
        layer = nn.TransformerEncoderLayer(d_model, nhead, 4 * d_model, dropout=0.0,
                                           batch_first=True, norm_first=True)
        self.encoder = nn.TransformerEncoder(layer, layers, norm=nn.LayerNorm(d_model))
        self.head = nn.Linear(d_model, vocab)

    def forward(self, idx: gt.Tensor) -> gt.Tensor:
        """Logits ``(N, T, vocab)`` for the character after each position of ``idx`` ``(N, T)``."""
        t = idx.shape[1]
        pos = gt.arange(t, device=idx.device)
        x = self.tokens(idx) + self.positions(pos)
        mask = nn.Transformer.generate_square_subsequent_mask(t, device=idx.device)
        return self.head(self.encoder(x, mask=mask, is_causal=True))


def batches(data: np.ndarray, context: int, batch: int, rng: np.random.Generator,
            device: str) -> tuple[gt.Tensor, gt.Tensor]:
    """Random windows of ``context`` characters and the same windows shifted by one."""
    starts = rng.integers(0, len(data) - context - 1, batch)
    x = np.stack([data[s:s + context] for s in starts])
    y = np.stack([data[s + 1:s + context + 1] for s in starts])
    return gt.tensor(x, device=device), gt.tensor(y, device=device)


def sample(model: CharTransformer, prompt: np.ndarray, n_chars: int, context: int,
           temperature: float, rng: np.random.Generator, device: str) -> np.ndarray:
    """Extend ``prompt`` by ``n_chars`` characters drawn from the model's predictions."""
    model.eval()
    out = list(prompt)
    with gt.no_grad():
        for _ in range(n_chars):
            idx = gt.tensor(np.array([out[-context:]], dtype=np.int64), device=device)
            probs = (model(idx)[0, -1] / temperature).softmax(-1).cpu().numpy().astype(np.float64)
            out.append(int(rng.choice(len(probs), p=probs / probs.sum())))
    return np.array(out)


def main(argv: list[str] | None = None) -> list[float]:
    """Parse the arguments, train, print the losses and a sample; return the printed losses."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--device", default="cpu", help="cpu or cuda[:N]")
    parser.add_argument("--steps", type=int, default=200)
    parser.add_argument("--batch-size", type=int, default=16)
    parser.add_argument("--context", type=int, default=32)
    parser.add_argument("--d-model", type=int, default=32)
    parser.add_argument("--layers", type=int, default=2)
    parser.add_argument("--sample-chars", type=int, default=120)
    parser.add_argument("--temperature", type=float, default=0.7)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)

    gt.manual_seed(args.seed)
    rng = np.random.default_rng(args.seed)
    text = corpus(600, args.seed)
    chars = sorted(set(text))
    data = np.array([chars.index(c) for c in text], dtype=np.int64)
    model = CharTransformer(len(chars), args.context, args.d_model, 2, args.layers)
    model.to(args.device)
    opt = gt.optim.AdamW(model.parameters(), lr=5e-3, weight_decay=0.01)
    start = time.perf_counter()
    losses = []
    report_every = max(1, args.steps // 10)
    for step in range(1, args.steps + 1):
        model.train()
        x, y = batches(data, args.context, args.batch_size, rng, args.device)
        loss = F.cross_entropy(model(x).reshape(-1, len(chars)), y.reshape(-1))
        opt.zero_grad()
        loss.backward()
        nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        if step == 1 or step % report_every == 0 or step == args.steps:
            losses.append(loss.item())
            print(f"step {step:4d}  loss {losses[-1]:.4f}", flush=True)
    print(f"trained {args.steps} steps in {time.perf_counter() - start:.1f} s")
    prompt = data[:args.context // 2]
    text_out = sample(model, prompt, args.sample_chars, args.context, args.temperature, rng,
                      args.device)
    print("sample: " + "".join(chars[i] for i in text_out))
    return losses


if __name__ == "__main__":
    main()
