# Sourced by the benchmark scripts.
# Release builds link the Swift runtime and Foundation statically: a process then starts
# without the dynamic loader resolving thousands of symbols across a dozen Swift libraries
# (the window side by side: docs/gui.md, "Start-up"). Every release build here
# uses the same flags, so SwiftPM does not rebuild everything when scripts alternate.
RELEASE=(-c release --static-swift-stdlib)
# result AREA NAME OURS PEER PEER_NAME UNIT higher|lower — one comparison for the summary table
# (Benchmarks/summary.py collects these lines from the log of the whole run).
result() {
  python3 -c 'import json, sys; a = sys.argv[1:]; print("bench-result: " + json.dumps({"area": a[0], "name": a[1], "ours": float(a[2]), "peer": float(a[3]), "peer_name": a[4], "unit": a[5], "better": a[6]}, ensure_ascii=False))' "$@"
}
