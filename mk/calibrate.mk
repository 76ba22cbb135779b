# Calibration: the model replayed as the recording kernel was configured, against what it did.
libfoliotrace_a_SOURCES += \
	src/calibrate/kernel.h src/calibrate/kernel.c src/calibrate/filter.c \
	src/calibrate/calibrate.h src/calibrate/calibrate.c \
	src/calibrate/rows.c src/calibrate/frag.c src/calibrate/output.c src/calibrate/files.c \
	src/calibrate/trust.h src/calibrate/trust.c

folio_trace_SOURCES += src/cmd-calibrate.c

dist_man_MANS += man/folio-trace-calibrate.1

# Live: record workloads under a memory limit and hold the model's errors to stated bounds.
TESTS += tests/calibrate-live.sh tests/calibrate-examples.sh tests/calibrate-cli.sh
# Live: real workloads on a warm host, from the recorded start state, within 10%.
TESTS += tests/calibrate-warm.sh
EXTRA_DIST += tests/calibrate-warm.sh tests/calib-lib.sh
# the small reader calibrate-live.sh runs in a memory cgroup
check_PROGRAMS += tests/reread
EXTRA_DIST += tests/calibrate-live.sh tests/calibrate-examples.sh tests/calibrate-cli.sh

# Unit: kernel facts and a model run on a hand-written trace with known answers.
check_PROGRAMS += tests/test-calibrate-kernel
tests_test_calibrate_kernel_LDADD = $(TEST_LIBS) -lpthread
TESTS += tests/test-calibrate-kernel
check_PROGRAMS += tests/test-calibrate-orders
tests_test_calibrate_orders_LDADD = $(TEST_LIBS)
TESTS += tests/test-calibrate-orders
