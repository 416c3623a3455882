#pragma once
/// @file
/// Payloads are bytes (std::string); most node programs send one 64-bit word. These two helpers
/// are the one encoding of a word in a payload (host byte order: every worker runs the same build).

#include <starnet/core/error.hpp>

#include <cstdint>
#include <cstring>
#include <string>

namespace starnet::emulator {

/// The 8-byte payload of @p x.
[[nodiscard]] inline std::string word_payload(std::uint64_t x) {
  std::string s(sizeof x, '\0');
  std::memcpy(s.data(), &x, sizeof x);
  return s;
}

/// The word in an 8-byte payload. @pre payload.size() == 8 (programs read what they sent).
[[nodiscard]] inline std::uint64_t payload_word(const std::string& payload) {
  std::uint64_t x = 0;
  STARNET_ASSERT(payload.size() == sizeof x);
  std::memcpy(&x, payload.data(), sizeof x);
  return x;
}

}  // namespace starnet::emulator
