/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Synthetic workload driver: defaults, checks, the host record and the event loop. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "import/synthetic-host.h"
#include "synth/generator.h"
#include "util/error.h"
#include "util/grow.h"

static const char *const pattern_names[SYNTH_NR_PATTERNS] = {
	[SYNTH_SEQ_READ] = "seq-read",
	[SYNTH_RANDOM_READ] = "random-read",
	[SYNTH_RANDOM_OVERWRITE] = "random-overwrite",
	[SYNTH_APPEND_FSYNC] = "append-fsync",
	[SYNTH_MANY_SMALL_FILES] = "many-small-files",
	[SYNTH_ZIPF_SCAN] = "zipf-scan",
};

/* Per-pattern defaults: files, file size, io size, zipf. */
static const struct {
	uint64_t files, file_size, io_size;
	double zipf;
} pattern_defaults[SYNTH_NR_PATTERNS] = {
	[SYNTH_SEQ_READ] = { 1, 256ull << 20, 128ull << 10, 0.0 },
	[SYNTH_RANDOM_READ] = { 1, 1ull << 30, 4096, 0.99 },
	[SYNTH_RANDOM_OVERWRITE] = { 1, 1ull << 30, 4096, 0.0 },
	[SYNTH_APPEND_FSYNC] = { 4, 64ull << 20, 4096, 0.0 },
	[SYNTH_MANY_SMALL_FILES] = { 100, 16ull << 10, 4096, 0.0 },
	[SYNTH_ZIPF_SCAN] = { 1, 8ull << 30, 4096, 0.9 },
};

#define SYNTH_DEFAULT_EVENTS	1000000ull
#define SYNTH_DEFAULT_STEP_NS	10000ull	/* 100 000 events/s */
#define SYNTH_DEFAULT_FSYNC	16ull

const char *synth_pattern_name(enum synth_pattern p)
{
	return p < SYNTH_NR_PATTERNS ? pattern_names[p] : "?";
}

int synth_pattern_parse(const char *name, enum synth_pattern *p)
{
	for (int i = 0; i < SYNTH_NR_PATTERNS; i++) {
		if (strcmp(name, pattern_names[i]) == 0) {
			*p = (enum synth_pattern)i;
			return 0;
		}
	}
	return -1;
}

void synth_config_defaults(struct synth_config *cfg)
{
	enum synth_pattern p = cfg->pattern;

	if (!cfg->files)
		cfg->files = pattern_defaults[p].files;
	if (!cfg->file_size)
		cfg->file_size = pattern_defaults[p].file_size;
	if (!cfg->io_size)
		cfg->io_size = pattern_defaults[p].io_size;
	if (cfg->zipf < 0)
		cfg->zipf = pattern_defaults[p].zipf;
	if (!cfg->events && !cfg->bytes)
		cfg->events = SYNTH_DEFAULT_EVENTS;
	if (!cfg->step_ns)
		cfg->step_ns = SYNTH_DEFAULT_STEP_NS;
	if (!cfg->fsync_every_set)
		cfg->fsync_every = SYNTH_DEFAULT_FSYNC;
	if (!cfg->mem_bytes)
		cfg->mem_bytes = SYNTH_DEFAULT_MEMORY;
	if (!cfg->fstype)
		cfg->fstype = "xfs";
}

const char *synth_config_check(const struct synth_config *cfg)
{
	if (cfg->io_size > cfg->file_size)
		return "--io-size is larger than --file-size";
	if (cfg->files > (1ull << 32))
		return "--files is too large (at most 4294967296)";
	if (cfg->file_size / cfg->io_size > UINT64_MAX / cfg->files)
		return "--files times --file-size is too large";
	if (cfg->file_size > (1ull << 50))
		return "--file-size is too large (at most 1P)";
	if (strlen(cfg->fstype) >= FT_FSTYPE_LEN)
		return "--fstype is too long";
	return NULL;
}

int synth_emit_access(struct synth *s, uint16_t op, uint16_t flags, uint64_t seq, uint64_t pos,
		      uint64_t len, uint64_t isize)
{
	struct ft_access a = {
		.hdr = { .type = FT_ACCESS, .size = sizeof(a), .tid = SYNTH_TID, .ts = s->ts },
		.ino = SYNTH_INO_BASE + seq,
		.pos = pos,
		.len = len,
		.isize = isize,
		.dev = SYNTH_DEV,
		.op = op,
		.flags = flags,
	};

	s->ts += s->cfg->step_ns;
	s->st.accesses++;
	if (op == FT_OP_READ)
		s->st.bytes_read += len;
	else if (op == FT_OP_WRITE)
		s->st.bytes_written += len;
	return ft_sink_append(s->sink, &a, s->err);
}

int synth_emit_file(struct synth *s, uint64_t seq, uint64_t size)
{
	char path[96];

	snprintf(path, sizeof(path), "/synth/%s/f%08llu", synth_pattern_name(s->cfg->pattern),
		 (unsigned long long)seq);
	s->st.files++;
	return ft_sink_file(s->sink, s->ts, SYNTH_DEV, SYNTH_INO_BASE + seq, size, path, s->err);
}

struct synth_slot *synth_slot(struct synth *s, uint64_t n)
{
	bool added;
	uint64_t *i = u64map_get_or_add(&s->slot_index, n, s->nslots, &added);

	if (!i) {
		ft_error_set(s->err, NULL, "out of memory for the file slots");
		return NULL;
	}
	if (added) {
		struct synth_slot *v = ft_grow(s->slot_v, &s->slot_cap, s->nslots, sizeof(*v),
					       64);

		if (!v) {
			ft_error_set(s->err, NULL, "out of memory for the file slots");
			return NULL;
		}
		s->slot_v = v;
		s->slot_v[s->nslots++] = (struct synth_slot){ .seq = n };
	}
	return &s->slot_v[*i];
}

static bool synth_done(const struct synth *s)
{
	if (s->cfg->events)
		return s->st.accesses >= s->cfg->events;
	return s->st.bytes_read + s->st.bytes_written >= s->cfg->bytes;
}

static int emit_host(struct synth *s)
{
	struct ft_host host;
	struct ft_host_dev dev;

	synthetic_host_init(&host, &dev, s->cfg->mem_bytes, s->cfg->fstype,
			    synth_pattern_name(s->cfg->pattern));
	return ft_sink_host(s->sink, &host, &dev, s->err);
}

int synth_run(const struct synth_config *cfg, struct ft_sink *sink, struct synth_stats *st,
	      struct ft_error *err)
{
	struct synth s = {
		.cfg = cfg,
		.sink = sink,
		.err = err,
		.ts = SYNTH_BASE_TS,
	};
	int ret;

	ft_rng_seed(&s.rng, cfg->seed);
	if (u64map_init(&s.slot_index, 64))
		return ft_error_set(err, NULL, "out of memory for the file slots");
	ret = emit_host(&s);
	if (ret == 0)
		ret = synth_patterns_setup(&s);
	while (ret == 0 && !synth_done(&s))
		ret = synth_pattern_step(&s);
	u64map_free(&s.slot_index);
	free(s.slot_v);
	if (st)
		*st = s.st;
	return ret < 0 ? -1 : 0;
}
