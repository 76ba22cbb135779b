# record: live BPF capture. bpf/ is compiled with clang -target bpf against a vmlinux.h dumped
# from the kernel BTF, and bpftool turns the object into a skeleton header the C code includes.
folio_trace_SOURCES += src/cmd-record.c
RECORD_BPF_INCLUDES = bpf/record.h bpf/arch.bpf.h bpf/maps.bpf.h bpf/ringbuf.bpf.h \
	bpf/task.bpf.h bpf/filter.bpf.h bpf/file.bpf.h bpf/folio.bpf.h bpf/access.bpf.h \
	bpf/syscall.bpf.h bpf/aio.bpf.h bpf/uring.bpf.h bpf/vma.bpf.h
EXTRA_DIST += bpf/record.bpf.c $(RECORD_BPF_INCLUDES)

if HAVE_BPF
folio_trace_SOURCES += src/record/record.h src/record/idset.c src/record/mounts.c \
	src/record/host.c src/record/devices.c src/record/sampler.c src/record/consumer.c \
	src/record/cgroups.c src/record/loader.c src/record/progress.c src/record/memcg.c \
	src/record/child.c src/record/recorder.h src/record/recorder.c \
	src/record/pageset.c src/record/startcache.c src/record/startpend.c \
	src/record/startlate.c src/record/startmaps.c
folio_trace_LDADD += $(LIBBPF_LIBS) $(LIBELF_LIBS)
BUILT_SOURCES += bpf/record.skel.h bpf/record-probe-reads.skel.h
CLEANFILES += bpf/vmlinux.h bpf/record.bpf.o bpf/record.skel.h bpf/record-probe-reads.bpf.o \
	bpf/record-probe-reads.skel.h

BPF_CFLAGS = -g -O2 -target bpf -Wall -Wno-unused-function
bpf/vmlinux.h:
	$(AM_V_GEN)$(MKDIR_P) bpf && $(BPFTOOL) btf dump file $(VMLINUX_BTF) format c > $@.tmp && \
		mv $@.tmp $@
bpf/record.bpf.o: $(srcdir)/bpf/record.bpf.c $(RECORD_BPF_INCLUDES:%=$(srcdir)/%) \
		$(srcdir)/src/trace/events.h bpf/vmlinux.h
	$(AM_V_CC)$(CLANG) $(BPF_CFLAGS) -Ibpf -I$(srcdir)/src -I$(srcdir)/bpf \
		-c $(srcdir)/bpf/record.bpf.c -o $@
bpf/record.skel.h: bpf/record.bpf.o
	$(AM_V_GEN)$(BPFTOOL) gen skeleton $< name record_bpf > $@.tmp && mv $@.tmp $@
# The same programs for kernels without bpf_rdonly_cast (before 6.2): file pointers followed
# with probe reads. The loader picks one of the two objects.
bpf/record-probe-reads.bpf.o: $(srcdir)/bpf/record.bpf.c $(RECORD_BPF_INCLUDES:%=$(srcdir)/%) \
		$(srcdir)/src/trace/events.h bpf/vmlinux.h
	$(AM_V_CC)$(CLANG) $(BPF_CFLAGS) -DFT_PROBE_READS -Ibpf -I$(srcdir)/src -I$(srcdir)/bpf \
		-c $(srcdir)/bpf/record.bpf.c -o $@
bpf/record-probe-reads.skel.h: bpf/record-probe-reads.bpf.o
	$(AM_V_GEN)$(BPFTOOL) gen skeleton $< name record_probe_reads_bpf > $@.tmp && \
		mv $@.tmp $@
# BUILT_SOURCES are made first only by all, check and install: make folio-trace needs this.
src/record/loader.$(OBJEXT): bpf/record.skel.h bpf/record-probe-reads.skel.h

# make bench: what the hooks cost before a program does anything (bench/record.sh)
noinst_PROGRAMS += bench/hook-floor
bench_hook_floor_LDADD = $(LIBBPF_LIBS) $(LIBELF_LIBS)
BENCH_FILES += bench/hook-floor.bpf.o
CLEANFILES += bench/hook-floor.bpf.o
bench/hook-floor.bpf.o: $(srcdir)/bench/hook-floor.bpf.c $(srcdir)/bpf/arch.bpf.h bpf/vmlinux.h
	$(AM_V_CC)$(MKDIR_P) bench && $(CLANG) $(BPF_CFLAGS) -Ibpf -I$(srcdir)/bpf \
		-c $(srcdir)/bench/hook-floor.bpf.c -o $@
else
BUILT_SOURCES += src/record/bpf-missing.h
CLEANFILES += src/record/bpf-missing.h
src/record/bpf-missing.h: Makefile
	$(AM_V_GEN)$(MKDIR_P) src/record && \
	missing='$(BPF_MISSING)'; unsupported='$(BPF_UNSUPPORTED)'; \
	if test -n "$$unsupported"; then why=$$unsupported; \
	elif test -z "$$missing"; then why='configured with --disable-bpf'; \
	else why="missing$$missing (run build-aux/install-deps and configure again)"; fi; \
	echo "#define FT_BPF_MISSING \"$$why\"" > $@
src/cmd-record.$(OBJEXT): src/record/bpf-missing.h
endif

# Live recording tests: real BPF on this kernel (they skip without BPF support or root).
RECORD_TESTS = tests/record-ext4.sh tests/record-tmpfs.sh tests/record-xfs.sh \
	tests/record-ops.sh tests/record-filter.sh tests/record-errors.sh tests/record-lost.sh \
	tests/record-dirty.sh tests/record-memlimit.sh tests/record-io.sh tests/record-writeback.sh \
	tests/record-advice.sh tests/record-frag.sh tests/record-cgroup.sh \
	tests/record-truncate-split.sh tests/record-startcache.sh tests/record-reuse.sh \
	tests/record-sync.sh tests/record-dontcache.sh tests/record-startmaps.sh \
	tests/record-startshadows.sh
TESTS += $(RECORD_TESTS)
# the advice and loads tests/record-advice.sh records
check_PROGRAMS += tests/advise
EXTRA_DIST += tests/record-lib.sh $(RECORD_TESTS)

# make bench: fio slowdown and events/s with vs without recording, interleaved; recorder CPU
# per event; ns per run of each BPF program; events/s without loss.
BENCH += bench/record.sh
EXTRA_DIST += bench/record.sh bench/hook-floor.c bench/hook-floor.bpf.c \
	traces/record-traces.sh traces/frag-pairs.py

# The shipped traces the man pages' examples read, installed for users to follow them:
# $(pkgdatadir)/traces, with the README on how each was recorded.
tracesdir = $(pkgdatadir)/traces
dist_traces_DATA = traces/README traces/seq-copy.ftr traces/rand-overwrite.ftr \
	traces/append-log.ftr traces/git-small-files.ftr traces/randread-64M-limit.ftr \
	traces/frag-pairs.ftr
TESTS += tests/install-traces.sh
EXTRA_DIST += tests/install-traces.sh
dist_man_MANS += man/folio-trace-record.1

# The /proc parsers, the device description and the cgroup names need no BPF: tested in every
# configuration.
check_PROGRAMS += tests/test-record-sampler
TESTS += tests/test-record-sampler
tests_test_record_sampler_SOURCES = tests/test-record-sampler.c tests/scratch.h \
	src/record/sampler.c src/record/host.c src/record/devices.c src/record/record.h
tests_test_record_sampler_LDADD = $(TEST_LIBS)
check_PROGRAMS += tests/test-record-cgroups
TESTS += tests/test-record-cgroups
tests_test_record_cgroups_SOURCES = tests/test-record-cgroups.c tests/scratch.h \
	src/record/cgroups.c src/record/idset.c src/record/record.h
tests_test_record_cgroups_LDADD = $(TEST_LIBS)
check_PROGRAMS += tests/test-record-pageset
TESTS += tests/test-record-pageset
tests_test_record_pageset_SOURCES = tests/test-record-pageset.c src/record/pageset.c \
	src/record/record.h
tests_test_record_pageset_LDADD = $(TEST_LIBS)
check_PROGRAMS += tests/test-record-fragstat
TESTS += tests/test-record-fragstat
tests_test_record_fragstat_SOURCES = tests/test-record-fragstat.c src/record/sampler.c \
	src/record/host.c src/record/devices.c src/record/record.h
tests_test_record_fragstat_LDADD = $(TEST_LIBS)
