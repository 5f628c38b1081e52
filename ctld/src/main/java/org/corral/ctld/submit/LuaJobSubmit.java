package org.corral.ctld.submit;

import java.io.IOException;
import java.io.Reader;
import java.lang.System.Logger.Level;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import org.corral.common.SlurmError;
import org.corral.protocol.msg.PartitionInfo;
import org.corral.protocol.plugin.JobDescriptor;
import org.corral.protocol.plugin.SubmitContext;
import org.corral.protocol.plugin.SubmitRefusal;
import org.luaj.vm2.Globals;
import org.luaj.vm2.LuaError;
import org.luaj.vm2.LuaTable;
import org.luaj.vm2.LuaValue;
import org.luaj.vm2.Varargs;
import org.luaj.vm2.lib.ThreeArgFunction;
import org.luaj.vm2.lib.TwoArgFunction;
import org.luaj.vm2.lib.VarArgFunction;
import org.luaj.vm2.lib.jse.JsePlatform;

/**
 * Slurm's job_submit/lua: job_submit.lua beside slurm.conf defines
 * {@code slurm_job_submit(job_desc, part_list, submit_uid)} and
 * {@code slurm_job_modify(job_desc, job_rec, part_list, modify_uid)}, each returning slurm.SUCCESS
 * or an error code (slurm.ERROR, slurm.ESLURM_*). The script sees the job through job_desc's
 * fields (Slurm's names, {@link JobDescriptor}), talks to the user with slurm.log_user and to the
 * log with slurm.log_info and its siblings. It is read again when its modification time changes;
 * a version that does not load is logged and the previous one kept, as Slurm does. Runs in an
 * embedded Lua 5.2 (LuaJ), one call at a time.
 */
public final class LuaJobSubmit {
  private static final System.Logger LOG = System.getLogger("slurmctld");
  private static final String SUBMIT = "slurm_job_submit";
  private static final String MODIFY = "slurm_job_modify";

  private final Path script;
  private Globals globals;
  private FileTime loadedVersion;
  /** What slurm.log_user said during the current call. */
  private final List<String> userMessages = new ArrayList<>();

  private LuaJobSubmit(Path script) {
    this.script = script;
  }

  /**
   * Loads the script.
   *
   * @throws IOException when it cannot be read, does not compile, or lacks one of the two functions
   */
  public static LuaJobSubmit load(Path script) throws IOException {
    LuaJobSubmit lua = new LuaJobSubmit(script);
    lua.globals = lua.compile();
    lua.loadedVersion = Files.getLastModifiedTime(script);
    return lua;
  }

  /** slurm_job_submit: may change the job; a non-zero return refuses it. */
  public synchronized void submit(JobDescriptor job, SubmitContext context) throws SubmitRefusal {
    reloadIfChanged();
    call(SUBMIT, jobTable(job), partitions(context), LuaValue.valueOf(context.uid()));
  }

  private void call(String function, LuaValue... args) throws SubmitRefusal {
    userMessages.clear();
    int rc;
    try {
      Varargs r = globals.get(function).invoke(LuaValue.varargsOf(args));
      rc = r.arg1().isnumber() ? r.arg1().toint() : 0;
    } catch (LuaError e) {
      LOG.log(Level.ERROR, "job_submit/lua: " + script + ": " + e.getMessage());
      rc = SlurmError.UNEXPECTED.code();
    }
    String message = String.join("\n", userMessages);
    userMessages.clear();
    if (rc != SlurmError.SUCCESS.code()) {
      throw new SubmitRefusal(SlurmError.fromCode(rc).orElse(SlurmError.UNEXPECTED), message);
    }
  }

  private void reloadIfChanged() {
    try {
      FileTime now = Files.getLastModifiedTime(script);
      if (!now.equals(loadedVersion)) {
        loadedVersion = now;
        globals = compile();
        LOG.log(Level.INFO, "job_submit/lua: " + script + " reloaded");
      }
    } catch (IOException e) {
      LOG.log(Level.ERROR, "job_submit/lua: " + e.getMessage() + "; the previous version stays in use");
    }
  }

  private Globals compile() throws IOException {
    Globals g = JsePlatform.standardGlobals();
    g.set("slurm", slurmTable());
    try (Reader r = Files.newBufferedReader(script, StandardCharsets.UTF_8)) {
      g.load(r, "@" + script).call();
    } catch (LuaError e) {
      throw new IOException(script + ": " + e.getMessage(), e);
    }
    for (String f : List.of(SUBMIT, MODIFY)) {
      if (!g.get(f).isfunction()) {
        throw new IOException(script + ": missing required function " + f);
      }
    }
    return g;
  }

  /** The slurm table: return codes, NO_VAL and friends, and the logging functions. */
  private LuaTable slurmTable() {
    LuaTable slurm = new LuaTable();
    slurm.set("SUCCESS", 0);
    slurm.set("ERROR", -1);
    slurm.set("FAILURE", -1);
    for (SlurmError e : SlurmError.values()) {
      if (e.code() >= 2000 && e.code() < 3000) {
        slurm.set("ESLURM_" + e.name(), e.code());
      } else if (e.name().startsWith("ESLURM")) {
        slurm.set(e.name(), e.code());
      }
    }
    slurm.set("NO_VAL", LuaValue.valueOf((double) JobDescriptor.NO_VAL));
    slurm.set("NO_VAL64", LuaValue.valueOf((double) JobDescriptor.NO_VAL64));
    slurm.set("NO_VAL16", 0xfffe);
    slurm.set("NO_VAL8", 0xfe);
    slurm.set("INFINITE", LuaValue.valueOf((double) JobDescriptor.INFINITE));
    slurm.set("INFINITE64", LuaValue.valueOf((double) 0xffffffffffffffffL));
    slurm.set("INFINITE16", 0xffff);
    slurm.set("log_user", new VarArgFunction() {
      @Override
      public Varargs invoke(Varargs args) {
        userMessages.add(format(args));
        return NONE;
      }
    });
    for (String[] level : new String[][] {{"log_error", "ERROR"}, {"log_info", "INFO"}, {"log_verbose", "INFO"},
        {"log_debug", "DEBUG"}, {"log_debug2", "DEBUG"}, {"log_debug3", "TRACE"}, {"log_debug4", "TRACE"},
        {"log_debug5", "TRACE"}}) {
      Level l = Level.valueOf(level[1]);
      slurm.set(level[0], new VarArgFunction() {
        @Override
        public Varargs invoke(Varargs args) {
          LOG.log(l, "job_submit.lua: " + format(args));
          return NONE;
        }
      });
    }
    return slurm;
  }

  /** string.format(fmt, ...), as Slurm's log functions format their arguments. */
  private String format(Varargs args) {
    return globals == null && args.narg() <= 1 ? args.arg1().tojstring()
        : globals.get("string").get("format").invoke(args).arg1().tojstring();
  }

  /** job_desc: reads and writes go to the job request by Slurm's field names. */
  private static LuaValue jobTable(JobDescriptor job) {
    LuaTable t = new LuaTable();
    LuaTable meta = new LuaTable();
    meta.set("__index", new TwoArgFunction() {
      @Override
      public LuaValue call(LuaValue self, LuaValue key) {
        String name = key.tojstring();
        return JobDescriptor.isField(name) ? toLua(job.get(name)) : NIL;
      }
    });
    meta.set("__newindex", new ThreeArgFunction() {
      @Override
      public LuaValue call(LuaValue self, LuaValue key, LuaValue value) {
        String name = key.tojstring();
        try {
          job.set(name, value.isnil() ? null : value.isnumber() ? (Object) value.tolong() : value.tojstring());
        } catch (IllegalArgumentException e) {
          LOG.log(Level.ERROR, "job_submit/lua: " + e.getMessage());
        }
        return NONE;
      }
    });
    t.setmetatable(meta);
    return t;
  }

  private static LuaValue toLua(Object v) {
    if (v == null) {
      return LuaValue.NIL;
    }
    if (v instanceof Long n) {
      return LuaValue.valueOf((double) n);
    }
    if (v instanceof Boolean b) {
      return LuaValue.valueOf(b);
    }
    return LuaValue.valueOf(v.toString());
  }

  /** part_list: each partition by name, with the fields scripts commonly read. */
  private static LuaValue partitions(SubmitContext context) {
    LuaTable list = new LuaTable();
    for (PartitionInfo p : context.partitions()) {
      LuaTable t = new LuaTable();
      t.set("name", p.getName());
      t.set("nodes", p.getNodes());
      t.set("max_time", LuaValue.valueOf((double) Integer.toUnsignedLong(p.getMaxTimeMin())));
      t.set("default_time", LuaValue.valueOf((double) (p.getDefaultTimeMin() == -1 ? JobDescriptor.NO_VAL
          : Integer.toUnsignedLong(p.getDefaultTimeMin()))));
      t.set("max_nodes", LuaValue.valueOf((double) Integer.toUnsignedLong(p.getMaxNodes())));
      t.set("min_nodes", p.getMinNodes());
      t.set("total_nodes", p.getTotalNodes());
      t.set("flag_default", p.getIsDefault() ? 1 : 0);
      list.set(p.getName(), t);
    }
    return list;
  }
}
