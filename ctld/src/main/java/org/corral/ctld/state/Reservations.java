package org.corral.ctld.state;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.corral.protocol.msg.ReservationInfo;

/**
 * The advance reservations, in creation order (how Slurm lists them), and how many were ever
 * created: Slurm names an unnamed reservation USER_N with N that count plus one. Reservations are
 * few, so each change copies the list.
 */
public record Reservations(List<ReservationInfo> all, int created) {
  public static final Reservations EMPTY = new Reservations(List.of(), 0);

  public Reservations {
    all = List.copyOf(all);
  }

  public Optional<ReservationInfo> named(String name) {
    return all.stream().filter(r -> r.getName().equals(name)).findFirst();
  }

  /** A new reservation, counted. */
  Reservations plus(ReservationInfo r) {
    List<ReservationInfo> out = new ArrayList<>(all);
    out.removeIf(x -> x.getName().equals(r.getName()));
    out.add(r);
    return new Reservations(out, created + 1);
  }

  /** The reservation of that name replaced, keeping its place. */
  Reservations replaced(ReservationInfo r) {
    List<ReservationInfo> out = new ArrayList<>(all);
    out.replaceAll(x -> x.getName().equals(r.getName()) ? r : x);
    return new Reservations(out, created);
  }

  Reservations minus(String name) {
    List<ReservationInfo> out = new ArrayList<>(all);
    out.removeIf(x -> x.getName().equals(name));
    return new Reservations(out, created);
  }
}
