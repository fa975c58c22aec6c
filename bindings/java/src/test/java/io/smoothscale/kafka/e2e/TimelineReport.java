package io.smoothscale.kafka.e2e;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * A live run's timeline as JSON, in the simulator's terms so that {@code e2e/real-vs-sim.py} can set the two
 * side by side: the run's configuration and scripted events, the rebalances (episodes in which some instance was
 * {@code REBALANCING}, by cause), when the actives settled after the last event, the records restored by actives
 * and loaded by standbys and warm-ups, the restore rate the actives' restorations reached, the changelog's growth,
 * per task the time no instance was running it, and what the caller adds (the backlog, {@link Backlog}). Every
 * time is in ms from the run's start.
 *
 * <p>A task is unavailable while no live instance lists it as active (in its sampled task list) or the instance
 * that lists it is restoring it (between the restore listener's start and end). An instance killed or stopped
 * holds nothing from that moment.
 */
final class TimelineReport {
    /** One event line of one instance (or of the test, for the instance it acted on). */
    record Event(long at, String instance, String kind, String fields) {
    }

    /** An event the test scripted, in the simulator's kinds ({@code scale_out}, {@code crash}, ...). */
    record Scripted(long at, String kind, String detail) {
    }

    /**
     * A rebalance: an interval in which some instance was rebalancing, why it ran, and in how many rounds (bursts
     * of instances entering {@code REBALANCING}, each a generation of the group: the cooperative protocol adds a
     * round whenever an assignment revokes tasks).
     */
    record Episode(long start, long end, String kind, int rounds) {
    }

    /** Instances entering {@code REBALANCING} within this of the first are one round. */
    private static final long ROUND_MS = 300;

    /** Intervals closer than this are one rebalance. */
    private static final long MERGE_MS = 1_000;

    private TimelineReport() {
    }

    /** Parses {@code EVENT <ms> <kind> <fields>} lines of {@code instance}. */
    static List<Event> events(final String instance, final List<String> lines) {
        final List<Event> out = new ArrayList<>();
        for (final String line : lines) {
            if (!line.startsWith("EVENT ")) {
                continue;
            }
            final String[] parts = line.split(" ", 4);
            out.add(new Event(Long.parseLong(parts[1]), instance, parts[2], parts.length > 3 ? parts[3] : ""));
        }
        return out;
    }

    /**
     * Writes the report of the events between {@code start} and {@code end} (epoch ms) to {@code file}.
     *
     * @param config the run's settings, written as they are (numbers)
     * @param tasks every task of the application, as {@code 0_3}
     * @param changelog the changelog's total records at the start and at the end
     * @param members further members of the report's object ({@code "key": value}), written before the events
     * @return the report's JSON
     */
    static String write(final Path file, final String scenario, final String assignor, final Map<String, Long> config,
                        final List<Scripted> scripted, final List<Event> all, final long start, final long end,
                        final List<String> tasks, final long[] changelog, final List<String> members)
        throws IOException {
        final List<Event> events = new ArrayList<>(all);
        events.sort(Comparator.comparingLong(Event::at).thenComparing(Event::instance));
        final long lastScripted = scripted.stream().mapToLong(Scripted::at).max().orElse(start);
        final StringBuilder json = new StringBuilder();
        json.append("{\n  \"scenario\": ").append(quote(scenario))
            .append(",\n  \"assignor\": ").append(quote(assignor))
            .append(",\n  \"duration_ms\": ").append(end - start)
            .append(",\n  \"config\": {").append(config.entrySet().stream()
                .map(c -> quote(c.getKey()) + ": " + c.getValue()).collect(Collectors.joining(", "))).append("}")
            .append(",\n  \"scripted\": [").append(scripted.stream()
                .map(s -> "{\"t_ms\": " + (s.at() - start) + ", \"kind\": " + quote(s.kind()) + ", \"detail\": "
                    + quote(s.detail()) + "}").collect(Collectors.joining(", "))).append("]")
            .append(",\n  \"changelog_records\": {\"start\": ").append(changelog[0]).append(", \"end\": ")
            .append(changelog[1]).append("}");
        final List<Episode> episodes = rebalances(events, scripted, start, end, config.get("probing_rebalance_interval_ms"));
        final Map<String, Long> kinds = new TreeMap<>(Map.of("membership", 0L, "probing", 0L, "follow_up", 0L));
        episodes.forEach(e -> kinds.merge(e.kind(), 1L, Long::sum));
        json.append(",\n  \"rebalances\": {\"total\": ").append(episodes.size()).append(", \"rounds\": ")
            .append(episodes.stream().mapToInt(Episode::rounds).sum());
        kinds.forEach((k, n) -> json.append(", ").append(quote(k)).append(": ").append(n));
        json.append(", \"episodes\": [").append(episodes.stream()
            .map(e -> "{\"start_ms\": " + (e.start() - start) + ", \"end_ms\": " + (e.end() - start) + ", \"kind\": "
                + quote(e.kind()) + ", \"rounds\": " + e.rounds() + "}").collect(Collectors.joining(", "))).append("]}");
        final long settled = lastActiveChange(events, start, end);
        json.append(",\n  \"actives_settled_ms_after_last_event\": ").append(Math.max(0, settled - lastScripted));
        restorations(json, events, start);
        final Map<String, List<long[]>> outages = outages(events, start, end, tasks);
        long total = 0;
        long longest = 0;
        final List<String> perTask = new ArrayList<>();
        for (final Map.Entry<String, List<long[]>> t : outages.entrySet()) {
            long sum = 0;
            for (final long[] o : t.getValue()) {
                sum += o[1] - o[0];
                longest = Math.max(longest, o[1] - o[0]);
            }
            total += sum;
            perTask.add(quote(t.getKey()) + ": " + sum);
        }
        json.append(",\n  \"unavailable\": {\"task_s\": ").append(String.format(Locale.ROOT, "%.3f", total / 1000.0))
            .append(", \"max_outage_ms\": ").append(longest)
            .append(", \"per_task_ms\": {").append(String.join(", ", perTask)).append("}}");
        final List<String> handouts = events.stream().filter(e -> e.kind().equals("handout"))
            .map(Event::fields).toList();
        json.append(",\n  \"handouts\": {\"checked\": ").append(handouts.stream().filter(h -> h.startsWith("valid")
            || h.startsWith("invalid")).count()).append(", \"invalid\": [").append(handouts.stream()
                .filter(h -> h.startsWith("invalid")).map(TimelineReport::quote).collect(Collectors.joining(", ")))
            .append("]}");
        final List<String> agreement = events.stream().filter(e -> e.kind().equals("kafka-agreement"))
            .map(Event::fields).toList();
        json.append(",\n  \"kafka_agreement\": {\"agrees\": ").append(agreement.stream().filter("agrees"::equals).count())
            .append(", \"order_undefined\": ").append(agreement.stream().filter("order-undefined"::equals).count())
            .append(", \"other\": [").append(agreement.stream().filter(a -> !a.equals("agrees")
                && !a.equals("order-undefined")).map(TimelineReport::quote).collect(Collectors.joining(", ")))
            .append("]}");
        members.forEach(m -> json.append(",\n  ").append(m));
        json.append(",\n  \"events\": [\n").append(events.stream()
            .map(e -> "    {\"t_ms\": " + (e.at() - start) + ", \"instance\": " + quote(e.instance()) + ", \"kind\": "
                + quote(e.kind()) + ", \"fields\": " + quote(e.fields()) + "}")
            .collect(Collectors.joining(",\n"))).append("\n  ]\n}\n");
        Files.createDirectories(file.getParent());
        Files.writeString(file, json);
        return json.toString();
    }

    /** Active restorations (with the rate they reached) and the records standbys and warm-ups loaded. */
    private static void restorations(final StringBuilder json, final List<Event> events, final long start) {
        long active = 0;
        long replica = 0;
        long timedRecords = 0;
        long timedMs = 0;
        long caughtUp = 0;
        long caughtUpRecords = 0;
        long caughtUpMs = 0;
        final List<String> list = new ArrayList<>();
        final Map<String, Long> began = new HashMap<>();
        for (final Event e : events) {
            final String[] f = e.fields().split(" ");
            switch (e.kind()) {
                case "restore-start" -> began.put(e.instance() + "/" + f[0], e.at());
                case "restore-end" -> {
                    final long records = Long.parseLong(f[1]);
                    final Long from = began.remove(e.instance() + "/" + f[0]);
                    if (e.at() >= start) {
                        active += records;
                        if (from != null && records > 0) {
                            timedRecords += records;
                            timedMs += Math.max(1, e.at() - from);
                        }
                        list.add("{\"instance\": " + quote(e.instance()) + ", \"task\": " + quote("0_" + f[0])
                            + ", \"start_ms\": " + (from == null ? "null" : Long.toString(from - start))
                            + ", \"end_ms\": " + (e.at() - start) + ", \"records\": " + records + "}");
                    }
                }
                case "replica-records" -> replica += e.at() >= start ? Long.parseLong(f[0]) : 0;
                case "replica-caught-up" -> {
                    if (e.at() >= start && Long.parseLong(f[1]) > 0) {
                        caughtUp++;
                        caughtUpRecords += Long.parseLong(f[1]);
                        caughtUpMs += Math.max(1, Long.parseLong(f[2]));
                    }
                }
                case "killed", "stopped" -> began.keySet().removeIf(k -> k.startsWith(e.instance() + "/"));
                default -> {
                }
            }
        }
        json.append(",\n  \"records_restored\": {\"active\": ").append(active).append(", \"replica\": ")
            .append(replica).append("}")
            .append(",\n  \"active_restore_rate\": ")
            .append(timedMs == 0 ? "null" : String.format(Locale.ROOT, "%.1f", timedRecords * 1000.0 / timedMs))
            .append(",\n  \"replica_catch_up\": {\"replicas\": ").append(caughtUp).append(", \"records\": ")
            .append(caughtUpRecords).append(", \"ms\": ").append(caughtUpMs).append(", \"rate\": ")
            .append(caughtUpMs == 0 ? "null" : String.format(Locale.ROOT, "%.1f", caughtUpRecords * 1000.0 / caughtUpMs))
            .append("}")
            .append(",\n  \"restorations\": [").append(String.join(", ", list)).append("]");
    }

    /**
     * The rebalances after {@code start}: intervals in which some live instance was {@code REBALANCING}, merged
     * when closer than a second. One after a membership change (an instance started, restarted, killed or
     * stopped since the previous one ended) is {@code membership}; else one at least the probing interval (less
     * 5 s) after the previous one began is {@code probing}; else a {@code follow_up} (a second round the
     * cooperative protocol or the assignor asked for at once).
     */
    static List<Episode> rebalances(final List<Event> sorted, final List<Scripted> scripted, final long start,
                                    final long end, final long probingMs) {
        final List<long[]> intervals = new ArrayList<>();
        final Map<String, Long> since = new HashMap<>();
        final List<Long> membership = new ArrayList<>();
        for (final Event e : sorted) {
            switch (e.kind()) {
                case "state" -> {
                    final Long from = since.remove(e.instance());
                    if (from != null) {
                        intervals.add(new long[] {from, e.at()});
                    }
                    if (e.fields().endsWith(" REBALANCING")) {
                        since.put(e.instance(), e.at());
                    }
                }
                case "killed", "stopped", "started" -> {
                    membership.add(e.at());
                    final Long from = since.remove(e.instance());
                    if (from != null) {
                        intervals.add(new long[] {from, e.at()});
                    }
                }
                default -> {
                }
            }
        }
        since.values().forEach(from -> intervals.add(new long[] {from, end}));
        intervals.sort(Comparator.comparingLong(i -> i[0]));
        final List<long[]> merged = new ArrayList<>();
        for (final long[] i : intervals) {
            final long[] last = merged.isEmpty() ? null : merged.get(merged.size() - 1);
            if (last != null && i[0] <= last[1] + MERGE_MS) {
                last[1] = Math.max(last[1], i[1]);
            } else {
                merged.add(new long[] {i[0], i[1]});
            }
        }
        final List<Long> entries = sorted.stream().filter(e -> e.kind().equals("state")
            && e.fields().endsWith(" REBALANCING")).map(Event::at).toList();
        final List<Episode> out = new ArrayList<>();
        long previousStart = Long.MIN_VALUE;
        long previousEnd = Long.MIN_VALUE;
        for (final long[] m : merged) {
            final long from = previousEnd;
            final boolean changed = membership.stream().anyMatch(t -> t > from && t <= m[0] + MERGE_MS);
            final String kind = changed ? "membership"
                : previousStart != Long.MIN_VALUE && m[0] - previousStart >= probingMs - 5_000 ? "probing" : "follow_up";
            int rounds = 0;
            long round = Long.MIN_VALUE;
            for (final long t : entries) {
                if (t >= m[0] && t <= m[1] && (round == Long.MIN_VALUE || t - round > ROUND_MS)) {
                    rounds++;
                    round = t;
                }
            }
            if (m[0] >= start) {
                out.add(new Episode(m[0], m[1], kind, Math.max(1, rounds)));
            }
            previousStart = m[0];
            previousEnd = m[1];
        }
        return out;
    }

    /** The last moment in [start, end] an instance's active tasks changed (sampled) or it stopped holding any. */
    private static long lastActiveChange(final List<Event> sorted, final long start, final long end) {
        final Map<String, Set<String>> actives = new HashMap<>();
        long last = start;
        for (final Event e : sorted) {
            final Set<String> before = actives.getOrDefault(e.instance(), Set.of());
            final Set<String> after = switch (e.kind()) {
                case "tasks" -> parse(e.fields(), "active=");
                case "killed", "stopped" -> Set.of();
                default -> before;
            };
            actives.put(e.instance(), after);
            if (!after.equals(before) && e.at() >= start && e.at() <= end) {
                last = e.at();
            }
        }
        return last;
    }

    /** Per task, the intervals in [start, end] during which no instance was running it. */
    static Map<String, List<long[]>> outages(final List<Event> sorted, final long start, final long end,
                                             final List<String> tasks) {
        final Map<String, Set<String>> activeOn = new TreeMap<>();
        final Map<String, Set<String>> restoringOn = new TreeMap<>();
        final Map<String, List<long[]>> out = new TreeMap<>();
        final Map<String, Long> downSince = new HashMap<>();
        tasks.forEach(t -> out.put(t, new ArrayList<>()));
        for (final Event e : sorted) {
            switch (e.kind()) {
                case "tasks" -> activeOn.put(e.instance(), parse(e.fields(), "active="));
                case "restore-start" -> restoringOn.computeIfAbsent(e.instance(), k -> new HashSet<>())
                    .add("0_" + e.fields().split(" ")[0]);
                case "restore-end" -> restoringOn.getOrDefault(e.instance(), new HashSet<>())
                    .remove("0_" + e.fields().split(" ")[0]);
                case "killed", "stopped" -> {
                    activeOn.remove(e.instance());
                    restoringOn.remove(e.instance());
                }
                default -> {
                    continue;
                }
            }
            final long at = Math.min(Math.max(e.at(), start), end);
            final Set<String> running = new HashSet<>();
            activeOn.forEach((instance, active) -> active.stream()
                .filter(t -> !restoringOn.getOrDefault(instance, Set.of()).contains(t)).forEach(running::add));
            for (final String t : tasks) {
                final boolean down = !running.contains(t);
                if (down && !downSince.containsKey(t)) {
                    downSince.put(t, at);
                } else if (!down && downSince.containsKey(t)) {
                    final long from = downSince.remove(t);
                    if (at > from) {
                        out.get(t).add(new long[] {from, at});
                    }
                }
            }
        }
        downSince.forEach((t, from) -> {
            if (end > from) {
                out.get(t).add(new long[] {from, end});
            }
        });
        return out;
    }

    /** The comma-separated tasks after {@code key} (such as {@code active=}) in a {@code tasks} event's fields. */
    static Set<String> parse(final String fields, final String key) {
        for (final String part : fields.split(" ")) {
            if (part.startsWith(key)) {
                final String list = part.substring(key.length());
                return list.isEmpty() ? Set.of() : new HashSet<>(Arrays.asList(list.split(",")));
            }
        }
        return Set.of();
    }

    static String quote(final String s) {
        return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }
}
