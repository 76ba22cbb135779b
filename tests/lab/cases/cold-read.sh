#!/bin/sh
# A 64 MiB file read cold from start to end in 4 KiB and in 1 MiB reads, on ext4 and on xfs:
# the folios the kernel inserted (mm_filemap_add_to_page_cache, by order) against what the
# default replay inserts for the same reads, which follows the recording release's readahead
# rule and its filesystem's largest folio order.
. /lab/cases/lib.sh

for fs in ext4 xfs; do
	f=/mnt/$fs/r
	ftload write "$f" 64M 1M > /dev/null || echo "# $fs: ftload write failed"
	for bs in 4K 1M; do
		t=r-$fs-$bs.ftr
		remount "$fs" || echo "# $fs: remount failed"
		check "$fs $bs: ftload read ran under record" rec "$t" "$fs" ftload read "$f" "$bs"
		ino=$(stat -c %i "$f")
		kernel=$(kernel_orders "$t" "$ino" | tr '\n' ' ')
		model=$(model_orders "$t" | tr '\n' ' ')
		echo "# $fs $bs: folios by order (order count ...): kernel $kernel, model $model"
		check "$fs $bs: the kernel inserted folios" test -n "$kernel"
		check "$fs $bs: the default replay inserts the kernel's folios, order by order" \
			equal "$model" "$kernel"
	done
	rm -f "$f"
done
finish
