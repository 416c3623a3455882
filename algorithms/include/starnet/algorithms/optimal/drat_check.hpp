#pragma once
/// @file
/// An independent check of the UNSAT answers of `starnet optimal` (issue 19): a forward DRAT proof
/// checker. Debian 12 ships no drat-trim; this is starnet's own.
///
/// Problem: given a CNF F and a DRAT proof (a sequence of added lemmas and deleted clauses, text
/// format, each line ending with 0, deletions prefixed by "d"), decide whether the proof refutes F.
/// Method: forward checking. The clause database starts as F; each added lemma C must be RUP
/// (asserting ¬C and unit-propagating the database yields a conflict) or, failing that, RAT on its
/// first literal p (for every clause D ∋ ¬p, C ∪ (D \ {¬p}) is RUP); it then joins the database.
/// Deletions remove a clause (matched irrespective of literal order); deletions of unit clauses
/// are ignored, as drat-trim does by default. The proof is verified when the empty clause is
/// derived, or when top-level propagation of the database conflicts.
///
/// Complexity: O(L·P) for L lemmas and P the propagation cost per check (two watched literals per
/// clause; top-level assignments are kept between checks); a RAT check scans every clause once.
/// IMPORTANT: it checks the proof against the formula it is given; that the formula encodes the
/// right problem is the encoder's business (step_encoding.hpp and its tests).

#include <cstdint>
#include <istream>
#include <string>
#include <vector>

namespace starnet::algorithms::optimal {

struct DratResult {
  bool verified = false;  ///< the proof derives the empty clause, every lemma checked
  std::uint64_t lemmas = 0;
  std::uint64_t deletions = 0;
  std::uint64_t rat_lemmas = 0;  ///< lemmas that needed the RAT check (not RUP)
  std::string failure;           ///< empty when verified
  double seconds = 0;
};

/// @param clauses the formula (DIMACS literals, without the terminating 0s).
/// @param proof the text DRAT proof. @param max_seconds give up after this long ("time limit").
[[nodiscard]] DratResult check_drat(const std::vector<std::vector<int>>& clauses, std::istream& proof,
                                    double max_seconds = 600);

}  // namespace starnet::algorithms::optimal
