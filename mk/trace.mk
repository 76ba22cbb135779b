# Trace format: reader, writer, and the info/dump subcommands that show a trace.
libfoliotrace_a_SOURCES += src/trace/events.h src/trace/trace.h src/trace/writer.c \
	src/trace/reader.c src/trace/names.c src/trace/bounds.c \
	src/trace/inflate.h src/trace/inflate.c src/trace/deflate.h src/trace/deflate.c \
	src/trace/filewb.h src/trace/filewb.c src/trace/pack.h src/trace/pack.c
folio_trace_SOURCES += src/cmd-info.c src/cmd-dump.c

# Tests: format round trip, cuts and damage (C); info/dump output (shell, on mktrace's sample).
check_PROGRAMS += tests/test-trace tests/mktrace
tests_test_trace_SOURCES = tests/test-trace.c tests/sample-trace.c tests/sample-trace.h
tests_test_trace_LDADD = $(TEST_LIBS)
tests_mktrace_SOURCES = tests/mktrace.c tests/sample-trace.c tests/sample-trace.h
tests_mktrace_LDADD = $(TEST_LIBS)
TESTS += tests/test-trace
TESTS += tests/trace-cli.sh tests/escapes.sh tests/info-json.sh tests/unrecorded.sh \
	tests/replay-proactive.sh tests/replay-startfolios.sh
EXTRA_DIST += tests/trace-cli.sh tests/escapes.sh tests/info-json.sh tests/unrecorded.sh \
	tests/replay-proactive.sh tests/replay-startfolios.sh \
	tests/data/sample.info tests/data/sample.dump \
	tests/data/sample.jsonl
check_PROGRAMS += tests/test-inflate tests/test-pack
tests_test_inflate_LDADD = $(TEST_LIBS)
tests_test_pack_LDADD = $(TEST_LIBS)
TESTS += tests/test-inflate tests/test-pack

# A recorder killed with SIGKILL: its trace reads back up to the last whole chunk.
TESTS += tests/record-kill.sh
EXTRA_DIST += tests/record-kill.sh
