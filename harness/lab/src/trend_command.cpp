#include "lab/trend.hpp"

#include <filesystem>
#include <fstream>
#include <iostream>

namespace harness::lab {

namespace fs = std::filesystem;

int trend_command(const TrendOptions &o) {
    auto t = load_trend(o.inputs, o.threshold_pct);
    if (auto *e = std::get_if<std::string>(&t)) {
        std::cerr << "peer-harness trend: " << *e << "\n";
        return 2;
    }
    const Trend &trend = std::get<Trend>(t);
    std::error_code ec;
    fs::create_directories(o.out_dir, ec);
    const std::pair<const char *, std::string> outputs[] = {
        {"trend.html", render_trend_html(trend)},
        {"trend.csv", render_trend_csv(trend)},
        {"trend-families.csv", render_trend_families_csv(trend)},
        {"trend-changes.csv", render_trend_changes_csv(trend)}};
    for (const auto &[name, text] : outputs) {
        const fs::path p = fs::path(o.out_dir) / name;
        std::ofstream out(p);
        out << text;
        if (!out) {
            std::cerr << "peer-harness trend: cannot write " << p.string() << "\n";
            return 2;
        }
    }
    size_t changes = 0;
    for (const auto &c : trend.changes)
        if (c.kind != ChangePoint::Kind::recovered) {
            ++changes;
            std::cout << "night " << c.night + 1 << " (" << trend.nights[c.night].label
                      << "): " << change_kind_name(c.kind) << " " << c.subject << ": " << c.detail
                      << "\n";
        }
    std::cout << trend.nights.size() << " nights, " << changes
              << " change point(s): " << (fs::path(o.out_dir) / "trend.html").string() << "\n";
    return 0;
}

} // namespace harness::lab
