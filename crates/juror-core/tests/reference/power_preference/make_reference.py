#!/usr/bin/env python3
"""Reference values for `crates/juror-core/src/stats/power/preference.rs` from scipy.

Run from anywhere:

    python3 -m venv /tmp/refds
    /tmp/refds/bin/pip install numpy scipy
    /tmp/refds/bin/python crates/juror-core/tests/reference/power_preference/make_reference.py

It writes `reference.json` beside itself with the library versions;
`crates/juror-core/tests/it/power_preference.rs` reads it.

- `regions`: for each n, the largest k < n/2 that `scipy.stats.binomtest(k, n).pvalue <= alpha`
  rejects (null when none), found by testing every k from 0 to n, and the power: the sum of
  `scipy.stats.binom.pmf(k, n, p)` over every k the test rejects (math.fsum);
- `sample_sizes`: the saw-tooth scan: the power at every n in 1..horizon from the regions above;
  `first` the smallest n reaching the target, `stable` one more than the largest n below it;
- `ppi`: the human labels a prediction-powered interval needs. V(n) = lam^2 var_f / N +
  (var_y - 2 lam cov + lam^2 var_f) / n, with lam = 1 (plain PPI) or lam = cov / (var_f (1 +
  n/N)) clipped to [0, 1] (PPI++); the real n solving z sqrt(V(n)) = w by
  `scipy.optimize.brentq` (xtol 1e-300, rtol 8.9e-16), its ceiling, and the human-only
  var_y (z/w)^2. Plain PPI cases whose floor z sqrt(var_f/N) exceeds w are marked unreachable.
"""

import json
import math
import platform
from pathlib import Path

import numpy as np
import scipy
from scipy import optimize, stats


def critical(n, alpha):
    rejected = [k for k in range(n + 1) if stats.binomtest(k, n).pvalue <= alpha]
    low = [k for k in rejected if 2 * k < n]
    # The region is two tails, mirror images: check it.
    assert rejected == sorted(low + [n - k for k in low]), (n, alpha, rejected)
    return (max(low) if low else None), rejected


def power(n, p, rejected):
    return math.fsum(float(stats.binom.pmf(k, n, p)) for k in rejected)


def regions():
    out = []
    for alpha in (0.05, 0.01):
        for n in (1, 5, 6, 9, 10, 17, 20, 25, 37, 38, 50, 100, 137, 500, 1000):
            c, rejected = critical(n, alpha)
            powers = {str(p): power(n, p, rejected) for p in (0.5, 0.55, 0.6, 0.7, 0.9, 0.3)}
            out.append({"n": n, "alpha": alpha, "critical": c, "powers": powers})
    return out


def sample_size(p, alpha, target, horizon):
    powers = []
    for n in range(1, horizon + 1):
        _, rejected = critical(n, alpha)
        powers.append(power(n, p, rejected))
    first = next(n for n in range(1, horizon + 1) if powers[n - 1] >= target)
    below = [n for n in range(1, horizon + 1) if powers[n - 1] < target]
    stable = below[-1] + 1
    return {
        "p": p,
        "alpha": alpha,
        "target": target,
        "horizon": horizon,
        "first": first,
        "first_power": powers[first - 1],
        "stable": stable,
        "stable_power": powers[stable - 1],
        "stable_minimum": min(powers[stable - 1 :]),
        "powers": powers,
    }


def variance(n, var_y, var_f, cov, big_n, tuned):
    if tuned:
        lam = min(max(cov / (var_f * (1 + n / big_n)), 0.0), 1.0) if var_f > 0 else 0.0
    else:
        lam = 1.0
    rect = max(var_y - 2 * lam * cov + lam * lam * var_f, 0.0)
    return lam * lam * var_f / big_n + rect / n, lam


def ppi_case(name, var_y, var_f, cov, big_n, w, level):
    z = float(stats.norm.ppf(1 - (1 - level) / 2))
    a = (w / z) ** 2
    case = {"name": name, "var_y": var_y, "var_f": var_f, "cov": cov, "unlabelled": big_n,
            "half_width": w, "level": level, "humans_only_exact": var_y / a}
    for key, tuned in (("plain", False), ("tuned", True)):
        if not tuned and var_f / big_n >= a:
            case[key] = None
            continue
        g = lambda n: variance(n, var_y, var_f, cov, big_n, tuned)[0] - a
        hi = 1.0
        while g(hi) > 0:
            hi *= 2
        x = optimize.brentq(g, 1e-12, hi, xtol=1e-300, rtol=8.9e-16, maxiter=500)
        humans = max(math.ceil(x), 1)
        while humans > 1 and g(humans - 1) <= 0:
            humans -= 1
        while g(humans) > 0:
            humans += 1
        case[key] = {"exact": x, "humans": humans,
                     "lambda": variance(x, var_y, var_f, cov, big_n, tuned)[1],
                     "half_width": z * math.sqrt(variance(humans, var_y, var_f, cov, big_n, tuned)[0])}
    return case


def ppi():
    return [
        # A good judge on a 1-5 score: rho = 0.8.
        ppi_case("good_judge", 1.2, 1.0, 0.8 * math.sqrt(1.2), 2000, 0.06, 0.95),
        # The same with few judge-only items: plain PPI's floor is above w.
        ppi_case("few_unlabelled", 1.2, 1.0, 0.8 * math.sqrt(1.2), 200, 0.1, 0.95),
        # A judge that over-reacts (cov > var_f): lam* = 1 for small n.
        ppi_case("clipped_at_one", 1.0, 0.3, 0.5, 5000, 0.08, 0.95),
        # An uninformative judge: PPI++ falls back to the humans.
        ppi_case("uninformative", 0.25, 0.25, 0.0, 1000, 0.05, 0.95),
        # A share: humans 0.6, judge 0.55, both 0.5.
        ppi_case("share", 0.24, 0.2475, 0.5 - 0.6 * 0.55, 3000, 0.03, 0.90),
        # A negatively correlated judge.
        ppi_case("negative", 1.0, 1.0, -0.3, 1000, 0.1, 0.99),
    ]


def main():
    out = {
        "generated_by": "crates/juror-core/tests/reference/power_preference/make_reference.py",
        "versions": {
            "python": platform.python_version(),
            "numpy": np.__version__,
            "scipy": scipy.__version__,
        },
        "regions": regions(),
        "sample_sizes": [
            sample_size(0.7, 0.05, 0.8, 120),
            sample_size(0.65, 0.05, 0.9, 250),
            sample_size(0.3, 0.01, 0.8, 200),
            sample_size(0.6, 0.05, 0.8, 400),
        ],
        "ppi": ppi(),
    }
    path = Path(__file__).with_name("reference.json")
    path.write_text(json.dumps(out, indent=1) + "\n")
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
