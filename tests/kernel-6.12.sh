#!/bin/sh
# The kernel lab on Debian 13's Linux 6.12 (as Debian 12 backports it): every case of
# tests/lab/cases/ (tests/kernel-lab.sh).
LAB_SERIES=6.12
. "$TOP_SRCDIR/tests/kernel-lab.sh"
