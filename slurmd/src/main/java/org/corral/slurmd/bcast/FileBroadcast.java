package org.corral.slurmd.bcast;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;
import org.corral.protocol.msg.FileBcastError;
import org.corral.protocol.msg.FileBcastRequest;
import org.corral.slurmd.launch.CleanProcess;

/**
 * Writes one block of an sbcast file on this node, as the job's user (never as root): a short
 * perl process under setpriv opens the file with the user's rights, writes the block at its
 * offset and, after the last block, gives the file the source's mode (and with --preserve its
 * times). Failures come back as errno and strerror's words, which sbcast prints as Slurm does
 * ("REQUEST_FILE_BCAST(n1): File exists"). The first block creates the file exclusively; with
 * --force the old file is unlinked first, so that a binary that is running can be replaced (and
 * created without O_EXCL: nodes sharing a file system all write the same bytes).
 */
public final class FileBroadcast {
  /** The largest block a node accepts once inflated (sbcast sends at most 4 MiB). */
  public static final int MAX_BLOCK = 4 << 20;
  private static final long TIMEOUT_S = 60;
  private static final String SCRIPT = """
      use strict; use Fcntl;
      my ($path, $open, $offset, $mode, $atime, $mtime) = @ARGV;
      sub fail { my $n = $! + 0; print STDERR "$n $!\\n"; exit 1; }
      if ($open eq 'force') { unlink($path) or $!{ENOENT} or fail(); }
      my $flags = O_WRONLY | ($open eq 'none' ? 0 : $open eq 'force' ? O_CREAT | O_TRUNC : O_CREAT | O_EXCL);
      sysopen(my $f, $path, $flags, 0700) or fail();
      binmode STDIN; binmode $f;
      sysseek($f, $offset, 0) or fail();
      while (1) {
        my $n = sysread(STDIN, my $buf, 65536);
        defined $n or fail();
        last if $n == 0;
        for (my $o = 0; $o < $n;) { my $w = syswrite($f, $buf, $n - $o, $o); defined $w or fail(); $o += $w; }
      }
      if ($mode ne '-') {
        chmod(oct($mode), $f) or fail();
        if ($atime ne '-') { utime($atime, $mtime, $f) or fail(); }
      }
      close($f) or fail();
      """;

  private FileBroadcast() {}

  /** Writes the block; empty when done, else why not (errno and message, no node name). */
  public static Optional<FileBcastError> write(FileBcastRequest block) throws IOException {
    byte[] data;
    try {
      data = contents(block);
    } catch (IllegalArgumentException e) {
      return Optional.of(error(22, "Invalid argument"));
    }
    String path = block.getPath();
    if (!path.startsWith("/") || path.indexOf('\0') >= 0) {
      return Optional.of(error(22, "Invalid argument"));
    }
    String open = !block.getFirst() ? "none" : block.getForce() ? "force" : "excl";
    String mode = block.getLast() ? Integer.toOctalString(block.getMode() & 07777) : "-";
    String atime = block.getLast() && block.getPreserve() ? Long.toString(block.getAtime()) : "-";
    List<String> command = List.of("setpriv", "--reuid=" + Integer.toUnsignedString(block.getUid()),
        "--regid=" + Integer.toUnsignedString(block.getGid()), "--init-groups", "--", "perl", "-e", SCRIPT,
        path, open, Long.toUnsignedString(block.getOffset()), mode, atime, Long.toString(block.getMtime()));
    Process process = CleanProcess.builder(command).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
    try (OutputStream in = process.getOutputStream()) {
      in.write(data);
    } catch (IOException e) {
      // the writer failed before reading everything: its message says why
    }
    String why = new String(process.getErrorStream().readNBytes(4096), StandardCharsets.UTF_8).strip();
    try {
      if (!process.waitFor(TIMEOUT_S, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        return Optional.of(error(110, "Connection timed out"));
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while writing " + path, e);
    }
    return process.exitValue() == 0 ? Optional.empty() : Optional.of(parse(why, process.exitValue()));
  }

  /** "17 File exists" as the writer prints it; anything else (setpriv's own failure) as EIO. */
  static FileBcastError parse(String why, int exit) {
    int space = why.indexOf(' ');
    if (space > 0 && why.indexOf('\n') < 0) {
      try {
        return error(Integer.parseInt(why.substring(0, space)), why.substring(space + 1));
      } catch (NumberFormatException e) {
        // fall through
      }
    }
    return error(5, "Input/output error" + (why.isEmpty() ? " (exit " + exit + ")" : ": " + why));
  }

  /** The block's bytes, inflated when compressed, never more than {@link #MAX_BLOCK}. */
  static byte[] contents(FileBcastRequest block) {
    if (!block.getCompressed()) {
      if (block.getData().size() > MAX_BLOCK) {
        throw new IllegalArgumentException("block too large");
      }
      return block.getData().toByteArray();
    }
    int length = block.getDataLength();
    if (length < 0 || length > MAX_BLOCK) {
      throw new IllegalArgumentException("block too large");
    }
    Inflater inflater = new Inflater();
    try {
      inflater.setInput(block.getData().toByteArray());
      byte[] out = new byte[length];
      int n = 0;
      while (n < length && !inflater.finished()) {
        int got = inflater.inflate(out, n, length - n);
        if (got == 0 && (inflater.needsInput() || inflater.needsDictionary())) {
          break;
        }
        n += got;
      }
      if (n != length || !inflater.finished()) {
        throw new IllegalArgumentException("compressed block does not match its length");
      }
      return out;
    } catch (DataFormatException e) {
      throw new IllegalArgumentException("corrupt compressed block", e);
    } finally {
      inflater.end();
    }
  }

  /** The node's name is the controller's to add. */
  private static FileBcastError error(int errno, String message) {
    return FileBcastError.newBuilder().setErrno(errno).setMessage(message).build();
  }
}
