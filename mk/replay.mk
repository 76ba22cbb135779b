# Replay: the driver that streams a trace through model instances, and the reports of results.
libfoliotrace_a_SOURCES += \
	src/report/report.h src/report/metrics.h src/report/metrics.c \
	src/report/config.h src/report/config.c \
	src/report/table.c src/report/json.c src/report/csv.c \
	src/report/series.h src/report/series.c src/report/svg.c \
	src/replay/files.h src/replay/files.c src/replay/options.h src/replay/options.c \
	src/replay/host.h src/replay/host.c src/replay/replay.h src/replay/replay.c

# Tests: report formats on hand-made metrics.
check_PROGRAMS += tests/test-replay-report
tests_test_replay_report_LDADD = $(TEST_LIBS)
TESTS += tests/test-replay-report
check_PROGRAMS += tests/test-replay-options
tests_test_replay_options_LDADD = $(TEST_LIBS)
TESTS += tests/test-replay-options
