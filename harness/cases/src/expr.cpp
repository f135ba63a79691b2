#include "cases/expr.hpp"

#include <cctype>

namespace harness::cases {

struct Expr::Node {
    enum class Op { literal, variable, add, sub, mul, div, neg } op = Op::literal;
    int64_t value = 0;
    std::string name;
    std::shared_ptr<const Node> lhs, rhs;
};

namespace {

using NodeP = std::shared_ptr<const Expr::Node>;
using Op = Expr::Node::Op;

// Recursive descent over: expr := term (('+'|'-') term)*; term := unary
// (('*'|'/') unary)*; unary := '-' unary | primary; primary := number suffix?
// | '$' name | '(' expr ')'. Small enough that a generator would cost more.
class Parser {
  public:
    explicit Parser(const std::string &t) : t_(t) {}

    std::variant<NodeP, ExprError> run() {
        skip_space();
        if (pos_ == t_.size())
            return ExprError{0, "expected a number or expression, found nothing"};
        NodeP n = expr();
        if (!err_.message.empty()) return err_;
        skip_space();
        if (pos_ != t_.size()) {
            return ExprError{static_cast<int>(pos_),
                             "unexpected '" + std::string(1, t_[pos_]) +
                                 "': expected an operator (+ - * /) or the end of the expression"};
        }
        return n;
    }

  private:
    const std::string &t_;
    size_t pos_ = 0;
    ExprError err_;
    // The parser, evaluation and destruction recurse, so both the nesting
    // of '(' and unary '-' and the length of operator chains (binary
    // operators build left-deep trees) are stack depth. A fuzzed "((((..."
    // 4 KB deep overflowed the stack (fuzz_case_loader,
    // regress-expr-deep-nesting); no case file needs more than a handful of
    // either, and the caps make the bound certain for any file size.
    static constexpr int kMaxDepth = 64;
    static constexpr int kMaxOperators = 256;
    int depth_ = 0;
    int operators_ = 0;
    // Counts one more of a bounded thing; past its limit, fails at the
    // current position ("<before><limit><after>").
    bool bounded(int &count, int limit, const char *before, const char *after) {
        if (++count <= limit) return true;
        fail(before + std::to_string(limit) + after);
        return false;
    }
    // Enters one level of '(' or unary '-' (the caller leaves it with --depth_).
    bool nest() { return bounded(depth_, kMaxDepth, "expression nested deeper than ", " levels"); }
    // Counts one binary operator at its position (the error points at it).
    bool one_more_operator() {
        return bounded(operators_, kMaxOperators, "expression has more than ", " operators");
    }

    bool failed() const { return !err_.message.empty(); }
    void fail(const std::string &m) {
        if (!failed()) err_ = ExprError{static_cast<int>(pos_), m};
    }
    void skip_space() {
        while (pos_ < t_.size() && (t_[pos_] == ' ' || t_[pos_] == '\t'))
            ++pos_;
    }
    static NodeP make(Op op, NodeP l, NodeP r) {
        auto n = std::make_shared<Expr::Node>();
        n->op = op;
        n->lhs = std::move(l);
        n->rhs = std::move(r);
        return n;
    }

    NodeP expr() {
        NodeP l = term();
        while (!failed()) {
            skip_space();
            if (pos_ < t_.size() && (t_[pos_] == '+' || t_[pos_] == '-')) {
                Op op = t_[pos_] == '+' ? Op::add : Op::sub;
                if (!one_more_operator()) break;
                ++pos_;
                l = make(op, l, term());
            } else {
                break;
            }
        }
        return l;
    }
    NodeP term() {
        NodeP l = unary();
        while (!failed()) {
            skip_space();
            if (pos_ < t_.size() && (t_[pos_] == '*' || t_[pos_] == '/')) {
                Op op = t_[pos_] == '*' ? Op::mul : Op::div;
                if (!one_more_operator()) break;
                ++pos_;
                l = make(op, l, unary());
            } else {
                break;
            }
        }
        return l;
    }
    NodeP unary() {
        skip_space();
        if (pos_ < t_.size() && t_[pos_] == '-') {
            if (!nest()) return nullptr;
            ++pos_;
            NodeP n = make(Op::neg, unary(), nullptr);
            --depth_;
            return n;
        }
        return primary();
    }
    NodeP primary() {
        skip_space();
        if (pos_ >= t_.size()) {
            fail("expected a number, $variable or '(' after an operator");
            return nullptr;
        }
        char c = t_[pos_];
        if (c == '(') {
            if (!nest()) return nullptr;
            ++pos_;
            NodeP n = expr();
            --depth_;
            skip_space();
            if (pos_ >= t_.size() || t_[pos_] != ')') {
                fail("expected ')'");
                return nullptr;
            }
            ++pos_;
            return n;
        }
        if (c == '$') {
            ++pos_;
            size_t start = pos_;
            while (pos_ < t_.size() && (std::isalnum(static_cast<unsigned char>(t_[pos_])) ||
                                        t_[pos_] == '_' || t_[pos_] == '.')) {
                ++pos_;
            }
            if (start == pos_) {
                fail("expected a variable name after '$'");
                return nullptr;
            }
            auto n = std::make_shared<Expr::Node>();
            n->op = Op::variable;
            n->name = t_.substr(start, pos_ - start);
            return n;
        }
        if (std::isdigit(static_cast<unsigned char>(c))) return number();
        fail("unexpected '" + std::string(1, c) + "': expected a number, $variable or '('");
        return nullptr;
    }
    NodeP number() {
        size_t start = pos_;
        int base = 10;
        if (t_.compare(pos_, 2, "0x") == 0 || t_.compare(pos_, 2, "0X") == 0) {
            base = 16;
            pos_ += 2;
        }
        uint64_t v = 0;
        size_t digits = 0;
        while (pos_ < t_.size()) {
            char c = t_[pos_];
            int d;
            if (c >= '0' && c <= '9')
                d = c - '0';
            else if (base == 16 && std::isxdigit(static_cast<unsigned char>(c)))
                d = std::tolower(static_cast<unsigned char>(c)) - 'a' + 10;
            else
                break;
            if (v > (UINT64_MAX - static_cast<uint64_t>(d)) / static_cast<uint64_t>(base) ||
                v * static_cast<uint64_t>(base) + static_cast<uint64_t>(d) > INT64_MAX) {
                pos_ = start;
                fail("number too large for 64 bits");
                return nullptr;
            }
            v = v * static_cast<uint64_t>(base) + static_cast<uint64_t>(d);
            ++pos_;
            ++digits;
        }
        if (digits == 0) {
            fail("expected hexadecimal digits after 0x");
            return nullptr;
        }
        int shift = 0;
        if (pos_ < t_.size()) {
            char s = t_[pos_];
            if ((s == 'K' || s == 'M' || s == 'G') && pos_ + 1 < t_.size() && t_[pos_ + 1] == 'i') {
                shift = s == 'K' ? 10 : s == 'M' ? 20 : 30;
                pos_ += 2;
            } else if (std::isalpha(static_cast<unsigned char>(s))) {
                fail("unknown size suffix: expected Ki, Mi or Gi (binary multiples)");
                return nullptr;
            }
        }
        if (shift && v > (static_cast<uint64_t>(INT64_MAX) >> shift)) {
            pos_ = start;
            fail("size too large for 64 bits");
            return nullptr;
        }
        auto n = std::make_shared<Expr::Node>();
        n->op = Op::literal;
        n->value = static_cast<int64_t>(v << shift);
        return n;
    }
};

std::variant<int64_t, std::string> eval(const Expr::Node &n, const Expr::Lookup &lookup) {
    switch (n.op) {
    case Op::literal:
        return n.value;
    case Op::variable: {
        auto v = lookup ? lookup(n.name) : std::nullopt;
        if (!v) return "unknown variable $" + n.name;
        return *v;
    }
    default:
        break;
    }
    auto l = eval(*n.lhs, lookup);
    if (auto *e = std::get_if<std::string>(&l)) return *e;
    int64_t a = std::get<int64_t>(l);
    if (n.op == Op::neg) {
        if (a == INT64_MIN) return std::string("overflow in negation");
        return -a;
    }
    auto r = eval(*n.rhs, lookup);
    if (auto *e = std::get_if<std::string>(&r)) return *e;
    int64_t b = std::get<int64_t>(r), out = 0;
    bool overflow = false;
    switch (n.op) {
    case Op::add:
        overflow = __builtin_add_overflow(a, b, &out);
        break;
    case Op::sub:
        overflow = __builtin_sub_overflow(a, b, &out);
        break;
    case Op::mul:
        overflow = __builtin_mul_overflow(a, b, &out);
        break;
    case Op::div:
        if (b == 0) return std::string("division by zero");
        if (a == INT64_MIN && b == -1) return std::string("overflow in division");
        out = a / b;
        break;
    default:
        break;
    }
    if (overflow) return std::string("arithmetic overflow (result does not fit in 64 bits)");
    return out;
}

void collect(const Expr::Node *n, std::vector<std::string> &out) {
    if (!n) return;
    if (n->op == Op::variable) out.push_back(n->name);
    collect(n->lhs.get(), out);
    collect(n->rhs.get(), out);
}

} // namespace

Expr::Expr() = default;
Expr::~Expr() = default;
Expr::Expr(const Expr &) = default;
Expr &Expr::operator=(const Expr &) = default;
Expr::Expr(Expr &&) noexcept = default;
Expr &Expr::operator=(Expr &&) noexcept = default;

std::variant<Expr, ExprError> Expr::parse(const std::string &text) {
    Parser p(text);
    auto r = p.run();
    if (auto *e = std::get_if<ExprError>(&r)) return *e;
    Expr x;
    x.text_ = text;
    x.root_ = std::get<NodeP>(r);
    return x;
}

Expr Expr::constant(int64_t v) {
    Expr x;
    auto n = std::make_shared<Node>();
    n->value = v;
    x.root_ = n;
    x.text_ = std::to_string(v);
    return x;
}

std::variant<int64_t, std::string> Expr::evaluate(const Lookup &lookup) const {
    if (!root_) return std::string("empty expression");
    return eval(*root_, lookup);
}

std::vector<std::string> Expr::variables() const {
    std::vector<std::string> out;
    collect(root_.get(), out);
    return out;
}

std::string format_size(int64_t v) {
    // Prefer the nearest binary multiple within a small distance, as humans
    // write boundary sizes: 4Mi+1 rather than 4194305.
    if (v < 1024) return std::to_string(v);
    static const struct {
        int shift;
        const char *suffix;
    } units[] = {{30, "Gi"}, {20, "Mi"}, {10, "Ki"}};
    for (const auto &u : units) {
        int64_t unit = int64_t{1} << u.shift;
        int64_t q = (v + 64) / unit; // nearest multiple at or below v+64
        if (q == 0) continue;
        int64_t rem = v - q * unit;
        if (rem >= -64 && rem <= 64) {
            std::string s = std::to_string(q) + u.suffix;
            if (rem > 0) s += "+" + std::to_string(rem);
            if (rem < 0) s += std::to_string(rem);
            return s;
        }
    }
    return std::to_string(v);
}

} // namespace harness::cases
