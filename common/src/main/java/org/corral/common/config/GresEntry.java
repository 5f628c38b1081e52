package org.corral.common.config;

import java.util.List;

/**
 * One resource line of gres.conf. {@code nodeNames} is empty when the line has no NodeName= (it
 * applies to every node reading the file); {@code type}, {@code cores}, {@code links} and
 * {@code flags} are empty when not given; {@code files} are expanded from ranges
 * ({@code /dev/nvidia[0-3]}); {@code count} defaults to the number of files, else 1.
 */
public record GresEntry(List<String> nodeNames, String name, String type, List<String> files, long count,
    String cores, String links, String flags, List<String> multipleFiles, String autoDetect) {
  public GresEntry {
    nodeNames = List.copyOf(nodeNames);
    files = List.copyOf(files);
    multipleFiles = List.copyOf(multipleFiles);
  }

  /** Whether this line applies to the node of that name. */
  public boolean appliesTo(String node) {
    return nodeNames.isEmpty() || nodeNames.contains(node);
  }
}
