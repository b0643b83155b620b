package io.seqlink.gpu;

import static org.assertj.core.api.Assertions.assertThat;

import io.seqlink.backend.KernelHandles;
import io.seqlink.backend.cuda.KernelArgs;
import io.seqlink.layout.ConsumerBlock;
import io.seqlink.layout.ControlBlock;
import io.seqlink.layout.SlotHeader;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The CUDA headers and the Java layout classes describe the same bytes: every offset the kernels use
 * (seqlink_layout.cuh) and every field of the by-value argument structs (seqlink_args.cuh), read from
 * the compiled host check, equals its Java constant. No GPU needed.
 */
class KernelLayoutContractTest {

    @Test
    void memoryLayoutsMatchTheJavaLayoutClasses() throws Exception {
        List<String> l = HostCheck.lines();
        assertThat(HostCheck.value(l, "layout", "CONTROL_PUBLISH_SEQ")).isEqualTo(ControlBlock.PUBLISH_SEQ);
        assertThat(HostCheck.value(l, "layout", "CONTROL_WRITER_BUSY")).isEqualTo(ControlBlock.WRITER_BUSY);
        assertThat(HostCheck.value(l, "layout", "CONTROL_BYTES")).isEqualTo(ControlBlock.BYTES);
        assertThat(HostCheck.value(l, "layout", "CONSUMER_CONSUMED_SEQ")).isEqualTo(ConsumerBlock.CONSUMED_SEQ);
        assertThat(HostCheck.value(l, "layout", "CONSUMER_READS")).isEqualTo(ConsumerBlock.READS);
        assertThat(HostCheck.value(l, "layout", "CONSUMER_EMPTY_POLLS")).isEqualTo(ConsumerBlock.EMPTY_POLLS);
        assertThat(HostCheck.value(l, "layout", "CONSUMER_LAPS")).isEqualTo(ConsumerBlock.LAPS);
        assertThat(HostCheck.value(l, "layout", "CONSUMER_READY_FROM")).isEqualTo(ConsumerBlock.READY_FROM);
        assertThat(HostCheck.value(l, "layout", "CONSUMER_READY_TO")).isEqualTo(ConsumerBlock.READY_TO);
        assertThat(HostCheck.value(l, "layout", "CONSUMER_VALID_FROM")).isEqualTo(ConsumerBlock.VALID_FROM);
        assertThat(HostCheck.value(l, "layout", "CONSUMER_OBSERVED_PUBLISH")).isEqualTo(ConsumerBlock.OBSERVED_PUBLISH);
        assertThat(HostCheck.value(l, "layout", "CONSUMER_ROUND")).isEqualTo(ConsumerBlock.ROUND);
        assertThat(HostCheck.value(l, "layout", "CONSUMER_HOST_ROUND")).isEqualTo(ConsumerBlock.HOST_ROUND);
        assertThat(HostCheck.value(l, "layout", "CONSUMER_SHORT_ROUNDS")).isEqualTo(ConsumerBlock.SHORT_ROUNDS);
        assertThat(HostCheck.value(l, "layout", "CONSUMER_ARM_CANCEL")).isEqualTo(ConsumerBlock.ARM_CANCEL);
        assertThat(HostCheck.value(l, "layout", "CONSUMER_PROTOCOL_ERROR")).isEqualTo(ConsumerBlock.PROTOCOL_ERROR);
        assertThat(HostCheck.value(l, "layout", "PROTOCOL_SITE_SHIFT")).isEqualTo(ConsumerBlock.PROTOCOL_SITE_SHIFT);
        assertThat(HostCheck.value(l, "layout", "PROTOCOL_SITE_TAKE_ROUND")).isEqualTo(ConsumerBlock.PROTOCOL_SITE_TAKE_ROUND);
        assertThat(HostCheck.value(l, "layout", "PROTOCOL_SITE_END_ROUND")).isEqualTo(ConsumerBlock.PROTOCOL_SITE_END_ROUND);
        assertThat(HostCheck.value(l, "layout", "PROTOCOL_SITE_ACKNOWLEDGE_TAKEN"))
                .isEqualTo(ConsumerBlock.PROTOCOL_SITE_ACKNOWLEDGE_TAKEN);
        assertThat(HostCheck.value(l, "layout", "CONSUMER_BYTES")).isEqualTo(ConsumerBlock.BYTES);
        assertThat(HostCheck.value(l, "layout", "SLOT_STAMP")).isEqualTo(SlotHeader.STAMP);
        assertThat(HostCheck.value(l, "layout", "SLOT_LENGTH")).isEqualTo(SlotHeader.LENGTH);
        assertThat(HostCheck.value(l, "layout", "SLOT_HEADER_BYTES")).isEqualTo(SlotHeader.BYTES);
    }

    @Test
    void kernelArgumentStructsMatchTheParameterBlocksJavaWrites() throws Exception {
        List<String> l = HostCheck.lines();
        assertThat(HostCheck.value(l, "args", "PublishArgs.control")).isEqualTo(KernelArgs.PUBLISH_CONTROL);
        assertThat(HostCheck.value(l, "args", "PublishArgs.ring")).isEqualTo(KernelArgs.PUBLISH_RING);
        assertThat(HostCheck.value(l, "args", "PublishArgs.mirror")).isEqualTo(KernelArgs.PUBLISH_MIRROR);
        assertThat(HostCheck.value(l, "args", "PublishArgs.scratch")).isEqualTo(KernelArgs.PUBLISH_SCRATCH);
        assertThat(HostCheck.value(l, "args", "PublishArgs.slots")).isEqualTo(KernelArgs.PUBLISH_SLOTS);
        assertThat(HostCheck.value(l, "args", "PublishArgs.stride")).isEqualTo(KernelArgs.PUBLISH_STRIDE);
        assertThat(HostCheck.value(l, "args", "PublishArgs.slot_bytes")).isEqualTo(KernelArgs.PUBLISH_SLOT_BYTES);
        assertThat(HostCheck.value(l, "args", "PublishArgs.max_batch")).isEqualTo(KernelArgs.PUBLISH_MAX_BATCH);
        assertThat(HostCheck.value(l, "args", "PublishArgs.push_count")).isEqualTo(KernelArgs.PUBLISH_PUSH_COUNT);
        assertThat(HostCheck.value(l, "args", "PublishArgs.staging")).isEqualTo(KernelArgs.PUBLISH_STAGING);
        assertThat(HostCheck.value(l, "args", "PublishArgs.doorbells")).isEqualTo(KernelArgs.PUBLISH_DOORBELLS);
        assertThat(HostCheck.value(l, "args", "PublishArgs.doorbell_count")).isEqualTo(KernelArgs.PUBLISH_DOORBELL_COUNT);
        assertThat(HostCheck.value(l, "args", "PublishArgs.push_control")).isEqualTo(KernelArgs.PUBLISH_PUSH_CONTROL);
        assertThat(HostCheck.value(l, "args", "PublishArgs.push_ring")).isEqualTo(KernelArgs.PUBLISH_PUSH_RING);
        assertThat(HostCheck.value(l, "args", "PublishArgs")).isEqualTo(KernelArgs.PUBLISH_BYTES)
                .isEqualTo(KernelHandles.PUBLISH_BYTES);
        assertThat(HostCheck.value(l, "args", "ConsumeArgs.control")).isEqualTo(KernelArgs.CONSUME_CONTROL);
        assertThat(HostCheck.value(l, "args", "ConsumeArgs.ring")).isEqualTo(KernelArgs.CONSUME_RING);
        assertThat(HostCheck.value(l, "args", "ConsumeArgs.local_ring")).isEqualTo(KernelArgs.CONSUME_LOCAL_RING);
        assertThat(HostCheck.value(l, "args", "ConsumeArgs.block")).isEqualTo(KernelArgs.CONSUME_BLOCK);
        assertThat(HostCheck.value(l, "args", "ConsumeArgs.mirror")).isEqualTo(KernelArgs.CONSUME_MIRROR);
        assertThat(HostCheck.value(l, "args", "ConsumeArgs.scratch")).isEqualTo(KernelArgs.CONSUME_SCRATCH);
        assertThat(HostCheck.value(l, "args", "ConsumeArgs.slots")).isEqualTo(KernelArgs.CONSUME_SLOTS);
        assertThat(HostCheck.value(l, "args", "ConsumeArgs.stride")).isEqualTo(KernelArgs.CONSUME_STRIDE);
        assertThat(HostCheck.value(l, "args", "ConsumeArgs.slot_bytes")).isEqualTo(KernelArgs.CONSUME_SLOT_BYTES);
        assertThat(HostCheck.value(l, "args", "ConsumeArgs.max_batch")).isEqualTo(KernelArgs.CONSUME_MAX_BATCH);
        assertThat(HostCheck.value(l, "args", "ConsumeArgs.lapping")).isEqualTo(KernelArgs.CONSUME_LAPPING);
        assertThat(HostCheck.value(l, "args", "ConsumeArgs")).isEqualTo(KernelArgs.CONSUME_BYTES)
                .isEqualTo(KernelHandles.CONSUME_BYTES);
        assertThat(HostCheck.value(l, "args", "Scratch.min_sequence")).isEqualTo(KernelArgs.SCRATCH_MIN_SEQUENCE);
        assertThat(HostCheck.value(l, "args", "Scratch")).isEqualTo(KernelArgs.SCRATCH_BYTES);
        assertThat(HostCheck.value(l, "args", "MAX_PUSH_TARGETS")).isEqualTo(KernelArgs.MAX_PUSH_TARGETS);
    }
}
