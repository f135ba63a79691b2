#include "lab/html.hpp"
#include "trend_parts.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <optional>

namespace harness::lab::trend {

bool is_change_night(const Trend &t, size_t i, const std::string &subject) {
    for (const auto &c : t.changes)
        if (c.night == i && c.kind != ChangePoint::Kind::recovered &&
            (subject.empty() || c.subject == subject))
            return true;
    return false;
}

namespace {

// Geometry of one chart (px): a title line, the outcome strip, the plot.
constexpr double kW = 250, kLeft = 34, kRight = 10, kStripTop = 16, kStripH = 12;
constexpr double kPlotTop = 36, kPlotBottom = 110, kH = 124;

double x_of(size_t i, size_t n) {
    if (n <= 1) return (kLeft + kW - kRight) / 2;
    return kLeft + static_cast<double>(i) * (kW - kLeft - kRight) / static_cast<double>(n - 1);
}

struct Series {
    std::vector<const Tally *> tally;                    // per night, null = not run
    std::vector<std::optional<report::CopyFigure>> copy; // per night
    std::string link;
    double ymax = 0;
};

Series series_of(const Trend &t, int a, int b) {
    Series s;
    for (const auto &n : t.nights) {
        auto it = n.summary.pairs.find({a, b});
        s.tally.push_back(it == n.summary.pairs.end() ? nullptr : &it->second);
        auto c = n.summary.best_copy.find({a, b});
        if (c == n.summary.best_copy.end()) {
            s.copy.emplace_back();
            continue;
        }
        s.copy.emplace_back(c->second);
        s.link = c->second.link;
        s.ymax = std::max({s.ymax, c->second.gbps, c->second.peak_gbps});
    }
    s.ymax = s.ymax > 0 ? s.ymax * 1.1 : 1;
    return s;
}

double y_of(double v, double ymax) {
    return kPlotBottom - v / ymax * (kPlotBottom - kPlotTop);
}

std::string strip(const Trend &t, const Series &s) {
    const size_t n = t.nights.size();
    const double w = std::min(14.0, (kW - kLeft - kRight) / static_cast<double>(n) - 2);
    std::string h;
    for (size_t i = 0; i < n; ++i) {
        const Tally *x = s.tally[i];
        const std::string cls = x ? outcome_name(x->worst) : "none";
        h += fmt::format("<rect class=\"night {}\" data-night=\"{}\" x=\"{:.1f}\" y=\"{}\" "
                         "width=\"{:.1f}\" height=\"{}\"><title>night {} ({}): {}{}</title></rect>",
                         cls, i + 1, x_of(i, n) - w / 2, kStripTop, w, kStripH, i + 1,
                         html_escape(t.nights[i].label), cls,
                         x ? fmt::format(", {} of {} failing", x->failing(), x->ran()) : "");
    }
    return h;
}

// The GB/s line and its points, and the peak as a dashed line; a night
// without a figure breaks the line.
std::string plot(const Trend &t, const Series &s) {
    const size_t n = t.nights.size();
    std::string line, peak, dots;
    bool pen = false, peak_pen = false;
    for (size_t i = 0; i < n; ++i) {
        if (!s.copy[i]) {
            pen = peak_pen = false;
            continue;
        }
        const report::CopyFigure &f = *s.copy[i];
        const double x = x_of(i, n);
        line += fmt::format("{}{:.1f},{:.1f} ", pen ? "L" : "M", x, y_of(f.gbps, s.ymax));
        pen = true;
        dots += fmt::format("<circle class=\"gbps\" data-night=\"{}\" data-gbps=\"{:.3f}\" "
                            "cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"2.5\"><title>night {}: {:.2f} GB/s"
                            "{}</title></circle>",
                            i + 1, f.gbps, x, y_of(f.gbps, s.ymax), i + 1, f.gbps,
                            f.simulated ? " (simulated)" : "");
        if (f.peak_gbps > 0) {
            peak +=
                fmt::format("{}{:.1f},{:.1f} ", peak_pen ? "L" : "M", x, y_of(f.peak_gbps, s.ymax));
            peak_pen = true;
        }
    }
    std::string h;
    if (!peak.empty())
        h += fmt::format("<path class=\"peak\" d=\"{}\" stroke=\"#555\" stroke-dasharray=\"4 3\" "
                         "fill=\"none\"/>",
                         peak);
    if (!line.empty())
        h += fmt::format("<path class=\"gbps\" d=\"{}\" stroke=\"#1f5fbf\" fill=\"none\"/>", line);
    return h + dots;
}

} // namespace

std::string pair_chart(const Trend &t, int a, int b) {
    const Series s = series_of(t, a, b);
    const std::string subject = fmt::format("{}>{}", a, b);
    // A pair no copy step ran on: the outcome strip alone.
    const bool timed = !s.link.empty();
    const double height = timed ? kH : kStripTop + kStripH + 4;
    std::string h = fmt::format(
        "<svg class=\"pair\" data-pair=\"{}\" xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" "
        "height=\"{}\" viewBox=\"0 0 {} {}\"><text x=\"4\" y=\"11\">{} &#8594; {}{}</text>",
        html_escape(subject), kW, height, kW, height, a, b,
        timed ? " (" + s.link + ")" : std::string(": no copy timed"));
    for (size_t i = 0; i < t.nights.size(); ++i)
        if (is_change_night(t, i, subject))
            h += fmt::format("<line class=\"change\" data-night=\"{}\" x1=\"{:.1f}\" y1=\"{}\" "
                             "x2=\"{:.1f}\" y2=\"{}\" stroke=\"#c00\" stroke-width=\"2\"/>",
                             i + 1, x_of(i, t.nights.size()), kStripTop - 2,
                             x_of(i, t.nights.size()), height - 2);
    h += strip(t, s);
    if (!timed) return h + "</svg>\n";
    h += fmt::format("<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"#999\"/>", kLeft - 4,
                     kPlotBottom, kW - kRight + 4, kPlotBottom);
    h += fmt::format("<text x=\"2\" y=\"{:.0f}\">{:.0f}</text><text x=\"2\" y=\"{}\">0 GB/s</text>",
                     kPlotTop + 4, s.ymax, kPlotBottom);
    return h + plot(t, s) + "</svg>\n";
}

} // namespace harness::lab::trend
