#!/usr/bin/env python3
"""Compares a `juror analyze --format json` report with the Python reference of
scripts/bench/analysis.py, value by value, and prints the largest differences and the timings.

Every number the Python side computed is looked up by name in the report (dimensions by name,
systems by id, comparisons by pair, Cohen's kappa by pair of annotators, flags by cell), so
fields the report gains later are simply not compared. A value is equal when
|juror - python| <= tol * max(|juror|, |python|), or <= 1e-14 for values at zero, with
tol = 1e-9 for closed forms and 1e-6 for the t interval (Juror inverts the t distribution by
iteration, scipy through Boost's iterative inverse). Counts, ids, flags and the Wilcoxon method
must be identical, and a value null on one side only is a failure. The bootstrap intervals use
different random streams (Juror's ChaCha streams, numpy's PCG64), so they are only checked for
plausibility: each bound within a quarter of the interval's width of the other side's.

Usage: compare_analysis.py JUROR.json PYTHON.json [--juror-seconds S ...] [--python-seconds S]
       [--summary OUT.json]
Exit status 1 when any comparison fails. Standard library only.
"""

import argparse
import json
import statistics
import sys

CLOSED = 1e-9
ITERATIVE = 1e-6
ZERO = 1e-14
BOOTSTRAP_SHARE = 0.25


class Checker:
    def __init__(self):
        self.groups = {}  # name -> dict(count, max_abs, max_rel, tol, failures)
        self.failures = []

    def group(self, name, tol):
        return self.groups.setdefault(
            name, {"count": 0, "max_abs": 0.0, "max_rel": 0.0, "tol": tol, "failures": 0}
        )

    def fail(self, name, tol, where, message):
        self.group(name, tol)["failures"] += 1
        self.failures.append(f"{where}: {message}")

    def number(self, name, where, juror, python, tol):
        g = self.group(name, tol)
        if python is None and juror is None:
            return
        if python is None or juror is None:
            self.fail(name, tol, where, f"juror {juror!r}, python {python!r}")
            return
        g["count"] += 1
        diff = abs(juror - python)
        scale = max(abs(juror), abs(python))
        rel = diff / scale if scale > 0 else 0.0
        g["max_abs"] = max(g["max_abs"], diff)
        g["max_rel"] = max(g["max_rel"], rel)
        if isinstance(tol, str):
            return
        if not (diff <= tol * scale or diff <= ZERO):
            self.fail(name, tol, where, f"juror {juror!r}, python {python!r} (rel {rel:.3g})")

    def same(self, name, where, juror, python):
        g = self.group(name, "exact")
        g["count"] += 1
        if juror != python:
            self.fail(name, "exact", where, f"juror {juror!r}, python {python!r}")

    def field(self, name, where, jobj, pobj, key, tol):
        """Compares key of the two objects: a number with tol, anything else exactly."""
        if key not in pobj:
            return
        if key not in jobj:
            self.fail(name, tol, where, f"the report has no field {key!r}")
            return
        j, p = jobj[key], pobj[key]
        if tol == "exact" or isinstance(p, (str, bool)):
            self.same(name, where, j, p)
        else:
            self.number(name, where, j, p, tol)


def by(items, key):
    return {key(x): x for x in items}


def compare(juror, python, check):
    jdims = by(juror.get("dimensions", []), lambda d: d["dimension"])
    check.same("dimensions (names, in order)", "dimensions",
               [d["dimension"] for d in juror.get("dimensions", [])],
               [d["dimension"] for d in python["dimensions"]])
    for pd in python["dimensions"]:
        name = pd["dimension"]
        jd = jdims.get(name)
        if jd is None:
            check.fail("dimensions", "exact", name, "missing from the report")
            continue
        for key in ["ratings", "items", "annotators"]:
            check.field(f"dimension.{key}", name, jd, pd, key, "exact")

        # Systems.
        jsys = by(jd["systems"], lambda s: s["system"])
        check.same("systems (ids, in order)", name,
                   [s["system"] for s in jd["systems"]], [s["system"] for s in pd["systems"]])
        for ps in pd["systems"]:
            where = f"{name}/{ps['system']}"
            js = jsys.get(ps["system"])
            if js is None:
                continue
            for key in ["n", "n_ratings"]:
                check.field(f"systems.{key}", where, js, ps, key, "exact")
            for key in ["mean", "sd", "median"]:
                check.field(f"systems.{key}", where, js, ps, key, CLOSED)
            for bound in ["low", "high"]:
                check.number(f"systems.ci95.{bound}", where,
                             (js.get("ci95") or {}).get(bound), (ps.get("ci95") or {}).get(bound),
                             ITERATIVE)
            check.same("systems.distribution", where,
                       [(d["score"], d["count"]) for d in js["distribution"]],
                       [(d["score"], d["count"]) for d in ps["distribution"]])
            jb, pb = js.get("bootstrap"), ps.get("bootstrap")
            if pb and jb:
                width = pb["high"] - pb["low"]
                for bound in ["low", "high"]:
                    group = f"systems.bootstrap.{bound} (plausibility)"
                    g = check.group(group, f"{BOOTSTRAP_SHARE} x width")
                    g["count"] += 1
                    diff = abs(jb[bound] - pb[bound])
                    g["max_abs"] = max(g["max_abs"], diff)
                    g["max_rel"] = max(g["max_rel"], diff / width if width else 0.0)
                    if diff > BOOTSTRAP_SHARE * width:
                        check.fail(group, g["tol"], where,
                                   f"juror {jb[bound]}, python {pb[bound]}, width {width}")

        # Agreement.
        ja, pa = jd["agreement"], pd["agreement"]
        for key in ["units", "annotators"]:
            check.field(f"agreement.{key}", name, ja, pa, key, "exact")
        for key in ["fleiss_kappa", "percent_agreement"]:
            check.field(f"agreement.{key}", name, ja, pa, key, CLOSED)
        for level in ["nominal", "ordinal", "interval"]:
            check.field(f"agreement.krippendorff_alpha.{level}", name,
                        ja["krippendorff_alpha"], pa["krippendorff_alpha"], level, CLOSED)
        pair_key = lambda c: frozenset([c["annotator_a"], c["annotator_b"]])  # noqa: E731
        jpairs = by(ja["cohen_kappa"], pair_key)
        check.same("agreement.cohen_kappa (pairs)", name,
                   sorted(tuple(sorted(k)) for k in jpairs),
                   sorted(tuple(sorted(pair_key(c))) for c in pa["cohen_kappa"]))
        for pc in pa["cohen_kappa"]:
            jc = jpairs.get(pair_key(pc))
            if jc is None:
                continue
            where = f"{name}/{pc['annotator_a']}-{pc['annotator_b']}"
            check.field("agreement.cohen_kappa.units", where, jc, pc, "units", "exact")
            for key in ["agreement", "unweighted", "linear", "quadratic"]:
                check.field(f"agreement.cohen_kappa.{key}", where, jc, pc, key, CLOSED)

        # Comparisons.
        jcomp = by(jd["comparisons"], lambda c: (c["system_a"], c["system_b"]))
        check.same("comparisons (pairs, in order)", name,
                   [(c["system_a"], c["system_b"]) for c in jd["comparisons"]],
                   [(c["system_a"], c["system_b"]) for c in pd["comparisons"]])
        for pc in pd["comparisons"]:
            where = f"{name}/{pc['system_a']}-{pc['system_b']}"
            jc = jcomp.get((pc["system_a"], pc["system_b"]))
            if jc is None:
                continue
            check.field("comparisons.n", where, jc, pc, "n", "exact")
            for key in ["mean_a", "mean_b", "mean_diff", "p_value", "p_holm", "p_bonferroni",
                        "d_z", "g_z", "rank_biserial"]:
                check.field(f"comparisons.{key}", where, jc, pc, key, CLOSED)
            pw, jw = pc.get("wilcoxon"), jc.get("wilcoxon")
            if pw is not None:
                if jw is None:
                    check.fail("comparisons.wilcoxon", "exact", where, "no Wilcoxon in the report")
                    continue
                for key in ["n_nonzero", "zeros", "ties", "method"]:
                    check.field(f"comparisons.wilcoxon.{key}", where, jw, pw, key, "exact")
                for key in ["statistic", "w_plus", "w_minus", "z"]:
                    check.field(f"comparisons.wilcoxon.{key}", where, jw, pw, key, CLOSED)

        # Flags.
        jflags = by(jd["flags"], lambda f: (f["item"], f["system"]))
        check.same("flags (cells)", name, sorted(jflags),
                   sorted((f["item"], f["system"]) for f in pd["flags"]))
        for pf in pd["flags"]:
            jf = jflags.get((pf["item"], pf["system"]))
            if jf is None:
                continue
            where = f"{name}/{pf['item']}/{pf['system']}"
            check.field("flags.n", where, jf, pf, "n", "exact")
            for key in ["mean", "sd"]:
                check.field(f"flags.{key}", where, jf, pf, key, CLOSED)
            check.same("flags.ratings", where,
                       sorted((r["annotator"], r["score"]) for r in jf["ratings"]),
                       sorted((r["annotator"], r["score"]) for r in pf["ratings"]))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("juror")
    parser.add_argument("python")
    parser.add_argument("--juror-seconds", type=float, nargs="*", default=[])
    parser.add_argument("--python-seconds", type=float, nargs="*", default=[])
    parser.add_argument("--juror-read-seconds", type=float, nargs="*", default=[],
                        help="juror analyze --timings' files + read, per run")
    parser.add_argument("--summary")
    args = parser.parse_args()
    with open(args.juror, encoding="utf-8") as f:
        juror = json.load(f)
    with open(args.python, encoding="utf-8") as f:
        python = json.load(f)

    check = Checker()
    compare(juror, python, check)

    total = sum(g["count"] for g in check.groups.values())
    print(f"{'Compared':<48} {'values':>7} {'max |diff|':>11} {'max rel':>10} {'tolerance':>12}  result")
    for name, g in check.groups.items():
        tol = g["tol"] if isinstance(g["tol"], str) else f"{g['tol']:.0e} rel"
        status = "ok" if g["failures"] == 0 else f"FAILED ({g['failures']})"
        if g["tol"] == "exact":
            print(f"{name:<48} {g['count']:>7} {'':>11} {'':>10} {tol:>12}  {status}")
        else:
            print(f"{name:<48} {g['count']:>7} {g['max_abs']:>11.2e} {g['max_rel']:>10.2e} "
                  f"{tol:>12}  {status}")
    print(f"{total} comparisons, {len(check.failures)} failed")
    for line in check.failures[:20]:
        print(f"  {line}", file=sys.stderr)
    if len(check.failures) > 20:
        print(f"  ... and {len(check.failures) - 20} more", file=sys.stderr)

    summary = {"comparisons": total, "failures": len(check.failures), "groups": check.groups,
               "versions": python.get("versions"), "python_timing": python.get("timing")}
    if args.juror_seconds and args.python_seconds:
        j = statistics.median(args.juror_seconds)
        p = statistics.median(args.python_seconds)
        summary.update(juror_median_s=j, juror_runs_s=args.juror_seconds,
                       python_median_s=p, python_runs_s=args.python_seconds, ratio=p / j)
        print()
        print(f"juror analyze (release): median {j:.2f} s of {len(args.juror_seconds)} runs "
              f"({', '.join(f'{s:.2f}' for s in args.juror_seconds)})")
        t = python.get("timing", {})
        print(f"python reference:        median {p:.2f} s of {len(args.python_seconds)} run(s) "
              f"(in-script: imports {t.get('imports_s', 0):.2f} s, read "
              f"{t.get('read_s', 0):.2f} s, statistics {t.get('compute_s', 0):.2f} s)")
        print(f"ratio python / juror:    {p / j:.1f}x")
    if args.juror_read_seconds and python.get("timing", {}).get("read_s"):
        jr = statistics.median(args.juror_read_seconds)
        pr = python["timing"]["read_s"]
        summary.update(juror_read_median_s=jr, juror_read_runs_s=args.juror_read_seconds,
                       pandas_read_s=pr, read_ratio=pr / jr)
        print(f"reading the CSV:         juror median {jr:.3f} s (the file, then its rows), "
              f"pandas {pr:.3f} s (read_csv, score as float): pandas / juror {pr / jr:.2f}x")
    if args.summary:
        with open(args.summary, "w", encoding="utf-8") as f:
            json.dump(summary, f, indent=1)
            f.write("\n")
    sys.exit(1 if check.failures else 0)


if __name__ == "__main__":
    main()
