# Other formats in and out: synth (generated workloads), import (ftrace text, fio iolog,
# libCacheSim) and export (libCacheSim csv and oracleGeneral).
libfoliotrace_a_SOURCES += src/import/sink.h src/import/sink.c \
	src/import/synthetic-host.h src/import/synthetic-host.c \
	src/synth/zipf.h src/synth/zipf.c \
	src/synth/synth.h src/synth/generator.h src/synth/synth.c src/synth/patterns.c

folio_trace_SOURCES += src/cmd-synth.c

check_PROGRAMS += tests/test-import-synth
tests_test_import_synth_SOURCES = tests/test-import-synth.c
tests_test_import_synth_LDADD = $(TEST_LIBS)
TESTS += tests/test-import-synth
TESTS += tests/synth-repro.sh
EXTRA_DIST += tests/synth-repro.sh
BENCH += bench/synth.sh
EXTRA_DIST += bench/synth.sh
libfoliotrace_a_SOURCES += src/export/requests.h src/export/requests.c src/export/export.h \
	src/export/csv.c src/export/oracle.c
folio_trace_SOURCES += src/cmd-export.c
libfoliotrace_a_SOURCES += src/import/import.h src/import/import.c \
	src/import/textline.h src/import/textline.c src/import/ftrace.c src/import/fio.c \
	src/import/libcachesim.c
folio_trace_SOURCES += src/cmd-import.c
TESTS += tests/import-ftrace.sh
EXTRA_DIST += tests/import-ftrace.sh tests/data/README tests/data/capture.sh \
	tests/data/ftrace-trace-pipe.txt.gz tests/data/ftrace-trace-cmd.txt.gz \
	tests/data/ftrace-perf.txt.gz tests/data/fio-randrw-v3.iolog tests/data/fio-randrw-v2.iolog
TESTS += tests/import-fio.sh
EXTRA_DIST += tests/import-fio.sh
TESTS += tests/export-roundtrip.sh
EXTRA_DIST += tests/export-roundtrip.sh
check_PROGRAMS += tests/test-import-ftrace
tests_test_import_ftrace_SOURCES = tests/test-import-ftrace.c
tests_test_import_ftrace_LDADD = $(TEST_LIBS)
TESTS += tests/test-import-ftrace
dist_man_MANS += man/folio-trace-synth.1 man/folio-trace-import.1 man/folio-trace-export.1
noinst_PROGRAMS += bench/bench-synth
bench_bench_synth_LDADD = libfoliotrace.a $(ZLIB_LIBS) -lm
