/* Included before every AWS-LC source file of the WebAssembly build (wasm32-wasip1-threads):
 * scripts/build-release.mjs passes it in AWS_LC_SYS_CFLAGS_wasm32_wasip1_threads.
 *
 * AWS-LC's openssl/target.h takes WASI to have no threads and then builds without locks,
 * once-guards or per-thread state (OPENSSL_NO_THREADS_CORRUPT_MEMORY_AND_LEAK_SECRETS_IF_THREADED).
 * This build runs it on several threads at once (async calls on the pool threads beside the
 * JavaScript thread), where that mode shares one random generator and unguarded caches between
 * threads: two RSA key generations at once gave keys whose halves did not match. wasi-libc has
 * pthreads in this target, so AWS-LC is built with them, as on Linux: target.h is read here
 * first (its include guard keeps it from being read again) and its choice undone. */
#if __has_include(<openssl/target.h>) /* not in the build's compiler probes */
#include <openssl/target.h>
#undef OPENSSL_NO_THREADS_CORRUPT_MEMORY_AND_LEAK_SECRETS_IF_THREADED
#ifndef OPENSSL_THREADS
#define OPENSSL_THREADS
#endif
#endif
