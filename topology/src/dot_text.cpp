// DOT text looked over before Boost's reader parses it (dot_text.hpp).
//
// The tokens are those of Boost's DOT tokenizer (libs/graph/src/read_graphviz_new.cpp): white
// space, // and /* */ comments, lines that start with #, and a backslash before a newline are
// skipped; an ID is [A-Za-z_][A-Za-z0-9_]*, a numeral [-](.digits | digits[.digits]), a quoted
// string runs to the first " not escaped by a backslash, an HTML string to its matching >; -> and
// -- are edge operators. Only what a numeral runs into after its end is read differently.
#include "dot_text.hpp"

#include "decimal.hpp"

#include <starnet/core/error.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cstddef>
#include <optional>
#include <utility>
#include <vector>

namespace starnet::topology::detail {
namespace {

/// The attributes of starnet's DOT schema whose values are numbers (files.cpp reads them). The
/// names are checked wherever they are set: Graphviz itself has only `weight` of them, a number too.
constexpr std::array<std::string_view, 5> NUMERIC_ATTRIBUTES = {"cost", "weight", "speed", "latency", "bandwidth"};

constexpr std::string_view NOT_A_NUMERAL =
    "a numeral run into other characters (expected a number such as 0.25 or 1e-3, or a fraction such as \"2/3\" in "
    "quotes)";
constexpr std::string_view NOT_AN_ID =
    "a numeral run into other characters (expected a number such as 0.25 or 1e-3, a name that starts with a letter or "
    "_, or a quoted string)";

bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_letter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }

enum class Kind { WORD, QUOTED, HTML, PUNCTUATION, END };

struct Token {
  Kind kind = Kind::END;
  std::size_t begin = 0;
  std::size_t end = 0;
  std::size_t line = 0;
  bool numeral = false;  // a word that starts as a DOT numeral
  bool run_on = false;   // ... and runs on into letters, digits, dots or signs
};

class Lexer {
 public:
  explicit Lexer(std::string_view text) : text_(text) {}

  Token next() {
    skip();
    Token t;
    t.begin = i_;
    t.line = line_;
    if (i_ >= text_.size()) return t;
    const char c = text_[i_];
    if (is_letter(c)) {
      t.kind = Kind::WORD;
      while (is_letter(at(i_)) || is_digit(at(i_))) ++i_;
    } else if (c == '-' && (at(i_ + 1) == '-' || at(i_ + 1) == '>')) {
      t.kind = Kind::PUNCTUATION;
      i_ += 2;
    } else if (const auto end = numeral_end(i_); end != i_) {
      t.kind = Kind::WORD;
      t.numeral = true;
      for (i_ = end; runs_on(i_); ++i_) t.run_on = true;
    } else if (c == '"') {
      if (!quoted()) return t;  // unterminated: Boost's reader names the error
      t.kind = Kind::QUOTED;
    } else if (c == '<') {
      t.kind = Kind::HTML;
      html();
    } else {
      t.kind = Kind::PUNCTUATION;
      ++i_;
    }
    t.end = i_;
    return t;
  }

 private:
  [[nodiscard]] char at(std::size_t i) const { return i < text_.size() ? text_[i] : '\0'; }

  void skip() {
    for (;;) {
      const char c = at(i_);
      if (c == '\n') {
        ++line_;
        ++i_;
      } else if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
        ++i_;
      } else if ((c == '/' && at(i_ + 1) == '/') || (c == '#' && (i_ == 0 || text_[i_ - 1] == '\n'))) {
        while (i_ < text_.size() && text_[i_] != '\n') ++i_;
      } else if (c == '/' && at(i_ + 1) == '*') {
        for (i_ += 2; i_ < text_.size() && !(text_[i_] == '*' && at(i_ + 1) == '/'); ++i_) line_ += text_[i_] == '\n';
        i_ = std::min(text_.size(), i_ + 2);
      } else if (c == '\\' && at(i_ + 1) == '\n') {
        i_ += 2;
        ++line_;
      } else {
        return;
      }
    }
  }

  /// Where Boost's numeral starting at @p i ends; @p i when none starts there.
  [[nodiscard]] std::size_t numeral_end(std::size_t i) const {
    std::size_t j = i + (at(i) == '-' ? 1 : 0);
    if (at(j) == '.' && is_digit(at(j + 1))) {
      for (++j; is_digit(at(j));) ++j;
      return j;
    }
    if (!is_digit(at(j))) return i;
    while (is_digit(at(j))) ++j;
    if (at(j) == '.') {
      for (++j; is_digit(at(j));) ++j;
    }
    return j;
  }

  /// Whether a numeral goes on at @p i without a separator: a letter, digit, _ or dot, or a sign
  /// before a digit or dot (1e-3, 1-2; not the edge operators -> and --).
  [[nodiscard]] bool runs_on(std::size_t i) const {
    const char c = at(i);
    if (is_letter(c) || is_digit(c) || c == '.') return true;
    return (c == '-' || c == '+') && (is_digit(at(i + 1)) || at(i + 1) == '.');
  }

  /// Moves past a quoted string; false when it is not closed.
  bool quoted() {
    for (++i_; i_ < text_.size() && text_[i_] != '"'; ++i_) {
      if (text_[i_] == '\\' && i_ + 1 < text_.size()) ++i_;
      line_ += text_[i_] == '\n';
    }
    if (i_ >= text_.size()) return false;
    ++i_;
    return true;
  }

  /// Moves past an HTML string as Boost's tokenizer delimits it: tags counted (open +1, close −1,
  /// empty 0) until none is open; quoted attribute values inside a tag skipped.
  void html() {
    int open = 0;
    do {
      if (i_ >= text_.size()) return;  // unclosed: Boost's reader names the error
      if (text_[i_] != '<') {
        line_ += text_[i_++] == '\n';
        continue;
      }
      const bool closing = at(i_ + 1) == '/';
      std::size_t j = i_ + 1;
      for (; j < text_.size() && text_[j] != '>'; ++j) {
        if (text_[j] == '"' || text_[j] == '\'') {
          const char quote = text_[j];
          for (++j; j < text_.size() && text_[j] != quote; ++j) line_ += text_[j] == '\n';
        } else {
          line_ += text_[j] == '\n';
        }
      }
      const bool empty = j > i_ + 1 && text_[j - 1] == '/';
      i_ = std::min(text_.size(), j + 1);
      open += closing ? -1 : empty ? 0 : 1;
    } while (open > 0);
  }

  std::string_view text_;
  std::size_t i_ = 0;
  std::size_t line_ = 1;
};

/// The value of a quoted string as Boost's reader gives it: \" is ", a backslash-newline is nothing.
std::string unquoted(std::string_view quoted) {
  std::string out;
  const std::string_view inner = quoted.substr(1, quoted.size() - 2);
  for (std::size_t i = 0; i < inner.size(); ++i) {
    if (inner[i] == '\\' && i + 1 < inner.size() && (inner[i + 1] == '"' || inner[i + 1] == '\n')) {
      if (inner[++i] == '\n') continue;
    }
    out += inner[i];
  }
  return out;
}

bool is_decimal(std::string_view word) {
  std::size_t end = 0;
  return leading_decimal(word, end).has_value() && end == word.size();
}

bool is_keyword(std::string_view word, std::string_view keyword) {
  return word.size() == keyword.size() && std::equal(word.begin(), word.end(), keyword.begin(), [](char a, char b) {
           return std::tolower(static_cast<unsigned char>(a)) == b;
         });
}

/// Goes through the tokens, keeping what a message needs: the attribute a value belongs to and
/// whose attribute it is, in the words files.cpp uses (`link a->b weight`, `node "a" speed`).
class Checker {
 public:
  Checker(std::string_view text, const std::string& file) : text_(text), file_(file), lexer_(text) {}

  CheckedDotText run() {
    CheckedDotText checked;
    out_.reserve(text_.size());
    for (Token t = lexer_.next(); t.kind != Kind::END; t = lexer_.next()) {
      try {
        look_at(t);
      } catch (const TopologyError& e) {
        // The rest is left as it is: it is parsed only to find a syntax error on an earlier line.
        checked.problem = DotProblem{t.line, e.what()};
        break;
      }
      recent_.push_back(t);
      if (recent_.size() > RECENT) recent_.erase(recent_.begin());
    }
    out_.append(text_.substr(copied_));
    checked.text = std::move(out_);
    return checked;
  }

 private:
  /// Tokens kept to name the owner of an attribute list: the 11 of `a:port:compass -> b:port:compass`.
  static constexpr std::size_t RECENT = 11;

  [[nodiscard]] std::string_view spelled(const Token& t) const { return text_.substr(t.begin, t.end - t.begin); }
  [[nodiscard]] bool is(const Token& t, std::string_view punctuation) const {
    return t.kind == Kind::PUNCTUATION && spelled(t) == punctuation;
  }
  [[nodiscard]] static bool is_id(const Token& t) { return t.kind == Kind::WORD || t.kind == Kind::QUOTED; }
  [[nodiscard]] std::string id(const Token& t) const {
    return t.kind == Kind::QUOTED ? unquoted(spelled(t)) : std::string(spelled(t));
  }
  /// recent_[k] as a node of an edge (its port and compass point skipped): its name, and where it begins.
  [[nodiscard]] std::pair<std::string, std::size_t> endpoint(std::size_t k) const {
    while (k >= 2 && is_id(recent_[k]) && (is(recent_[k - 1], ":") || is(recent_[k - 1], "@"))) k -= 2;
    if (is(recent_[k], "}")) return {"{...}", k};
    return {is_id(recent_[k]) ? id(recent_[k]) : std::string("?"), k};
  }

  /// Whose attributes the list opened after recent_ are.
  [[nodiscard]] std::string owner() const {
    if (recent_.empty()) return "attribute";
    const auto [target, at] = endpoint(recent_.size() - 1);
    const Token& last = recent_[at];
    if (last.kind == Kind::WORD && is_keyword(spelled(last), "node")) return "node defaults";
    if (last.kind == Kind::WORD && is_keyword(spelled(last), "edge")) return "link defaults";
    if (last.kind == Kind::WORD && is_keyword(spelled(last), "graph")) return "graph attribute";
    if (at >= 2 && (is(recent_[at - 1], "->") || is(recent_[at - 1], "--"))) {
      return fmt::format("link {}->{}", endpoint(at - 2).first, target);
    }
    return is_id(last) ? fmt::format("node \"{}\"", target) : "attribute";
  }

  void look_at(const Token& t) {
    if (is(t, "[")) {
      // Lists in a row ([..][..]) belong to the same owner.
      if (recent_.empty() || !is(recent_.back(), "]")) owner_ = owner();
      in_list_ = true;
    } else if (is(t, "]")) {
      in_list_ = false;
    }
    // The attribute this token is the value of, in `NAME = VALUE` (in a list, or the graph's).
    std::optional<std::string> attribute;
    const std::size_t n = recent_.size();
    if (n >= 2 && is(recent_[n - 1], "=") && is_id(recent_[n - 2])) attribute = id(recent_[n - 2]);
    const std::string what =
        attribute ? fmt::format("{} line {}: {} {}", file_, t.line, in_list_ ? owner_ : "graph attribute", *attribute)
                  : fmt::format("{} line {}", file_, t.line);
    const bool numeric = attribute && std::find(NUMERIC_ATTRIBUTES.begin(), NUMERIC_ATTRIBUTES.end(), *attribute) !=
                                          NUMERIC_ATTRIBUTES.end();
    const std::string_view word = spelled(t);
    if (t.numeral && t.run_on) {
      if (!is_decimal(word)) {
        throw TopologyError(numeric ? fmt::format("{}: \"{}\" is not a number: {}", what, word, NOT_A_NUMERAL)
                                    : fmt::format("{}: \"{}\" is not a DOT ID: {}", what, word, NOT_AN_ID));
      }
      out_.append(text_.substr(copied_, t.begin - copied_));
      out_ += '"';
      out_.append(word);
      out_ += '"';
      copied_ = t.end;
    }
    if (!numeric || t.kind == Kind::PUNCTUATION) return;
    // A quoted value followed by + is concatenated with the next: the file's reader checks the whole.
    Lexer ahead = lexer_;
    const Token following = ahead.next();
    if (t.kind == Kind::QUOTED && is(following, "+")) return;
    (void)exact_number(t.kind == Kind::QUOTED ? unquoted(word) : std::string(word), what);
  }

  std::string_view text_;
  const std::string& file_;
  Lexer lexer_;
  std::vector<Token> recent_;
  std::string owner_;
  bool in_list_ = false;
  std::string out_;
  std::size_t copied_ = 0;
};

}  // namespace

CheckedDotText checked_dot_text(std::string_view text, const std::string& file) { return Checker(text, file).run(); }

}  // namespace starnet::topology::detail
