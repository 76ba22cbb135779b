// SPDX-License-Identifier: GPL-2.0-or-later
/* Stack distances of a plain LRU over the model's folios: see stack.h. */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/filemap/placement.h"
#include "model/stack.h"
#include "util/hash.h"

#define NIL		UINT32_MAX
#define TOMB		(UINT32_MAX - 1)
#define HOLE		(UINT32_MAX - 2)	/* a slot of memory a truncation left free */
#define D_COLD		UINT64_MAX		/* first reference: a miss at every size */
#define D_SKIP		(UINT64_MAX - 1)	/* not in the sample */
#define MIN_SLOTS	1024u
#define STACK_MAX_ORDER	31

struct sfile {
	uint64_t isize;
	uint64_t capped_eof;	/* EOF (pages) a folio was capped at; 0: none */
	uint32_t head;		/* its entries */
	uint8_t max_order;
	bool known, set_up, shmem;
};

struct sentry {
	uint64_t start;
	uint32_t file;
	uint32_t pages;
	uint64_t slot;		/* recency slot in the tree */
	uint32_t next;		/* next of the file's entries, or of the free list */
};

/* What the references at one distance (in pages) add up to. */
struct shist {
	uint64_t req;		/* read requests whose largest distance this is */
	uint64_t hit_bytes;	/* requested bytes of the folios referenced at it */
	uint64_t io_bytes;	/* bytes the device reads for them when they miss */
	uint64_t ios;
};

struct stack_mrc {
	struct model_config cfg;
	unsigned shift;
	double rate;
	uint64_t threshold;	/* a folio is followed when its hash is below */
	bool sampled;

	struct sfile *files;
	uint32_t nfiles, cap_files;

	struct sentry *e;
	uint32_t ne, cap_e, free_e;

	uint32_t *tab;		/* entry index, NIL empty, TOMB deleted */
	uint64_t tab_cap, tab_used;

	uint64_t *bit;		/* Fenwick tree of pages over recency slots, holes included */
	uint64_t *hbit;		/* the same of the holes' pages alone */
	uint32_t *owner;	/* entry in each slot, HOLE free memory, NIL none */
	uint64_t nslots, top, total, live, holes;

	struct shist *h;	/* by distance in pages; cumulative after finish */
	uint64_t nh;
	uint64_t maxd;
	struct shist cold;
	uint64_t requests, sampled_requests, read_bytes;
	uint64_t sampled_bytes;	/* requested bytes of the followed folios */

	uint64_t accesses;	/* all the stream's accesses */
	uint64_t inexact;	/* those outside the exact conditions */
	uint64_t by_reason[STACK_MRC_NR_REASONS];
	unsigned pending;	/* the reasons the current access met, one bit each */
	/*
	 * Accesses by the smallest folio order they referenced (all, and those that met no
	 * other reason): below the largest order referenced, folios of mixed sizes share memory.
	 */
	unsigned cur_min;
	uint64_t by_min_order[STACK_MAX_ORDER + 1], clean_by_min_order[STACK_MAX_ORDER + 1];
	bool oom, finished;
};

static const char *const reason_text[STACK_MRC_NR_REASONS] = {
	[STACK_INEXACT_DIRTY] = "buffered writes (reclaim passes over a dirty folio at the tail)",
	[STACK_INEXACT_GROWTH] = "a file grew past a folio placed at its old end",
	[STACK_INEXACT_WRITE_SIZE] = "writes sized their folios unlike reads (--write-policy=sized)",
	[STACK_INEXACT_FOLIO_SIZE] = "a cached folio of another size than the placement gives now",
	[STACK_INEXACT_OTHERS] = "others took memory from the cache over time",
	[STACK_INEXACT_SHMEM] = "tmpfs files follow shmem's own paths",
	[STACK_INEXACT_MIXED] = "folios below the largest order (instances free whole blocks)",
	[STACK_INEXACT_LIMITS] = "a memory cgroup's limits changed over time",
	[STACK_INEXACT_PROACTIVE] = "a proactive reclaimer (DAMON) evicted pages the stack keeps",
};

/* The access being followed meets a condition the stack cannot follow: counted once per access. */
static void inexact(struct stack_mrc *s, enum stack_inexact_reason r)
{
	s->pending |= 1u << r;
}

struct stack_mrc *stack_mrc_new(const struct model_config *cfg, double rate, const char **why)
{
	struct stack_mrc *s;

	if (!(rate > 0 && rate <= 1)) {
		*why = "sampling rate must be above 0 and at most 1";
		return NULL;
	}
	if (cfg->lru != LRU_PLAIN || cfg->policy != FOLIO_POLICY_FIXED || cfg->readahead) {
		*why = "stack distances follow a plain LRU with the fixed policy and no readahead";
		return NULL;
	}
	s = calloc(1, sizeof(*s));
	if (!s) {
		*why = "out of memory";
		return NULL;
	}
	s->cfg = *cfg;
	s->shift = place_ilog2(cfg->page_size);
	s->rate = rate;
	s->sampled = rate < 1;
	s->threshold = s->sampled ? (uint64_t)ldexp(rate, 64) : UINT64_MAX;
	s->free_e = NIL;
	return s;
}

void stack_mrc_free(struct stack_mrc *s)
{
	if (!s)
		return;
	free(s->files);
	free(s->e);
	free(s->tab);
	free(s->bit);
	free(s->hbit);
	free(s->owner);
	free(s->h);
	free(s);
}

bool stack_mrc_oom(const struct stack_mrc *s)
{
	return s->oom;
}

/* The largest order any access referenced, or -1. */
static int largest_order(const struct stack_mrc *s)
{
	for (int k = STACK_MAX_ORDER; k >= 0; k--)
		if (s->by_min_order[k])
			return k;
	return -1;
}

uint64_t stack_mrc_inexact(const struct stack_mrc *s, struct stack_inexact *why,
			   unsigned *nwhy)
{
	uint64_t by_reason[STACK_MRC_NR_REASONS], total = s->inexact;
	int top = largest_order(s);
	unsigned n = 0;

	memcpy(by_reason, s->by_reason, sizeof(by_reason));
	by_reason[STACK_INEXACT_MIXED] = 0;
	/* the largest order is known at the end only: the accesses below it are counted now */
	for (int k = 0; k < top; k++) {
		by_reason[STACK_INEXACT_MIXED] += s->by_min_order[k];
		total += s->clean_by_min_order[k];
	}
	for (unsigned r = 0; r < STACK_MRC_NR_REASONS; r++) {
		if (!by_reason[r])
			continue;
		why[n++] = (struct stack_inexact){ .why = reason_text[r],
						   .accesses = by_reason[r] };
	}
	/* most first */
	for (unsigned i = 1; i < n; i++)
		for (unsigned j = i; j && why[j].accesses > why[j - 1].accesses; j--) {
			struct stack_inexact t = why[j];

			why[j] = why[j - 1];
			why[j - 1] = t;
		}
	*nwhy = n;
	return total;
}

uint64_t stack_mrc_accesses(const struct stack_mrc *s)
{
	return s->accesses;
}

uint64_t stack_mrc_max_distance(const struct stack_mrc *s)
{
	return s->maxd << s->shift;
}

/* ---- files ----------------------------------------------------------------------------------- */

static struct sfile *file_of(struct stack_mrc *s, uint32_t id, unsigned device)
{
	struct sfile *f;

	if (id >= s->cap_files) {
		uint32_t cap = s->cap_files ? s->cap_files : 64;

		while (cap <= id)
			cap *= 2;
		f = realloc(s->files, cap * sizeof(*f));
		if (!f) {
			s->oom = true;
			return NULL;
		}
		memset(f + s->cap_files, 0, (cap - s->cap_files) * sizeof(*f));
		for (uint32_t i = s->cap_files; i < cap; i++)
			f[i].head = NIL;
		s->files = f;
		s->cap_files = cap;
	}
	f = &s->files[id];
	if (!f->set_up) {
		f->max_order = (uint8_t)model_file_max_order(&s->cfg, id, device, &f->shmem);
		f->set_up = true;
	}
	return f;
}

/* ---- the recency tree ----------------------------------------------------------------------- */

static void tree_add(uint64_t *tree, uint64_t n, uint64_t slot, int64_t v)
{
	for (uint64_t i = slot + 1; i <= n; i += i & (~i + 1))
		tree[i - 1] += (uint64_t)v;
}

static uint64_t tree_prefix(const uint64_t *tree, uint64_t slot)
{
	uint64_t sum = 0;

	for (uint64_t i = slot; i; i &= i - 1)
		sum += tree[i - 1];
	return sum;
}

static void bit_add(struct stack_mrc *s, uint64_t slot, int64_t v)
{
	tree_add(s->bit, s->nslots, slot, v);
}

/* Pages in slots [0, slot). */
static uint64_t bit_prefix(const struct stack_mrc *s, uint64_t slot)
{
	return tree_prefix(s->bit, slot);
}

/* The pages of the hole at slot. */
static uint64_t hole_at(const struct stack_mrc *s, uint64_t slot)
{
	return tree_prefix(s->hbit, slot + 1) - tree_prefix(s->hbit, slot);
}

/* The most recent slot holding a hole (the highest), or UINT64_MAX when none. */
static uint64_t last_hole(const struct stack_mrc *s)
{
	uint64_t all = tree_prefix(s->hbit, s->nslots), pos = 0, acc = 0, step = 1;

	if (!all)
		return UINT64_MAX;
	while (step * 2 <= s->nslots)
		step *= 2;
	/* the largest pos whose prefix stays below all: the hole is the slot right after */
	for (; step; step /= 2)
		if (pos + step <= s->nslots && acc + s->hbit[pos + step - 1] < all) {
			pos += step;
			acc += s->hbit[pos - 1];
		}
	return pos;
}

/* slot, whose pages are in the tree, becomes a hole of pages of them (0: empty). */
static void make_hole(struct stack_mrc *s, uint64_t slot, uint64_t had, uint64_t pages)
{
	bit_add(s, slot, -(int64_t)(had - pages));
	s->owner[slot] = pages ? HOLE : NIL;
	if (!pages)
		return;
	tree_add(s->hbit, s->nslots, slot, (int64_t)pages);
	s->holes++;
}

/*
 * A folio of pages is placed at the top over the recency slots from above: at every size
 * where a hole lies within the memory, the LRU fills the free memory before it evicts.
 * The holes more recent than slot `below` (UINT64_MAX: all) give up to pages, the most
 * recent first; what they gave is returned.
 */
static uint64_t fill_holes(struct stack_mrc *s, uint64_t below, uint64_t pages)
{
	uint64_t got = 0;

	while (got < pages && s->holes) {
		uint64_t k = last_hole(s), w, take;

		if (k == UINT64_MAX || (below != UINT64_MAX && k <= below))
			break;
		w = hole_at(s, k);
		take = w < pages - got ? w : pages - got;
		tree_add(s->hbit, s->nslots, k, -(int64_t)take);
		bit_add(s, k, -(int64_t)take);
		if (take == w) {
			s->owner[k] = NIL;
			s->holes--;
		}
		got += take;
	}
	return got;
}

/* Renumbers the live slots and holes from 0 in recency order, in trees with room for as many. */
static bool compact(struct stack_mrc *s)
{
	uint64_t n = MIN_SLOTS, k = 0;
	uint64_t *bit, *hbit;
	uint32_t *owner;

	while (n < 2 * (s->live + s->holes) + 2)
		n *= 2;
	bit = calloc(n, sizeof(*bit));
	hbit = calloc(n, sizeof(*hbit));
	owner = malloc(n * sizeof(*owner));
	if (!bit || !hbit || !owner) {
		free(bit);
		free(hbit);
		free(owner);
		s->oom = true;
		return false;
	}
	memset(owner, 0xff, n * sizeof(*owner));
	for (uint64_t i = 0; i < s->top; i++) {
		uint32_t id = s->owner[i];

		if (id == NIL)
			continue;
		owner[k] = id;
		if (id == HOLE) {
			bit[k] = hbit[k] = hole_at(s, i);
		} else {
			s->e[id].slot = k;
			bit[k] = s->e[id].pages;
		}
		k++;
	}
	for (uint64_t i = 1; i <= n; i++) {
		uint64_t j = i + (i & (~i + 1));

		if (j <= n) {
			bit[j - 1] += bit[i - 1];
			hbit[j - 1] += hbit[i - 1];
		}
	}
	free(s->bit);
	free(s->hbit);
	free(s->owner);
	s->bit = bit;
	s->hbit = hbit;
	s->owner = owner;
	s->nslots = n;
	s->top = k;
	return true;
}

static bool push_top(struct stack_mrc *s, uint32_t id)
{
	if (s->top == s->nslots && !compact(s))
		return false;
	s->e[id].slot = s->top;
	s->owner[s->top] = id;
	bit_add(s, s->top++, s->e[id].pages);
	return true;
}

/* ---- folio ids ------------------------------------------------------------------------------ */

static uint64_t key_hash(uint32_t file, uint64_t start)
{
	return ft_hash64(start * FT_GOLDEN64 ^ file);
}

/* The slot of (file, start) in the table: its entry's, or where it would go. */
static uint64_t tab_probe(const struct stack_mrc *s, uint32_t file, uint64_t start, bool *found)
{
	uint64_t mask = s->tab_cap - 1, i = key_hash(file, start) & mask, tomb = UINT64_MAX;

	for (;; i = (i + 1) & mask) {
		uint32_t id = s->tab[i];

		if (id == NIL) {
			*found = false;
			return tomb != UINT64_MAX ? tomb : i;
		}
		if (id == TOMB) {
			if (tomb == UINT64_MAX)
				tomb = i;
			continue;
		}
		if (s->e[id].start == start && s->e[id].file == file) {
			*found = true;
			return i;
		}
	}
}

static bool tab_grow(struct stack_mrc *s)
{
	uint64_t cap = s->tab_cap ? s->tab_cap : 4096;
	uint32_t *old = s->tab;
	uint64_t oldcap = s->tab_cap;

	while (cap < 4 * (uint64_t)s->live + 16)
		cap *= 2;
	s->tab = malloc(cap * sizeof(*s->tab));
	if (!s->tab) {
		s->tab = old;
		s->oom = true;
		return false;
	}
	memset(s->tab, 0xff, cap * sizeof(*s->tab));
	s->tab_cap = cap;
	s->tab_used = 0;
	for (uint64_t i = 0; i < oldcap; i++) {
		bool found;

		if (old[i] == NIL || old[i] == TOMB)
			continue;
		s->tab[tab_probe(s, s->e[old[i]].file, s->e[old[i]].start, &found)] = old[i];
		s->tab_used++;
	}
	free(old);
	return true;
}

static uint32_t entry_new(struct stack_mrc *s)
{
	uint32_t id;

	if (s->free_e != NIL) {
		id = s->free_e;
		s->free_e = s->e[id].next;
		return id;
	}
	if (s->ne == s->cap_e) {
		uint32_t cap = s->cap_e ? s->cap_e * 2 : 4096;
		struct sentry *e = cap > s->cap_e ? realloc(s->e, (size_t)cap * sizeof(*e)) : NULL;

		if (!e) {
			s->oom = true;
			return NIL;
		}
		s->e = e;
		s->cap_e = cap;
	}
	return s->ne++;
}

static void entry_drop(struct stack_mrc *s, uint32_t id)
{
	struct sentry *e = &s->e[id];
	bool found;
	uint64_t t = tab_probe(s, e->file, e->start, &found);

	if (found)
		s->tab[t] = TOMB;
	/* its memory stays free at every size that held it, until a folio fills it */
	make_hole(s, e->slot, e->pages, e->pages);
	s->live--;
	e->next = s->free_e;
	s->free_e = id;
}

/*
 * A reference to the folio of 2^order pages at start: its distance in pages (D_COLD for a
 * first reference, D_SKIP outside the sample), and it becomes the most recent.
 */
static uint64_t reference(struct stack_mrc *s, uint32_t file, struct sfile *sf, uint64_t start,
			  unsigned order)
{
	uint64_t t, d, got;
	uint32_t id;
	bool found;

	if (order < s->cur_min)
		s->cur_min = order;
	if (s->sampled && key_hash(file, start) >= s->threshold)
		return D_SKIP;
	if ((s->tab_used + 1) * 2 > s->tab_cap && !tab_grow(s))
		return D_SKIP;
	t = tab_probe(s, file, start, &found);
	if (found) {
		struct sentry *e = &s->e[s->tab[t]];

		if (e->pages != 1u << order)
			inexact(s, STACK_INEXACT_FOLIO_SIZE);
		d = s->total - bit_prefix(s, e->slot);
		/*
		 * Where it missed (sizes below d) it took free memory above it; where it hit,
		 * that free memory stays: its old slot keeps it, the rest of it is gone.
		 */
		got = fill_holes(s, e->slot, e->pages);
		make_hole(s, e->slot, e->pages, got);
		push_top(s, s->tab[t]);
		return d;
	}
	id = entry_new(s);
	if (id == NIL)
		return D_SKIP;
	if (s->tab[t] == NIL)
		s->tab_used++;
	s->tab[t] = id;
	s->e[id] = (struct sentry){ .start = start, .file = file, .pages = 1u << order,
				    .next = sf->head };
	sf->head = id;
	s->total += (1u << order) - fill_holes(s, UINT64_MAX, 1u << order);
	s->live++;
	push_top(s, id);
	return D_COLD;
}

/* ---- distances ------------------------------------------------------------------------------ */

static struct shist *hist_at(struct stack_mrc *s, uint64_t d)
{
	if (d >= s->nh) {
		uint64_t n = s->nh ? s->nh : 4096;
		struct shist *h;

		while (n <= d)
			n *= 2;
		h = realloc(s->h, n * sizeof(*h));
		if (!h) {
			s->oom = true;
			return NULL;
		}
		memset(h + s->nh, 0, (n - s->nh) * sizeof(*h));
		s->h = h;
		s->nh = n;
	}
	if (d > s->maxd)
		s->maxd = d;
	return &s->h[d];
}

/* A distance in sampled pages as one in all pages. */
static uint64_t scaled(const struct stack_mrc *s, uint64_t d)
{
	return s->sampled ? (uint64_t)llround((double)d / s->rate) : d;
}

static uint64_t overlap(uint64_t pos, uint64_t len, uint64_t a, uint64_t b)
{
	if (a < pos)
		a = pos;
	if (b > pos + len)
		b = pos + len;
	return b > a ? b - a : 0;
}

/*
 * The fixed policy's folio for page idx: aligned, of the file's largest order, capped at EOF.
 * A file that grew past a folio capped at its old end may hold another folio there.
 */
static unsigned place(struct stack_mrc *s, struct sfile *sf, uint64_t idx, uint64_t eof)
{
	unsigned order = place_fixed_order(idx, sf->max_order, s->cfg.min_order, eof);

	if (order < sf->max_order && eof > sf->capped_eof)
		sf->capped_eof = eof;
	return order;
}

static void check_growth(struct stack_mrc *s, struct sfile *sf)
{
	uint64_t eof = place_eof_pages(sf->isize, s->shift);

	if (sf->capped_eof && eof > sf->capped_eof) {
		inexact(s, STACK_INEXACT_GROWTH);
		sf->capped_eof = 0;
	}
}

/*
 * A read (request: counted as a read request) or a fault of bytes [pos, pos + len): every
 * folio of the range referenced in order; a missing one is read from the device.
 */
static void do_read(struct stack_mrc *s, const struct model_access *a, struct sfile *sf,
		    bool request)
{
	uint64_t first = a->pos >> s->shift, last = (a->pos + a->len - 1) >> s->shift;
	uint64_t eof, maxd = 0;
	bool cold = false, counted = !s->sampled;

	check_growth(s, sf);
	eof = place_eof_pages(sf->isize, s->shift);
	for (uint64_t idx = first; idx <= last;) {
		unsigned order = place(s, sf, idx, eof);
		uint64_t start = idx & ~((1ull << order) - 1), pages = 1ull << order;
		uint64_t hi = start + pages - 1 < last ? start + pages - 1 : last;
		uint64_t d = reference(s, a->file_id, sf, start, order), io;
		struct shist *h = &s->cold;

		if (idx == first)
			counted = d != D_SKIP;
		idx = hi + 1;
		if (d == D_SKIP)
			continue;
		io = place_read_bytes(start << s->shift, pages << s->shift, sf->isize,
				      s->cfg.block_size);
		if (d == D_COLD) {
			cold = true;
		} else {
			d = scaled(s, d);
			maxd = d > maxd ? d : maxd;
			h = hist_at(s, d);
			if (!h)
				return;
		}
		if (request) {
			uint64_t b = overlap(a->pos, a->len, start << s->shift,
					     (hi + 1) << s->shift);

			s->sampled_bytes += b;
			if (h != &s->cold)
				h->hit_bytes += b;
		}
		h->io_bytes += io;
		h->ios++;
	}
	if (!request)
		return;
	s->requests++;
	s->read_bytes += a->len;
	if (!counted)
		return;
	s->sampled_requests++;
	if (cold) {
		s->cold.req++;
	} else {
		struct shist *h = hist_at(s, maxd);

		if (h)
			h->req++;
	}
}

/* A buffered write: the folios it lands in are referenced (created when missing). */
static void do_write(struct stack_mrc *s, const struct model_access *a, struct sfile *sf)
{
	uint64_t end = a->pos + a->len, eof;

	if (!sf->known && a->isize)
		sf->isize = a->isize > end ? a->isize : a->pos;
	sf->known = true;
	if (sf->isize < end)
		sf->isize = end;
	check_growth(s, sf);
	eof = place_eof_pages(sf->isize, s->shift);
	for (uint64_t p = a->pos; p < end;) {
		uint64_t idx = p >> s->shift;
		unsigned order = place(s, sf, idx, eof);
		uint64_t start = idx & ~((1ull << order) - 1);

		if (s->cfg.write_policy == WRITE_POLICY_SIZED &&
		    place_write_order(p, end, sf->max_order, s->cfg.min_order, s->shift) != order)
			inexact(s, STACK_INEXACT_WRITE_SIZE);
		reference(s, a->file_id, sf, start, order);
		p = (start + (1ull << order)) << s->shift;
	}
	if (a->isize > sf->isize)
		sf->isize = a->isize;
}

/* Truncate to size bytes: folios from the first page past it leave the cache. */
static void do_truncate(struct stack_mrc *s, struct sfile *sf, uint64_t size)
{
	uint64_t keep = (size + (1ull << s->shift) - 1) >> s->shift;
	uint32_t *link = &sf->head;

	while (*link != NIL) {
		uint32_t id = *link;

		if (s->e[id].start >= keep) {
			*link = s->e[id].next;
			entry_drop(s, id);
		} else {
			link = &s->e[id].next;
		}
	}
	sf->isize = size;
	sf->capped_eof = 0;
}

static void follow(struct stack_mrc *s, const struct model_access *a)
{
	struct sfile *sf;

	if (a->op == MODEL_OTHERS) {
		inexact(s, STACK_INEXACT_OTHERS);
		return;
	}
	if (a->op == MODEL_MEMCG_LIMITS) {
		inexact(s, STACK_INEXACT_LIMITS);
		return;
	}
	if (a->op == MODEL_PROACTIVE_EVICT) {
		inexact(s, STACK_INEXACT_PROACTIVE);
		return;
	}
	if (a->op == MODEL_STATS_FLUSH || a->op == MODEL_ANON || a->op == MODEL_START_MARK ||
	    a->op == MODEL_START_SHADOW || a->op == MODEL_START_FOLIO ||
	    !(sf = file_of(s, a->file_id, a->device)))
		return;
	if (sf->shmem && (a->op == MODEL_READ || a->op == MODEL_WRITE || a->op == MODEL_MMAP_READ ||
			  a->op == MODEL_MMAP_WRITE)) {
		inexact(s, STACK_INEXACT_SHMEM);
		return;
	}
	if (a->direct && (a->op == MODEL_READ || a->op == MODEL_WRITE)) {
		if (a->op == MODEL_WRITE && sf->isize < a->pos + a->len)
			sf->isize = a->pos + a->len;
		return;
	}
	switch (a->op) {
	case MODEL_READ:
	case MODEL_MMAP_READ:
	case MODEL_MMAP_WRITE:
		if (a->isize || !sf->known)
			sf->isize = a->isize;
		sf->known = true;
		if (!a->len)
			break;
		if (a->op == MODEL_READ && sf->isize < a->pos + a->len)
			sf->isize = a->pos + a->len;
		/* fault-around is no access of the plain LRU's (lru/plain.c) */
		if (a->op == MODEL_MMAP_READ && a->fault_around)
			break;
		if (a->op == MODEL_MMAP_WRITE)
			inexact(s, STACK_INEXACT_DIRTY);
		do_read(s, a, sf, a->op != MODEL_MMAP_WRITE);
		break;
	case MODEL_WRITE:
		/*
		 * A dirty folio that reaches the tail of the plain LRU is passed over until its
		 * writeback ends (lru/plain.c): when depends on time, which no stack follows
		 */
		if (a->len && !a->sync)
			inexact(s, STACK_INEXACT_DIRTY);
		if (a->len)
			do_write(s, a, sf);
		else if (a->isize > sf->isize)
			sf->isize = a->isize;
		break;
	case MODEL_TRUNCATE:
		sf->known = true;
		do_truncate(s, sf, a->pos);
		break;
	case MODEL_UNLINK:
		do_truncate(s, sf, 0);
		sf->known = false;
		break;
	case MODEL_FALLOCATE:
		if (a->isize > sf->isize)
			sf->isize = a->isize;
		break;
	default:
		break;
	}
}

void stack_mrc_access(struct stack_mrc *s, const struct model_access *a)
{
	if (s->oom || s->finished)
		return;
	/* no access, no reason */
	if (a->op != MODEL_STATS_FLUSH && a->op != MODEL_ANON && a->op != MODEL_START_MARK &&
	    a->op != MODEL_START_SHADOW && a->op != MODEL_PROACTIVE_EVICT &&
	    a->op != MODEL_START_FOLIO)
		s->accesses++;
	s->pending = 0;
	s->cur_min = UINT_MAX;
	follow(s, a);
	if (s->cur_min <= STACK_MAX_ORDER) {
		s->by_min_order[s->cur_min]++;
		if (!s->pending)
			s->clean_by_min_order[s->cur_min]++;
	}
	if (!s->pending)
		return;
	s->inexact++;
	for (unsigned r = 0; r < STACK_MRC_NR_REASONS; r++)
		if (s->pending & (1u << r))
			s->by_reason[r]++;
}

void stack_mrc_advance(struct stack_mrc *s, uint64_t ts)
{
	(void)s;
	(void)ts;
}

/* ---- the curve ------------------------------------------------------------------------------ */

bool stack_mrc_finish(struct stack_mrc *s)
{
	if (s->finished)
		return !s->oom;
	s->finished = true;
	if (s->oom)
		return false;
	for (uint64_t d = 1; d < s->nh; d++) {
		s->h[d].req += s->h[d - 1].req;
		s->h[d].hit_bytes += s->h[d - 1].hit_bytes;
		s->h[d].io_bytes += s->h[d - 1].io_bytes;
		s->h[d].ios += s->h[d - 1].ios;
	}
	return true;
}

static uint64_t min_u64(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

static uint64_t up(const struct stack_mrc *s, uint64_t v)
{
	return s->sampled ? (uint64_t)llround((double)v / s->rate) : v;
}

void stack_mrc_metrics(const struct stack_mrc *s, uint64_t memory_bytes,
		       struct model_metrics *out)
{
	uint64_t c = memory_bytes >> s->shift;
	struct shist none = { 0 }, all = none;
	const struct shist *at = &none;

	memset(out, 0, sizeof(*out));
	if (s->nh) {
		all = s->h[s->nh - 1];
		at = &s->h[c < s->nh ? c : s->nh - 1];
	}
	out->read_requests = s->requests;
	out->read_bytes = s->read_bytes;
	out->read_io_bytes = up(s, s->cold.io_bytes + all.io_bytes - at->io_bytes);
	out->read_ios = up(s, s->cold.ios + all.ios - at->ios);
	if (!s->sampled) {
		out->read_hit_requests = at->req;
		out->read_hit_bytes = at->hit_bytes;
		return;
	}
	/*
	 * Misses are many references to many folios and sample well; hits gather on the few
	 * hottest folios, which a sample holds or misses by chance. So the hits are the exact
	 * totals less the misses scaled up (SHARDS-adj puts the sample's shortfall of
	 * references at distance 0: the same).
	 */
	out->read_hit_requests = s->requests - min_u64(s->requests,
		up(s, s->sampled_requests - at->req));
	out->read_hit_bytes = s->read_bytes - min_u64(s->read_bytes,
		up(s, s->sampled_bytes - at->hit_bytes));
}
