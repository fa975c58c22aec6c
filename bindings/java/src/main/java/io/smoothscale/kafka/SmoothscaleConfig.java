package io.smoothscale.kafka;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.ConfigException;

/**
 * The assignor's options, read from the Kafka Streams configuration. Every key starts with
 * {@code smoothscale.}; a key with that prefix that is not known here is a typo and is rejected.
 *
 * @param strategy the registered strategy to run ({@value #STRATEGY}, default {@value #DEFAULT_STRATEGY})
 */
record SmoothscaleConfig(String strategy) {
    /** The strategy key. */
    static final String STRATEGY = "smoothscale.strategy";
    /** Kafka Streams' own default assignor, ported. */
    static final String DEFAULT_STRATEGY = "kip441";
    private static final String PREFIX = "smoothscale.";
    private static final List<String> KEYS = List.of(STRATEGY);

    /**
     * Reads the options from {@code configs}.
     *
     * @throws ConfigException naming the key and the value: an unknown {@code smoothscale.} key, a strategy that is
     *     not a string or not registered
     */
    static SmoothscaleConfig from(final Map<String, ?> configs) {
        for (final String key : configs.keySet()) {
            if (key.startsWith(PREFIX) && !KEYS.contains(key)) {
                throw new ConfigException(key, configs.get(key), "unknown smoothscale option; the options are " + KEYS);
            }
        }
        final Object value = configs.get(STRATEGY);
        if (value == null) {
            return new SmoothscaleConfig(DEFAULT_STRATEGY);
        }
        if (!(value instanceof String name)) {
            throw new ConfigException(STRATEGY, value, "must be a string naming a strategy");
        }
        final List<String> known = Arrays.asList(NativeBridge.strategies());
        final String strategy = name.trim();
        if (!known.contains(strategy)) {
            throw new ConfigException(STRATEGY, value, "must be one of " + String.join(", ", known));
        }
        return new SmoothscaleConfig(strategy);
    }
}
