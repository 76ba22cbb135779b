# Fuzzing (fuzz/README: the targets, how they ran, their figures): ./configure --enable-fuzz
# builds the libFuzzer targets with clang and ASan+UBSan;
# `make fuzz FUZZ_SECONDS=N` runs each target for N seconds on a work corpus in the build tree,
# seeded from fuzz/corpus/TARGET/. Crashes land in fuzz/crashes/TARGET/; an input that runs
# longer than FUZZ_TIMEOUT seconds is one too (a hang is a finding, not a slow input).
# The targets: reader (trace files), import (the importers), model (records through replay
# into the models, orders 0 and 9, the time series on).
# A crash becomes a regression test as a plain trace in fuzz/regress/ (tests/fuzz-regress.sh);
# for a structured input, get the trace with
#   FT_FUZZ_WRITE_TRACE=$(srcdir)/fuzz/regress/NAME.ftr ./fuzz/fuzz-reader CRASH-FILE
FUZZ_SECONDS = 60
FUZZ_TIMEOUT = 10
FUZZ_TARGETS = reader import model
FUZZ_FLAGS =
EXTRA_DIST += fuzz/README fuzz/corpus fuzz/regress fuzz/reader.dict fuzz/import.dict \
	fuzz/model.dict \
	fuzz/make-import-corpus.sh tests/fuzz-import-regress.sh tests/fuzz-model-regress.sh
TESTS += tests/fuzz-import-regress.sh

# The model target runs without libFuzzer too (fuzz/standalone.c: each input once), so its
# seeds and past findings replay in every build, under the sanitizers in theirs.
check_PROGRAMS += fuzz/model-replay fuzz/make-model-corpus
fuzz_model_replay_SOURCES = fuzz/fuzz-model.c fuzz/standalone.c
fuzz_model_replay_LDADD = libfoliotrace.a $(ZLIB_LIBS) -lm -lpthread
fuzz_make_model_corpus_LDADD = libfoliotrace.a $(ZLIB_LIBS)
TESTS += tests/fuzz-model-regress.sh

# The seed corpus generator is built with the tests so it keeps compiling; make fuzz-corpus
# rewrites fuzz/corpus/reader/ with it.
check_PROGRAMS += fuzz/make-corpus
fuzz_make_corpus_LDADD = libfoliotrace.a $(ZLIB_LIBS)
TESTS += tests/fuzz-regress.sh
EXTRA_DIST += tests/fuzz-regress.sh

fuzz-corpus: fuzz/make-corpus fuzz/make-model-corpus folio-trace
	./fuzz/make-corpus $(srcdir)/fuzz/corpus/reader
	$(SHELL) $(srcdir)/fuzz/make-import-corpus.sh $(srcdir) ./folio-trace
	./fuzz/make-model-corpus $(srcdir)/fuzz/corpus/model $(srcdir)/fuzz/regress/model

# The regression inputs of every target, as make check runs them.
FUZZ_REGRESS_TESTS = tests/fuzz-regress.sh tests/fuzz-import-regress.sh \
	tests/fuzz-model-regress.sh
fuzz-regress:
	$(MAKE) $(AM_MAKEFLAGS) check TESTS="$(FUZZ_REGRESS_TESTS)"

if ENABLE_FUZZ
noinst_PROGRAMS += fuzz/fuzz-reader
fuzz_fuzz_reader_LDADD = libfoliotrace.a $(ZLIB_LIBS) -lm
fuzz_fuzz_reader_LDFLAGS = $(AM_LDFLAGS) $(FUZZ_LDFLAGS)
noinst_PROGRAMS += fuzz/fuzz-import
fuzz_fuzz_import_LDADD = libfoliotrace.a $(ZLIB_LIBS) -lm
fuzz_fuzz_import_LDFLAGS = $(AM_LDFLAGS) $(FUZZ_LDFLAGS)
noinst_PROGRAMS += fuzz/fuzz-model
fuzz_fuzz_model_LDADD = libfoliotrace.a $(ZLIB_LIBS) -lm -lpthread
fuzz_fuzz_model_LDFLAGS = $(AM_LDFLAGS) $(FUZZ_LDFLAGS)

fuzz: $(FUZZ_TARGETS:%=fuzz/fuzz-%)
	@for t in $(FUZZ_TARGETS); do \
		mkdir -p fuzz/work/$$t fuzz/crashes/$$t || exit 1; \
		echo "== fuzz-$$t for $(FUZZ_SECONDS) s"; \
		./fuzz/fuzz-$$t -max_total_time=$(FUZZ_SECONDS) -max_len=65536 \
			-timeout=$(FUZZ_TIMEOUT) \
			-rss_limit_mb=2048 -print_final_stats=1 -dict=$(srcdir)/fuzz/$$t.dict \
			-artifact_prefix=fuzz/crashes/$$t/ $(FUZZ_FLAGS) \
			fuzz/work/$$t $(srcdir)/fuzz/corpus/$$t || exit 1; \
	done
else
fuzz:
	@echo "make fuzz: configure with --enable-fuzz first (needs clang with libFuzzer)" >&2; \
	exit 2
endif
.PHONY: fuzz fuzz-corpus fuzz-regress
