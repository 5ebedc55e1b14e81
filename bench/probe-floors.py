#!/usr/bin/env python3
"""bench/probe-floors.py — the probe floor of each SSB query's plan.

A resident star join reads its fact columns (floor: bytes / device-memory
bandwidth) and probes a dimension lookup for every row that reaches the
probe: one random 32-byte sector each, at the rate the cache gives a
lookup of that size (bench/probe-floor measures it). This script reads
EXPLAIN outputs (bench/query --explain, the plan the server runs) and the
table bench/probe-floor printed, and prints per query:

  probes    rows reaching each probe: the fact rows times the selectivity
            of every condition in the `&&` groups before it (the probes of
            one `&` group all see the rows that reach the group)
  probe ms  sum of probes / rate(lookup bytes) (the semi-join bitset's
            bytes where the plan probes one), the rate of the largest
            measured lookup not larger than it (a faster rate: the floor
            stays a lower bound)
  best ms   the same for the best order of the probes any plan could
            pick (every fact predicate first, then the probes in the
            order that costs least): a floor for the query, not the plan

  bench/probe-floors.py PROBE-FLOOR.txt EXPLAIN.txt...

The gathers of payload columns for surviving rows (and, with semi-join
bits over keys that are not dense, the slot read before them) and the
group updates are left out: the figure is a floor, not a prediction.
"""
import re
import sys


def read_rates(path):
    rates = []
    for line in open(path):
        m = re.match(r"\|\s*([\d.]+)([KMG]?)\s*\|\s*([\d.]+)\s*\|", line)
        if m:
            size = float(m.group(1)) * {"": 1, "K": 1e3, "M": 1e6, "G": 1e9}[m.group(2)]
            rates.append((size, float(m.group(3)) * 1e9))
    return sorted(rates)


def rate_for(rates, nbyte):
    best = rates[0][1]
    for size, rate in rates:
        if size <= nbyte:
            best = rate
    return best


UNIT = {"B": 1, "KB": 1e3, "MB": 1e6, "GB": 1e9}


def lookup_bytes(text):
    """The bytes each dimension's probe reads from: its semi-join bits
    where EXPLAIN lists them ("probe: bitset ... = N KB"), else its
    lookup's slots."""
    out = {}
    for block in re.split(r"(?=-> Build )", text):
        m = re.match(r"-> Build (\w+)", block)
        size = re.search(r"lookup: [^\n]*= ([\d.]+) (B|KB|MB|GB)", block)
        bits = re.search(r"probe: bitset[^\n]*= ([\d.]+) (B|KB|MB|GB)", block)
        if m and (bits or size):
            use = bits or size
            out[m.group(1)] = float(use.group(1)) * UNIT[use.group(2)]
    return out


def probe_floor(text, rates):
    rows = float(re.search(r"Scan \w+ \(fact table\)\s+rows (\d+)", text).group(1))
    cond = re.search(r"conditions: (.*?)\s+\(\d+ kernels?\)", text).group(1)
    items = re.findall(r"^\s+\d+\. (.*?)  sel ([\d.e-]+)", text, re.M)
    sizes = lookup_bytes(text)
    # The groups in order: split on "&&" (or "|", a kernel boundary:
    # the next kernel reads the survivors), count each group's members.
    groups = [len([t for t in g.split("&") if t.strip()]) for g in re.split(r"&&|\|", cond)]
    i, reach, total, probes = 0, rows, 0.0, []
    for n in groups:
        sel = 1.0
        for what, s in items[i:i + n]:
            m = re.match(r"probe (\w+) by", what)
            if m:
                nbyte = sizes.get(m.group(1), 0)
                t = reach / rate_for(rates, nbyte)
                total += t
                probes.append("%s %.0fM x %s" % (m.group(1), reach / 1e6, fmt_bytes(nbyte)))
            sel *= float(s)
        reach *= sel
        i += n
    return total * 1e3, probes


def best_floor(text, rates):
    """The least probe time over every order of the probes, after every
    fact predicate (a lower bound whatever the plan)."""
    import itertools
    rows = float(re.search(r"Scan \w+ \(fact table\)\s+rows (\d+)", text).group(1))
    items = re.findall(r"^\s+\d+\. (.*?)  sel ([\d.e-]+)", text, re.M)
    sizes = lookup_bytes(text)
    probes = []
    for what, s in items:
        m = re.match(r"probe (\w+) by", what)
        if m:
            probes.append((float(s), sizes.get(m.group(1), 0)))
        else:
            rows *= float(s)
    best = None
    for order in itertools.permutations(probes):
        reach, t = rows, 0.0
        for sel, nbyte in order:
            t += reach / rate_for(rates, nbyte)
            reach *= sel
        best = t if best is None or t < best else best
    return (best or 0.0) * 1e3


def fmt_bytes(n):
    for unit, d in (("GB", 1e9), ("MB", 1e6), ("KB", 1e3)):
        if n >= d:
            return "%.1f %s" % (n / d, unit)
    return "%d B" % n


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    rates = read_rates(sys.argv[1])
    print("| query | probe floor ms | best order ms | probes |")
    print("|---|---:|---:|---|")
    for path in sys.argv[2:]:
        text = open(path).read()
        ms, probes = probe_floor(text, rates)
        name = re.sub(r".*/|\.txt$", "", path)
        print("| %s | %.2f | %.2f | %s |" % (name, ms, best_floor(text, rates), "; ".join(probes)))


if __name__ == "__main__":
    main()
