#!/bin/sh
# The start cache's folios as the kernel's deletes show them: on xfs (large folios on both lab
# releases), a 64 MiB file written in 1 MiB writes and a 16 MiB one read at random in 4 KiB
# reads, both cached before the trace, dropped in it by POSIX_FADV_DONTNEED; a cold file read
# in the trace gives the largest order the kernel takes. The model's dropped folios must be
# the kernel's (the default, --start-folios=deleted), where the rule alone gives others.
. /lab/cases/lib.sh

fs=xfs
w=/mnt/$fs/written r=/mnt/$fs/random c=/mnt/$fs/cold
ftload write "$c" 16M 1M > /dev/null || echo "# ftload write $c failed"
ftload write "$r" 16M 1M > /dev/null || echo "# ftload write $r failed"
remount "$fs" || echo "# $fs: remount failed"
ftload write "$w" 64M 1M > /dev/null || echo "# ftload write $w failed"
ftload zipf "$r" 4K 8192 0 1 > /dev/null || echo "# ftload zipf $r failed"
t=sf.ftr
check "recorded: a cold read, then both dropped" rec "$t" "$fs" sh -c \
	"ftload read $c 1M > /dev/null && ftload drop $w > /dev/null && ftload drop $r > /dev/null"
for f in "$w" "$r"; do
	ino=$(stat -c %i "$f")
	echo "# $(basename "$f"): cached at the start:" \
		"$(folio-trace dump -t start_cache "$t" | grep " ino=$ino " |
		   sed 's/.* \(nr_cache=[0-9]*\).*/\1/')," \
		"the kernel's deletes by order: $(folio-trace dump -t pagecache_delete "$t" |
		awk -v i="ino=$ino" '$5 == i { sub("order=", "", $7); n[$7]++ }
		END { for (o in n) printf "%s:%s ", o, n[o] }')"
done
deleted=$(calib "$t" "POSIX_FADV_DONTNEED drops, folios")
rule=$(folio-trace calibrate -q --format=json --start-folios=rule "$t" |
	grep -m1 '"metric": "POSIX_FADV_DONTNEED drops, folios"' |
	sed 's/.*"model": \([0-9]*\), "kernel": \([0-9]*\),.*/\1 \2/')
echo "# DONTNEED folios, model kernel: deleted $deleted, rule $rule"
check "the kernel dropped folios" test -n "${deleted#* }"
check "the model drops the kernel's folios (--start-folios=deleted)" \
	equal "${deleted% *}" "${deleted#* }"
check "the rule alone does not (the random reads' base pages)" \
	test "${rule% *}" != "${rule#* }"
pages=$(calib "$t" "POSIX_FADV_DONTNEED drops, pages")
check "and the same pages" equal "${pages% *}" "${pages#* }"
rm -f "$w" "$r" "$c"
finish
