package io.smoothscale.kafka.differential;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.SortedSet;
import java.util.SplittableRandom;
import java.util.TreeSet;

import io.smoothscale.kafka.testkit.AppSpec;
import io.smoothscale.kafka.testkit.Labeling;
import io.smoothscale.kafka.testkit.Outcome;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The one deliberate deviation of our {@code kip441} from Kafka's {@code HighAvailabilityTaskAssignor}:
 * Kafka's {@code ConstrainedPrioritySet} keeps a client in its heap while a task movement changes that
 * client's load, so a later poll can return a client that is not the least loaded; ours always takes
 * the least loaded. Whether the stale entry surfaces depends on the heap's layout, which follows the
 * order in which rejected clients are offered back (a {@code HashSet} of process ids): so Kafka's
 * result is order-undefined there, and the differential counts such a state as "order-undefined, ours
 * equals a Kafka variant". Random states rarely meet it (none of the differential's first 20,000; one
 * of 6,000 drawn with 9 clients and {@code max.warmup.replicas} 1), so this test pins that state: 14
 * stateful tasks, 9 clients, one standby, one warm-up. Under the labeling whose process ids hash in
 * ascending order, and under some random ones, Kafka gives the standby of task 8 (1_0) to client 2 (one
 * thread, already at load 1.0 with its active); ours, like Kafka under the other labelings, gives it to
 * client 0 (four threads, load 0.75). Nothing else differs.
 *
 * <p>The evidence that this is the stale heap and nothing else: with Kafka's classes patched (outside
 * the repository, on the test class path) so that ties and hash maps visit tasks in ascending order,
 * Kafka under the ascending labeling still differs from ours on this state, and only here among the
 * 6,000; patching in addition {@code ConstrainedPrioritySet.pollNextClient} to rebuild its heap from
 * the current loads before each poll makes Kafka equal ours on all 6,000.
 */
class StaleHeapQuirkTest {
    /** The search's seed and the state's index in it ({@code StateGenerator} on {@code Seeds.mix(77, i, 5)}). */
    private static final long SEED = 77;
    private static final int INDEX = 136_483;
    private static final int TASK_8 = 8;

    @BeforeAll
    static void quietKafkaAssignors() {
        DifferentialTest.quietKafkaAssignors();
    }

    @Test
    void kafkaCanPlaceAStandbyOnAClientThatIsNotTheLeastLoadedAndOursDoesNot() {
        final AppSpec spec = StateGenerator.generate(new SplittableRandom(Seeds.mix(SEED, INDEX, 5)));
        final List<Labeling> labelings = new ArrayList<>(Labelings.of(spec, SEED, INDEX));
        labelings.addAll(Labelings.extra(spec, SEED, INDEX));
        final List<Outcome> kafka = new ArrayList<>();
        for (final Labeling labeling : labelings) {
            kafka.add(KafkaAssignor.HIGH_AVAILABILITY.run(spec, labeling));
        }
        final Outcome ours = OursSide.run("kip441", spec, labelings.get(0));
        final Outcome stale = moved(ours, TASK_8, 0, 2);
        final String described = new Verdict(kafka, ours).describe();
        assertTrue(ours.clients().get(0).standby().contains(TASK_8), described);
        assertEquals(stale, kafka.get(Labelings.ASCENDING), described);
        assertEquals(Set.of(ours, stale), Set.copyOf(kafka), described);
    }

    /** Ours with a standby moved from one client to another. */
    private static Outcome moved(final Outcome outcome, final int task, final int from, final int to) {
        final List<Outcome.Tasks> clients = new ArrayList<>();
        for (int rank = 0; rank < outcome.clients().size(); rank++) {
            final Outcome.Tasks tasks = outcome.clients().get(rank);
            final SortedSet<Integer> standby = new TreeSet<>(tasks.standby());
            if (rank == from) {
                standby.remove(task);
            } else if (rank == to) {
                standby.add(task);
            }
            clients.add(new Outcome.Tasks(tasks.active(), standby));
        }
        return new Outcome(clients, outcome.followup());
    }
}
