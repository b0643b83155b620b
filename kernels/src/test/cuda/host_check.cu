// host_check.cu: prints, from the compiled headers, everything the Java side must agree with: the
// layout offsets, the kernel argument structs, and checksums of the shared pattern code. Runs on any
// host (no GPU); io.seqlink.gpu.KernelLayoutContractTest and FramePatternHostContractTest compare.
//
// Output, one fact per line:
//   layout <NAME> <value>
//   args <STRUCT>.<field> <offset>      and   args <STRUCT> <sizeof>
//   pattern <seed> <length> <checksum of the pattern>          (all decimal, u64 as unsigned)
//   bytes <length> <checksum of bytes (i * 31 + 7) & 0xFF>
#include <cstddef>
#include <cstdio>
#include <vector>

#include "seqlink_args.cuh"
#include "seqlink_layout.cuh"
#include "seqlink_pattern.cuh"

using namespace seqlink;

#define LAYOUT(name) std::printf("layout %s %llu\n", #name, static_cast<unsigned long long>(layout::name))
#define FIELD(type, field) std::printf("args %s.%s %zu\n", #type, #field, offsetof(type, field))

int main() {
    LAYOUT(CONTROL_PUBLISH_SEQ);
    LAYOUT(CONTROL_WRITER_BUSY);
    LAYOUT(CONTROL_BYTES);
    LAYOUT(CONSUMER_CONSUMED_SEQ);
    LAYOUT(CONSUMER_READS);
    LAYOUT(CONSUMER_EMPTY_POLLS);
    LAYOUT(CONSUMER_LAPS);
    LAYOUT(CONSUMER_READY_FROM);
    LAYOUT(CONSUMER_READY_TO);
    LAYOUT(CONSUMER_VALID_FROM);
    LAYOUT(CONSUMER_OBSERVED_PUBLISH);
    LAYOUT(CONSUMER_ROUND);
    LAYOUT(CONSUMER_HOST_ROUND);
    LAYOUT(CONSUMER_SHORT_ROUNDS);
    LAYOUT(CONSUMER_ARM_CANCEL);
    LAYOUT(CONSUMER_PROTOCOL_ERROR);
    LAYOUT(PROTOCOL_SITE_SHIFT);
    LAYOUT(PROTOCOL_SITE_TAKE_ROUND);
    LAYOUT(PROTOCOL_SITE_END_ROUND);
    LAYOUT(PROTOCOL_SITE_ACKNOWLEDGE_TAKEN);
    LAYOUT(CONSUMER_BYTES);
    LAYOUT(SLOT_STAMP);
    LAYOUT(SLOT_LENGTH);
    LAYOUT(SLOT_HEADER_BYTES);

    FIELD(PublishArgs, control);
    FIELD(PublishArgs, ring);
    FIELD(PublishArgs, mirror);
    FIELD(PublishArgs, scratch);
    FIELD(PublishArgs, slots);
    FIELD(PublishArgs, stride);
    FIELD(PublishArgs, slot_bytes);
    FIELD(PublishArgs, max_batch);
    FIELD(PublishArgs, push_count);
    FIELD(PublishArgs, staging);
    FIELD(PublishArgs, doorbells);
    FIELD(PublishArgs, doorbell_count);
    FIELD(PublishArgs, push_control);
    FIELD(PublishArgs, push_ring);
    std::printf("args PublishArgs %zu\n", sizeof(PublishArgs));
    FIELD(ConsumeArgs, control);
    FIELD(ConsumeArgs, ring);
    FIELD(ConsumeArgs, local_ring);
    FIELD(ConsumeArgs, block);
    FIELD(ConsumeArgs, mirror);
    FIELD(ConsumeArgs, scratch);
    FIELD(ConsumeArgs, slots);
    FIELD(ConsumeArgs, stride);
    FIELD(ConsumeArgs, slot_bytes);
    FIELD(ConsumeArgs, max_batch);
    FIELD(ConsumeArgs, lapping);
    std::printf("args ConsumeArgs %zu\n", sizeof(ConsumeArgs));
    FIELD(Scratch, min_sequence);
    FIELD(Scratch, grid_published);
    FIELD(Scratch, round_published);
    FIELD(Scratch, round_takers);
    FIELD(Scratch, round_arrivals);
    std::printf("args Scratch %zu\n", sizeof(Scratch));
    std::printf("args MAX_PUSH_TARGETS %d\n", MAX_PUSH_TARGETS);

    const unsigned long long seeds[] = {0ull, 1ull, 0x5EEDull, 0xFFFFFFFFFFFFFFFFull, 0x8000000000000000ull, 123456789ull};
    const unsigned long long lengths[] = {0, 1, 7, 8, 9, 15, 16, 63, 64, 65, 1000, 4096, 16384, 16389};
    for (unsigned long long seed : seeds) {
        for (unsigned long long length : lengths) {
            std::vector<uint8_t> buf(length + 1);
            fill_serial(buf.data(), length, seed);
            std::printf("pattern %llu %llu %llu\n", seed, length,
                    static_cast<unsigned long long>(checksum_serial(buf.data(), length)));
        }
    }
    for (unsigned long long length : lengths) {
        std::vector<uint8_t> buf(length + 1);
        for (unsigned long long i = 0; i < length; i++) {
            buf[i] = static_cast<uint8_t>((i * 31 + 7) & 0xFF);
        }
        std::printf("bytes %llu %llu\n", length, static_cast<unsigned long long>(checksum_serial(buf.data(), length)));
    }
    return 0;
}
