package org.corral.ctld.sched.priority;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.corral.ctld.sched.limits.AssocTree;
import org.corral.ctld.state.ClusterState;
import org.corral.protocol.msg.AcctAssoc;
import org.corral.protocol.msg.JobInfo;
import org.corral.protocol.msg.JobRecord;
import org.corral.protocol.msg.JobState;
import org.corral.protocol.msg.ShareRow;

/**
 * Fairshare over the association tree, as Slurm 22.05's priority/multifactor computes it and
 * sshare shows it. Usage (decayed CPU-seconds) is kept per user association and summed up the
 * tree.
 *
 * <p>Fair Tree (the default): NormShares is an association's shares over its siblings' (users
 * and sub-accounts alike), EffectvUsage its usage over its parent's, LevelFS = NormShares /
 * EffectvUsage (infinite without usage). Siblings are ranked by LevelFS, highest first, users
 * before accounts on a tie, depth first; the k-th user association from the bottom of that order
 * gets k/N (N user associations). Ties: sibling users with equal LevelFS share a rank, tied
 * sibling accounts have their children merged, and a tie carries into an account's first child.
 *
 * <p>Classic (PriorityFlags=NO_FAIR_TREE): NormShares is the product of the shares fractions
 * from root down, EffectvUsage = NormUsage + (parent's EffectvUsage - NormUsage) ×
 * shares/siblings' shares (just NormUsage under root), and the factor 2^(-EffectvUsage/NormShares).
 *
 * <p>Immutable once built; built by the scheduler thread and read by RPC threads.
 */
public final class ShareTree {
  /** The TRES sshare's TRES columns name, in Slurm's order. */
  static final List<String> TRES = List.of("cpu", "mem", "energy", "node", "billing", "fs/disk", "vmem", "pages");

  public static final ShareTree EMPTY = new ShareTree(null, true, Map.of(), AssocTree.NONE, "");

  private static final class Node {
    final AcctAssoc a;
    final boolean user;
    final List<Node> children = new ArrayList<>();
    Node parent;
    long shares;
    double sharesNorm;
    double usage;
    double usageNorm;
    double efctv;
    double levelFs;
    double factor;
    final long[] runSecs = new long[TRES.size()];

    Node(AcctAssoc a) {
      this.a = a;
      this.user = !a.getUser().isEmpty();
      this.shares = a.getLimits().hasShares() ? Integer.toUnsignedLong(a.getLimits().getShares()) : 1;
    }

    String name() {
      return user ? a.getUser() : a.getAccount();
    }
  }

  private final Node root;
  private final boolean fairTree;
  private final Map<AcctAssoc, Node> byAssoc;
  private final AssocTree tree;
  private final List<ShareRow> rows;
  private final String cluster;

  private ShareTree(Node root, boolean fairTree, Map<AcctAssoc, Node> byAssoc, AssocTree tree, String cluster) {
    this.root = root;
    this.fairTree = fairTree;
    this.byAssoc = byAssoc;
    this.tree = tree;
    this.cluster = cluster;
    this.rows = root == null ? List.of() : List.copyOf(rows(root));
  }

  /**
   * The shares of {@code tree}'s associations under {@code usage} (what jobs ran under), with
   * the TRES-minutes the running jobs of {@code s} still hold at {@code now}.
   */
  public static ShareTree build(AssocTree tree, Map<UsageTracker.JobAssoc, Double> usage, boolean fairTree,
      ClusterState s, long now) {
    if (tree.isEmpty()) {
      return EMPTY;
    }
    Map<AcctAssoc, Node> byAssoc = new IdentityHashMap<>();
    Map<String, Node> accounts = new HashMap<>();
    for (AcctAssoc a : tree.snapshot().getAssocsList()) {
      // the tree keeps this cluster's associations only: those it gives back for their own key
      if (tree.assoc(a.getUser(), a.getAccount(), a.getPartition()).orElse(null) != a) {
        continue;
      }
      Node n = new Node(a);
      byAssoc.put(a, n);
      if (!n.user) {
        accounts.put(a.getAccount(), n);
      }
    }
    Node root = null;
    for (Node n : byAssoc.values()) {
      Node parent = n.user ? accounts.get(n.a.getAccount()) : accounts.get(n.a.getParentAccount());
      if (!n.user && n.a.getParentAccount().isEmpty()) {
        if (root == null || n.a.getAccount().equals("root")) {
          root = n;
        }
      } else if (parent != null) {
        n.parent = parent;
        parent.children.add(n);
      }
    }
    if (root == null) {
      return EMPTY;
    }
    Map<AcctAssoc, Node> reachable = new IdentityHashMap<>();
    sortAndCollect(root, reachable);
    for (Map.Entry<UsageTracker.JobAssoc, Double> e : usage.entrySet()) {
      Node n = userNode(tree, reachable, e.getKey().account(), e.getKey().user(), e.getKey().partition());
      if (n != null) {
        n.usage += e.getValue();
      }
    }
    for (JobRecord r : s.jobs().values()) {
      JobInfo j = r.getInfo();
      if (j.getState() == JobState.RUNNING) {
        Node n = userNode(tree, reachable, j.getAccount(), j.getUserName(), j.getPartition());
        if (n != null) {
          addRunning(n, j, now);
        }
      }
    }
    sumUsage(root);
    return new ShareTree(root, fairTree, reachable, tree, root.a.getCluster());
  }

  // Users first, then accounts, each by name (then partition): Slurm's hierarchical order.
  private static final Comparator<Node> ORDER = Comparator.<Node, Boolean>comparing(n -> !n.user)
      .thenComparing(Node::name).thenComparing(n -> n.a.getPartition());

  private static void sortAndCollect(Node n, Map<AcctAssoc, Node> out) {
    if (out.put(n.a, n) != null) {
      return;
    }
    n.children.sort(ORDER);
    for (Node c : n.children) {
      sortAndCollect(c, out);
    }
  }

  /** The user association a job's usage goes to: its account's, else the user's default account's. */
  private static Node userNode(AssocTree tree, Map<AcctAssoc, Node> nodes, String account, String user,
      String partition) {
    Optional<AcctAssoc> a = account.isEmpty() ? Optional.empty() : tree.assoc(user, account, partition);
    if (a.isEmpty()) {
      String def = tree.user(user).map(u -> u.getDefaultAccount()).orElse("");
      a = def.isEmpty() ? Optional.empty() : tree.assoc(user, def, partition);
    }
    return a.map(nodes::get).orElse(null);
  }

  private static void addRunning(Node n, JobInfo j, long now) {
    long limit = Integer.toUnsignedLong(j.getTimeLimitMin());
    if (limit == 0xFFFFFFFFL || j.getStartTime() <= 0) {
      return;
    }
    long left = Math.max(0, j.getStartTime() + limit * 60 - now);
    long cpus = j.getNumCpus();
    long nodes = Math.max(1, j.getNumNodes());
    long mem = j.getMemPerNodeMb() > 0 ? j.getMemPerNodeMb() * nodes : j.getMemPerCpuMb() * cpus;
    for (Node x = n; x != null; x = x.parent) {
      x.runSecs[0] += cpus * left;
      x.runSecs[1] += mem * left;
      x.runSecs[3] += nodes * left;
      x.runSecs[4] += cpus * left;
    }
  }

  private static double sumUsage(Node n) {
    for (Node c : n.children) {
      n.usage += sumUsage(c);
    }
    return n.usage;
  }

  private List<ShareRow> rows(Node r) {
    compute(r);
    List<ShareRow> out = new ArrayList<>();
    emit(r, out);
    return out;
  }

  private void compute(Node r) {
    r.sharesNorm = fairTree ? 0 : 1.0;
    r.efctv = 1.0;
    r.usageNorm = Double.NaN;
    r.levelFs = fairTree ? Double.NaN : 0;
    r.factor = fairTree ? Double.NaN : classicFactor(r);
    computeChildren(r, r.usage);
    if (fairTree) {
      int users = (int) byAssoc.values().stream().filter(n -> n.user).count();
      int[] rank = {users};
      int[] rnt = {users};
      rankFairTree(new ArrayList<>(r.children), users, rank, rnt, false);
    }
  }

  private void computeChildren(Node p, double rootUsage) {
    long level = p.children.stream().mapToLong(c -> c.shares).sum();
    for (Node c : p.children) {
      double fraction = level == 0 ? 0 : c.shares / (double) level;
      c.usageNorm = rootUsage == 0 ? 0 : c.usage / rootUsage;
      if (fairTree) {
        c.sharesNorm = fraction;
        c.efctv = p.usage == 0 ? 0 : c.usage / p.usage;
        c.levelFs = c.sharesNorm == 0 ? 0 : c.sharesNorm / c.efctv; // no usage: infinity
      } else {
        c.sharesNorm = p.sharesNorm * fraction;
        c.efctv = p == root || level == 0 ? c.usageNorm
            : c.usageNorm + (p.efctv - c.usageNorm) * fraction;
        c.levelFs = 0;
        c.factor = classicFactor(c);
      }
      computeChildren(c, rootUsage);
    }
  }

  private static double classicFactor(Node n) {
    return n.sharesNorm <= 0 ? 0 : Math.pow(2, -n.efctv / n.sharesNorm);
  }

  // Slurm's _calc_tree_fs: rank and rnt (rank, no ties) count down from the number of users.
  private static void rankFairTree(List<Node> siblings, int users, int[] rank, int[] rnt, boolean accountTied) {
    siblings.sort(Comparator.<Node>comparingDouble(n -> n.levelFs).reversed()
        .thenComparing(n -> !n.user));
    double prev = Double.NaN;
    for (int i = 0; i < siblings.size(); i++) {
      Node n = siblings.get(i);
      boolean tied = i == 0 && accountTied || n.levelFs == prev;
      if (n.user) {
        if (!tied) {
          rank[0] = rnt[0];
        }
        n.factor = rank[0] / (double) users;
        rnt[0]--;
      } else {
        List<Node> merged = new ArrayList<>(n.children);
        while (i + 1 < siblings.size() && !siblings.get(i + 1).user
            && siblings.get(i + 1).levelFs == n.levelFs) {
          merged.addAll(siblings.get(++i).children); // tied accounts: their children ranked together
        }
        rankFairTree(merged, users, rank, rnt, tied);
      }
      prev = n.levelFs;
    }
  }

  private void emit(Node n, List<ShareRow> out) {
    ShareRow.Builder b = ShareRow.newBuilder().setAssocId(n.a.getId()).setCluster(n.a.getCluster())
        .setAccount(n.a.getAccount()).setUser(n.a.getUser()).setPartition(n.a.getPartition())
        .setParent(n.user ? n.a.getAccount() : n.a.getParentAccount())
        .setNormShares(n.sharesNorm).setRawUsage(n.usage).setEffectiveUsage(n.efctv)
        .setTresRunMins(tres(n.runSecs));
    if (n != root) {
      b.setRawShares((int) n.shares);
    }
    if (!Double.isNaN(n.usageNorm)) {
      b.setNormUsage(n.usageNorm);
    }
    if (!Double.isNaN(n.levelFs)) {
      b.setLevelFs(n.levelFs);
    }
    if (fairTree ? n.user : !Double.isNaN(n.factor)) {
      b.setFairshare(n.factor);
    }
    out.add(b.build());
    for (Node c : n.children) {
      emit(c, out);
    }
  }

  private static String tres(long[] secs) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < TRES.size(); i++) {
      sb.append(i == 0 ? "" : ",").append(TRES.get(i)).append('=').append(secs[i] / 60);
    }
    return sb.toString();
  }

  /** sshare's rows: every association from root, depth first, users before sub-accounts. */
  public List<ShareRow> rows() {
    return rows;
  }

  public boolean fairTree() {
    return fairTree;
  }

  /** The cluster the associations belong to ("" when there are none). */
  public String cluster() {
    return cluster;
  }

  public boolean isEmpty() {
    return root == null;
  }

  /**
   * The fairshare factor of the job's user association (its account's, else the user's default
   * account's); 0 when it has none.
   */
  public double factor(JobInfo j) {
    Node n = userNode(tree, byAssoc, j.getAccount(), j.getUserName(), j.getPartition());
    return n == null || Double.isNaN(n.factor) ? 0 : n.factor;
  }
}
