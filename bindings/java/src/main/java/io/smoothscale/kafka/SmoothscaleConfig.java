package io.smoothscale.kafka;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.kafka.common.config.ConfigException;

/**
 * The assignor's options, read from the Kafka Streams configuration. Every key starts with
 * {@code smoothscale.}; a key with that prefix that is not known here is a typo and is rejected.
 *
 * @param strategy the registered strategy to run ({@value #STRATEGY}, default {@value #DEFAULT_STRATEGY})
 * @param inputRates whether the group leader lists its tasks' input end offsets at each rebalance, for the input
 *     rates the core reads ({@value #INPUT_RATES}, default {@code false}; {@link InputRateObserver})
 */
record SmoothscaleConfig(String strategy, boolean inputRates) {
    /** The strategy key. */
    static final String STRATEGY = "smoothscale.strategy";
    /** Kafka Streams' own default assignor, ported. */
    static final String DEFAULT_STRATEGY = "kip441";
    /** The input rates key: {@code true} or {@code false}, as a boolean or a string. */
    static final String INPUT_RATES = "smoothscale.input.rates";
    private static final String PREFIX = "smoothscale.";
    private static final List<String> KEYS = List.of(STRATEGY, INPUT_RATES);

    /**
     * Reads the options from {@code configs}.
     *
     * @throws ConfigException naming the key and the value: an unknown {@code smoothscale.} key, a strategy that is
     *     not a string or not registered, an input rates value that is not {@code true} or {@code false}
     */
    static SmoothscaleConfig from(final Map<String, ?> configs) {
        for (final String key : configs.keySet()) {
            if (key.startsWith(PREFIX) && !KEYS.contains(key)) {
                throw new ConfigException(key, configs.get(key), "unknown smoothscale option; the options are " + KEYS);
            }
        }
        return new SmoothscaleConfig(strategy(configs.get(STRATEGY)), inputRates(configs.get(INPUT_RATES)));
    }

    private static String strategy(final Object value) {
        if (value == null) {
            return DEFAULT_STRATEGY;
        }
        if (!(value instanceof String name)) {
            throw new ConfigException(STRATEGY, value, "must be a string naming a strategy");
        }
        final List<String> known = Arrays.asList(NativeBridge.strategies());
        final String strategy = name.trim();
        if (!known.contains(strategy)) {
            throw new ConfigException(STRATEGY, value, "must be one of " + String.join(", ", known));
        }
        return strategy;
    }

    /** {@code true} or {@code false}, as Kafka reads a boolean setting: a Boolean, or a string in any case. */
    private static boolean inputRates(final Object value) {
        if (value == null) {
            return false;
        }
        if (value instanceof Boolean b) {
            return b;
        }
        if (value instanceof String s) {
            switch (s.trim().toLowerCase(Locale.ROOT)) {
                case "true":
                    return true;
                case "false":
                    return false;
                default:
                    break;
            }
        }
        throw new ConfigException(INPUT_RATES, value, "must be true or false");
    }
}
