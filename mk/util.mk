# Small helpers shared by every layer: messages, errors, option parsing, JSON strings, hashing,
# random numbers, a hash map. The bottom of the tree: nothing here includes anything above it.
libfoliotrace_a_SOURCES += \
	src/util/error.h src/util/error.c src/util/msg.h src/util/msg.c \
	src/util/parse.h src/util/parse.c src/util/args.h src/util/args.c \
	src/util/json.h src/util/json.c src/util/hash.h src/util/rng.h src/util/checks.h \
	src/util/entropy.h src/util/entropy.c \
	src/util/escape.h src/util/escape.c src/util/output.h src/util/output.c \
	src/util/u64map.h src/util/u64map.c src/util/grow.h \
	src/util/table.h src/util/table.c src/util/headroom.h src/util/headroom.c \
	src/util/progress.h src/util/progress.c src/util/residency.h src/util/residency.c

TESTS += tests/progress.sh
EXTRA_DIST += tests/progress.sh

# The output rules of util/output.h through every subcommand that writes files.
TESTS += tests/output-safety.sh
EXTRA_DIST += tests/output-safety.sh

# util/table.h: zeroed large tables on huge pages, through the page cache index's growth.
check_PROGRAMS += tests/test-util-table
TESTS += tests/test-util-table
tests_test_util_table_LDADD = $(TEST_LIBS)

# Usage errors: ranges, cut echoes, outputs sharing a file, bounded costs.
TESTS += tests/usage-limits.sh
EXTRA_DIST += tests/usage-limits.sh
