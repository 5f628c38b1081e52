package org.corral.ctld.runtime;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.function.Predicate;
import org.corral.common.Hostlist;
import org.corral.common.SlurmError;
import org.corral.ctld.state.ClusterState;
import org.corral.ctld.triggers.TriggerTable;
import org.corral.protocol.Peer;
import org.corral.protocol.UserDirectory;
import org.corral.protocol.msg.JobRecord;
import org.corral.protocol.msg.JobState;
import org.corral.protocol.msg.TriggerClear;
import org.corral.protocol.msg.TriggerInfo;
import org.corral.protocol.msg.TriggerReply;
import org.corral.protocol.msg.TriggerRequest;

/**
 * strigger's requests, with Slurm 22.05's rules: only root and SlurmUser set triggers (the
 * program then runs as the one who set it), anyone lists them, only root, SlurmUser or a
 * trigger's creator clears it. A job trigger needs a job that has not ended, a node trigger
 * nodes that exist, with Slurm's errors.
 */
final class TriggerRequests {
  private final TriggerTable table;
  private final Authorizer auth;
  private final UserDirectory users;

  TriggerRequests(TriggerTable table, Authorizer auth, UserDirectory users) {
    this.table = table;
    this.auth = auth;
    this.users = users;
  }

  TriggerReply answer(Peer peer, TriggerRequest req, ClusterState s) {
    try {
      return switch (req.getOpCase()) {
        case SET -> {
          set(peer, req.getSet(), s);
          yield TriggerReply.getDefaultInstance();
        }
        case CLEAR -> {
          clear(peer, req.getClear());
          yield TriggerReply.getDefaultInstance();
        }
        default -> TriggerReply.newBuilder().addAllTriggers(table.all()).build();
      };
    } catch (IOException e) {
      throw new UncheckedIOException("trigger_state: " + e.getMessage(), e);
    }
  }

  private void set(Peer peer, TriggerInfo t, ClusterState s) throws IOException {
    if (!auth.isRootOrSlurmUser(peer)) {
      throw new SlurmException(SlurmError.ACCESS_DENIED);
    }
    if (t.getResType().equals("job")) {
      JobRecord job;
      try {
        job = s.job(Integer.parseUnsignedInt(t.getResId())).orElse(null);
      } catch (NumberFormatException e) {
        job = null;
      }
      JobState state = job == null ? null : job.getInfo().getState();
      if (state == null || state != JobState.PENDING && state != JobState.RUNNING && state != JobState.SUSPENDED) {
        throw new SlurmException(SlurmError.INVALID_JOB_ID);
      }
    } else if (t.getResType().equals("node") && !t.getResId().equals("*")) {
      List<String> names;
      try {
        names = Hostlist.expand(t.getResId());
      } catch (IllegalArgumentException e) {
        throw new SlurmException(SlurmError.INVALID_NODE_NAME);
      }
      if (names.stream().anyMatch(n -> s.node(n).isEmpty())) {
        throw new SlurmException(SlurmError.INVALID_NODE_NAME);
      }
    }
    int uid = peer.uid();
    table.add(t.toBuilder().setUserId(uid).setGroupId(peer.gid())
        .setUserName(users.userName(uid).orElse(Integer.toUnsignedString(uid))).build());
  }

  private void clear(Peer peer, TriggerClear c) throws IOException {
    Predicate<TriggerInfo> which;
    if (c.getId() != 0) {
      which = t -> t.getId() == c.getId();
    } else if (c.getJobId() != 0) {
      String job = Integer.toUnsignedString(c.getJobId());
      which = t -> t.getResType().equals("job") && t.getResId().equals(job);
    } else if (c.getByUser()) {
      which = t -> t.getUserId() == c.getUserId();
    } else {
      throw new SlurmException(SlurmError.INVALID_MESSAGE, "nothing to clear");
    }
    boolean mayAll = auth.isRootOrSlurmUser(peer);
    boolean[] denied = {false};
    List<TriggerInfo> removed = table.removeIf(t -> {
      if (!which.test(t)) {
        return false;
      }
      if (!mayAll && t.getUserId() != peer.uid()) {
        denied[0] = true;
        return false;
      }
      return true;
    });
    if (removed.isEmpty()) {
      throw new SlurmException(denied[0] ? SlurmError.ACCESS_DENIED : SlurmError.NO_SUCH_PROCESS);
    }
  }
}
