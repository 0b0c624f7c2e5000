#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: CastDeck contributors
"""Collects the comparisons every benchmark prints and makes the one summary table.

Each benchmark prints, beside its own figures, one line per comparison:
    bench-result: {"area": ..., "name": ..., "ours": N, "peer": N, "peer_name": ..., "unit": ..., "better": "higher"|"lower"}
This script reads the whole log of `make bench`, prints the table and writes
bench-results.json (a JSON array; `ratio` > 1 means CastDeck is better).
    summary.py LOG OUTPUT.json
"""
import json
import sys


def main(log_path, out_path):
    rows = []
    with open(log_path, encoding="utf-8", errors="replace") as log:
        for line in log:
            if not line.startswith("bench-result: "):
                continue
            r = json.loads(line[len("bench-result: "):])
            ours, peer = float(r["ours"]), float(r["peer"])
            if r.get("better") == "lower":
                ratio = peer / ours if ours > 0 else float("inf")
            else:
                ratio = ours / peer if peer > 0 else float("inf")
            rows.append({"area": r["area"], "name": r["name"], "ours": ours, "peer": peer,
                         "peer_name": r["peer_name"], "unit": r["unit"], "ratio": round(ratio, 3)})
    with open(out_path, "w", encoding="utf-8") as out:
        json.dump(rows, out, indent=1, ensure_ascii=False)
        out.write("\n")
    def fmt(v):
        return f"{v:,.0f}" if abs(v) >= 1000 else (f"{v:.1f}" if abs(v) >= 10 else f"{v:.3g}")
    headers = ("area", "comparison", "CastDeck", "peer", "peer is", "unit", "ratio")
    table = [(r["area"], r["name"], fmt(r["ours"]), fmt(r["peer"]), r["peer_name"], r["unit"], f"{r['ratio']:.2f}×")
             for r in rows]
    widths = [max(len(h), *(len(t[i]) for t in table)) if table else len(h) for i, h in enumerate(headers)]
    print()
    print(f"== summary: {len(rows)} comparisons (ratio > 1: CastDeck is better); written to {out_path}")
    print("  ".join(h.ljust(w) for h, w in zip(headers, widths)))
    print("  ".join("-" * w for w in widths))
    for t in table:
        print("  ".join(c.ljust(w) for c, w in zip(t, widths)))
    return 0 if rows else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
