package io.smoothscale.kafka.e2e;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.streams.processor.TaskId;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Scale-out from 2 to 4 instances on a real broker while a producer writes ({@link LiveRun}: {@link CountApp} as
 * processes, 12 stateful tasks, one standby, exactly-once). The newcomers start without state, so a KIP-441
 * assignor gives them warm-ups (sent as standbys) and no actives, and asks for a follow-up; at a later rebalance
 * (the cooperative protocol's second round, when a warm-up has caught up by then, or the probing rebalance one
 * interval later) caught-up warm-ups become actives, until every instance runs 3 tasks. Run with our
 * {@code kip441}, with Kafka's default assignor and with our {@code smooth} (whose follow-up comes when the
 * leader predicts the warm-ups caught up) on the same broker and load; all must keep every count exact, every
 * assignment valid and reach 3 actives each; ours must move actives to the newcomers only that way.
 */
@Timeout(240)
class LiveScaleOutTest extends OnRealBroker {
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"kip441", "kafka", "smooth"})
    void scaleOutFromTwoToFourWarmsUpThenMovesActivesOver(final String assignor) throws Exception {
        try (LiveRun run = new LiveRun("scale-out", assignor, broker.bootstrap(), 2)) {
            run.hold(Duration.ofSeconds(5));
            run.scaleOut(2);
            run.awaitSettledAndValid();
            Workload.waitFor(Duration.ofMillis(CountApp.PROBING_MS + 40_000), () -> balanced(run),
                "3 actives on each of the 4 instances");
            run.hold(Duration.ofSeconds(3));
            run.finish();
            if (assignor.equals("kafka")) {
                return;
            }
            final List<TimelineReport.Event> events = run.events();
            final long warmed = events.stream().filter(e -> e.kind().equals("assignment") && e.at() > run.firstScripted()
                && e.fields().contains("followup=true") && !e.fields().startsWith("warm-ups=0 ")).findFirst()
                .orElseThrow(() -> new AssertionError("no assignment sent warm-ups with a follow-up")).at();
            for (final String newcomer : List.of("i2", "i3")) {
                final long firstActive = events.stream().filter(e -> e.instance().equals(newcomer)
                    && e.kind().equals("tasks") && !e.fields().startsWith("active= ")).findFirst().orElseThrow().at();
                assertTrue(events.stream().anyMatch(e -> e.instance().equals(newcomer) && e.kind().equals("tasks")
                    && e.at() < firstActive && !e.fields().endsWith("standby=")), newcomer + " had no warm-up first");
                assertTrue(events.stream().anyMatch(e -> e.kind().equals("assignment") && e.at() > warmed
                    && e.at() < firstActive), newcomer + " ran an active before a follow-up rebalance");
            }
        }
    }

    /** Every live instance reports 3 active tasks. */
    private static boolean balanced(final LiveRun run) {
        try {
            final Map<String, List<TaskId>> actives = run.actives();
            return actives.size() == 4 && actives.values().stream().allMatch(a -> a.size() == 3);
        } catch (final java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
