// Exposes libcmark's public header to Swift. Nothing else belongs here: Swift calls cmark's
// functions directly; only Sources/RowKitHTML/Markdown/Markdown.swift imports this module.
#ifndef ROWKIT_CCMARK_SHIM_H
#define ROWKIT_CCMARK_SHIM_H
#include <cmark.h>
#endif
