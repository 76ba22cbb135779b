// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The trace as the calibrated model sees it: the same records without the accesses of the
 * files left out (mapped executables and libraries with --files=syscalls), so the model's
 * figures and the kernel's cover the same files.
 */
#include <unistd.h>

#include "calibrate/kernel.h"

/* A record the copy keeps; its own FT_END is written by the writer at the close. */
static bool keep_record(struct kernel_facts *k, const struct ft_hdr *h, bool *ok)
{
	const struct ft_access *a = (const struct ft_access *)h;
	const struct kfile *f;

	*ok = true;
	if (h->type == FT_END)
		return false;
	if (h->type != FT_ACCESS)
		return true;
	f = kernel_kfile(k, a->dev, a->ino);
	if (!f) {
		*ok = false;
		return false;
	}
	return kfile_modelled(k, f);
}

/* The replay driver numbers files on FT_FILE and FT_ACCESS records, in order: so do we. */
static bool note_replay_id(struct kernel_facts *k, const struct ft_hdr *h)
{
	if (h->type == FT_FILE) {
		const struct ft_file *f = (const struct ft_file *)h;

		return file_table_id(&k->replay_ids, f->dev, f->ino) != FILE_ID_NONE;
	}
	if (h->type == FT_ACCESS) {
		const struct ft_access *a = (const struct ft_access *)h;

		return file_table_id(&k->replay_ids, a->dev, a->ino) != FILE_ID_NONE;
	}
	return true;
}

static int copy_records(struct kernel_facts *k, struct ft_reader *r, struct ft_writer *w,
			const char *path, struct ft_error *err)
{
	const struct ft_hdr *h;
	bool ok;
	int ret;

	while ((ret = ft_reader_next(r, &h, err)) == FT_READ_MORE) {
		bool keep = keep_record(k, h, &ok);

		if (!ok || (keep && !note_replay_id(k, h)))
			return ft_error_set(err, path, "out of memory for the file table");
		if (keep && ft_writer_append(w, h, err) < 0)
			return -1;
	}
	return ret == FT_READ_ERROR ? -1 : 0;
}

int kernel_write_modelled(struct kernel_facts *k, const char *path, int fd,
			  const char *copy_name, bool *cut, struct ft_error *err)
{
	struct ft_reader *r = ft_reader_open(path, err);
	struct ft_writer *w;

	*cut = false;
	if (!r) {
		close(fd);
		return -1;
	}
	/* a write that fails is the copy's (a full TMPDIR), not the input's */
	w = ft_writer_fdopen(fd, copy_name, err);
	if (!w) {
		ft_reader_close(r);
		return -1;
	}
	file_table_release(&k->replay_ids);
	file_table_init(&k->replay_ids);
	if (copy_records(k, r, w, path, err) < 0) {
		ft_writer_abort(w);
		ft_reader_close(r);
		return -1;
	}
	*cut = ft_reader_report_end(r) != 0;
	ft_reader_close(r);
	return ft_writer_close(w, err);
}
