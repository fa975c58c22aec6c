package io.smoothscale.kafka.e2e;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * A live run's timeline as JSON: every instance's {@link Timeline} events (times in ms from the run's start),
 * the restorations with the records each restored, the rebalances each instance went through, and per task
 * the milliseconds during which no instance had it active (from the instances' own sampled task lists; an
 * instance killed or stopped holds nothing from that moment).
 */
final class TimelineReport {
    /** One event line of one instance. */
    record Event(long at, String instance, String kind, String fields) {
    }

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
     * @param tasks every task of the application, as {@code 0_3}
     */
    static void write(final Path file, final String scenario, final String assignor, final List<Event> all,
                      final long start, final long end, final List<String> tasks) throws IOException {
        final List<Event> events = new ArrayList<>(all);
        events.sort(Comparator.comparingLong(Event::at).thenComparing(Event::instance));
        final Map<String, Long> unavailable = unavailability(events, start, end, tasks);
        final StringBuilder json = new StringBuilder();
        json.append("{\n  \"scenario\": ").append(quote(scenario)).append(",\n  \"assignor\": ").append(quote(assignor))
            .append(",\n  \"duration_ms\": ").append(end - start);
        long restored = 0;
        final List<String> restorations = new ArrayList<>();
        final Map<String, Long> restoreStart = new TreeMap<>();
        int rebalances = 0;
        for (final Event e : events) {
            final String[] f = e.fields().split(" ");
            switch (e.kind()) {
                case "restore-start" -> restoreStart.put(e.instance() + "/" + f[0], e.at());
                case "restore-end" -> {
                    final long records = Long.parseLong(f[1]);
                    restored += records;
                    final Long began = restoreStart.remove(e.instance() + "/" + f[0]);
                    restorations.add("{\"instance\": " + quote(e.instance()) + ", \"task\": " + quote("0_" + f[0])
                        + ", \"start_ms\": " + (began == null ? "null" : Long.toString(began - start))
                        + ", \"end_ms\": " + (e.at() - start) + ", \"records\": " + records + "}");
                }
                case "state" -> rebalances += e.fields().endsWith(" REBALANCING") ? 1 : 0;
                default -> {
                }
            }
        }
        json.append(",\n  \"rebalances_entered\": ").append(rebalances)
            .append(",\n  \"records_restored\": ").append(restored)
            .append(",\n  \"restorations\": [").append(String.join(", ", restorations)).append("]")
            .append(",\n  \"unavailable_ms\": {");
        json.append(String.join(", ", unavailable.entrySet().stream()
            .map(u -> quote(u.getKey()) + ": " + u.getValue()).toList()));
        json.append("},\n  \"events\": [\n");
        final List<String> lines = new ArrayList<>();
        for (final Event e : events) {
            lines.add("    {\"t_ms\": " + (e.at() - start) + ", \"instance\": " + quote(e.instance()) + ", \"kind\": "
                + quote(e.kind()) + ", \"fields\": " + quote(e.fields()) + "}");
        }
        json.append(String.join(",\n", lines)).append("\n  ]\n}\n");
        Files.createDirectories(file.getParent());
        Files.writeString(file, json);
    }

    /** Per task, the time in [start, end] during which no instance listed it as active. */
    static Map<String, Long> unavailability(final List<Event> sorted, final long start, final long end,
                                            final List<String> tasks) {
        final Map<String, Set<String>> activeOn = new TreeMap<>();
        final Map<String, Long> down = new TreeMap<>();
        tasks.forEach(t -> down.put(t, 0L));
        long previous = start;
        for (final Event e : sorted) {
            final long at = Math.min(Math.max(e.at(), start), end);
            accumulate(activeOn, down, at - previous);
            previous = at;
            switch (e.kind()) {
                case "tasks" -> activeOn.put(e.instance(), parseActive(e.fields()));
                case "killed", "stopped" -> activeOn.remove(e.instance());
                default -> {
                }
            }
        }
        accumulate(activeOn, down, end - previous);
        return down;
    }

    private static void accumulate(final Map<String, Set<String>> activeOn, final Map<String, Long> down,
                                   final long elapsed) {
        if (elapsed <= 0) {
            return;
        }
        final Set<String> available = new HashSet<>();
        activeOn.values().forEach(available::addAll);
        for (final Map.Entry<String, Long> d : down.entrySet()) {
            if (!available.contains(d.getKey())) {
                d.setValue(d.getValue() + elapsed);
            }
        }
    }

    private static Set<String> parseActive(final String fields) {
        final String active = fields.split(" ")[0].substring("active=".length());
        return active.isEmpty() ? Set.of() : new HashSet<>(Arrays.asList(active.split(",")));
    }

    private static String quote(final String s) {
        return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }
}
