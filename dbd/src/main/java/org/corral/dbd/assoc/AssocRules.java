package org.corral.dbd.assoc;

import java.util.Set;
import java.util.TreeSet;
import org.corral.common.SlurmError;
import org.corral.protocol.msg.AcctAssoc;
import org.corral.protocol.msg.AcctChange;
import org.corral.protocol.msg.AcctUser;

/**
 * Who may change what, after Slurm: root, SlurmUser and Administrators everything; Operators
 * everything but clusters, QOS and granting or taking Administrator; coordinators the users,
 * sub-accounts and limits under the accounts they coordinate, never an AdminLevel; other users
 * nothing (they may only look).
 */
final class AssocRules {
  static final int NONE = 1;
  static final int OPERATOR = 2;
  static final int ADMINISTRATOR = 3;

  /** The caller: its name, AdminLevel and the accounts it coordinates with their sub-accounts. */
  record Actor(String name, int level, Set<String> coordinated) {
    static Actor superUser(String name) {
      return new Actor(name, ADMINISTRATOR, Set.of());
    }

    static Actor of(String name, AssocModel m) {
      AcctUser u = m.users.get(name);
      TreeSet<String> under = new TreeSet<>();
      for (AssocModel.Coord c : m.coords) {
        if (c.user().equals(name)) {
          under.addAll(m.subtree(c.account()));
        }
      }
      return new Actor(name, u == null ? NONE : u.getAdminLevel(), under);
    }
  }

  private AssocRules() {}

  /** Refuses {@code ch} when {@code who} may not make it to {@code m} (the state before it). */
  static void check(Actor who, AssocModel m, AcctChange ch) throws AcctException {
    if (who.level() >= ADMINISTRATOR) {
      return;
    }
    String why = refusal(who, m, ch);
    if (why != null) {
      throw new AcctException(SlurmError.ACCESS_DENIED, why);
    }
  }

  private static String refusal(Actor who, AssocModel m, AcctChange ch) {
    boolean operator = who.level() >= OPERATOR;
    Set<String> under = who.coordinated();
    return switch (ch.getChangeCase()) {
      case ADD_CLUSTER, DELETE_CLUSTER -> "only administrators manage clusters";
      case PUT_QOS, DELETE_QOS -> "only administrators manage QOS";
      case PUT_USER -> {
        AcctUser u = ch.getPutUser();
        AcctUser old = m.users.get(u.getName());
        int oldLevel = old == null ? NONE : old.getAdminLevel();
        if (operator) {
          yield u.getAdminLevel() >= ADMINISTRATOR || oldLevel >= ADMINISTRATOR
              ? "only administrators grant or take AdminLevel=Administrator" : null;
        }
        if (u.getAdminLevel() != oldLevel) {
          yield "coordinators cannot change AdminLevel";
        }
        if (under.isEmpty()) {
          yield "not an operator or coordinator";
        }
        yield old == null || m.assocs.values().stream().anyMatch(a -> a.getUser().equals(u.getName())
            && under.contains(a.getAccount())) ? null : "user " + u.getName() + " is not in an account you coordinate";
      }
      case PUT_ACCOUNT -> operator || (!under.isEmpty() && (!m.accounts.containsKey(ch.getPutAccount().getName())
          || under.contains(ch.getPutAccount().getName()))) ? null : "not a coordinator of account "
          + ch.getPutAccount().getName();
      case PUT_ASSOC -> {
        AcctAssoc a = ch.getPutAssoc();
        boolean exists = m.assocs.containsKey(AssocModel.Key.of(a));
        String governing = a.getUser().isEmpty() && !exists ? a.getParentAccount() : a.getAccount();
        yield operator || under.contains(governing) ? null : "not a coordinator of account " + governing;
      }
      case DELETE_ASSOC -> {
        AcctAssoc a = ch.getDeleteAssoc();
        yield operator || under.contains(a.getAccount()) ? null : "not a coordinator of account " + a.getAccount();
      }
      case DELETE_ACCOUNT -> operator ? null : "only operators remove accounts";
      case DELETE_USER -> operator ? null : "only operators remove users";
      // a user's wckeys are the user's settings: operators, or coordinators of an account the user is in
      case PUT_WCKEY, DELETE_WCKEY -> {
        String u = ch.hasPutWckey() ? ch.getPutWckey().getUser() : ch.getDeleteWckey().getUser();
        yield operator || m.assocs.values().stream().anyMatch(a -> a.getUser().equals(u)
            && under.contains(a.getAccount())) ? null : "user " + u + " is not in an account you coordinate";
      }
      case ADD_COORD -> operator || under.contains(ch.getAddCoord().getAccount()) ? null
          : "not a coordinator of account " + ch.getAddCoord().getAccount();
      case DELETE_COORD -> operator || under.contains(ch.getDeleteCoord().getAccount()) ? null
          : "not a coordinator of account " + ch.getDeleteCoord().getAccount();
      case CHANGE_NOT_SET -> "empty change";
    };
  }
}
