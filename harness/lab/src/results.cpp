#include "lab/results.hpp"

#include "report/journal.hpp"
#include "report/tokens.hpp"

#include <filesystem>
#include <fstream>

namespace harness::lab {

namespace fs = std::filesystem;

std::variant<RunResults, std::string> read_run(const std::string &dir) {
    const fs::path journal = fs::path(dir) / report::tokens::kJournalFile;
    std::error_code ec;
    if (!fs::exists(journal, ec)) return journal.string() + " not found";
    RunResults r;
    r.dir = dir;
    report::JournalState st = report::read_journal(journal.string());
    r.problems = st.problems;
    r.records = report::records_of(st);
    std::ifstream m(fs::path(dir) / report::tokens::kMetadataFile);
    if (m) {
        auto j = nlohmann::json::parse(m, nullptr, false);
        if (!j.is_discarded()) r.metadata = j;
    }
    return r;
}

} // namespace harness::lab
