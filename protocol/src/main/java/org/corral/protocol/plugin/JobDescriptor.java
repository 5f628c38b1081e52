package org.corral.protocol.plugin;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.BiConsumer;
import java.util.function.Function;
import org.corral.protocol.msg.JobSpec;

/**
 * A submitted job as submit filters see it: the fields of Slurm's job_desc_msg_t that
 * job_submit plugins read and set, by Slurm's names (partition, time_limit, account, comment, ...),
 * over the request being submitted. Numbers not given read as Slurm's NO_VAL (time_limit,
 * min_nodes, ...) and texts not given as null, as in job_submit/lua; setting null clears.
 * Fields that are the submitter's (user_id, user_name, group_id) are read-only.
 */
public final class JobDescriptor {

  /** Slurm's "not given" for 32-bit numbers (slurm.NO_VAL). */
  public static final long NO_VAL = 0xfffffffeL;
  /** Slurm's "not given" for 64-bit numbers (slurm.NO_VAL64). */
  public static final long NO_VAL64 = 0xfffffffffffffffeL;
  /** Slurm's INFINITE (slurm.INFINITE): an unlimited time_limit. */
  public static final long INFINITE = 0xffffffffL;

  private record Field(Function<JobSpec.Builder, Object> get, BiConsumer<JobSpec.Builder, Object> set) {}

  private static final Map<String, Field> FIELDS = fields();

  private final JobSpec.Builder spec;
  private final int uid;
  private final int gid;
  private final String userName;

  public JobDescriptor(JobSpec.Builder spec, int uid, int gid, String userName) {
    this.spec = spec;
    this.uid = uid;
    this.gid = gid;
    this.userName = userName;
  }

  /** The request as changed so far. */
  public JobSpec.Builder spec() {
    return spec;
  }

  /** The names {@link #get} knows, in no particular order. */
  public static Set<String> fieldNames() {
    return Collections.unmodifiableSet(FIELDS.keySet());
  }

  public static boolean isField(String name) {
    return FIELDS.containsKey(name) || name.equals("user_id") || name.equals("user_name") || name.equals("group_id");
  }

  /** A field's value: a String, a Long, a Boolean, or null for a text not given. */
  public Object get(String name) {
    switch (name) {
      case "user_id" -> { return (long) uid; }
      case "group_id" -> { return (long) gid; }
      case "user_name" -> { return userName; }
      default -> { }
    }
    Field f = FIELDS.get(name);
    if (f == null) {
      throw new IllegalArgumentException("job_desc has no field " + name);
    }
    return f.get().apply(spec);
  }

  /**
   * Sets a field: a number for numeric fields (NO_VAL clears), a text for texts (null clears).
   *
   * @throws IllegalArgumentException for an unknown or read-only field, or a value of the wrong kind
   */
  public void set(String name, Object value) {
    Field f = FIELDS.get(name);
    if (f == null || f.set() == null) {
      throw new IllegalArgumentException(f == null && !isField(name) ? "job_desc has no field " + name
          : "job_desc field " + name + " is read-only");
    }
    f.set().accept(spec, value);
  }

  /** The values of the plugins' options the job was submitted with (changeable). */
  public Map<String, String> pluginOptions() {
    return new PluginOptionView(spec);
  }

  private static Map<String, Field> fields() {
    Map<String, Field> m = new LinkedHashMap<>();
    text(m, "account", JobSpec.Builder::getAccount, JobSpec.Builder::setAccount);
    text(m, "comment", JobSpec.Builder::getComment, JobSpec.Builder::setComment);
    text(m, "container", JobSpec.Builder::getContainer, JobSpec.Builder::setContainer);
    text(m, "dependency", JobSpec.Builder::getDependency, JobSpec.Builder::setDependency);
    text(m, "exc_nodes", JobSpec.Builder::getExcNodes, JobSpec.Builder::setExcNodes);
    text(m, "features", JobSpec.Builder::getConstraint, JobSpec.Builder::setConstraint);
    text(m, "licenses", JobSpec.Builder::getLicenses, JobSpec.Builder::setLicenses);
    text(m, "name", JobSpec.Builder::getName, JobSpec.Builder::setName);
    text(m, "partition", JobSpec.Builder::getPartition, JobSpec.Builder::setPartition);
    text(m, "qos", JobSpec.Builder::getQos, JobSpec.Builder::setQos);
    text(m, "req_nodes", JobSpec.Builder::getReqNodes, JobSpec.Builder::setReqNodes);
    text(m, "reservation", JobSpec.Builder::getReservation, JobSpec.Builder::setReservation);
    text(m, "std_err", JobSpec.Builder::getStdErr, JobSpec.Builder::setStdErr);
    text(m, "std_in", JobSpec.Builder::getStdIn, JobSpec.Builder::setStdIn);
    text(m, "std_out", JobSpec.Builder::getStdOut, JobSpec.Builder::setStdOut);
    text(m, "wckey", JobSpec.Builder::getWckey, JobSpec.Builder::setWckey);
    text(m, "work_dir", JobSpec.Builder::getWorkDir, JobSpec.Builder::setWorkDir);
    text(m, "array_inx", JobSpec.Builder::getArray, JobSpec.Builder::setArray);
    text(m, "tres_per_node", JobSpec.Builder::getTresPerNode, JobSpec.Builder::setTresPerNode);
    text(m, "tres_per_job", JobSpec.Builder::getTresPerJob, JobSpec.Builder::setTresPerJob);
    text(m, "tres_per_task", JobSpec.Builder::getTresPerTask, JobSpec.Builder::setTresPerTask);
    m.put("script", new Field(b -> b.getScript().isEmpty() ? null : b.getScript(), null));
    m.put("time_limit", number32(JobSpec.Builder::hasTimeLimitMin, JobSpec.Builder::getTimeLimitMin,
        (b, v) -> b.setTimeLimitMin(v.intValue()), JobSpec.Builder::clearTimeLimitMin));
    m.put("min_nodes", number32(JobSpec.Builder::hasMinNodes, JobSpec.Builder::getMinNodes,
        (b, v) -> b.setMinNodes(v.intValue()), JobSpec.Builder::clearMinNodes));
    m.put("max_nodes", number32(JobSpec.Builder::hasMaxNodes, JobSpec.Builder::getMaxNodes,
        (b, v) -> b.setMaxNodes(v.intValue()), JobSpec.Builder::clearMaxNodes));
    m.put("num_tasks", number32(JobSpec.Builder::hasNumTasks, JobSpec.Builder::getNumTasks,
        (b, v) -> b.setNumTasks(v.intValue()), JobSpec.Builder::clearNumTasks));
    m.put("cpus_per_task", number32(JobSpec.Builder::hasCpusPerTask, JobSpec.Builder::getCpusPerTask,
        (b, v) -> b.setCpusPerTask(v.intValue()), JobSpec.Builder::clearCpusPerTask));
    m.put("ntasks_per_node", number32(JobSpec.Builder::hasNtasksPerNode, JobSpec.Builder::getNtasksPerNode,
        (b, v) -> b.setNtasksPerNode(v.intValue()), JobSpec.Builder::clearNtasksPerNode));
    m.put("min_mem_per_node", number64(JobSpec.Builder::hasMemPerNodeMb, JobSpec.Builder::getMemPerNodeMb,
        JobSpec.Builder::setMemPerNodeMb, JobSpec.Builder::clearMemPerNodeMb));
    m.put("min_mem_per_cpu", number64(JobSpec.Builder::hasMemPerCpuMb, JobSpec.Builder::getMemPerCpuMb,
        JobSpec.Builder::setMemPerCpuMb, JobSpec.Builder::clearMemPerCpuMb));
    m.put("nice", new Field(b -> (long) b.getNice() + NICE_OFFSET,
        (b, v) -> b.setNice((int) (number(v, "nice") - NICE_OFFSET))));
    m.put("begin_time", new Field(b -> b.getBeginTime(), (b, v) -> b.setBeginTime(number(v, "begin_time"))));
    m.put("requeue", new Field(b -> b.hasRequeue() ? (long) (b.getRequeue() ? 1 : 0) : NO_VAL,
        (b, v) -> {
          long n = number(v, "requeue");
          if (n == NO_VAL) {
            b.clearRequeue();
          } else {
            b.setRequeue(n != 0);
          }
        }));
    m.put("contiguous", new Field(b -> (long) (b.getContiguous() ? 1 : 0),
        (b, v) -> b.setContiguous(number(v, "contiguous") == 1)));
    return m;
  }

  /** Slurm keeps nice offset by NICE_OFFSET (0x80000000) in job_desc. */
  private static final long NICE_OFFSET = 0x80000000L;

  private interface Has {
    boolean has(JobSpec.Builder b);
  }

  private static void text(Map<String, Field> m, String name, Function<JobSpec.Builder, String> get,
      BiConsumer<JobSpec.Builder, String> set) {
    m.put(name, new Field(b -> {
      String v = get.apply(b);
      return v.isEmpty() ? null : v;
    }, (b, v) -> set.accept(b, v == null ? "" : text(v, name))));
  }

  private static Field number32(Has has, Function<JobSpec.Builder, Integer> get, BiConsumer<JobSpec.Builder, Long> set,
      Function<JobSpec.Builder, JobSpec.Builder> clear) {
    return new Field(b -> has.has(b) ? Integer.toUnsignedLong(get.apply(b)) : NO_VAL, (b, v) -> {
      long n = v == null ? NO_VAL : number(v, "number");
      if (n == NO_VAL) {
        clear.apply(b);
      } else {
        set.accept(b, n);
      }
    });
  }

  private static Field number64(Has has, Function<JobSpec.Builder, Long> get, BiConsumer<JobSpec.Builder, Long> set,
      Function<JobSpec.Builder, JobSpec.Builder> clear) {
    return new Field(b -> has.has(b) ? get.apply(b) : NO_VAL64, (b, v) -> {
      long n = v == null ? NO_VAL64 : number(v, "number");
      if (n == NO_VAL64 || n == NO_VAL) {
        clear.apply(b);
      } else {
        set.accept(b, n);
      }
    });
  }

  private static long number(Object v, String name) {
    if (v instanceof Number n) {
      return n.longValue();
    }
    if (v instanceof String s) {
      try {
        return Long.parseLong(s.strip());
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("job_desc." + name + ": not a number: " + s);
      }
    }
    throw new IllegalArgumentException("job_desc." + name + ": not a number");
  }

  private static String text(Object v, String name) {
    if (v instanceof String s) {
      return s;
    }
    if (v instanceof Number n) {
      return String.valueOf(n.longValue());
    }
    throw new IllegalArgumentException("job_desc." + name + ": not a string");
  }
}
