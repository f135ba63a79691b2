// VM faults as amdgpu reports them in the kernel log.
//
// gmc_v9_0_process_interrupt / gmc_v10_0_process_interrupt (and gmc_v11/12)
// log, through dev_err, "[<hub>] ... page fault (src_id:... ring:... vmid:...
// pasid:...)" followed by "  in page starting at address 0x%016llx from ...".
// /dev/kmsg gives one record per line ("prio,seq,usec,flags;text"), with the
// device's "amdgpu <pci slot>: " prefix in the text. The log is process-wide:
// one reader keeps every new record so concurrent jobs each see their own
// device's faults, whichever thread drained the fd.
#pragma once

#include <cstdint>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

namespace kmd {

struct KmsgFault {
    uint64_t address = 0; // 0 when the address line was not found
    std::string text;     // the "page fault" line
};

class KmsgLog {
  public:
    // Opens /dev/kmsg non-blocking at its end; available() is false when it
    // cannot be opened (no permission, no kmsg).
    KmsgLog();
    ~KmsgLog();
    KmsgLog(const KmsgLog &) = delete;
    KmsgLog &operator=(const KmsgLog &) = delete;

    bool available() const { return fd_ >= 0; }
    // A position: faults after it are what a job started now may cause.
    uint64_t mark();
    // Faults for `pci_slot` logged after `mark` by this process (a fault line
    // naming another process is someone else's).
    std::vector<KmsgFault> faults_since(uint64_t mark, std::string_view pci_slot);

    // Parses one record's text (after ';'); exposed for tests. With pid != 0,
    // a line that names another process is not a match.
    static bool parse_fault_line(std::string_view text, std::string_view pci_slot, int pid = 0);
    static bool parse_address_line(std::string_view text, std::string_view pci_slot,
                                   uint64_t &address);

  private:
    void drain_locked();
    int fd_ = -1;
    std::mutex mu_;
    struct Record {
        uint64_t index;
        std::string text;
    };
    std::vector<Record> records_; // bounded window of recent records
    uint64_t next_index_ = 1;
    std::string carry_; // partial line from the last read
};

} // namespace kmd
