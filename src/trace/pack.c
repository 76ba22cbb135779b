// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Packed chunks: accesses as the difference from the access before them (pack.h).
 */
#include <linux/types.h>
#include <string.h>

#include "trace/events.h"
#include "trace/pack.h"

#define PACK_TID	(1u << 0)
#define PACK_INO	(1u << 1)
#define PACK_LEN	(1u << 2)
#define PACK_ISIZE	(1u << 3)
#define PACK_DEV	(1u << 4)
#define PACK_OPFLAGS	(1u << 5)
#define PACK_ARG	(1u << 6)
#define PACK_ITEM_MAX	(1 + 9 * 10)	/* a mask and nine varints of at most 10 bytes */

static inline __u64 zigzag(__u64 d)
{
	return d << 1 ^ (__u64)((__s64)d >> 63);
}

static inline __u64 unzigzag(__u64 z)
{
	return z >> 1 ^ (__u64)-(__s64)(z & 1);
}

static inline unsigned char *put_varint(unsigned char *p, __u64 v)
{
	while (v >= 0x80) {
		*p++ = (unsigned char)(v | 0x80);
		v >>= 7;
	}
	*p++ = (unsigned char)v;
	return p;
}

/*
 * The varint at *pp, whose item has its whole PACK_ITEM_MAX bytes before the end (the caller
 * checked): no bound per byte. false past 10 bytes.
 */
static inline bool get_varint(const unsigned char **pp, __u64 *v)
{
	const unsigned char *p = *pp;
	__u64 x = *p & 0x7f;

	for (unsigned shift = 7; *p++ & 0x80; shift += 7) {
		if (shift > 63)
			return false;
		x |= (__u64)(*p & 0x7f) << shift;
	}
	*v = x;
	*pp = p;
	return true;
}

static bool packable(const struct ft_hdr *h)
{
	const struct ft_access *a = (const void *)h;

	return h->type == FT_ACCESS && h->size == sizeof(*a);
}

static unsigned char *pack_access(unsigned char *p, const struct ft_access *a,
				  struct ft_access *prev)
{
	unsigned char *mask = p++;
	unsigned m = 0;

	p = put_varint(p, zigzag(a->hdr.ts - prev->hdr.ts));
	p = put_varint(p, zigzag(a->pos - (prev->pos + prev->len)));
	if (a->hdr.tid != prev->hdr.tid) {
		m |= PACK_TID;
		p = put_varint(p, a->hdr.tid);
	}
	if (a->ino != prev->ino) {
		m |= PACK_INO;
		p = put_varint(p, a->ino);
	}
	if (a->len != prev->len) {
		m |= PACK_LEN;
		p = put_varint(p, a->len);
	}
	if (a->isize != prev->isize) {
		m |= PACK_ISIZE;
		p = put_varint(p, zigzag(a->isize - prev->isize));
	}
	if (a->dev != prev->dev) {
		m |= PACK_DEV;
		p = put_varint(p, a->dev);
	}
	if (a->op != prev->op || a->flags != prev->flags || a->ofile != prev->ofile) {
		m |= PACK_OPFLAGS;
		p = put_varint(p, a->op | (__u32)a->flags << 16 | (__u64)a->ofile << 32);
	}
	if (a->arg != prev->arg) {
		m |= PACK_ARG;
		p = put_varint(p, a->arg);
	}
	*mask = (unsigned char)m;
	*prev = *a;
	return p;
}

size_t ft_pack_records(const unsigned char *raw, size_t len, unsigned char *out, size_t cap,
		       size_t *as_is)
{
	struct ft_access prev = { 0 };
	unsigned char *p = out, *end = out + cap;
	size_t pos = 0;

	*as_is = 0;

	while (pos < len) {
		const struct ft_hdr *h = (const void *)(raw + pos);

		if (packable(h)) {
			if ((size_t)(end - p) < PACK_ITEM_MAX)
				return 0;
			p = pack_access(p, (const void *)h, &prev);
		} else {
			if ((size_t)(end - p) < 1u + h->size)
				return 0;
			*p++ = FT_PACK_RECORD;
			memcpy(p, h, h->size);
			p += h->size;
			*as_is += 1u + h->size;
		}
		pos += h->size;
	}
	return (size_t)(p - out);
}

/*
 * The fields of the access an item stands for, apart from the constants: kept in registers
 * while a window expands (a record written field by field and then copied whole would read
 * stores the CPU cannot forward).
 */
struct access_fields {
	__u64 ts, pos, len, ino, isize;
	__u64 opflags;		/* op | flags << 16 | ofile << 32 */
	__u32 tid, dev, arg;
};

static void fields_of(struct access_fields *f, const struct ft_access *a)
{
	*f = (struct access_fields){
		.ts = a->hdr.ts, .pos = a->pos, .len = a->len, .ino = a->ino, .isize = a->isize,
		.tid = a->hdr.tid, .dev = a->dev,
		.opflags = a->op | (__u32)a->flags << 16 | (__u64)a->ofile << 32,
		.arg = a->arg,
	};
}

static inline __attribute__((always_inline)) void
access_of(struct ft_access *a, const struct access_fields *f)
{
	a->hdr.type = FT_ACCESS;
	a->hdr.size = sizeof(*a);
	a->hdr.tid = f->tid;
	a->hdr.ts = f->ts;
	a->ino = f->ino;
	a->pos = f->pos;
	a->len = f->len;
	a->isize = f->isize;
	a->dev = f->dev;
	a->op = (__u16)f->opflags;
	a->flags = (__u16)(f->opflags >> 16);
	a->arg = f->arg;
	a->ofile = (__u32)(f->opflags >> 32);
}

/*
 * The fields of an access after its mask m, at *pp with PACK_ITEM_MAX bytes to read; false
 * when a varint is malformed.
 */
static inline __attribute__((always_inline)) bool
unpack_access(const unsigned char **pp, unsigned m, struct access_fields *a)
{
	__u64 ts = 0, pos = 0, v = 0;
	bool ok = get_varint(pp, &ts) && get_varint(pp, &pos);

	a->ts += unzigzag(ts);
	a->pos += a->len + unzigzag(pos);
	if (!m)
		return ok;
	if (m & PACK_TID) {
		ok = ok && get_varint(pp, &v);
		a->tid = (__u32)v;
	}
	if (m & PACK_INO)
		ok = ok && get_varint(pp, &a->ino);
	if (m & PACK_LEN)
		ok = ok && get_varint(pp, &a->len);
	if (m & PACK_ISIZE) {
		ok = ok && get_varint(pp, &v);
		a->isize += unzigzag(v);
	}
	if (m & PACK_DEV) {
		ok = ok && get_varint(pp, &v);
		a->dev = (__u32)v;
	}
	if (m & PACK_OPFLAGS) {
		ok = ok && get_varint(pp, &a->opflags);
	}
	if (m & PACK_ARG) {
		ok = ok && get_varint(pp, &v);
		a->arg = (__u32)v;
	}
	return ok;
}

void ft_unpack_start(struct ft_unpacker *u, const unsigned char *in, size_t len)
{
	u->p = in;
	u->end = in + len;
	memset(&u->prev, 0, sizeof(u->prev));
	u->prev.hdr.type = FT_ACCESS;
	u->prev.hdr.size = sizeof(u->prev);
}

long ft_unpack_some(struct ft_unpacker *u, unsigned char *out, size_t want, size_t cap,
		    const char **why)
{
	const unsigned char *p = u->p, *end = u->end;
	struct access_fields f;
	size_t n = 0;

	fields_of(&f, &u->prev);

	while (p < end && n < want) {
		unsigned m = *p;

		if (m == FT_PACK_RECORD) {
			struct ft_hdr h;

			if ((size_t)(end - p) < 1 + sizeof(h)) {
				*why = "a record item cut short";
				return -1;
			}
			memcpy(&h, p + 1, sizeof(h));
			if (h.size < sizeof(h) || h.size % 8 || h.size > (size_t)(end - p - 1)) {
				*why = "a record item of an impossible size";
				return -1;
			}
			if (h.size > cap - n)
				break;
			memcpy(out + n, p + 1, h.size);
			p += 1 + h.size;
			n += h.size;
			continue;
		}
		if (m >= 0x80) {
			*why = "an item of an unknown kind";
			return -1;
		}
		if (sizeof(struct ft_access) > cap - n)
			break;
		p++;
		if ((size_t)(end - p) < PACK_ITEM_MAX) {
			/* the chunk's last items: read from a copy with room after them */
			unsigned char tail[2 * PACK_ITEM_MAX] = { 0 };
			const unsigned char *t = tail;

			memcpy(tail, p, (size_t)(end - p));
			if (!unpack_access(&t, m, &f) || t - tail > end - p) {
				*why = "an access item cut short";
				return -1;
			}
			p += t - tail;
		} else if (!unpack_access(&p, m, &f)) {
			*why = "a malformed access item";
			return -1;
		}
		access_of((struct ft_access *)(out + n), &f);
		n += sizeof(struct ft_access);
	}
	access_of(&u->prev, &f);
	u->p = p;
	return (long)n;
}
