/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What a real access record can hold: see ft_access_problem() in trace.h. */
#include <stdio.h>

#include "trace/trace.h"
#include "util/msg.h"

bool ft_op_moves_data(__u16 op)
{
	return op == FT_OP_READ || op == FT_OP_WRITE || op == FT_OP_MMAP_READ ||
	       op == FT_OP_MMAP_WRITE;
}

const char *ft_access_describe_problem(const struct ft_access *a, char *buf, size_t len)
{
	if (ft_op_moves_data(a->op) && a->len > FT_ACCESS_LEN_MAX) {
		snprintf(buf, len, "%s of %llu bytes, more than one system call moves (%llu)",
			 ft_op_name(a->op), (unsigned long long)a->len,
			 (unsigned long long)FT_ACCESS_LEN_MAX);
		return buf;
	}
	/* posix_fadvise() takes a range past any file as "to the end" (mm/fadvise.c) */
	if (a->pos > FT_FILE_SIZE_MAX || a->isize > FT_FILE_SIZE_MAX ||
	    (a->op != FT_OP_FADVISE && a->len > FT_FILE_SIZE_MAX - a->pos)) {
		snprintf(buf, len, "%s reaches past the largest file size (2^63 - 1 bytes)",
			 ft_op_name(a->op));
		return buf;
	}
	return NULL;
}

bool ft_damaged_access(const struct ft_reader *r, const char *path, const struct ft_hdr *h,
		       uint64_t *n)
{
	char why[160], where[128];

	if (h->type != FT_ACCESS ||
	    !ft_access_problem((const struct ft_access *)h, why, sizeof(why)))
		return false;
	if ((*n)++ < FT_SHOW_DAMAGED)
		ft_warn("%s: %s: %s: skipped", path, ft_reader_where(r, where, sizeof(where)), why);
	return true;
}

void ft_damaged_summary(const char *path, uint64_t n)
{
	if (n > FT_SHOW_DAMAGED)
		ft_warn("%s: %llu damaged access records skipped (%u shown)", path,
			(unsigned long long)n, FT_SHOW_DAMAGED);
}
