package io.smoothscale.kafka.e2e;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code smoothscale.input.rates=true} on a real broker ({@link LiveRun}: {@link CountApp} processes running our
 * {@code smooth}, {@link Workload#PARTITIONS} input partitions, a producer writing {@value LiveRun#PRODUCE_PER_SECOND}
 * records/s over them). One instance starts, the producer starts, and a second instance joins: at the rebalance it
 * causes, the leader lists the input's end offsets again with its own Admin client and observes from a listing it
 * kept at least the core's window before (the first instance's rebalances), so the state our assignor sends the
 * core carries an input rate for every task
 * ({@code input-rates} events of {@link RecordingAssignor}), summing to the order of the write rate (the interval
 * also spans the quiet seconds before the producer started, so less). Counts stay exact and every handout valid.
 */
@Timeout(120)
class LiveInputRatesTest extends OnRealBroker {
    private static final Pattern RATES = Pattern.compile("known=(\\d+)/(\\d+) total=(\\d+)");

    @Test
    void theLeaderSendsAnInputRateForEveryTask() throws Exception {
        try (LiveRun run = new LiveRun("input-rates", "smooth", broker.bootstrap(), 1,
            Map.of("smoothscale.input.rates", "true"))) {
            run.hold(Duration.ofSeconds(5));
            run.scaleOut(1);
            run.awaitSettledAndValid();
            run.finish();
            final List<String> rates = run.events().stream()
                .filter(e -> e.kind().equals("input-rates") && e.at() > run.firstScripted())
                .map(TimelineReport.Event::fields).toList();
            assertTrue(rates.stream().anyMatch(LiveInputRatesTest::everyTaskAtTheWriteRatesOrder),
                "no rebalance after the scale-out sent an input rate for each of the " + Workload.PARTITIONS
                    + " tasks summing to within a factor of 100 of " + LiveRun.PRODUCE_PER_SECOND + " records/s: "
                    + rates);
        }
    }

    /**
     * Every task has a rate, and their sum is within a factor of 100 below or above the write rate: a second taken
     * for a millisecond, or the other way round, would miss by 1,000.
     */
    private static boolean everyTaskAtTheWriteRatesOrder(final String fields) {
        final Matcher m = RATES.matcher(fields);
        if (!m.matches()) {
            return false;
        }
        final long total = Long.parseLong(m.group(3));
        return Integer.parseInt(m.group(1)) == Workload.PARTITIONS && Integer.parseInt(m.group(2)) == Workload.PARTITIONS
            && total * 100 >= LiveRun.PRODUCE_PER_SECOND && total <= 100L * LiveRun.PRODUCE_PER_SECOND;
    }
}
