# synth: reproducible synthetic traces of named access patterns, written through import's sink.
libfoliotrace_a_SOURCES += src/synth/zipf.h src/synth/zipf.c \
	src/synth/synth.h src/synth/generator.h src/synth/synth.c src/synth/patterns.c
folio_trace_SOURCES += src/cmd-synth.c
dist_man_MANS += man/folio-trace-synth.1

check_PROGRAMS += tests/test-import-synth
tests_test_import_synth_SOURCES = tests/test-import-synth.c
tests_test_import_synth_LDADD = $(TEST_LIBS)
TESTS += tests/test-import-synth
TESTS += tests/synth-repro.sh
EXTRA_DIST += tests/synth-repro.sh

# make bench: events/s of each pattern through the trace writer (not a test).
noinst_PROGRAMS += bench/bench-synth
bench_bench_synth_LDADD = libfoliotrace.a $(ZLIB_LIBS) -lm
BENCH += bench/synth.sh
EXTRA_DIST += bench/synth.sh
