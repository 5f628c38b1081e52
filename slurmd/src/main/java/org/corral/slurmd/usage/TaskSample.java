package org.corral.slurmd.usage;

/** One task's processes at one instant. Memory in KiB, CPU in milliseconds, disk in bytes. */
public record TaskSample(int taskId, long rssKb, long vmKb, long pages, long cpuMillis, long readBytes,
    long writeBytes) {}
