#include "cases/loader.hpp"

#include "loader_impl.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace harness::cases::detail {

void FileLoader::load(const std::string &text, std::vector<Suite> &out) {
    YAML::Node root;
    try {
        root = YAML::Load(text);
    } catch (const YAML::ParserException &e) {
        error(Location{file_, e.mark.line + 1, e.mark.column + 1}, "YAML syntax error: " + e.msg);
        return;
    } catch (const YAML::Exception &e) {
        error(Location{file_, 1, 1}, std::string("YAML error: ") + e.what());
        return;
    }
    size_t before = errors_.size();
    Suite s = suite(root);
    if (errors_.size() == before) out.push_back(std::move(s));
}

std::optional<Expr> FileLoader::expression(const YAML::Node &n, const Scope &scope,
                                           const std::string &what) {
    if (!expect_scalar(n, what, {})) return std::nullopt;
    auto r = Expr::parse(n.Scalar());
    if (auto *e = std::get_if<ExprError>(&r)) {
        error(inside(n, e->offset),
              "bad expression '" + n.Scalar() + "' for " + what + ": " + e->message);
        return std::nullopt;
    }
    Expr x = std::get<Expr>(r);
    for (const auto &v : x.variables()) {
        if (scope.numeric_vars.count(v)) continue;
        std::string expected = "expected one of $" + join(scope.numeric_vars, ", $");
        auto axis = scope.axes.find(v);
        if (axis != scope.axes.end()) {
            error(at(n), "$" + v + " holds words, not numbers, so it cannot be used in " + what);
        } else if (v.find('.') != std::string::npos) {
            error(at(n), "unknown variable $" + v + " in " + what +
                             ": $NAME.bytes needs a buffer allocated by an earlier step");
        } else {
            error(at(n), "unknown variable $" + v + " in " + what + ": " + expected);
        }
        return std::nullopt;
    }
    return x;
}

Suite FileLoader::suite(const YAML::Node &root) {
    Suite s;
    s.file = file_;
    s.at = Location{file_, 1, 1};
    if (!expect_map(root, "a suite with keys suite, doc, cases", s.at)) return s;
    static constexpr const char *keys[] = {"suite", "doc", "cases"};
    check_keys(root, keys, "the suite");
    if (!root["suite"]) {
        error(at(root), "missing key 'suite': expected the suite's name");
    } else if (expect_scalar(root["suite"], "the suite name", {})) {
        s.name = root["suite"].Scalar();
        s.at = at(root["suite"]);
        if (!is_identifier(s.name))
            error(at(root["suite"]),
                  "suite name '" + s.name + "' must be an identifier ([A-Za-z_][A-Za-z0-9_-]*)");
    }
    if (root["doc"] && expect_scalar(root["doc"], "a description", {}))
        s.doc = root["doc"].Scalar();
    YAML::Node cases = root["cases"];
    if (!cases) {
        error(at(root), "missing key 'cases': expected a list of cases");
        return s;
    }
    if (!cases.IsSequence() || cases.size() == 0) {
        error(at(cases),
              std::string("expected 'cases' to be a non-empty list, found ") + type_name(cases));
        return s;
    }
    std::set<std::string> names;
    for (const auto &c : cases) {
        Case k = one_case(c);
        if (!k.name.empty() && !names.insert(k.name).second)
            error(k.at, "case name '" + k.name + "' used twice in this suite");
        s.cases.push_back(std::move(k));
    }
    return s;
}

Case FileLoader::one_case(const YAML::Node &n) {
    Case c;
    c.at = at(n);
    if (!expect_map(n, "a case with keys name, doc, tags, disruptive, matrix, steps", c.at))
        return c;
    static constexpr const char *keys[] = {"name", "doc", "tags", "disruptive", "matrix", "steps"};
    check_keys(n, keys, "a case");
    if (!n["name"]) {
        error(at(n), "missing key 'name': expected the case's name");
    } else if (expect_scalar(n["name"], "the case name", {})) {
        c.name = n["name"].Scalar();
        c.at = at(n["name"]);
        if (!is_identifier(c.name))
            error(c.at,
                  "case name '" + c.name + "' must be an identifier ([A-Za-z_][A-Za-z0-9_-]*)");
    }
    if (n["doc"] && expect_scalar(n["doc"], "a description", {})) c.doc = n["doc"].Scalar();
    if (YAML::Node t = n["tags"]) {
        if (!t.IsSequence()) {
            error(at(t),
                  std::string("expected 'tags' to be a list of words, found ") + type_name(t));
        } else {
            for (const auto &tag : t) {
                if (expect_scalar(tag, "a tag", {})) {
                    if (!is_identifier(tag.Scalar()))
                        error(at(tag), "tag '" + tag.Scalar() + "' must be an identifier");
                    c.tags.push_back(tag.Scalar());
                }
            }
        }
    }
    if (YAML::Node d = n["disruptive"]) {
        if (d.IsScalar() && (d.Scalar() == "true" || d.Scalar() == "false"))
            c.disruptive = d.Scalar() == "true";
        else
            error(at(d), "expected 'disruptive' to be true or false");
    }
    Scope scope;
    scope.numeric_vars.insert("device_count");
    if (YAML::Node m = n["matrix"]) matrix(m, c, scope);
    YAML::Node steps = n["steps"];
    if (!steps) {
        error(c.at, "missing key 'steps': expected a list of steps");
        return c;
    }
    if (!steps.IsSequence() || steps.size() == 0) {
        error(at(steps),
              std::string("expected 'steps' to be a non-empty list, found ") + type_name(steps));
        return c;
    }
    for (const auto &st : steps) {
        Step step;
        if (one_step(st, scope, step)) c.steps.push_back(std::move(step));
    }
    for (const auto &st : c.steps) {
        const Arg *must = st.arg("must");
        if (must && (must->word == "fault" || must->word == "not_return_data"))
            c.disruptive = true; // a VM fault on purpose: never by surprise on a desktop
        if (st.spec->kind == StepKind::provoke) c.disruptive = true; // hangs and resets
        if (st.spec->kind == StepKind::kernel_vm) {
            // unmap / free fault on purpose; an op from a matrix axis may be one of them.
            const Arg *op = st.arg("op");
            const std::string w = op ? op->word : "";
            if (w == "unmap" || w == "free" || w == "fresh_vm_after_fault" ||
                (!w.empty() && w[0] == '$'))
                c.disruptive = true;
        }
        if (st.spec->kind == StepKind::kernel_jobs) {
            const Arg *check = st.arg("check"); // hang: a job timeout and a reset
            const std::string w = check ? check->word : "";
            if (w == "hang" || (!w.empty() && w[0] == '$')) c.disruptive = true;
        }
    }
    return c;
}

} // namespace harness::cases::detail

namespace harness::cases {

using detail::FileLoader;

bool is_identifier(const std::string &s) {
    if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_')) return false;
    return std::all_of(s.begin(), s.end(), [](char ch) {
        return std::isalnum(static_cast<unsigned char>(ch)) || ch == '_' || ch == '-';
    });
}

LoadResult load_string(const std::string &text, const std::string &file) {
    LoadResult r;
    FileLoader(file, r.errors).load(text, r.suites);
    if (!r.errors.empty()) r.suites.clear();
    return r;
}

LoadResult load_file(const std::string &path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        LoadResult r;
        r.errors.push_back(Diagnostic{Location{path, 0, 0},
                                      "cannot open case file: expected a readable YAML file"});
        return r;
    }
    std::ostringstream ss;
    ss << in.rdbuf();
    return load_string(ss.str(), path);
}

LoadResult load_paths(const std::vector<std::string> &paths) {
    namespace fs = std::filesystem;
    LoadResult all;
    std::vector<std::string> files;
    for (const auto &p : paths) {
        std::error_code ec;
        if (fs::is_directory(p, ec)) {
            std::vector<std::string> found;
            for (const auto &e : fs::directory_iterator(p, ec)) {
                if (e.path().extension() == ".yaml") found.push_back(e.path().string());
            }
            std::sort(found.begin(), found.end());
            if (found.empty())
                all.errors.push_back(
                    Diagnostic{Location{p, 0, 0}, "directory holds no *.yaml case files"});
            files.insert(files.end(), found.begin(), found.end());
        } else {
            files.push_back(p);
        }
    }
    std::map<std::string, Location> names;
    for (const auto &f : files) {
        LoadResult r = load_file(f);
        all.errors.insert(all.errors.end(), r.errors.begin(), r.errors.end());
        for (auto &s : r.suites) {
            auto [it, fresh] = names.emplace(s.name, s.at);
            if (!fresh) {
                all.errors.push_back(Diagnostic{s.at, "suite '" + s.name + "' already defined at " +
                                                          it->second.file + ":" +
                                                          std::to_string(it->second.line)});
                continue;
            }
            all.suites.push_back(std::move(s));
        }
    }
    if (!all.errors.empty()) all.suites.clear();
    return all;
}

} // namespace harness::cases
