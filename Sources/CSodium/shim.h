#ifndef SLATE_CSODIUM_SHIM_H
#define SLATE_CSODIUM_SHIM_H

#include <sodium.h>

#endif
