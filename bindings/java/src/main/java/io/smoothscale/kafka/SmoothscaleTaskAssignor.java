package io.smoothscale.kafka;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor.GroupAssignment;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor.GroupSubscription;
import org.apache.kafka.streams.errors.TaskAssignmentException;
import org.apache.kafka.streams.processor.assignment.ApplicationState;
import org.apache.kafka.streams.processor.assignment.KafkaStreamsAssignment;
import org.apache.kafka.streams.processor.assignment.KafkaStreamsAssignment.AssignedTask;
import org.apache.kafka.streams.processor.assignment.KafkaStreamsState;
import org.apache.kafka.streams.processor.assignment.ProcessId;
import org.apache.kafka.streams.processor.assignment.TaskAssignor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A Kafka Streams {@link TaskAssignor} (KIP-924) that runs a smoothscale strategy in the Rust core.
 *
 * <p>Enable it with {@code task.assignor.class=io.smoothscale.kafka.SmoothscaleTaskAssignor} and choose the
 * strategy with {@code smoothscale.strategy} (default {@code kip441}, the port of Kafka Streams' own
 * {@code HighAvailabilityTaskAssignor}). Kafka's assignment settings ({@code num.standby.replicas},
 * {@code acceptable.recovery.lag}, {@code max.warmup.replicas}, {@code probing.rebalance.interval.ms},
 * {@code rack.aware.assignment.*}) are read from the {@link ApplicationState} as Kafka passes them.
 *
 * <p>With {@code smoothscale.input.rates=true} (default {@code false}; a value other than {@code true} or
 * {@code false} is a {@code ConfigException}) the group leader also lists the latest end offsets of every task's
 * source partitions at each rebalance, with an Admin client of the assignor's own built from the Streams
 * configuration (bootstrap servers, security), waiting at most a few seconds; the core turns the offsets of two
 * rebalances and the time between into each task's input rate, the load {@code smooth} weighs tasks by
 * ({@link InputRateObserver}). When the option is off, or the listing fails or does not answer in time, no input
 * offsets are sent and tasks weigh by count; one line is logged when that state changes, and the rebalance goes on.
 *
 * <p>Warm-up replicas are returned as standby tasks, as Kafka's own assignor does. When the plan asks for a
 * follow-up (probing) rebalance, the first process in {@code ProcessId} order gets the deadline. Any failure is
 * thrown as Kafka's {@link TaskAssignmentException} (the {@code TaskAssignor} contract), with a one-line message,
 * {@code smoothscale <strategy> could not assign: } and the core's message, whose positional paths
 * ({@code clients[1]}) name the process or task they stand for; its cause is a {@link SmoothscaleInputException}
 * when the input is at fault (a state the core rejects, an input the strategy cannot serve) and a
 * {@link SmoothscaleInvariantException} for a bug (a plan that fails smoothscale's invariant check, a panic in the
 * core), with the message the command line prints. The JVM is never aborted.
 */
public final class SmoothscaleTaskAssignor implements TaskAssignor {
    private static final Logger LOG = LoggerFactory.getLogger(SmoothscaleTaskAssignor.class);
    private static final Pattern CLIENT_PATH = Pattern.compile("clients\\[(\\d+)]");
    private static final Pattern TASK_PATH = Pattern.compile("tasks\\[(\\d+)]");

    private final Clock clock;
    private final Function<Map<String, ?>, InputRateObserver> inputRatesOf;
    private SmoothscaleConfig config = null;
    private InputRateObserver inputRates = null;
    private PlanSummary lastSummary = null;
    private EncodedState lastState = null;
    private final RestoreRateObserver restoreRate = new RestoreRateObserver();

    /** An assignor reading the wall clock for follow-up deadlines; Kafka Streams creates it reflectively. */
    public SmoothscaleTaskAssignor() {
        this(Clock.systemUTC());
    }

    /** An assignor whose follow-up deadlines and input rates are measured from {@code clock} (tests). */
    SmoothscaleTaskAssignor(final Clock clock) {
        this(clock, InputRateObserver::forApplication);
    }

    /** An assignor whose input offsets come from {@code inputRates}, whatever its configuration (tests). */
    SmoothscaleTaskAssignor(final Clock clock, final InputRateObserver inputRates) {
        this(clock, configs -> inputRates);
    }

    private SmoothscaleTaskAssignor(final Clock clock, final Function<Map<String, ?>, InputRateObserver> inputRatesOf) {
        this.clock = clock;
        this.inputRatesOf = inputRatesOf;
    }

    /**
     * Reads {@code smoothscale.*} options from the Streams configuration and loads the native library; keeps the
     * client settings for the input rates' Admin client.
     *
     * @throws org.apache.kafka.common.config.ConfigException naming the key and value of a bad option
     */
    @Override
    public void configure(final Map<String, ?> configs) {
        config = SmoothscaleConfig.from(configs);
        inputRates = inputRatesOf.apply(configs);
    }

    /** The strategy this assignor runs. */
    String strategy() {
        return settings().strategy();
    }

    private SmoothscaleConfig settings() {
        if (config == null) {
            configure(Map.of());
        }
        return config;
    }

    /** The input offsets of this rebalance: none when the option is off or the listing fails (never throws). */
    private InputRateObserver.Reading input(final ApplicationState app) {
        settings();
        if (!config.inputRates()) {
            inputRates.off();
            return InputRateObserver.Reading.NONE;
        }
        return inputRates.observe(app, clock);
    }

    @Override
    public TaskAssignment assign(final ApplicationState applicationState) {
        final String strategy = settings().strategy();
        final InputRateObserver.Reading input = input(applicationState);
        final Instant now = clock.instant();
        final EncodedState state;
        final DecodedPlan plan;
        final Map<ProcessId, KafkaStreamsState> states;
        try {
            states = applicationState.kafkaStreamsStates(true);
            final OptionalLong rate =
                restoreRate.observe(now, states, applicationState.assignmentConfigs().acceptableRecoveryLag());
            state = StateEncoder.encode(applicationState, states, rate, input);
            plan = DecodedPlan.read(NativeBridge.assign(strategy, state.bytes()), state);
        } catch (final SmoothscaleException e) {
            throw new TaskAssignmentException("smoothscale " + strategy + " could not assign: "
                + readable(e.getMessage(), applicationState), e);
        } catch (final RuntimeException e) {
            throw new TaskAssignmentException("smoothscale " + strategy + " could not read the application state: " + e, e);
        }
        restoreRate.remember(now, state, plan, states);
        final Optional<Instant> deadline = plan.followupMs().isPresent()
            ? Optional.of(now.plusMillis(plan.followupMs().getAsLong()))
            : Optional.empty();
        final List<KafkaStreamsAssignment> out = new ArrayList<>(state.clients().size());
        for (int c = 0; c < state.clients().size(); c++) {
            final DecodedPlan.ClientPlan cp = plan.clients().get(c);
            final Set<AssignedTask> tasks =
                new HashSet<>(2 * (cp.active().size() + cp.standby().size() + cp.warmup().size()));
            cp.active().forEach(t -> tasks.add(new AssignedTask(t, AssignedTask.Type.ACTIVE)));
            cp.standby().forEach(t -> tasks.add(new AssignedTask(t, AssignedTask.Type.STANDBY)));
            cp.warmup().forEach(t -> tasks.add(new AssignedTask(t, AssignedTask.Type.STANDBY)));
            KafkaStreamsAssignment a = KafkaStreamsAssignment.of(state.clients().get(c), tasks);
            if (c == 0 && deadline.isPresent()) {
                a = a.withFollowupRebalance(deadline.get());
            }
            out.add(a);
        }
        lastSummary = PlanSummary.of(strategy, state, plan, deadline);
        lastState = state;
        return new TaskAssignment(out);
    }

    /** Logs the summary of the plan this assignor computed, and Kafka's verdict on it. */
    @Override
    public void onAssignmentComputed(final GroupAssignment assignment, final GroupSubscription subscription,
                                     final AssignmentError error) {
        final String summary = lastSummary == null ? "smoothscale: no plan computed" : lastSummary.toString();
        if (error == AssignmentError.NONE) {
            LOG.info("{}", summary);
        } else {
            LOG.error("{}; Kafka Streams rejected the assignment: {}", summary, error);
        }
    }

    /** The plan summary of the last {@link #assign} call, if any (tests). */
    Optional<PlanSummary> lastSummary() {
        return Optional.ofNullable(lastSummary);
    }

    /** The state message of the last {@link #assign} call, if any (tests). */
    Optional<EncodedState> lastState() {
        return Optional.ofNullable(lastState);
    }

    /** Adds the process and task a positional path ({@code clients[3]}, {@code tasks[7]}) stands for. */
    private static String readable(final String message, final ApplicationState app) {
        if (message == null) {
            return "no message";
        }
        String out = message;
        try {
            final List<?> clients = app.kafkaStreamsStates(false).keySet().stream().sorted().toList();
            final List<?> tasks = app.allTasks().keySet().stream().sorted().toList();
            out = annotate(out, CLIENT_PATH, clients, "process ");
            out = annotate(out, TASK_PATH, tasks, "task ");
        } catch (final RuntimeException ignored) {
            // The message stands on its own; the annotation is a convenience.
        }
        return out;
    }

    private static String annotate(final String message, final Pattern path, final List<?> items, final String what) {
        final Matcher m = path.matcher(message);
        final StringBuilder sb = new StringBuilder();
        while (m.find()) {
            final int i = Integer.parseInt(m.group(1));
            final String note = i < items.size() ? " (" + what + items.get(i) + ")" : "";
            m.appendReplacement(sb, Matcher.quoteReplacement(m.group() + note));
        }
        m.appendTail(sb);
        return sb.toString();
    }
}
