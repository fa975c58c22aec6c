package io.smoothscale.kafka;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/** An append-only little-endian byte buffer for the crossing format (docs/crossing-format.md). */
final class LittleEndianWriter {
    private byte[] bytes;
    private int size;

    LittleEndianWriter(final int capacity) {
        bytes = new byte[Math.max(16, capacity)];
    }

    private void room(final int n) {
        if (size + n > bytes.length) {
            bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, size + n));
        }
    }

    void u8(final int v) {
        room(1);
        bytes[size++] = (byte) v;
    }

    void i32(final int v) {
        room(4);
        bytes[size++] = (byte) v;
        bytes[size++] = (byte) (v >>> 8);
        bytes[size++] = (byte) (v >>> 16);
        bytes[size++] = (byte) (v >>> 24);
    }

    void i64(final long v) {
        i32((int) v);
        i32((int) (v >>> 32));
    }

    void str(final String s) {
        final byte[] utf8 = s.getBytes(StandardCharsets.UTF_8);
        i32(utf8.length);
        append(utf8, utf8.length);
    }

    void append(final LittleEndianWriter other) {
        append(other.bytes, other.size);
    }

    private void append(final byte[] b, final int n) {
        room(n);
        System.arraycopy(b, 0, bytes, size, n);
        size += n;
    }

    /** The current length, for a count written later with {@link #patchI32}. */
    int size() {
        return size;
    }

    void patchI32(final int at, final int v) {
        bytes[at] = (byte) v;
        bytes[at + 1] = (byte) (v >>> 8);
        bytes[at + 2] = (byte) (v >>> 16);
        bytes[at + 3] = (byte) (v >>> 24);
    }

    byte[] toByteArray() {
        return Arrays.copyOf(bytes, size);
    }
}
