package example.standalone;

import static org.assertj.core.api.Assertions.assertThat;

import io.seqlink.channel.Frame;
import io.seqlink.channel.PublishChannel;
import io.seqlink.spring.listener.ChannelListener;
import io.seqlink.test.SeqlinkTestUtils;
import io.seqlink.test.context.EmulatedSeqlink;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Import;
import org.springframework.stereotype.Component;

@SpringBootTest(classes = OrdersServiceTests.OrdersApplication.class, properties = {
        "seqlink.channels.orders.producer=0",                          // the configuration under test
        "seqlink.channels.orders.consumers=1",
        "seqlink.channels.orders.slot-size=256B" })
@EmulatedSeqlink(devices = 2)                                         // GPU or not: two simulated GPUs
class OrdersServiceTests {

    static final Duration TIMEOUT = Duration.ofSeconds(30);

    @SpringBootConfiguration                                           // in your service: your @SpringBootApplication
    @EnableAutoConfiguration
    @Import(OrderBook.class)
    static class OrdersApplication {
    }

    @Component
    static class OrderBook {                                           // the listener under test
        final List<Long> orderIds = new CopyOnWriteArrayList<>();

        @ChannelListener(channel = "orders")
        void onOrder(Frame frame) {
            orderIds.add(frame.payload().getLong(0));                   // little-endian, from index 0
        }
    }

    @Autowired
    @Qualifier("orders")
    PublishChannel orders;

    @Autowired
    OrderBook book;

    @Test
    void everyPublishedOrderReachesTheBookInOrder() {
        long last = 0;
        for (long id = 1; id <= 100; id++) {
            byte[] payload = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(id).array();
            last = SeqlinkTestUtils.publish(orders, payload, TIMEOUT);  // the frame's sequence: 1, 2, ...
        }
        SeqlinkTestUtils.awaitAcknowledged(orders, last, TIMEOUT);      // device 1 took all 100
        assertThat(book.orderIds).containsExactlyElementsOf(LongStream.rangeClosed(1, 100).boxed().toList());
    }
}
