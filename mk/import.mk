# import: other formats (ftrace text, fio iolog, libCacheSim) into a trace, through a sink
# that synth writes through too.
libfoliotrace_a_SOURCES += src/import/sink.h src/import/sink.c \
	src/import/synthetic-host.h src/import/synthetic-host.c \
	src/import/import.h src/import/import.c \
	src/import/textline.h src/import/textline.c src/import/ftrace.c src/import/fio.c \
	src/import/libcachesim.c
folio_trace_SOURCES += src/cmd-import.c
dist_man_MANS += man/folio-trace-import.1

TESTS += tests/import-ftrace.sh
EXTRA_DIST += tests/import-ftrace.sh tests/data/README tests/data/capture.sh \
	tests/data/ftrace-trace-pipe.txt.gz tests/data/ftrace-trace-cmd.txt.gz \
	tests/data/ftrace-perf.txt.gz tests/data/fio-randrw-v3.iolog tests/data/fio-randrw-v2.iolog
TESTS += tests/import-fio.sh
EXTRA_DIST += tests/import-fio.sh
check_PROGRAMS += tests/test-import-ftrace
tests_test_import_ftrace_SOURCES = tests/test-import-ftrace.c
tests_test_import_ftrace_LDADD = $(TEST_LIBS)
TESTS += tests/test-import-ftrace
