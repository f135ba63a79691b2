// Integer expressions of the case language: sizes, offsets, device numbers.
//
//   4096   0x1000   4Ki   64Mi+1   2*4Mi-1   $size+$dst_offset   $device_count   $dst.bytes
//
// Suffixes Ki/Mi/Gi are binary (2^10, 2^20, 2^30). Operators + - * / with the
// usual precedence, unary minus, parentheses. `$name` is a matrix axis or a
// built-in variable; `$buf.bytes` is the size asked for by an earlier alloc.
// Parsing is separate from evaluation so a file is checked before any device
// exists, and evaluation never throws: overflow and unknown names are errors.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace harness::cases {

struct ExprError {
    int offset = 0; // 0-based character offset inside the expression text
    std::string message;
};

class Expr {
  public:
    struct Node;

    // Parses `text`; on failure the error says where and what was expected.
    static std::variant<Expr, ExprError> parse(const std::string &text);
    static Expr constant(int64_t v);

    Expr();
    ~Expr();
    Expr(const Expr &);
    Expr &operator=(const Expr &);
    Expr(Expr &&) noexcept;
    Expr &operator=(Expr &&) noexcept;

    // Looks up a variable (without the '$'); nullopt means "not defined".
    using Lookup = std::function<std::optional<int64_t>(const std::string &)>;
    std::variant<int64_t, std::string> evaluate(const Lookup &lookup) const;

    const std::string &text() const { return text_; }
    // Every variable the expression reads, in order of appearance.
    std::vector<std::string> variables() const;
    bool is_constant() const { return variables().empty(); }

  private:
    std::string text_;
    std::shared_ptr<const Node> root_; // immutable tree, safe to share
};

// Formats a byte count the way case files write it (4Mi+1, 64Ki-1, 4093), so
// instance names read like the file that produced them.
std::string format_size(int64_t v);

} // namespace harness::cases
