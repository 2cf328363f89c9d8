#pragma once
// UTF-8 validation, one sequence at a time.
#include <cstddef>
#include <string_view>

namespace jgrid::util {

// Length of the valid UTF-8 sequence starting at text[i] (shortest form, no
// surrogates, at most U+10FFFF), or 0 when the bytes there are not one.
std::size_t utf8_sequence_length(std::string_view text, std::size_t i);

}  // namespace jgrid::util
