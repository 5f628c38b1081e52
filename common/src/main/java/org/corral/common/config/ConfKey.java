package org.corral.common.config;

/**
 * One slurm.conf key of {@link SlurmConfKeys}: its name as slurm.conf(5) spells it, its type,
 * its default, how {@code scontrol show config} prints it when unset, and what Corral does with it.
 *
 * @param <T> what its value reads as
 * @param index its place in {@link SlurmConfKeys#ALL} (Slurm's printing order)
 * @param dflt the default as slurm.conf would write it, or null: unset means "none"
 * @param unsetText how scontrol show config prints the key when slurm.conf leaves it out, or null
 *     when it is not printed at all (a legacy key, or one shown under another name)
 * @param support what Corral does with it
 * @param note for a key not (fully) honoured: what Corral does instead, for docs/compatibility.md
 * @param corralValue for a key not implemented, the value (as printed) that says what Corral does
 *     anyway (SelectType=select/cons_tres), which is therefore not warned about; or null
 */
public record ConfKey<T>(int index, String name, ConfType<T> type, String dflt, String unsetText,
    Support support, String note, String corralValue) {

  /** What Corral does with a key. */
  public enum Support {
    /** Read and acted on as Slurm does. */
    HONOURED,
    /** Read and checked, but without effect: listed in one warning line when a daemon starts. */
    NOT_IMPLEMENTED,
    /** Derived by the controller, not a slurm.conf key (BOOT_TIME, SLURM_VERSION...): shown only. */
    SHOWN_ONLY
  }

  /** The typed default (null when there is none). */
  public T defaultValue() {
    return dflt == null ? null : type.parse(name, dflt);
  }

  /** The same key, printed as {@code text} when unset (null: not printed). */
  ConfKey<T> withUnset(String text) {
    return new ConfKey<>(index, name, type, dflt, text, support, note, corralValue);
  }

  /** The same key, whose {@code value} is what Corral does anyway. */
  ConfKey<T> as(String value) {
    return new ConfKey<>(index, name, type, dflt, unsetText, support, note, value);
  }

  /** Whether scontrol show config prints it. */
  public boolean printed() {
    return unsetText != null;
  }
}
