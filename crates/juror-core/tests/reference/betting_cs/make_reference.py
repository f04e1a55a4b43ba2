#!/usr/bin/env python3
"""Reference values for `crates/juror-core/src/stats/sequential/betting.rs` (the betting
confidence sequence for a share: the hedged capital process of Waudby-Smith and Ramdas 2024,
"Estimating means of bounded random variables by betting", JRSS-B, with the predictable
plug-in bets).

The authors' package `confseq` does not build here (its C++ extension fails to configure), so
this is an independent numpy implementation from the paper's formulas:

- μ̂ₜ = (½ + Σᵢ≤ₜ xᵢ)/(t + 1), σ̂²ₜ = (¼ + Σᵢ≤ₜ (xᵢ − μ̂ᵢ)²)/(t + 1), σ̂²₀ = ¼;
- λ̇ₜ = √(2 ln(2/α) / (σ̂²ₜ₋₁ t ln(1 + t))), λ⁺ₜ(m) = min(λ̇ₜ, c/m), λ⁻ₜ(m) = min(λ̇ₜ, c/(1 − m)),
  c = ½;
- K⁺ₜ(m) = Π (1 + λ⁺ᵢ(m)(xᵢ − m)), K⁻ₜ(m) = Π (1 − λ⁻ᵢ(m)(xᵢ − m)) by `numpy.cumprod` over the
  whole grid m = 0, 1/1000, …, 1 at once, Kₜ = max(½K⁺ₜ, ½K⁻ₜ);
- at every t the grid points with Kₜ(m) < 1/α, their hull widened by one grid step on each side
  and cut to [0, 1] ([0, 1] when none is left), then the running intersection of these
  intervals (the running maximum of the lower bounds, the running minimum of the upper ones),
  the way `confseq.betting.cs_from_martingale` forms it. (The Rust code instead drops each grid
  point at the first t where it is rejected and widens the hull of the survivors once: the same
  interval when every Cₜ is an interval, which it is for this process.)

Run from anywhere:

    python3 -m venv /tmp/refds
    /tmp/refds/bin/pip install numpy
    /tmp/refds/bin/python crates/juror-core/tests/reference/betting_cs/make_reference.py

Data sets, seeded: `shares_ties` (wins, ties as ½ and losses, mean 0.575, 400 values),
`bernoulli` (p = 0.3, 300 values), `beta` (Beta(2, 5), continuous, 250 values, α = 0.1),
`lopsided` (mean 0.94, 200 values, near the upper end), `few` (6 values). For each, the interval
at a few t (`times`), for prefixes of the values.
"""

import json
import math
import platform
from pathlib import Path

import numpy as np

GRID = 1000
TRUNCATION = 0.5
THETA = 0.5


def bets(x, alpha):
    t = np.arange(1, len(x) + 1, dtype=float)
    mu = (0.5 + np.cumsum(x)) / (t + 1.0)
    var = (0.25 + np.cumsum((x - mu) ** 2)) / (t + 1.0)
    var_before = np.append(0.25, var[:-1])
    return np.sqrt(2.0 * math.log(2.0 / alpha) / (var_before * t * np.log1p(t)))


def sequence(x, alpha):
    """Lower and upper bounds of the running intersection at every t."""
    lam = bets(x, alpha)
    m = np.arange(GRID + 1) / GRID
    with np.errstate(divide="ignore"):
        lam_up = np.minimum(lam[None, :], TRUNCATION / m[:, None])
        lam_down = np.minimum(lam[None, :], TRUNCATION / (1.0 - m[:, None]))
    d = x[None, :] - m[:, None]
    k_up = np.cumprod(1.0 + lam_up * d, axis=1)
    k_down = np.cumprod(1.0 - lam_down * d, axis=1)
    k = np.maximum(THETA * k_up, (1.0 - THETA) * k_down)
    inside = k < 1.0 / alpha
    low = np.zeros(len(x))
    high = np.ones(len(x))
    for t in range(len(x)):
        where = np.flatnonzero(inside[:, t])
        if len(where):
            low[t] = max(0.0, m[where[0]] - 1.0 / GRID)
            high[t] = min(1.0, m[where[-1]] + 1.0 / GRID)
    return np.maximum.accumulate(low), np.minimum.accumulate(high)


def shares(rng, n, win, tie):
    u = rng.random(n)
    return np.where(u < win, 1.0, np.where(u < win + tie, 0.5, 0.0))


def main():
    cases = []
    for name, seed, alpha, make in [
        ("shares_ties", 21, 0.05, lambda r: shares(r, 400, 0.45, 0.25)),
        ("bernoulli", 22, 0.05, lambda r: (r.random(300) < 0.3).astype(float)),
        ("beta", 23, 0.1, lambda r: r.beta(2.0, 5.0, size=250)),
        ("lopsided", 24, 0.05, lambda r: shares(r, 200, 0.9, 0.08)),
        ("few", 25, 0.05, lambda r: shares(r, 6, 0.5, 0.3)),
    ]:
        x = make(np.random.default_rng(seed))
        low, high = sequence(x, alpha)
        times = [t for t in [1, 2, 3, 5, 10, 25, 50, 100, 200, len(x)] if t <= len(x)]
        times = sorted(set(times))
        cases.append(
            {
                "name": name,
                "alpha": alpha,
                "values": [float(v) for v in x],
                "times": times,
                "mean": [float(np.mean(x[:t])) for t in times],
                "low": [float(low[t - 1]) for t in times],
                "high": [float(high[t - 1]) for t in times],
            }
        )
        print(name, times[-1], low[-1], high[-1])
    out = {
        "generated_by": "crates/juror-core/tests/reference/betting_cs/make_reference.py",
        "versions": {"python": platform.python_version(), "numpy": np.__version__},
        "model": (
            "hedged capital process, theta 1/2, predictable plug-in bets with ln(2/alpha), "
            "truncation c = 1/2 (c/m and c/(1-m)), grid 0..1 by 1/1000, hull widened by one "
            "step, running intersection"
        ),
        "grid": GRID,
        "cases": cases,
    }
    path = Path(__file__).with_name("reference.json")
    path.write_text(json.dumps(out, indent=1) + "\n")
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
