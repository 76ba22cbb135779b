# top: the live view. Its tally and views in the library (tested on traces), the command that
# runs record as a child in the program.
libfoliotrace_a_SOURCES += src/top/tally.h src/top/tally.c src/top/view.h src/top/view.c \
	src/top/cached.h src/top/cached.c
folio_trace_SOURCES += src/cmd-top.c

# Tests: the view of a shipped trace against its records; live runs under known workloads.
TESTS += tests/top-trace.sh tests/top-live.sh tests/top-modes.sh tests/top-cached-live.sh
EXTRA_DIST += tests/top-trace.sh tests/top-live.sh tests/top-modes.sh tests/top-cached-live.sh

# Unit: the text view at 80x24 on a shipped trace.
check_PROGRAMS += tests/test-top-view
tests_test_top_view_LDADD = $(TEST_LIBS)
TESTS += tests/test-top-view
