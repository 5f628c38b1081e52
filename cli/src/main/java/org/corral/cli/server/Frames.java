package org.corral.cli.server;

import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;

/**
 * The command server's wire format, both ways: a type byte, a 4-byte big-endian length, then
 * that many bytes. libexec/corral-front speaks the other end.
 */
final class Frames {
  // front end -> server
  /** "CORRAL-CMD 1", NUL, the front end's build id. */
  static final byte HELLO = 'H';
  /** The call: NUL-terminated strings (see {@link CallRequest#parse}). */
  static final byte CALL = 'C';
  /** Bytes of stdin asked for by {@link #READ}; empty at end of input. */
  static final byte STDIN = 'I';
  /** A signal the front end caught: one byte, its number. */
  static final byte SIGNAL = 'S';
  /** Asks the server to exit once its calls are done (tests, `corral-front --stop-server`). */
  static final byte STOP = 'Q';

  // server -> front end
  /** The call was accepted and runs: from here on the front end can no longer run it itself. */
  static final byte ACCEPTED = 'A';
  /** This server is of another build (payload: its id): the front end runs the command itself. */
  static final byte OTHER_BUILD = 'M';
  /** Too many calls at once: the front end runs the command itself. */
  static final byte BUSY = 'B';
  static final byte STDOUT = '1';
  static final byte STDERR = '2';
  /** The command reads stdin: the front end reads once, up to the 4-byte count, and sends it. */
  static final byte READ = 'R';
  /** The command's exit status (4 bytes); the call is over. */
  static final byte EXIT = 'X';
  /** The command does not catch this signal (1 byte): the front end dies of it, as the command would. */
  static final byte DIE = 'K';

  static final String MAGIC = "CORRAL-CMD 1";
  /** No frame from a front end is larger: argv and environment together stay well under it. */
  static final int MAX_FRAME = 8 << 20;

  private Frames() {}

  record Frame(byte type, byte[] payload) {}

  /** The next frame, or null at a clean end of the stream. */
  static Frame read(DataInputStream in) throws IOException {
    int type = in.read();
    if (type < 0) {
      return null;
    }
    int len = in.readInt();
    if (len < 0 || len > MAX_FRAME) {
      throw new IOException("frame of " + len + " bytes");
    }
    byte[] payload = new byte[len];
    try {
      in.readFully(payload);
    } catch (EOFException e) {
      throw new IOException("truncated frame");
    }
    return new Frame((byte) type, payload);
  }

  /** Writes one frame (callers hold the stream's lock). */
  static void write(OutputStream out, byte type, byte[] data, int off, int len) throws IOException {
    byte[] head = {type, (byte) (len >>> 24), (byte) (len >>> 16), (byte) (len >>> 8), (byte) len};
    out.write(head);
    out.write(data, off, len);
    out.flush();
  }

  static byte[] int32(int v) {
    return new byte[] {(byte) (v >>> 24), (byte) (v >>> 16), (byte) (v >>> 8), (byte) v};
  }
}
