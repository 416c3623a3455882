import json, sys  # A ring all-reduce on ring:N as a starnet schedule: python3 ring_allreduce.py 8 > ring8.json
n = int(sys.argv[1]) if len(sys.argv) > 1 else 8
steps = []
for k in range(n - 1):  # reduce-scatter: at step k node v passes chunk v - k on, and the next node reduces it
    steps.append([{"f": v, "t": (v + 1) % n, "c": [(v - k) % n], "op": "reduce"} for v in range(n)])
for k in range(n - 1):  # all-gather: node v passes on the chunk it completed last
    steps.append([{"f": v, "t": (v + 1) % n, "c": [(v + 1 - k) % n]} for v in range(n)])
json.dump({"format": "starnet-schedule", "version": 1, "collective": "allreduce",
           "chunks": n, "topology": f"ring:{n}", "steps": steps}, sys.stdout)
