#!/bin/sh
# The kernel lab on Debian 12's Linux 6.1: every case of tests/lab/cases/ (tests/kernel-lab.sh).
LAB_SERIES=6.1
. "$TOP_SRCDIR/tests/kernel-lab.sh"
