"""Benchmark: the S_7 all-reduce's trace (105,840 events) from the extension to a DataFrame.

    PYTHONPATH=build/python /usr/bin/python3 python/benchmarks/trace_dataframe.py [N] [REPEATS]

Prints the run's time without and with its trace (the events become numpy columns inside the
call), the time from the run's columns to `result.trace` (a pandas DataFrame) and
to `result.transfers`, each the median of REPEATS, and the DataFrame's bytes per event (deep).
"""

import statistics
import sys
import time

import starnet


def median_seconds(f, repeats):
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        f()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 7
    repeats = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    bare_time = median_seconds(lambda: starnet.allreduce(f"star:{n}"), repeats)
    runs = []
    run_time = median_seconds(lambda: runs.append(starnet.allreduce(f"star:{n}", trace=True)), repeats)
    # A fresh result each time: the DataFrame is built once per result and then kept.
    frame_time = median_seconds(lambda: runs.pop().trace, repeats)
    results = [starnet.allreduce(f"star:{n}", trace=True) for _ in range(repeats)]
    transfers_time = median_seconds(lambda: results.pop().transfers, repeats)
    trace = starnet.allreduce(f"star:{n}", trace=True).trace
    per_event = trace.memory_usage(index=True, deep=True).sum() / len(trace)
    print(f"S_{n} all-reduce: {len(trace):,} events; run {bare_time:.3f} s, with its trace as numpy columns "
          f"{run_time:.3f} s; "
          f"trace -> DataFrame {frame_time * 1000:.1f} ms; transfers -> DataFrame {transfers_time * 1000:.1f} ms; "
          f"{per_event:.1f} bytes per event (median of {repeats})")


if __name__ == "__main__":
    main()
