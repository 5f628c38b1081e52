package org.corral.protocol.http;

/**
 * Answers the HTTP GET and HEAD requests that reach a daemon's RPC port (Slurm 25.11 serves its
 * metrics on slurmctld's port the same way). Called on the connection's own virtual thread; it
 * must read only published, immutable state.
 */
@FunctionalInterface
public interface HttpHandler {
  HttpResponse handle(HttpRequest request);
}
