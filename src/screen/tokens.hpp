#pragma once
// ASCII case-insensitive matching on word boundaries, without allocating.
// Two word shapes are used:
//  - image tokens: an image reference split on [/:._@-] ("pytorch", "cu121");
//  - command words: a text split on everything but [A-Za-z0-9_.+-], so tool
//    names ("nvidia-smi"), flags ("--gpus") and dotted names ("torch.cuda")
//    stay whole while paths, quotes, '=' and shell punctuation separate.
// All functions are pure and thread-safe.
#include <string_view>

namespace jgrid::screen {

char lower(char c);
bool iequals(std::string_view a, std::string_view b);
bool istarts_with(std::string_view text, std::string_view prefix);
bool iends_with(std::string_view text, std::string_view suffix);
// Offset of the first case-insensitive occurrence of `needle`, or npos.
std::size_t ifind(std::string_view text, std::string_view needle, std::size_t from = 0);
bool all_digits(std::string_view text);  // false on empty

// An OCI reference split into parts (views into the original text).
// registry is empty for Docker Hub short names; tag and digest may be empty.
struct ImageRef {
  std::string_view registry, repository, tag, digest;
  bool docker_hub() const;  // registry empty, docker.io or index.docker.io
};
ImageRef parse_image_ref(std::string_view ref);

// Calls f(token) for each non-empty token of `text` split on [/:._@-];
// stops early and returns true when f returns true.
template <typename F>
bool any_image_token(std::string_view text, F f) {
  std::size_t start = 0;
  for (std::size_t i = 0; i <= text.size(); ++i) {
    bool separator = i == text.size() || std::string_view("/:._@-").find(text[i]) != std::string_view::npos;
    if (!separator) continue;
    if (i > start && f(text.substr(start, i - start))) return true;
    start = i + 1;
  }
  return false;
}

bool is_command_word_char(char c);

// Calls f(word, next_word) for each command word of `text` (next_word is
// empty for the last); stops early and returns true when f returns true.
template <typename F>
bool any_command_word(std::string_view text, F f) {
  auto next = [&](std::size_t& at) {
    while (at < text.size() && !is_command_word_char(text[at])) ++at;
    std::size_t begin = at;
    while (at < text.size() && is_command_word_char(text[at])) ++at;
    return text.substr(begin, at - begin);
  };
  std::size_t at = 0;
  std::string_view word = next(at);
  while (!word.empty()) {
    std::string_view following = next(at);
    if (f(word, following)) return true;
    word = following;
  }
  return false;
}

}  // namespace jgrid::screen
