# What each GPU machine of fixtures/machines is, written from the machine
# file by hand (never derived from the code under test), for the tests of
# every folder (included by PeerTests.cmake). add_sim_test(... MACHINE_ENV p) stops
# the configure when a GPU machine has no p_<machine> line, so a new machine
# file must get its lines here.
#
# _spec_<m>: row a of the access matrix says whether a can reach b's VRAM;
# then the conditions the machine lacks.
# PEER_EXPECT_HOST_VISIBLE: per device, 1 for a large BAR (visible_vram == vram).
set(_spec_mixed-4 "PEER_EXPECT_ACCESS=0110/1010/1100/1110" "PEER_EXPECT_HOST_VISIBLE=1110"
    "PEER_ABSENT=")
set(_spec_mi210-4 "PEER_EXPECT_ACCESS=0111/1011/1101/1110" "PEER_EXPECT_HOST_VISIBLE=1111"
    "PEER_ABSENT=incapable_pair,asymmetric_pair,small_bar_device")
set(_spec_mi300x-8
    "PEER_EXPECT_ACCESS=01111111/10111111/11011111/11101111/11110111/11111011/11111101/11111110"
    "PEER_EXPECT_HOST_VISIBLE=11111111"
    "PEER_ABSENT=incapable_pair,asymmetric_pair,small_bar_device")
set(_spec_mixed-3 "PEER_EXPECT_ACCESS=011/000/010" "PEER_EXPECT_HOST_VISIBLE=011" "PEER_ABSENT=")
set(_spec_w7900-2 "PEER_EXPECT_ACCESS=01/10" "PEER_EXPECT_HOST_VISIBLE=11"
    "PEER_ABSENT=incapable_pair,asymmetric_pair,third_device,small_bar_device")
set(_spec_rx7900xtx-2 "PEER_EXPECT_ACCESS=00/00" "PEER_EXPECT_HOST_VISIBLE=00"
    "PEER_ABSENT=capable_pair,asymmetric_pair,third_device")
set(_spec_one-gpu "PEER_EXPECT_ACCESS=0" "PEER_EXPECT_HOST_VISIBLE=1"
    "PEER_ABSENT=capable_pair,incapable_pair,asymmetric_pair,third_device,small_bar_device")

# _evicts_<m>: per GPU, 1 where a VM fault of the process's KFD user queue
# there evicts the process's queues on it (fixtures/amdgpu-sim/kfd/kfd_int_process.cpp:
# GFX9/10 on every kernel here, GFX11 and 12 from the debugger series, so not
# on rx7900xtx-2's Debian 6.1); appended to _spec_<m>.
set(_evicts_mixed-4 "PEER_EXPECT_VM_FAULT_EVICTS=1111")
set(_evicts_mi210-4 "PEER_EXPECT_VM_FAULT_EVICTS=1111")
set(_evicts_mi300x-8 "PEER_EXPECT_VM_FAULT_EVICTS=11111111")
set(_evicts_mixed-3 "PEER_EXPECT_VM_FAULT_EVICTS=111")
set(_evicts_w7900-2 "PEER_EXPECT_VM_FAULT_EVICTS=11")
set(_evicts_rx7900xtx-2 "PEER_EXPECT_VM_FAULT_EVICTS=00")
set(_evicts_one-gpu "PEER_EXPECT_VM_FAULT_EVICTS=1")
foreach(_m mixed-4 mi210-4 mi300x-8 mixed-3 w7900-2 rx7900xtx-2 one-gpu)
  list(APPEND _spec_${_m} ${_evicts_${_m}})
endforeach()

# _gpus_<m>: "pci_slot=gfx arch=CU count" for each GPU.
set(_gpus_mixed-4 "0000:23:00.0=gfx90a=104/0000:43:00.0=gfx90a=104/0000:83:00.0=gfx1100=96/0000:c3:00.0=gfx1100=96")
set(_gpus_mi210-4 "0000:23:00.0=gfx90a=104/0000:43:00.0=gfx90a=104/0000:63:00.0=gfx90a=104/0000:83:00.0=gfx90a=104")
set(_gpus_mi300x-8 "0000:0c:00.0=gfx942=304/0000:1c:00.0=gfx942=304/0000:2c:00.0=gfx942=304/0000:3c:00.0=gfx942=304/0000:4c:00.0=gfx942=304/0000:5c:00.0=gfx942=304/0000:6c:00.0=gfx942=304/0000:7c:00.0=gfx942=304")
set(_gpus_mixed-3 "0000:03:00.0=gfx1030=80/0000:43:00.0=gfx908=120/0000:83:00.0=gfx1100=96")
set(_gpus_w7900-2 "0000:03:00.0=gfx1100=96/0000:43:00.0=gfx1100=96")
set(_gpus_rx7900xtx-2 "0000:03:00.0=gfx1100=96/0000:43:00.0=gfx1100=96")
set(_gpus_one-gpu "0000:03:00.0=gfx1201=64")
