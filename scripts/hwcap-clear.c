// Hides CPU features from a Linux process: getauxval(AT_HWCAP) answers the kernel's value (under
// qemu-user, the emulated CPU's) with the bits named by the environment variable
// CRYPTOGRAPHER_TEST_HWCAP_CLEAR (hexadecimal) cleared. Every backend that picks its code path at
// run time on Linux asks getauxval (std's is_aarch64_feature_detected!, RustCrypto's cpufeatures,
// ring, AWS-LC, Node's own OpenSSL), so with the AES, PMULL and SHA-1/2/3/512 bits cleared they
// all take their portable paths: the arm64 tests' CPU without the ARMv8 crypto extensions, which
// no qemu CPU model lacks. /proc/self/auxv is left alone: the tests read the CPU's features there
// and clear the same bits.
//
// scripts/test-arm64.mjs preloads it into every emulated process (QEMU_SET_ENV=LD_PRELOAD=...).
// It takes LD_PRELOAD out of the environment again, so that x86-64 programs the tests start
// (python3, age) do not inherit a library they cannot load; qemu sets it anew for each aarch64
// program.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdlib.h>
#include <sys/auxv.h>

__attribute__((constructor)) static void forget_preload(void) { unsetenv("LD_PRELOAD"); }

unsigned long getauxval(unsigned long type) {
  static unsigned long (*next)(unsigned long);
  if (next == NULL) next = (unsigned long (*)(unsigned long))dlsym(RTLD_NEXT, "getauxval");
  unsigned long value = next(type);
  if (type == AT_HWCAP) {
    const char *clear = getenv("CRYPTOGRAPHER_TEST_HWCAP_CLEAR");
    if (clear != NULL) value &= ~strtoul(clear, NULL, 16);
  }
  return value;
}
