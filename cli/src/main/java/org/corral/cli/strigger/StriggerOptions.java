package org.corral.cli.strigger;

import java.util.ArrayList;
import java.util.List;
import org.corral.cli.format.Atoi;
import org.corral.cli.getopt.Getopt;
import org.corral.cli.getopt.Getopt.Arg;
import org.corral.cli.getopt.Getopt.LongOpt;

/**
 * strigger's options as Slurm 22.05 reads them. Each event option names its trigger type by
 * Slurm's word (the TYPE column) and the resource type it belongs to.
 */
final class StriggerOptions {
  /** An event option: its key, the TYPE word and the resource type of a trigger set with it. */
  record Event(String key, String type, String resType) {}

  static final List<Event> EVENTS = List.of(
      new Event("a", "primary_slurmctld_failure", "slurmctld"),
      new Event("A", "primary_slurmctld_resumed_operation", "slurmctld"),
      new Event("b", "primary_slurmctld_resumed_control", "slurmctld"),
      new Event("B", "backup_slurmctld_failure", "slurmctld"),
      new Event("c", "backup_slurmctld_resumed_operation", "slurmctld"),
      new Event("C", "backup_slurmctld_assumed_control", "slurmctld"),
      new Event("d", "down", "node"),
      new Event("D", "drained", "node"),
      new Event("e", "primary_slurmctld_acct_buffer_full", "slurmctld"),
      new Event("F", "fail", "node"),
      new Event("f", "fini", "job"),
      new Event("g", "primary_slurmdbd_failure", "slurmdbd"),
      new Event("G", "primary_slurmdbd_resumed_operation", "slurmdbd"),
      new Event("h", "primary_database_failure", "database"),
      new Event("H", "primary_database_resumed_operation", "database"),
      new Event("I", "idle", "node"),
      new Event("r", "reconfig", "node"),
      new Event("t", "time", "job"),
      new Event("u", "up", "node"),
      new Event("burst_buffer", "burst_buffer", "other"));

  static final Getopt GETOPT = new Getopt("aAbBcCdDeFfgGhHi:Ij:M:n::No:p:QrtuvV", List.of(
      new LongOpt("primary_slurmctld_failure", Arg.NONE, "a"),
      new LongOpt("primary_slurmctld_resumed_operation", Arg.NONE, "A"),
      new LongOpt("primary_slurmctld_resumed_control", Arg.NONE, "b"),
      new LongOpt("backup_slurmctld_failure", Arg.NONE, "B"),
      new LongOpt("backup_slurmctld_resumed_operation", Arg.NONE, "c"),
      new LongOpt("backup_slurmctld_assumed_control", Arg.NONE, "C"),
      new LongOpt("down", Arg.NONE, "d"),
      new LongOpt("drained", Arg.NONE, "D"),
      new LongOpt("primary_slurmctld_acct_buffer_full", Arg.NONE, "e"),
      new LongOpt("fail", Arg.NONE, "F"),
      new LongOpt("fini", Arg.NONE, "f"),
      new LongOpt("primary_slurmdbd_failure", Arg.NONE, "g"),
      new LongOpt("primary_slurmdbd_resumed_operation", Arg.NONE, "G"),
      new LongOpt("primary_database_failure", Arg.NONE, "h"),
      new LongOpt("primary_database_resumed_operation", Arg.NONE, "H"),
      new LongOpt("id", Arg.REQUIRED, "i"),
      new LongOpt("idle", Arg.NONE, "I"),
      new LongOpt("jobid", Arg.REQUIRED, "j"),
      new LongOpt("cluster", Arg.REQUIRED, "M"),
      new LongOpt("clusters", Arg.REQUIRED, "M"),
      new LongOpt("node", Arg.OPTIONAL, "n"),
      new LongOpt("noheader", Arg.NONE, "N"),
      new LongOpt("offset", Arg.REQUIRED, "o"),
      new LongOpt("program", Arg.REQUIRED, "p"),
      new LongOpt("quiet", Arg.NONE, "Q"),
      new LongOpt("reconfig", Arg.NONE, "r"),
      new LongOpt("time", Arg.NONE, "t"),
      new LongOpt("up", Arg.NONE, "u"),
      new LongOpt("verbose", Arg.NONE, "v"),
      new LongOpt("version", Arg.NONE, "V"),
      new LongOpt("burst_buffer", Arg.NONE, "burst_buffer"),
      new LongOpt("clear", Arg.NONE, "clear"),
      new LongOpt("flags", Arg.REQUIRED, "flags"),
      new LongOpt("front_end", Arg.NONE, "front_end"),
      new LongOpt("get", Arg.NONE, "get"),
      new LongOpt("set", Arg.NONE, "set"),
      new LongOpt("user", Arg.REQUIRED, "user"),
      new LongOpt("help", Arg.NONE, "help"),
      new LongOpt("usage", Arg.NONE, "usage")));

  boolean set;
  boolean get;
  boolean clear;
  boolean header = true;
  boolean quiet;
  boolean perm;
  /** -n given (with or without a value); null value = every node. */
  boolean node;
  String nodes;
  int id;
  int jobId;
  int offset;
  String program;
  String user;
  final List<Event> events = new ArrayList<>();

  /** Applies one option; returns an error message for a bad value (Slurm's words), else null. */
  String apply(Getopt.Opt o) {
    for (Event e : EVENTS) {
      if (e.key().equals(o.key())) {
        if (!events.contains(e)) {
          events.add(e);
        }
        return null;
      }
    }
    switch (o.key()) {
      case "set" -> set = true;
      case "get" -> get = true;
      case "clear" -> clear = true;
      case "i" -> id = Atoi.of(o.value());
      case "j" -> jobId = Atoi.of(o.value());
      case "n" -> {
        node = true;
        nodes = o.value() == null || o.value().isEmpty() ? null : o.value();
      }
      case "N" -> header = false;
      case "o" -> offset = Atoi.of(o.value());
      case "p" -> program = o.value();
      case "Q" -> quiet = true;
      case "user" -> user = o.value();
      case "flags" -> {
        for (String f : o.value().split(",")) {
          if (f.equalsIgnoreCase("perm")) {
            perm = true;
          } else if (!f.isEmpty()) {
            return "Invalid flags " + f;
          }
        }
      }
      default -> { } // -M (this cluster), --front_end, -v
    }
    return null;
  }
}
