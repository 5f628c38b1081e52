package org.corral.cli.format;

import java.util.function.Function;

/**
 * One printable field of a record type: its {@code %} letter (0 when it has none), its long
 * {@code -O} name (null when it has none), the header and how to get its text from a record.
 */
public record Column<T>(char letter, String longName, String header, Function<T, String> value) {}
