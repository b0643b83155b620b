#!/usr/bin/env python3
"""The summary of scripts/gpu/fastpath-run.sh: every latency and throughput row of the C++ comparator and the
Java benchmarks of one run, each with its ratio to the naive two-stream hand-off and to the C++ floor (the same
frame size, the same run), then bandwidth, cancellation, litmus, JUnit and sanitizer results.
Usage: fastpath-summary.py OUT [step status lines...]"""
import json
import os
import re
import sys

out = sys.argv[1]
lines = ["seqlink fast-path run summary", "", "steps:"] + ["  " + s for s in sys.argv[2:]]


def num(x):
    """A figure as a float: the tools write one they could not measure as null."""
    return float("nan") if x is None else float(x)


def div(a, b):
    a, b = num(a), num(b)
    return a / b if b else float("nan")


def load(name):
    try:
        with open(os.path.join(out, name)) as f:
            return json.load(f)
    except Exception as e:  # a step that failed leaves no or partial JSON
        lines.append("!! %s: %s" % (name, e))
        return {"results": []}


cpp, jh, jc, lit = load("cycle-cpp.json"), load("java-handoff.json"), load("java-cycle.json"), load("litmus.json")
rows = []
for impl, doc in (("C++", cpp), ("Java", jh), ("Java", jc)):
    for r in doc.get("results", []):
        if r.get("kind") in ("latency", "throughput"):
            rows.append((impl, r))


# Java rows whose C++ twin has another name (the rest pair by name).
TWINS = {"cycle-channel-device-armed": "steps-armed-taken", "cycle-channel-device-acking": "steps-armed-acking",
         "cycle-channel-device-round": "steps-fused"}
# the row column fits the longest row name
W = max([16] + [len(r.get("mode", "")) for _, r in rows])


def find(impl, mode, kind, size):
    for i, r in rows:
        if i == impl and r.get("mode") == mode and r.get("kind") == kind and r.get("frame_bytes") == size:
            return r
    return None


if cpp.get("device", {}).get("consumer_stream_memops64") is False:
    lines += ["", "!! the consumer device has no 64-bit stream memory operations: the C++ ordinary rounds (channel, wait-value, throughput channel) "
              "acked with the seqlink_ack kernel, as channel-ack-kernel does"]
sizes = sorted({r["frame_bytes"] for _, r in rows})
for size in sizes:
    naive = find("C++", "naive-2s", "latency", size)
    floor = find("C++", "floor", "latency", size)
    lines += ["", "latency, %d B (us; ratios to the C++ naive two-stream hand-off and to the C++ floor, p50 / p99)" % size,
              "  %-5s %-*s %8s %8s | %13s | %13s | %s" % ("impl", W, "row", "p50", "p99", "/ naive-2s", "/ floor", "corrupt / notes")]
    for impl, r in rows:
        if r.get("kind") != "latency" or r.get("frame_bytes") != size:
            continue
        l = r["latency_us"]

        def ratio(base):
            if not base:
                return "-"
            b = base["latency_us"]
            return "%.2f / %.2f" % (div(l["p50"], b["p50"]), div(l["p99"], b["p99"]))

        note = str(r.get("corrupt", "-"))
        if "early_wakes" in r:
            note += ", early wakes %s" % r["early_wakes"]
        if "alloc_bytes_per_frame" in r:
            note += ", alloc %.1f B/frame" % num(r["alloc_bytes_per_frame"])
        if "forbidden" in r:
            note += ", FORBIDDEN in the product"
        lines.append("  %-5s %-*s %8.2f %8.2f | %13s | %13s | %s" % (impl, W, r["mode"], num(l["p50"]), num(l["p99"]), ratio(naive),
                                                                     ratio(floor), note))
    naive_t = find("C++", "naive-2s-async", "throughput", size)
    floor_t = find("C++", "floor-pipelined", "throughput", size)
    lines += ["", "throughput, %d B (GB/s; ratios to the C++ naive two-stream async loop and to the C++ pipelined floor)" % size,
              "  %-5s %-*s %5s %9s | %8s | %8s | %s" % ("impl", W, "row", "batch", "GB/s", "/ naive", "/ floor", "corrupt")]
    for impl, r in rows:
        if r.get("kind") != "throughput" or r.get("frame_bytes") != size:
            continue
        g = num(r["gb_per_s"])
        rn = "%.2f" % div(g, naive_t["gb_per_s"]) if naive_t else "-"
        rf = "%.2f" % div(g, floor_t["gb_per_s"]) if floor_t else "-"
        lines.append("  %-5s %-*s %5s %9.3f | %8s | %8s | %s" % (impl, W, r["mode"], r.get("batch", 1), g, rn, rf, r.get("corrupt", "-")))
    # Java / C++ for rows both have
    pairs = []
    for impl, r in rows:
        if impl == "Java" and r.get("frame_bytes") == size:
            twin = TWINS.get(r["mode"], r["mode"])
            c = find("C++", twin, r["kind"], size)
            if c:
                name = r["mode"] if twin == r["mode"] else "%s (C++ %s)" % (r["mode"], twin)
                if r["kind"] == "latency":
                    pairs.append("%s p50 %.2f" % (name, div(r["latency_us"]["p50"], c["latency_us"]["p50"])))
                else:
                    pairs.append("%s %.2f" % (name, div(c["gb_per_s"], r["gb_per_s"])))
    if pairs:
        lines.append("  Java / C++ (latency p50 ratio; throughput C++/Java): " + "; ".join(pairs))

bw = [r for r in cpp.get("results", []) if r.get("mode") == "bandwidth"]
if bw:
    lines += ["", "bandwidth (GB/s, copies count read + write; % of cudaMemcpyAsync D2D of the same size; stream loop | as "
              "graph nodes, the device's own time)"]
    ceiling = {r["frame_bytes"]: r["gb_per_s"] for r in bw if r["step"] == "memcpy-d2d"}
    ceiling_graph = {r["frame_bytes"]: r.get("gb_per_s_graph") for r in bw if r["step"] == "memcpy-d2d"}
    for r in bw:
        c, cg = ceiling.get(r["frame_bytes"]), ceiling_graph.get(r["frame_bytes"])
        lines.append("  %-24s %10d B %9.1f GB/s %8.2f us/launch %6s | %9.1f GB/s %8.2f us/node %6s" % (
            r["step"], r["frame_bytes"], num(r["gb_per_s"]), num(r["us_per_launch"]),
            "%.0f%%" % (100 * div(r["gb_per_s"], c)) if c else "-", num(r.get("gb_per_s_graph")),
            num(r.get("us_per_launch_graph")), "%.0f%%" % (100 * div(r.get("gb_per_s_graph"), cg)) if cg else "-"))
for r in cpp.get("results", []):
    if r.get("mode") == "publish-cost":
        lines.append("  publish cost: %-24s %.3f us per graph node" % (r["step"], num(r["us_per_node"])))
for r in cpp.get("results", []):
    if r.get("mode") in ("cancel", "cancel-race"):
        lines.append("")
        lines.append("  " + json.dumps(r))
schemes = [r for r in cpp.get("results", []) if r.get("mode") == "scheme"]
if schemes:
    lines += ["", "the article's schemes"]
    for r in schemes:
        lines.append("  %-22s %9d rounds %8.3f GB/s p50 %8.2f us p99 %8.2f us timeouts %d corrupt %d" % (
            r["scheme"], r["rounds"], num(r["gb_per_s"]), num(r["latency_us"]["p50"]), num(r["latency_us"]["p99"]), r["timeouts"],
            r["corrupt"]))
if lit.get("results"):
    lines += ["", "litmus (%s, %s pairs x %s trials)" % (lit.get("device"), lit.get("pairs"), lit.get("trials_per_pair"))]
    for r in lit["results"]:
        lines.append("  %-34s %-9s trials %9d weak %7d timeouts %d %s" % (r["test"], r["expect"], r["trials"], r["weak"], r["timeouts"],
                                                                         "" if r["ok"] else "<-- FAILED"))
try:
    text = open(os.path.join(out, "junit.log"), errors="replace").read()
    counts = re.findall(r"\[\s*(\d+) tests (successful|failed|skipped|aborted)\s*\]", text)
    if counts:
        lines += ["", "JUnit: " + ", ".join("%s %s" % c for c in counts)]
    for m in re.findall(r"[✘]\s+(.*)", text)[:20]:
        lines.append("  FAILED: " + m.strip())
except Exception as e:
    lines.append("junit.log: %s" % e)
try:
    text = open(os.path.join(out, "sanitizer.log"), errors="replace").read()
    for m in re.findall(r"========= (ERROR SUMMARY: .*|RACECHECK SUMMARY: .*)", text):
        lines.append("sanitizer: " + m)
    for m in re.findall(r'"check":\s*"([^"]+)",\s*"ok":\s*false', text):
        lines.append("sanitizer check FAILED: " + m)
except Exception as e:
    lines.append("sanitizer.log: %s" % e)
print("\n".join(lines))
