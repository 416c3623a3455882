#pragma once
// STARNET_UNDER_SANITIZER is defined in a build under AddressSanitizer or ThreadSanitizer: GCC
// says so with __SANITIZE_ADDRESS__ / __SANITIZE_THREAD__, Clang (the asan preset) only through
// __has_feature. Tests of memory figures and limits skip under them (shadow memory, quarantine).
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define STARNET_UNDER_SANITIZER 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define STARNET_UNDER_SANITIZER 1
#endif
#endif
