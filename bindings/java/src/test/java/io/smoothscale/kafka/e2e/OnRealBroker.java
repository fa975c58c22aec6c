package io.smoothscale.kafka.e2e;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;

/**
 * A live test class: one real broker ({@link Broker}) started before its tests and stopped after them. Test
 * classes run one after another, so the field holds the current class's broker. Tagged {@code live}: minutes
 * each, they run with {@code mvn verify -Plive} ({@code ./run-tests --long}, and CI), not by default.
 */
@Tag("live")
abstract class OnRealBroker {
    /** The broker of the running test class. */
    static Broker broker;

    @BeforeAll
    static void startBroker() throws Exception {
        broker = Broker.start();
    }

    @AfterAll
    static void stopBroker() throws Exception {
        if (broker != null) {
            broker.close();
            broker = null;
        }
    }
}
