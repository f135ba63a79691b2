// Every token written to a results directory and read back, defined once
// (IGT-5). A results directory holds:
//
//   metadata.json   the run's inputs, written before anything runs, e.g.
//                   {"cases":["cases"],"depth":"quick","seed":1,"timeout_s":60,...}
//   instances.txt   every instance name, one per line, in run order
//   results.jsonl   the journal, one JSON object per line, flushed as written:
//                   {"event":"start","index":3,"name":"s/c/pair=0>1"}
//                   {"event":"end","index":3,"name":"s/c/pair=0>1","status":"pass",...}
//   logs/NNNNN.log  stdout+stderr of the instance's child process (kept if non-empty)
//   junit.xml, results.csv, summary.txt   derived from the journal when the run ends
#pragma once

namespace harness::report::tokens {

inline constexpr const char *kMetadataFile = "metadata.json";
inline constexpr const char *kInstancesFile = "instances.txt";
inline constexpr const char *kJournalFile = "results.jsonl";
inline constexpr const char *kLogsDir = "logs";
inline constexpr const char *kJunitFile = "junit.xml";
inline constexpr const char *kSummaryFile = "summary.txt";
inline constexpr const char *kCsvFile = "results.csv";
inline constexpr const char *kBandwidthCsvFile = "bandwidth.csv";

inline constexpr const char *kEvent = "event";
inline constexpr const char *kEventStart = "start";
inline constexpr const char *kEventEnd = "end";

inline constexpr int kMetadataVersion = 1;

} // namespace harness::report::tokens
