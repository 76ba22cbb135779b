/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * FT_EXPENSIVE_CHECKS: defined in the sanitizer builds (make check under --enable-sanitizers),
 * which then also test invariants too dear to test on every call of an optimised build.
 */
#ifndef FT_UTIL_CHECKS_H
#define FT_UTIL_CHECKS_H

#if defined(__SANITIZE_ADDRESS__)
#define FT_EXPENSIVE_CHECKS 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define FT_EXPENSIVE_CHECKS 1
#endif
#endif

#endif /* FT_UTIL_CHECKS_H */
