#include <starnet/algorithms/nonclairvoyant/reduce_value.hpp>
#include <starnet/core/error.hpp>

#include <cstring>

namespace starnet::algorithms::nonclairvoyant {

ReduceValue ReduceValue::initial(std::uint64_t i) {
  // A word per processor that differs between processors (Knuth's multiplicative hash).
  return {static_cast<std::uint32_t>((i + 1) * 2654435761U), static_cast<std::uint16_t>(i),
          static_cast<std::uint16_t>(i)};
}

std::uint32_t ReduceValue::expected_sum(std::uint64_t n) {
  std::uint32_t s = 0;
  for (std::uint64_t i = 0; i < n; ++i) s += initial(i).sum;
  return s;
}

std::string ReduceValue::encode() const {
  std::string bytes(sizeof(ReduceValue), '\0');
  std::memcpy(bytes.data(), this, sizeof(ReduceValue));
  return bytes;
}

ReduceValue ReduceValue::decode(const std::string& bytes) {
  STARNET_ASSERT(bytes.size() == sizeof(ReduceValue));
  ReduceValue v;
  std::memcpy(&v, bytes.data(), sizeof v);
  return v;
}

}  // namespace starnet::algorithms::nonclairvoyant

namespace starnet::algorithms::nonclairvoyant {

std::string CheckedOperator::show(const std::string& v) const {
  const auto x = ReduceValue::decode(v);
  if (x.lo == ReduceValue::BROKEN) return "sum " + std::to_string(x.sum) + ", order broken";
  return "sum " + std::to_string(x.sum) + ", [" + std::to_string(x.lo) + ", " + std::to_string(x.hi) + "]";
}

}  // namespace starnet::algorithms::nonclairvoyant
