# The test suite as a whole: the TAP producer for C tests, the shell helpers, and the tests
# that must run alone.
check_LIBRARIES += tests/libtap.a
tests_libtap_a_SOURCES = tests/tap.c tests/tap.h
TEST_LIBS = tests/libtap.a libfoliotrace.a $(ZLIB_LIBS) -lm
EXTRA_DIST += tests/lib.sh

# The exit status rule of folio-trace(1), per subcommand.
TESTS += tests/exit-status.sh
EXTRA_DIST += tests/exit-status.sh

# Every subcommand's --help at 80 columns.
TESTS += tests/help-text.sh
EXTRA_DIST += tests/help-text.sh

# Tests that compare with system-wide /proc/vmstat counters, or need exact kernel figures no
# other test may disturb, run alone, one after the other, after every other test
# (make check -j runs tests side by side).
# (filter-out is GNU make: this Linux-only project needs GNU make anyway.)
# The kernel lab's VMs (mk/lab.mk) keep both CPUs busy: they run last, side by side, once
# every test measuring this host is done.
SYSTEM_COUNTER_LOGS = tests/record-dirty.log tests/replay-kernel-orders.log \
	tests/record-advice.log tests/calibrate-live.log tests/calibrate-warm.log
LAB_LOGS = tests/kernel-6.1.log tests/kernel-6.12.log
tests/record-dirty.log: $(filter-out $(SYSTEM_COUNTER_LOGS) $(LAB_LOGS),$(TEST_LOGS))
tests/replay-kernel-orders.log: tests/record-dirty.log
tests/record-advice.log: tests/replay-kernel-orders.log
tests/calibrate-live.log: $(filter-out tests/calibrate-live.log tests/calibrate-warm.log \
	$(LAB_LOGS),$(TEST_LOGS))
tests/calibrate-warm.log: tests/calibrate-live.log
$(LAB_LOGS): $(filter-out $(LAB_LOGS),$(TEST_LOGS))

# No test empties the host's page cache.
TESTS += tests/suite-hygiene.sh
EXTRA_DIST += tests/suite-hygiene.sh
