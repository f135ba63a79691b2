// Expectation files and verdicts: the parser's diagnostics, every verdict of
// the table, and flake detection driven by a scripted retry executor.
#include "lab/baseline.hpp"

#include <catch2/catch.hpp>

using namespace harness::lab;
using harness::report::InstanceRecord;
using harness::report::Status;

namespace {

InstanceRecord rec(const std::string &name, Status s) {
    InstanceRecord r;
    r.name = name;
    r.status = s;
    return r;
}

LoadedExpectations parse(const std::string &fails, const std::string &flakes = "",
                         const std::string &skips = "") {
    LoadedExpectations l;
    parse_expectation_text(fails, "m-fails.txt", "fails", l);
    parse_expectation_text(flakes, "m-flakes.txt", "flakes", l);
    parse_expectation_text(skips, "m-skips.txt", "skips", l);
    return l;
}

} // namespace

TEST_CASE("fails file: name,Status lines, comments and blanks", "[baseline]") {
    auto l = parse("# known kernel bug\n\ns/a/pair=0>1,Fail\n  s/b,Crash  \n", "# flaky\ns/f.*\n",
                   "# hangs the machine\n.*hang.*\n");
    REQUIRE(l.errors.empty());
    CHECK(l.exp.fails.at("s/a/pair=0>1") == "Fail");
    CHECK(l.exp.fails.at("s/b") == "Crash");
    CHECK(l.exp.fails_where.at("s/b") == "m-fails.txt:4");
    REQUIRE(l.exp.flakes.size() == 1);
    CHECK(match(l.exp.flakes, "s/flaky") != nullptr);
    CHECK(match(l.exp.flakes, "x/s/flaky") == nullptr); // whole-name match
    CHECK(match(l.exp.skips, "selftest/hang") != nullptr);
}

TEST_CASE("fails file: malformed lines give file:line:col", "[baseline]") {
    auto l = parse("s/a\ns/b,Broken\ns/c,Pass\n", "", "ok\n(unclosed\n");
    REQUIRE(l.errors.size() == 4);
    CHECK(l.errors[0] == "m-fails.txt:1:1: expected 'name,Status'");
    CHECK_THAT(l.errors[1], Catch::StartsWith("m-fails.txt:2:5: expected a status word"));
    CHECK_THAT(l.errors[2], Catch::StartsWith("m-fails.txt:3:5: expected a failing status"));
    CHECK_THAT(l.errors[3], Catch::StartsWith("m-skips.txt:2:1: expected a regular expression"));
}

TEST_CASE("verdicts without retries", "[baseline]") {
    auto l = parse("s/expfail,Fail\ns/nowpasses,Fail\ns/wrongstatus,Fail\n", "s/flake.*\n");
    REQUIRE(l.errors.empty());
    std::vector<InstanceRecord> rs{
        rec("s/pass", Status::pass),         rec("s/skip", Status::skip),
        rec("s/expfail", Status::fail),      rec("s/nowpasses", Status::pass),
        rec("s/wrongstatus", Status::crash), rec("s/flake-1", Status::timeout),
        rec("s/new", Status::fail)};
    int calls = 0;
    auto j = judge(rs, l.exp, 0, [&](auto &, int) {
        ++calls;
        return std::map<std::string, Status>{};
    });
    CHECK(calls == 0);
    REQUIRE(j.size() == rs.size());
    CHECK(j[0].verdict == Verdict::pass);
    CHECK(j[1].verdict == Verdict::skip);
    CHECK(j[2].verdict == Verdict::expected_fail);
    CHECK(j[3].verdict == Verdict::unexpected_pass);
    CHECK(j[4].verdict == Verdict::regression); // expected Fail, got Crash
    CHECK(j[4].why == "expected Fail (m-fails.txt:3), got Crash");
    CHECK(j[5].verdict == Verdict::flake);
    CHECK(j[6].verdict == Verdict::regression);
    CHECK(regressions(j) == 2);
    CHECK(!gates(Verdict::unexpected_pass));
    CHECK(render_judged_csv(j) == "s/expfail,ExpectedFail\ns/flake-1,Flake\ns/new,Fail\n"
                                  "s/nowpasses,UnexpectedPass\ns/pass,Pass\ns/skip,Skip\n"
                                  "s/wrongstatus,Crash\n");
}

TEST_CASE("retries: a pass on any retry is a Flake; only unexpected failures are re-run",
          "[baseline][retry]") {
    auto l = parse("s/expfail,Fail\n");
    std::vector<InstanceRecord> rs{rec("s/expfail", Status::fail), rec("s/flaky", Status::fail),
                                   rec("s/solid", Status::fail), rec("s/late", Status::crash)};
    // Scripted executor: s/flaky passes on the first retry, s/late on the
    // second, s/solid never; the answer of each attempt is recorded.
    std::vector<std::vector<std::string>> asked;
    RetryExecutor script = [&](const std::vector<std::string> &names, int attempt) {
        asked.push_back(names);
        std::map<std::string, Status> out;
        for (const auto &n : names) {
            if (n == "s/flaky") out[n] = Status::pass;
            if (n == "s/late") out[n] = attempt >= 2 ? Status::pass : Status::crash;
            if (n == "s/solid") out[n] = Status::fail;
        }
        return out;
    };
    auto j = judge(rs, l.exp, 3, script);
    REQUIRE(asked.size() == 3);
    CHECK(asked[0] == std::vector<std::string>{"s/flaky", "s/solid", "s/late"});
    CHECK(asked[1] == std::vector<std::string>{"s/solid", "s/late"});
    CHECK(asked[2] == std::vector<std::string>{"s/solid"});
    CHECK(j[0].verdict == Verdict::expected_fail);
    CHECK(j[0].retries.empty());
    CHECK(j[1].verdict == Verdict::flake);
    CHECK(j[1].why == "failed (Fail), passed on retry 1");
    CHECK(j[2].verdict == Verdict::regression);
    CHECK(j[2].retries == std::vector<Status>{Status::fail, Status::fail, Status::fail});
    CHECK(j[3].verdict == Verdict::flake);
    CHECK(j[3].retries == std::vector<Status>{Status::crash, Status::pass});
    CHECK(regressions(j) == 1);
}

TEST_CASE("retries: an instance the retry did not report stays a regression", "[baseline][retry]") {
    Expectations none;
    auto j = judge({rec("s/x", Status::fail)}, none, 1,
                   [](auto &, int) { return std::map<std::string, Status>{}; });
    CHECK(j[0].verdict == Verdict::regression);
    CHECK(j[0].retries == std::vector<Status>{Status::incomplete});
}

TEST_CASE("a fails file written from a run leaves out passes, skips and flakes", "[baseline]") {
    std::vector<InstanceRecord> rs{rec("s/b", Status::timeout), rec("s/a", Status::fail),
                                   rec("s/p", Status::pass), rec("s/k", Status::skip),
                                   rec("s/f", Status::fail)};
    std::vector<Judged> flakes{{"s/f", Status::fail, "Fail", Verdict::flake, {}, {}}};
    CHECK(render_fails_file(rs, &flakes, "from R\nkernel 6.1") ==
          "# from R\n# kernel 6.1\ns/a,Fail\ns/b,Timeout\n");
    // And it reads back as the expectations that make the same run green.
    LoadedExpectations l;
    parse_expectation_text(render_fails_file(rs, &flakes, "x"), "f", "fails", l);
    REQUIRE(l.errors.empty());
    auto j = judge(rs, l.exp, 0, [](auto &, int) { return std::map<std::string, Status>{}; });
    CHECK(regressions(j) == 1); // s/f: no flakes file given here
}
