// Exposes libyaml's public header to Swift. Nothing else belongs here: Swift calls libyaml's
// functions directly; only Sources/RowKitListing/YAML/YAMLEventReader.swift imports this module.
#ifndef ROWKIT_CYAML_SHIM_H
#define ROWKIT_CYAML_SHIM_H
#include <yaml.h>
#endif
