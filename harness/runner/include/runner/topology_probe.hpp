// The machine's topology as the KFD reports it, read through libhsakmt (the
// distribution library), not through the peer API under test: it is the
// oracle for `expect_value: topology` and the input of matrix expansion.
//
// The probe opens /dev/kfd, so it runs in its own short-lived child: the
// runner's parent process never opens a device, and every instance's child
// starts from a clean driver state.
#pragma once

#include "cases/topology.hpp"

#include <nlohmann/json.hpp>

#include <string>
#include <variant>

namespace harness::runner {

// Devices are numbered like HIP: GPU nodes (NumFComputeCores > 0) in node
// order, filtered by ROCR_VISIBLE_DEVICES then HIP_VISIBLE_DEVICES
// (kmd::visible_devices). a -> b is direct when an io_link a -> b passes
// kmd::link_allows_peer_access (harness/peer/CONTRACT.md §2, hipDeviceCanAccessPeer rule 5).
std::variant<cases::Topology, std::string> probe_topology(double timeout_s);

nlohmann::json topology_to_json(const cases::Topology &t);
std::variant<cases::Topology, std::string> topology_from_json(const nlohmann::json &j);

} // namespace harness::runner
