package org.corral.common.config;

/** One {@code key=value} of a configuration line: the key as spelled, the value unquoted. */
public record ConfPair(String key, String value) {}
