# Robustness (issue 9): degenerate traces through replay, a recorder killed with SIGKILL.
TESTS += tests/replay-robust.sh tests/record-kill.sh
EXTRA_DIST += tests/replay-robust.sh tests/record-kill.sh
