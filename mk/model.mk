# The page-cache model, one folder per kernel object as in mm/ (folio-trace-model(7)):
# model.c ties one configured instance together; variants.c holds the rows of the
# variation points, one file per behaviour beside the object it changes.
libfoliotrace_a_SOURCES += src/model/model.h src/model/instance.h src/model/model.c \
	src/model/footprint.c src/model/params.h src/model/params.c src/model/variants.h \
	src/model/variants.c \
	src/model/variant_lookup.c src/model/metrics.h src/model/metrics.c \
	src/model/device.c src/model/units.c src/model/access.c \
	src/model/folio.h src/model/folio_pool.c src/model/bitmap.h \
	src/model/stack.h src/model/stack.c
# The page cache: its index, folios in and out, read and write paths, readahead by release.
libfoliotrace_a_SOURCES += src/model/filemap/pagecache.h src/model/filemap/pagecache.c \
	src/model/filemap/cache.h src/model/filemap/cache.c \
	src/model/filemap/filemap.h src/model/filemap/filemap.c src/model/filemap/files.c \
	src/model/filemap/startstate.c \
	src/model/filemap/placement.h src/model/filemap/placement.c \
	src/model/filemap/touched.h src/model/filemap/touched.c \
	src/model/filemap/readahead.c src/model/filemap/ra_rule_6_6.c \
	src/model/filemap/ra_rule_6_11.c src/model/filemap/ra_rule_6_17.c \
	src/model/filemap/readio.c src/model/filemap/readpath.c src/model/filemap/writepath.c \
	src/model/filemap/truncate.c \
	src/model/filemap/advice.c \
	src/model/filemap/openfile.c \
	src/model/filemap/dontcache.c
# Filesystem rules, one file per filesystem type.
libfoliotrace_a_SOURCES += src/model/fs/kinds.c src/model/fs/xfs.c src/model/fs/ext4.c \
	src/model/fs/tmpfs.c src/model/fs/other.c src/model/fs/nfs.c
# The LRU vector and the LRU kinds.
libfoliotrace_a_SOURCES += src/model/lru/lru.h src/model/lru/lruvec.h src/model/lru/kind.h src/model/lru/lru.c \
	src/model/lru/two_list.c src/model/lru/plain.c src/model/lru/mglru.c
# Reclaim (mm/vmscan.c) and what it does with a dirty folio, by kind.
libfoliotrace_a_SOURCES += src/model/vmscan/vmscan.h src/model/vmscan/reclaim.c \
	src/model/vmscan/refaults.c \
	src/model/vmscan/dirty_pageout.c src/model/vmscan/dirty_flusher.c \
	src/model/vmscan/dirty_auto.c src/model/vmscan/dirty_swap.c src/model/vmscan/exec.c
# Shadow entries and refault distances (mm/workingset.c).
libfoliotrace_a_SOURCES += src/model/workingset/workingset.h src/model/workingset/shadow.h \
	src/model/workingset/shadow.c src/model/workingset/workingset.c
# Dirty tracking by kind, writeback, the flusher, the bandwidth estimate, throttling.
libfoliotrace_a_SOURCES += src/model/writeback/writeback.h src/model/writeback/writeback.c \
	src/model/writeback/flusher.c src/model/writeback/bandwidth.c \
	src/model/writeback/throttle.c src/model/writeback/track_folio.c \
	src/model/writeback/track_block.c src/model/writeback/track_auto.c \
	src/model/writeback/track_shmem.c src/model/writeback/track_range.c \
	src/model/writeback/dirty_ranges.h src/model/writeback/dirty_ranges.c
# Memory cgroups: limit and charge.
libfoliotrace_a_SOURCES += src/model/memcg/memcg.h src/model/memcg/memcg.c
# The memory: the zone, its allocation slow path, its start state, compaction.
libfoliotrace_a_SOURCES += src/model/memory/memory.h src/model/memory/zone.h \
	src/model/memory/memory.c src/model/memory/alloc.c src/model/memory/init.c \
	src/model/memory/compaction.c

# Shorthands shared by the model tests.
check_LIBRARIES += tests/libmodelharness.a
tests_libmodelharness_a_SOURCES = tests/model-harness.c tests/model-harness.h
MODEL_TEST_LIBS = tests/libmodelharness.a $(TEST_LIBS)

check_PROGRAMS += tests/test-model-lru
TESTS += tests/test-model-lru
tests_test_model_lru_LDADD = $(MODEL_TEST_LIBS)

check_PROGRAMS += tests/test-model-writeback
TESTS += tests/test-model-writeback
tests_test_model_writeback_LDADD = $(MODEL_TEST_LIBS)

check_PROGRAMS += tests/test-model-wbtime
TESTS += tests/test-model-wbtime
tests_test_model_wbtime_LDADD = $(MODEL_TEST_LIBS)

# Live: the model's writeback against the kernel's on this machine (skip without BPF/root).
TESTS += tests/record-wb-onebyte.sh tests/record-wb-memcg.sh tests/record-tmpfs-orders.sh \
	tests/record-memcg-two.sh tests/record-memcg-limit.sh tests/record-swap-refault.sh \
	tests/record-refault-inside.sh tests/record-open-files.sh
EXTRA_DIST += tests/wb-lib.sh tests/record-wb-onebyte.sh tests/record-wb-memcg.sh \
	tests/record-tmpfs-orders.sh tests/record-memcg-two.sh tests/record-memcg-limit.sh \
	tests/record-swap-refault.sh tests/record-refault-inside.sh tests/record-open-files.sh
# record-memlimit.sh checks that no recorder's cgroup is left: not while these have their own.
tests/record-wb-memcg.log tests/record-memcg-limit.log tests/record-swap-refault.log \
	tests/record-refault-inside.log: tests/record-memlimit.log

check_PROGRAMS += tests/test-model-metrics
TESTS += tests/test-model-metrics
tests_test_model_metrics_LDADD = $(MODEL_TEST_LIBS)

check_PROGRAMS += tests/test-model-refault
TESTS += tests/test-model-refault
tests_test_model_refault_LDADD = $(MODEL_TEST_LIBS)

check_PROGRAMS += tests/test-model-deactivate
TESTS += tests/test-model-deactivate
tests_test_model_deactivate_LDADD = $(MODEL_TEST_LIBS)

check_PROGRAMS += tests/test-model-memcg
TESTS += tests/test-model-memcg
tests_test_model_memcg_LDADD = $(MODEL_TEST_LIBS)

check_PROGRAMS += tests/test-model-fs
TESTS += tests/test-model-fs
tests_test_model_fs_LDADD = $(MODEL_TEST_LIBS)

check_PROGRAMS += tests/test-model-mmap
TESTS += tests/test-model-mmap
tests_test_model_mmap_LDADD = $(MODEL_TEST_LIBS)

check_PROGRAMS += tests/test-model-frag
TESTS += tests/test-model-frag
tests_test_model_frag_LDADD = $(MODEL_TEST_LIBS)

# make bench: model throughput on generated accesses.
noinst_PROGRAMS += bench/bench-model
bench_bench_model_LDADD = libfoliotrace.a $(ZLIB_LIBS) -lm
BENCH += bench/model.sh
EXTRA_DIST += bench/model.sh

dist_man_MANS += man/folio-trace-model.7

check_PROGRAMS += tests/test-model-pagecache
TESTS += tests/test-model-pagecache
tests_test_model_pagecache_LDADD = $(TEST_LIBS)

check_PROGRAMS += tests/test-model-shadow
TESTS += tests/test-model-shadow
tests_test_model_shadow_LDADD = $(TEST_LIBS)

check_PROGRAMS += tests/test-model-pageindex
TESTS += tests/test-model-pageindex
tests_test_model_pageindex_LDADD = $(TEST_LIBS)

check_PROGRAMS += tests/test-model-bitmap
TESTS += tests/test-model-bitmap
tests_test_model_bitmap_LDADD = $(TEST_LIBS)

# The modelled memory: buddy allocator, fragmentation indexes, metadata overhead.
libfoliotrace_a_SOURCES += src/model/memory/buddy.h src/model/memory/buddy.c \
	src/model/memory/fragindex.c 	src/model/memory/metadata.c

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
# make bench: peak RSS with --memory=16T, and for 10 M vs 100 M events (not a test).
BENCH += bench/memory.sh
EXTRA_DIST += bench/memory.sh

check_PROGRAMS += tests/test-model-advice
TESTS += tests/test-model-advice
tests_test_model_advice_LDADD = $(MODEL_TEST_LIBS)

check_PROGRAMS += tests/test-model-dontcache
TESTS += tests/test-model-dontcache
tests_test_model_dontcache_LDADD = $(MODEL_TEST_LIBS)

check_PROGRAMS += tests/test-model-startdirty
TESTS += tests/test-model-startdirty
tests_test_model_startdirty_LDADD = $(MODEL_TEST_LIBS)

check_PROGRAMS += tests/test-model-startmark
TESTS += tests/test-model-startmark
tests_test_model_startmark_LDADD = $(MODEL_TEST_LIBS)

check_PROGRAMS += tests/test-model-startramp
TESTS += tests/test-model-startramp
tests_test_model_startramp_LDADD = $(MODEL_TEST_LIBS)

check_PROGRAMS += tests/test-model-exec
TESTS += tests/test-model-exec
tests_test_model_exec_LDADD = $(MODEL_TEST_LIBS)

# Stack-distance curves: a textbook LRU stack, model instances, sampling.
check_PROGRAMS += tests/test-stack-mrc
TESTS += tests/test-stack-mrc
tests_test_stack_mrc_LDADD = $(MODEL_TEST_LIBS)

check_PROGRAMS += tests/test-model-truncate
TESTS += tests/test-model-truncate
tests_test_model_truncate_LDADD = $(MODEL_TEST_LIBS)

check_PROGRAMS += tests/test-model-nfs
TESTS += tests/test-model-nfs
tests_test_model_nfs_LDADD = $(MODEL_TEST_LIBS)
