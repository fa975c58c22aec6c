package io.smoothscale.kafka.e2e;

import java.time.Duration;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A crash, a restart and a graceful stop on a real broker ({@link LiveRun}: three {@link CountApp} processes
 * under a steady write load): {@code i0} is killed (SIGKILL: no commit, no leave-group), later restarted on the
 * state it left, then {@code i2} is stopped cleanly. Run with our {@code kip441}, with Kafka's default
 * assignor and with our {@code smooth} on the same broker and load. After each event the settled group's assignment must pass
 * {@code HandoutCheck}, and at the end every key's committed count must equal what was produced.
 */
@Timeout(240)
class LiveChurnTest extends OnRealBroker {
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"kip441", "kafka", "smooth"})
    void crashRestartAndGracefulStopKeepEveryCountExact(final String assignor) throws Exception {
        try (LiveRun run = new LiveRun("churn", assignor, broker.bootstrap(), 3)) {
            run.hold(Duration.ofSeconds(5));
            run.crash(0);
            run.awaitSettledAndValid();
            run.restart(0);
            run.awaitSettledAndValid();
            run.stop(2);
            run.awaitSettledAndValid();
            run.finish();
        }
    }
}
