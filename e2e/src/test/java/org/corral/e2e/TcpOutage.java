package org.corral.e2e;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A TCP forwarder on a fixed local port that a test can cut (every connection closed, the port
 * refusing) and restore: a database server going away and coming back, without touching the
 * real server other tests share.
 */
final class TcpOutage implements AutoCloseable {
  private final int port;
  private final String targetHost;
  private final int targetPort;
  private final List<Socket> open = new CopyOnWriteArrayList<>();
  private volatile ServerSocket server;

  TcpOutage(int port, String targetHost, int targetPort) throws IOException {
    this.port = port;
    this.targetHost = targetHost;
    this.targetPort = targetPort;
    restore();
  }

  synchronized void restore() throws IOException {
    if (server != null) {
      return;
    }
    ServerSocket s = new ServerSocket();
    s.setReuseAddress(true);
    s.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
    server = s;
    Thread.ofVirtual().start(() -> accept(s));
  }

  synchronized void cut() throws IOException {
    if (server != null) {
      server.close();
      server = null;
    }
    for (Socket c : open) {
      c.close();
    }
    open.clear();
  }

  private void accept(ServerSocket s) {
    while (!s.isClosed()) {
      try {
        Socket client = s.accept();
        Socket upstream = new Socket(targetHost, targetPort);
        open.add(client);
        open.add(upstream);
        Thread.ofVirtual().start(() -> pump(client, upstream));
        Thread.ofVirtual().start(() -> pump(upstream, client));
      } catch (IOException e) {
        // closed by cut(), or the target refused: the client sees its connection fail
      }
    }
  }

  private static void pump(Socket from, Socket to) {
    try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
      in.transferTo(out);
    } catch (IOException e) {
      // one side closed
    } finally {
      try {
        from.close();
        to.close();
      } catch (IOException ignored) {
        // already closed
      }
    }
  }

  @Override
  public void close() throws IOException {
    cut();
  }
}
