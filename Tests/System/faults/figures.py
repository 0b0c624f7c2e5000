# SPDX-License-Identifier: GPL-3.0-or-later
"""Detection and rejoin figures of the network-fault tests (issue 17).

    python3 Tests/System/faults/figures.py [TRIALS]     # runs run-faults.sh with TRIALS (default 10)
    python3 Tests/System/faults/figures.py --summary RESULTS.jsonl

Every trial appends its measured times to a JSON-lines file; the table gives, per fault and
measure, the median, the range and the number of trials."""
import json
import os
import statistics
import subprocess
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]


def summary(path):
    rows = [json.loads(line) for line in Path(path).read_text().splitlines() if line.strip()]
    if not rows:
        print("figures: no trials recorded")
        return 1
    values = defaultdict(list)
    for row in rows:
        for k, v in row.items():
            if k != "fault" and isinstance(v, (int, float)) and v is not None:
                values[(row["fault"], k)].append(float(v))
    print(f"{'fault':<14} {'measure':<22} {'median':>8} {'min':>8} {'max':>8} {'n':>3}")
    for (fault, measure), vs in values.items():
        unit = "" if measure in ("commands", "watch_reconnects") else " s"
        print(f"{fault:<14} {measure:<22} {statistics.median(vs):>7.2f}{unit[:1] or ' '} {min(vs):>7.2f}  "
              f"{max(vs):>7.2f}  {len(vs):>3}")
    return 0


def main(argv):
    if len(argv) >= 2 and argv[0] == "--summary":
        return summary(argv[1])
    trials = argv[0] if argv else "10"
    results = tempfile.NamedTemporaryFile(prefix="faults-figures.", suffix=".jsonl", delete=False).name
    env = {**os.environ, "TRIALS": trials, "FAULTS_RESULTS": results}
    status = subprocess.run(["bash", str(ROOT / "Tests/System/run-faults.sh")], env=env).returncode
    print(f"\nfigures: {trials} trials per fault (results in {results}); run-faults exit status {status}")
    summary(results)
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
