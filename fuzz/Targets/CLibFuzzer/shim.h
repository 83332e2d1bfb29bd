#ifndef SLATE_CLIBFUZZER_SHIM_H
#define SLATE_CLIBFUZZER_SHIM_H

#include <stddef.h>
#include <stdint.h>

// libFuzzer's driver (in the toolchain's clang runtime, linked by -sanitize=fuzzer).
// SwiftPM links an executable target with its own `main`, so the fuzz targets call the
// driver from there instead of relying on libFuzzer's `main`.
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

#endif
