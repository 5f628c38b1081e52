package org.corral.ctld.runtime;

import java.util.List;
import org.corral.ctld.state.Command;

/**
 * What a request decided against the current state: the commands to apply (and journal), the
 * reply for the caller, and effects to run once the commands are durable (messages to nodes).
 */
public record Decision<T>(List<Command> commands, T reply, List<Runnable> effects) {
  public static <T> Decision<T> of(T reply, Command... commands) {
    return new Decision<>(List.of(commands), reply, List.of());
  }

  public static <T> Decision<T> none(T reply) {
    return new Decision<>(List.of(), reply, List.of());
  }
}
