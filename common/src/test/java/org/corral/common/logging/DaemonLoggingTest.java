package org.corral.common.logging;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assumptions.assumeThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.Channels;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** LogTimeFormat's formats, and records sent to syslog through util-linux logger. */
class DaemonLoggingTest {
  @TempDir Path dir;

  private static final Instant T = Instant.parse("2026-11-28T10:00:00.123Z");

  @Test
  void logTimeFormatsAsSlurmNamesThem() {
    assertThat(LogTime.parse(null).format(T, ZoneOffset.UTC)).isEqualTo("2026-11-28T10:00:00.123");
    assertThat(LogTime.parse("iso8601").format(T, ZoneOffset.UTC)).isEqualTo("2026-11-28T10:00:00");
    assertThat(LogTime.parse("rfc5424_ms").format(T, ZoneId.of("+01:00"))).isEqualTo("2026-11-28T11:00:00.123+01:00");
    assertThat(LogTime.parse("rfc5424").format(T, ZoneOffset.UTC)).isEqualTo("2026-11-28T10:00:00Z");
    assertThat(LogTime.parse("short").format(T, ZoneOffset.UTC)).isEqualTo("Nov 28 10:00:00.123");
    assertThat(LogTime.parse("iso8601,thread_id").threadId()).isTrue();
    assertThatThrownBy(() -> LogTime.parse("nonsense")).hasMessage("invalid LogTimeFormat 'nonsense'");
    assertThatThrownBy(() -> DaemonLogging.Options.of(null, "loud", "slurmctld"))
        .hasMessage("invalid syslog debug level 'loud'");
  }

  @Test
  void recordsAtTheSyslogLevelReachSyslogWithDaemonFacility() throws Exception {
    assumeThat(Files.isExecutable(Path.of("/usr/bin/logger"))).as("util-linux logger").isTrue();
    Path socket = dir.resolve("log.sock");
    try (ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
      server.bind(UnixDomainSocketAddress.of(socket));
      SyslogHandler h = new SyslogHandler("slurmctld", socket.toString());
      h.setFormatter(new DaemonLogging.SlurmFormat(LogTime.DEFAULT));
      h.setLevel(SyslogHandler.level("info"));
      h.publish(new LogRecord(Level.FINE, "too detailed"));
      h.publish(new LogRecord(Level.SEVERE, "disk full"));
      h.publish(new LogRecord(Level.INFO, "started"));
      try (SocketChannel c = server.accept()) {
        BufferedReader in = new BufferedReader(new InputStreamReader(Channels.newInputStream(c), StandardCharsets.UTF_8));
        String first = in.readLine();
        String second = in.readLine();
        assertThat(first).startsWith("<27>").contains(" slurmctld[" + ProcessHandle.current().pid() + "]: disk full");
        assertThat(second).startsWith("<30>").endsWith(": started");
      } finally {
        h.close();
      }
    }
  }
}
