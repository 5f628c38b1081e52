package org.corral.protocol.plugin;

/** A plugin's refusal of an option value or of a task's start; the message is shown to the user as it is. */
public class PluginException extends Exception {
  private static final long serialVersionUID = 1L;

  public PluginException(String message) {
    super(message);
  }

  public PluginException(String message, Throwable cause) {
    super(message, cause);
  }
}
