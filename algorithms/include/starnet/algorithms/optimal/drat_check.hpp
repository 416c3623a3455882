#pragma once
/// @file
/// An independent check of the UNSAT answers of `starnet optimal`: a forward DRAT proof
/// checker for the text proofs CaDiCaL writes. Debian 12 ships no drat-trim; this is starnet's own.
///
/// Problem: given a CNF F and a DRAT proof (lines "l1 … lk 0" add a lemma, "d l1 … lk 0" delete a
/// clause), decide whether the proof refutes F.
///
/// Method: forward checking. The clause database starts as F. Each added lemma C must be RUP
/// (asserting ¬C and unit-propagating the database yields a conflict) or, failing that, RAT on its
/// first literal p (for every clause D ∋ ¬p of the database, C ∪ (D \ {¬p}) is RUP); it then joins
/// the database. Tautologies are trivially fine; duplicate literals are dropped. A deletion removes
/// one copy of the clause, matched irrespective of literal order; deleting a clause that is not
/// there is counted and ignored. As drat-trim does by default, deletions of unit clauses and of the
/// reason clauses of top-level assignments are ignored too, so the top-level assignment is never
/// retracted (sound: the proof without those deletions is checked, its RAT lemmas against the
/// larger database). The proof is verified as soon as the empty lemma is checked or top-level
/// propagation of the database conflicts (after F alone or after a lemma, as drat-trim also
/// accepts: the empty clause is RUP from then on); the rest of the proof is not read.
/// Propagation uses two watched literals per clause (with a blocking literal); the top-level
/// assignment is kept between lemmas, only each check's temporary assignment is undone. Lemmas
/// contain any literal |l| ≤ 2^31 − 2: variables are renumbered densely as they appear.
///
/// Complexity: per lemma, one propagation (worst case linear in the database size, usually far
/// less); a RAT lemma also scans the database once and propagates once per resolution candidate.
/// Memory linear in the live literals (the clause arena is compacted when half of it is garbage).
/// IMPORTANT: it checks the proof against the formula it is given; that the formula encodes the
/// right problem is the encoder's business (step_encoding.hpp and its tests).

#include <cstdint>
#include <istream>
#include <string>
#include <vector>

namespace starnet::algorithms::optimal {

struct DratResult {
  bool verified = false;          ///< the proof derives the empty clause, every lemma checked
  std::uint64_t lemmas = 0;       ///< added clauses read
  std::uint64_t deletions = 0;    ///< deleted clauses read (ignored ones included)
  std::uint64_t rat_lemmas = 0;   ///< lemmas that needed the RAT check (not RUP)
  std::string failure;            ///< empty when verified; else the reason, naming the proof line
  double seconds = 0;
};

/// Forward DRAT check of a text DRAT proof against a CNF (see the file comment).
/// @param clauses the formula (DIMACS literals, without the terminating 0s).
/// @param proof the text proof. @param max_seconds give up after this long (verified = false,
/// failure says "time limit").
[[nodiscard]] DratResult check_drat(const std::vector<std::vector<int>>& clauses, std::istream& proof,
                                    double max_seconds = 600);

}  // namespace starnet::algorithms::optimal
