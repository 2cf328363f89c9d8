#pragma once
// Identifiers: "<prefix>_" + 26 Crockford base32 characters (48-bit ms time,
// then a process-wide counter and randomness). Ids made later in one process
// sort after earlier ones, so jobs sort by creation. URL-safe. Thread-safe.
#include <cstdint>
#include <string>
#include <string_view>

namespace jgrid::util {

std::string new_id(std::string_view prefix, std::int64_t now_ms);

// Replaces the random part's seed (random per process by default), so that
// a run on a virtual clock makes the same ids every time (`simulate`, whose
// event log must be byte-identical for the same inputs).
void seed_ids(std::uint64_t salt);

// Random bytes from the OS, hex-encoded (2 chars per byte). Throws on failure
// of the OS source, which is a broken system, not an expected error.
std::string random_hex(std::size_t bytes);

}  // namespace jgrid::util
