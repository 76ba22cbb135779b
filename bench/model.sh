#!/bin/sh
# Model throughput (accesses/s per order, ratio to order 0), one instance, no trace I/O.
# MODEL_BENCH_MILLIONS=N: accesses per run, in millions (default 2).
exec "${TOP_BUILDDIR:-.}/bench/bench-model" "${MODEL_BENCH_MILLIONS:-2}"
