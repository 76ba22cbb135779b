# Replay: the driver that streams a trace through model instances.
libfoliotrace_a_SOURCES += \
	src/replay/files.h src/replay/files.c src/replay/options.h src/replay/options.c \
	src/replay/anon.h src/replay/anon.c \
	src/replay/budget.h src/replay/budget.c src/replay/cgroups.h src/replay/cgroups.c \
	src/replay/charges.h src/replay/charges.c \
	src/replay/host.h src/replay/host.c src/replay/replay.h src/replay/replay.c \
	src/replay/pipeline.h src/replay/pipeline.c \
	src/replay/startstate.h src/replay/startstate.c \
	src/replay/startcache.h src/replay/startcache.c \
	src/replay/startfolios.h src/replay/startfolios.c \
	src/replay/firstpass.h src/replay/firstpass.c \
	src/replay/sweep.h src/replay/sweep.c src/replay/mrc.h src/replay/mrc.c \
	src/replay/survey.h src/replay/survey.c src/replay/units.h src/replay/units.c

# Tests: option syntax, the file table, defaults from the recorded host.
check_PROGRAMS += tests/test-replay-options
tests_test_replay_options_LDADD = $(TEST_LIBS)
TESTS += tests/test-replay-options

# Where the memory starts: the recorded /proc/pagetypeinfo, --memory, --start-state.
check_PROGRAMS += tests/test-replay-start
tests_test_replay_start_LDADD = $(TEST_LIBS) -lpthread
TESTS += tests/test-replay-start

# The pipeline hands every model the whole stream in order, serially and in threads.
check_PROGRAMS += tests/test-replay-pipeline
tests_test_replay_pipeline_LDADD = $(TEST_LIBS) -lpthread
TESTS += tests/test-replay-pipeline

# The replay subcommand.
folio_trace_SOURCES += src/cmd-replay.c
# the models run in threads (in libc since glibc 2.34; named for older ones)
folio_trace_LDADD += -lpthread

# End to end: traces written by the test through the real models; the CLI; the SVG plot.
check_PROGRAMS += tests/test-replay-e2e
tests_test_replay_e2e_LDADD = $(TEST_LIBS) -lpthread
TESTS += tests/test-replay-e2e tests/replay-cli.sh tests/plot-svg.sh tests/replay-corpus.sh
EXTRA_DIST += tests/replay-cli.sh tests/plot-svg.sh tests/replay-corpus.sh

# The heatmap of one file: its cells against dump's accesses and the report's misses.
TESTS += tests/heatmap-svg.sh
EXTRA_DIST += tests/heatmap-svg.sh

# Figures per file and per process (--by) on a trace with known answers; info --by=file.
TESTS += tests/replay-by.sh tests/replay-cgroups.sh tests/replay-nfs.sh
EXTRA_DIST += tests/replay-by.sh tests/replay-cgroups.sh tests/replay-nfs.sh

# Sweeps and stack-distance curves against single-size replays; bad ranges. Chosen metrics
# (--metrics), the long CSV and the width of the default table. --threads: the same results
# on any number of threads, and that number of them. The verdict, the default orders and the
# rows left out.
TESTS += tests/replay-sweep.sh tests/replay-metrics.sh tests/replay-threads.sh \
	tests/replay-verdict.sh tests/replay-mrc-exact.sh
EXTRA_DIST += tests/replay-sweep.sh tests/replay-metrics.sh tests/replay-threads.sh \
	tests/replay-verdict.sh tests/replay-mrc-exact.sh

# Files of procfs and sysfs in traces from before the recorder left them out: replay, the
# working set and export leave them out too, counted.
TESTS += tests/replay-uncached.sh
EXTRA_DIST += tests/replay-uncached.sh

# How many times replay and calibrate read the trace (strace counts the opens).
TESTS += tests/replay-passes.sh
EXTRA_DIST += tests/replay-passes.sh

# --memory=16T under a limit of 1 GiB of address space: nothing reserved per modelled page.
TESTS += tests/replay-address-space.sh
EXTRA_DIST += tests/replay-address-space.sh

# Live: the default replay adds the folios this kernel added on cold sequential reads.
TESTS += tests/replay-kernel-orders.sh
EXTRA_DIST += tests/replay-kernel-orders.sh

dist_man_MANS += man/folio-trace-replay.1

# make bench: replay events/s for one order and a 4-order sweep, peak RSS by trace length.
BENCH += bench/replay.sh
EXTRA_DIST += bench/replay.sh

# Robustness: degenerate traces through replay; damaged ones (hangs, huge accesses).
TESTS += tests/replay-robust.sh tests/replay-hostile.sh
EXTRA_DIST += tests/replay-robust.sh tests/replay-hostile.sh

# make bench: exact and sampled curves, sweeps against single runs.
BENCH += bench/sweep.sh
EXTRA_DIST += bench/sweep.sh

# make bench: replay speed on zipf-scan as ratios: order 9 / order 0, the cost of each report,
# against an older build and against libCacheSim when given or found beside the build.
BENCH += bench/speed.sh
EXTRA_DIST += bench/speed.sh
