# Buddy allocator, fragmentation indexes and metadata overhead of the modelled memory.
libfoliotrace_a_SOURCES += src/model/buddy.h src/model/buddy.c src/model/fragindex.c \
	src/model/metadata.c

check_PROGRAMS += tests/test-buddy tests/test-fragindex tests/test-metadata
TESTS += tests/test-buddy tests/test-fragindex tests/test-metadata
tests_test_buddy_LDADD = $(TEST_LIBS)
tests_test_fragindex_LDADD = $(TEST_LIBS)
tests_test_metadata_LDADD = $(TEST_LIBS)

# make bench: allocator throughput (not a test).
noinst_PROGRAMS += bench/bench-buddy
bench_bench_buddy_LDADD = libfoliotrace.a -lm
BENCH += bench/buddy.sh
EXTRA_DIST += bench/buddy.sh
