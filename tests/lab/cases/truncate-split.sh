#!/bin/sh
# Truncate into a large folio on xfs: what the kernel keeps of it (the rule of
# src/model/filemap/truncate.c, whose model side tests/test-model-truncate checks). 6.1 to
# 6.14 split it with split_folio(), every page its own folio; 6.15 and later with
# folio_split(), the pages kept below EOF page p as folios of the orders of the set bits of
# p - index, largest first. The kept pieces are read from the delete events of a remount.
. /lab/cases/lib.sh

f=/mnt/xfs/t
rel=$(uname -r | awk -F. '{ printf "%d\n", $1 * 1000 + $2 }')
ftload write "$f" 4M 1M > /dev/null || echo "# ftload write failed"
remount xfs || echo "# remount failed"
check "a 4 MiB read ran under record" rec read.ftr xfs ftload read "$f" 1M
ino=$(stat -c %i "$f")
# the largest folio past page 0: "index order"
set -- $(folio-trace dump read.ftr | awk -v ino="ino=$ino" '
	$2 == "pagecache_add" && $5 == ino { i = $6; o = $7; sub("index=", "", i); sub("order=", "", o)
		if (i > 0 && o + 0 > best) { best = o + 0; idx = i } }
	END { if (best >= 3) print idx, best }')
if [ $# -eq 2 ]; then
	idx=$1 ord=$2
	p=$((idx + (1 << ord) * 3 / 4 + 1))
	dev=$(awk '$2 == "/mnt/xfs" { print $1 }' /proc/mounts)
	check "truncate to page $p of the order-$ord folio at $idx, then a remount, under record" \
		rec trunc.ftr xfs sh -c "truncate -s $((p * 4096)) $f && sync &&
			umount /mnt/xfs && mount -t xfs $dev /mnt/xfs"
	got=$(folio-trace dump trunc.ftr | awk -v ino="ino=$ino" -v idx="$idx" -v p="$p" '
		$2 == "pagecache_delete" && $5 == ino { i = $6; o = $7
			sub("index=", "", i); sub("order=", "", o)
			if (i + 0 >= idx && i + 0 < p) print i, o }' | sort -n | tr '\n' ' ')
	if [ "$rel" -ge 6015 ]; then
		want=$(awk -v idx="$idx" -v n=$((p - idx)) -v ord="$ord" 'BEGIN { at = idx
			for (o = ord - 1; o >= 0; o--) if (int(n / 2 ^ o) % 2) { print at, o; at += 2 ^ o } }' |
			tr '\n' ' ')
	else
		want=$(awk -v idx="$idx" -v p="$p" 'BEGIN { for (i = idx; i < p; i++) print i, 0 }' |
			tr '\n' ' ')
	fi
	echo "# kept below page $p: $(echo "$got" | wc -w) fields; kernel $rel"
	check "the folio kept below EOF as the release splits it" equal "$got" "$want"
else
	echo "# the read made no folio of order 3 or more past page 0"
	check "the read made a large folio past page 0" false
fi
rm -f "$f"
finish
