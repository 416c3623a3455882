#pragma once
// Non-Commut-Tree-dyn's array of idle processors (tree_dyn.hpp), shared by its node program
// (tree_dyn.cpp) and the fast path (fast_path.cpp) so that both pair processors alike.
// Private to the nonclairvoyant part.

#include <starnet/algorithms/nonclairvoyant/reduce_value.hpp>

#include <vector>

namespace starnet::algorithms::nonclairvoyant {

/// Processor @p v, idle and holding @p x, looks for an idle processor holding a neighbouring
/// value: on the left ([k, lo−1], in @p by_hi) first, then on the right ([hi+1, k], in @p by_lo).
/// @return the partner, taken out of the arrays (@p value_of(partner) gives its value), or
/// @p none when there is none, and then v is put in.
template <class Id, class ValueOf>
Id pair_with_neighbour(std::vector<Id>& by_lo, std::vector<Id>& by_hi, const ReduceValue& x, Id v, Id none,
                       ValueOf&& value_of) {
  const Id left = x.lo > 0 ? by_hi[x.lo - 1U] : none;
  const Id right = x.hi + 1U < by_lo.size() ? by_lo[x.hi + 1U] : none;
  const Id partner = left != none ? left : right;
  if (partner == none) {
    by_lo[x.lo] = v;
    by_hi[x.hi] = v;
    return none;
  }
  const ReduceValue& taken = value_of(partner);
  by_lo[taken.lo] = none;
  by_hi[taken.hi] = none;
  return partner;
}

}  // namespace starnet::algorithms::nonclairvoyant
