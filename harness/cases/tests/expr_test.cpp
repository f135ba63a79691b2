#include "cases/expr.hpp"

#include <catch2/catch.hpp>

using harness::cases::Expr;
using harness::cases::ExprError;

namespace {

int64_t value_of(const std::string &text, const Expr::Lookup &lookup = {}) {
    auto p = Expr::parse(text);
    REQUIRE(std::holds_alternative<Expr>(p));
    auto v = std::get<Expr>(p).evaluate(lookup);
    INFO(text);
    REQUIRE(std::holds_alternative<int64_t>(v));
    return std::get<int64_t>(v);
}

ExprError parse_error(const std::string &text) {
    auto p = Expr::parse(text);
    REQUIRE(std::holds_alternative<ExprError>(p));
    return std::get<ExprError>(p);
}

} // namespace

TEST_CASE("size suffixes are binary multiples", "[expr]") {
    CHECK(value_of("4096") == 4096);
    CHECK(value_of("0x1000") == 4096);
    CHECK(value_of("4Ki") == 4096);
    CHECK(value_of("4Mi") == 4 * 1024 * 1024);
    CHECK(value_of("2Gi") == 2LL * 1024 * 1024 * 1024);
}

TEST_CASE("boundary expressions follow precedence", "[expr]") {
    CHECK(value_of("4Mi+1") == 4194305);
    CHECK(value_of("64Ki-1") == 65535);
    CHECK(value_of("2*4Mi-1") == 8388607);
    CHECK(value_of("2*(4Ki+1)") == 8194);
    CHECK(value_of("-1") == -1);
    CHECK(value_of("8Mi+3 - 3") == 8 * 1024 * 1024);
    CHECK(value_of("9/2") == 4);
}

TEST_CASE("variables are looked up, unknown ones are errors", "[expr]") {
    Expr::Lookup lookup = [](const std::string &n) -> std::optional<int64_t> {
        if (n == "size") return 100;
        if (n == "dst.bytes") return 7;
        return std::nullopt;
    };
    CHECK(value_of("$size+$dst.bytes", lookup) == 107);
    auto e = std::get<Expr>(Expr::parse("$size+$nope"));
    auto v = e.evaluate(lookup);
    REQUIRE(std::holds_alternative<std::string>(v));
    CHECK(std::get<std::string>(v) == "unknown variable $nope");
    CHECK(e.variables() == std::vector<std::string>{"size", "nope"});
}

TEST_CASE("syntax errors say where and what was expected", "[expr]") {
    CHECK(parse_error("4Mi+").offset == 4);
    CHECK(parse_error("4Xi").message.find("Ki, Mi or Gi") != std::string::npos);
    CHECK(parse_error("4 4").offset == 2);
    CHECK(parse_error("(1+2").message == "expected ')'");
    CHECK(parse_error("$").message.find("variable name") != std::string::npos);
    CHECK(parse_error("").message.find("found nothing") != std::string::npos);
    CHECK(parse_error("99999999999999999999").message.find("64 bits") != std::string::npos);
}

// The parser and evaluator recurse, so depth is bounded in the grammar itself:
// a fuzzed 4 KB "((((" overflowed the stack before the bound existed.
TEST_CASE("nesting and operator chains are bounded, at the point they exceed", "[expr]") {
    CHECK(value_of(std::string(64, '(') + "7" + std::string(64, ')')) == 7);
    auto deep = parse_error(std::string(65, '(') + "7" + std::string(65, ')'));
    CHECK(deep.message == "expression nested deeper than 64 levels");
    CHECK(deep.offset == 64);
    CHECK(value_of(std::string(64, '-') + "7") == 7);
    CHECK(parse_error(std::string(65, '-') + "7").message.find("64 levels") != std::string::npos);

    std::string chain = "1";
    for (int i = 0; i < 256; ++i)
        chain += "+1";
    CHECK(value_of(chain) == 257);
    auto longer = parse_error(chain + "+1");
    CHECK(longer.message == "expression has more than 256 operators");
    CHECK(longer.offset == static_cast<int>(chain.size()));
}

TEST_CASE("overflow and division by zero do not evaluate", "[expr]") {
    auto e = std::get<Expr>(Expr::parse("8Gi*8Gi*8Gi"));
    CHECK(std::holds_alternative<std::string>(e.evaluate({})));
    auto d = std::get<Expr>(Expr::parse("1/(2-2)"));
    CHECK(std::get<std::string>(d.evaluate({})) == "division by zero");
}

TEST_CASE("sizes are formatted the way files write them", "[expr]") {
    using harness::cases::format_size;
    CHECK(format_size(63) == "63");
    CHECK(format_size(4096) == "4Ki");
    CHECK(format_size(4097) == "4Ki+1");
    CHECK(format_size(4 * 1024 * 1024 - 1) == "4Mi-1");
    CHECK(format_size(64 * 1024 * 1024 + 1) == "64Mi+1");
}
