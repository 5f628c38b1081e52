package org.corral.cli.server;

import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * One call's link to its front end: the command's stdout, stderr and stdin as streams over the
 * connection. stdout is buffered, and sent when full, before anything goes to stderr (so the
 * two keep their order where they meet, as in a terminal or under 2>&1), before stdin is read,
 * on flush, and at most {@link #LINGER_MS} after it was written (live output, such as srun's or
 * sbatch --wait's first line, is not held back). stdin is read only when the command reads it,
 * and only as much as one read of the front end's stdin gives: input the command does not
 * read stays for whoever reads it next, as with a command of its own.
 */
final class FrontEndLink {
  static final int LINGER_MS = 20;
  private static final int BUFFER = 32 * 1024;
  private static final byte[] EOF = new byte[0];

  private final OutputStream socket;
  private final ScheduledExecutorService timer;
  private final byte[] outBuf = new byte[BUFFER];
  private int outLen;
  private boolean flushScheduled;
  /** Set once the front end is gone (or told to die): output is dropped, as writes to a closed pipe. */
  private boolean closed;
  private final BlockingQueue<byte[]> stdinData = new LinkedBlockingQueue<>();
  private boolean stdinEnded;

  FrontEndLink(OutputStream socket, ScheduledExecutorService timer) {
    this.socket = socket;
    this.timer = timer;
  }

  final OutputStream stdout = new OutputStream() {
    @Override
    public void write(int b) throws IOException {
      write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      writeOut(b, off, len);
    }

    @Override
    public void flush() throws IOException {
      flushOut();
    }
  };

  final OutputStream stderr = new OutputStream() {
    @Override
    public void write(int b) throws IOException {
      write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      synchronized (FrontEndLink.this) {
        flushOut();
        send(Frames.STDERR, b, off, len);
      }
    }
  };

  final InputStream stdin = new InputStream() {
    @Override
    public int read() throws IOException {
      byte[] one = new byte[1];
      return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public synchronized int read(byte[] b, int off, int len) throws IOException {
      if (len == 0) {
        return 0;
      }
      synchronized (FrontEndLink.this) {
        if (stdinEnded) {
          return -1;
        }
        flushOut();
        send(Frames.READ, Frames.int32(Math.min(len, 64 * 1024)), 0, 4);
      }
      byte[] got;
      try {
        got = stdinData.take();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new InterruptedIOException("interrupted reading stdin");
      }
      if (got.length == 0) {
        synchronized (FrontEndLink.this) {
          stdinEnded = true;
        }
        return -1;
      }
      System.arraycopy(got, 0, b, off, got.length);
      return got.length;
    }
  };

  private synchronized void writeOut(byte[] b, int off, int len) throws IOException {
    if (closed) {
      throw new IOException("Broken pipe");
    }
    if (outLen + len > BUFFER) {
      flushOut();
      if (len > BUFFER) {
        send(Frames.STDOUT, b, off, len);
        return;
      }
    }
    System.arraycopy(b, off, outBuf, outLen, len);
    outLen += len;
    if (!flushScheduled) {
      flushScheduled = true;
      timer.schedule(this::lingerExpired, LINGER_MS, TimeUnit.MILLISECONDS);
    }
  }

  private synchronized void lingerExpired() {
    flushScheduled = false;
    try {
      flushOut();
    } catch (IOException e) {
      // the front end is gone: nothing more to do with this output
    }
  }

  synchronized void flushOut() throws IOException {
    if (outLen > 0) {
      int n = outLen;
      outLen = 0;
      send(Frames.STDOUT, outBuf, 0, n);
    }
  }

  /** Sends a frame; a front end that went away makes the stream fail, as a closed pipe would. */
  synchronized void send(byte type, byte[] data, int off, int len) throws IOException {
    if (closed) {
      throw new IOException("Broken pipe");
    }
    try {
      Frames.write(socket, type, data, off, len);
    } catch (IOException e) {
      closed = true;
      throw e;
    }
  }

  /** Stdin bytes the front end sent (empty: end of input). */
  void stdinArrived(byte[] data) {
    stdinData.add(data);
  }

  /** The front end went away: a command reading stdin sees its end, output is dropped. */
  synchronized void frontEndGone() {
    closed = true;
    stdinData.add(EOF);
  }

  /** Flushes stdout and sends the exit status; the call is over. */
  synchronized void exit(int status) {
    try {
      flushOut();
      send(Frames.EXIT, Frames.int32(status), 0, 4);
    } catch (IOException e) {
      // gone already: nobody waits for the status
    }
    closed = true;
  }

  /** Tells the front end to die of a signal the command does not catch; output stops here. */
  synchronized void die(int signal) {
    try {
      flushOut();
      send(Frames.DIE, new byte[] {(byte) signal}, 0, 1);
    } catch (IOException e) {
      // gone already
    }
    closed = true;
    stdinData.add(EOF);
  }
}
