#ifndef CFILESWAP_H
#define CFILESWAP_H

/*
 * The umbrella header of the CFileSwap module: the exporter's small C shims, one header each.
 * Naming every header here (rather than letting the folder be the umbrella) makes a header added
 * later a change of this file, which rebuilds the module in an existing build folder too.
 */

#include "rk_file_swap.h"
#include "rk_heap_trim.h"

#endif
