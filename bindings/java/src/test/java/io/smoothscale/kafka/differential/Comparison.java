package io.smoothscale.kafka.differential;

/**
 * A class of the differential: one of our strategies against one of Kafka's assignors.
 * An informational class reports its agreement but never fails the test.
 */
enum Comparison {
    /** Our {@code kip441} against Kafka's {@code HighAvailabilityTaskAssignor}. */
    KIP441_VS_HATA("kip441", KafkaAssignor.HIGH_AVAILABILITY, false),
    /** Our {@code sticky} against Kafka's {@code LegacyStickyTaskAssignor}. */
    STICKY_VS_LEGACY_STICKY("sticky", KafkaAssignor.LEGACY_STICKY, false),
    /**
     * Our {@code sticky} against the KIP-924 {@code StickyTaskAssignor}, Kafka's rewrite with known design
     * differences from the legacy one: information only.
     */
    STICKY_VS_KIP924_STICKY("sticky", KafkaAssignor.KIP924_STICKY, true);

    final String strategy;
    final KafkaAssignor kafka;
    final boolean informational;

    Comparison(final String strategy, final KafkaAssignor kafka, final boolean informational) {
        this.strategy = strategy;
        this.kafka = kafka;
        this.informational = informational;
    }

    /** How the table names this class. */
    String title() {
        return "ours " + strategy + " vs Kafka " + switch (kafka) {
            case HIGH_AVAILABILITY -> "HighAvailabilityTaskAssignor";
            case LEGACY_STICKY -> "LegacyStickyTaskAssignor";
            case KIP924_STICKY -> "KIP-924 StickyTaskAssignor" + (informational ? " (information)" : "");
        };
    }
}
