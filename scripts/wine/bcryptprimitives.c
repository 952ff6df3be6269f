// ProcessPrng for wine releases that lack bcryptprimitives.dll (Debian 12's wine 8.0; Windows has
// had it since Windows 10, and newer wine has it too). Rust's standard library and getrandom
// import it on Windows; scripts/test-platform.mjs builds this with mingw-w64 into the wine
// prefix's system32 for the Windows test run only. It forwards to wine's BCryptGenRandom with the
// system-preferred generator (wine's draws from the host's random source).
#include <windows.h>
#include <bcrypt.h>

__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T len) {
  while (len > 0) {
    ULONG n = len > 0x40000000 ? 0x40000000 : (ULONG)len;
    if (!BCRYPT_SUCCESS(BCryptGenRandom(NULL, data, n, BCRYPT_USE_SYSTEM_PREFERRED_RNG))) return FALSE;
    data += n;
    len -= n;
  }
  return TRUE;
}
