# Robustness (issue 9): degenerate traces through replay, a recorder killed with SIGKILL.
TESTS += tests/replay-robust.sh tests/record-kill.sh
EXTRA_DIST += tests/replay-robust.sh tests/record-kill.sh

# Tests that compare with system-wide /proc/vmstat counters run alone, after every other test,
# so that no other test's writes are counted in them (make check -j runs tests side by side).
# (filter-out is GNU make: this Linux-only project needs GNU make anyway.)
SYSTEM_COUNTER_LOGS = tests/record-dirty.log tests/calibrate-live.log
tests/record-dirty.log: $(filter-out $(SYSTEM_COUNTER_LOGS),$(TEST_LOGS))
tests/calibrate-live.log: $(filter-out tests/calibrate-live.log,$(TEST_LOGS))
