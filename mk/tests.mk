# Shared test support: the TAP producer for C tests and the shell helpers.
check_LIBRARIES += tests/libtap.a
tests_libtap_a_SOURCES = tests/tap.c tests/tap.h
TEST_LIBS = tests/libtap.a libfoliotrace.a $(ZLIB_LIBS) -lm
EXTRA_DIST += tests/lib.sh
